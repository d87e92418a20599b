"""rumi.torch at scale (issue 40, items 2 and 3).

Covered here: the columnar chip index, in memory or mapped from a folder; DataLoader workers
share it without planning again; sharded datasets whose ranks plan only their own shards; the
same global order at 1, 2 and 4 ranks; exact resume at another world size (in one process, and
under torchrun with gloo); the streams' block order."""

from __future__ import annotations

import gc
import json
import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")

import rumi  # noqa: E402
import rumi.torch as rt  # noqa: E402
from rumi.catalog import write_parts  # noqa: E402
from rumi.torch import columns as cols_mod  # noqa: E402
from rumi.torch import index as index_mod  # noqa: E402
from rumi.torch.streams import Streams, positions  # noqa: E402

N_FILES = 16
WINDOW = ("2021-01-01", "2021-12-31")


@pytest.fixture(scope="module")
def coll(tmp_path_factory):
    """16 files of 96 x 96 pixels (tiles of 32, 3 steps, 2 bands) on a 4 x 4 grid, one
    single-file catalogue and one partitioned catalogue with row groups of 2 rows (8 shards)."""
    from affine import Affine

    d = tmp_path_factory.mktemp("scale")
    rng = np.random.default_rng(0)
    paths, arrays = [], {}
    for k in range(N_FILES):
        p = d / f"f{k:03d}.rumi"
        a = rng.integers(0, 1000, (3, 2, 96, 96), dtype=np.uint16)
        rumi.write(p, a, bands=["red", "nir"], times=[f"2021-0{m + 1}-0{1 + k % 5}" for m in range(3)], crs="EPSG:32633",
                   transform=Affine(10, 0, 500000 + 1000 * (k % 4), 0, -10, 5100000 - 1000 * (k // 4)), tile=32)
        paths.append(str(p))
        arrays[f"f{k:03d}"] = a
    cat = rumi.Catalog.build(paths, d / "cat.parquet")
    write_parts(cat.table, str(d / "parts"), rows_per_group=2)
    return {"dir": d, "arrays": arrays, "single": str(d / "cat.parquet"), "parts": str(d / "parts") + "/"}


def _deferred(coll):
    cat = rumi.Catalog.open(coll["parts"])
    return cat, cat.search(time=WINDOW, defer=True)


def _chip_sum(arrays, fid, r0, c0, size=32):
    return int(arrays[fid][:, :, r0:r0 + size, c0:c0 + size].astype(np.int64).sum())


def _named(ds, keys):
    return [(ds.index.ids[j], int(r), int(c)) for j, r, c in keys]


def test_partitioned_and_single_file_catalogues_plan_the_same_files(coll):
    single = rt.ChipDataset(coll["single"], size=32, time=WINDOW)
    cat, sel = _deferred(coll)
    parts = rt.ChipDataset(sel, size=32)
    assert sel._table is None, "the deferred selection's rows were read whole"
    assert (single.num_files, parts.num_files) == (N_FILES, N_FILES)
    assert cat.groups_read == 8  # each row group once
    a = {single.index.ids[j]: j for j in range(N_FILES)}
    for j in range(N_FILES):
        i = a[parts.index.ids[j]]
        for name in ("time_idx", "band_idx", "codes", "transforms", "nodata", "hrefs"):
            assert getattr(parts.index, name)[j] == getattr(single.index, name)[i], name
        assert parts.index.shapes[j].tolist() == single.index.shapes[i].tolist()
        np.testing.assert_array_equal(parts.index.file_times[j], single.index.file_times[i])
    keys = [(j, 32 * (j % 3), 16 * (j % 5)) for j in range(N_FILES)]
    b = parts.__getitems__(keys)  # files opened from blobs beside the parts: one range each
    for k, (j, r0, c0) in enumerate(keys):
        fid = parts.index.ids[j]
        np.testing.assert_array_equal(b["image"][k].numpy(), coll["arrays"][fid][:, :, r0:r0 + 32, c0:c0 + 32])
    # the file's global id: its shard and its row there, the same in every process
    assert [int(v) >> 32 for v in parts.index.fid] == parts.index.shard.tolist()
    assert sorted(set(parts.index.shard.tolist())) == list(range(8))


def test_spilled_index_equals_the_one_in_memory(coll, monkeypatch):
    mem = rt.ChipDataset(coll["single"], size=32, time=WINDOW)
    monkeypatch.setattr(cols_mod, "SPILL_BYTES", 1)
    spilled = rt.ChipDataset(coll["single"], size=32, time=WINDOW)
    assert isinstance(spilled.index.cols["rows"], np.memmap) and not isinstance(mem.index.cols["rows"], np.memmap)
    assert set(spilled.index.cols) == set(mem.index.cols)
    for name, v in mem.index.cols.items():
        np.testing.assert_array_equal(np.asarray(spilled.index.cols[name]), v, err_msg=name)
    keys = list(rt.RandomChipSampler(mem, length=8, seed=2))
    assert keys == list(rt.RandomChipSampler(spilled, length=8, seed=2))
    np.testing.assert_array_equal(mem.__getitems__(keys)["image"].numpy(), spilled.__getitems__(keys)["image"].numpy())


_CHILD = r"""
import pickle, sys, numpy as np
import rumi.torch.index as ix
ds = pickle.load(open(sys.argv[1], "rb"))
b = ds.__getitems__([(3, 32, 0), (0, 0, 64)])
print(ix.planned, type(ds.index.cols["rows"]).__name__, ds.num_files, int(b["image"].long().sum()),
      "_catalog" in ds.__dict__)
"""


def test_index_pickles_as_its_folder_and_is_not_planned_again(coll, tmp_path):
    """A pickled dataset carries the index's folder, not its rows: a fresh process maps the
    columns (planned nothing, read no catalogue row) and reads the same pixels; the folder goes
    with the index that wrote it; a pickle whose folder is gone plans again, with a warning."""
    _, sel = _deferred(coll)
    ds = rt.ChipDataset(sel, size=32)
    data = pickle.dumps(ds)
    assert len(data) < 4000, len(data)
    folder = ds.index.share()[0]
    assert os.path.isdir(folder) and isinstance(ds.index.cols["rows"], np.memmap)
    (tmp_path / "ds.pkl").write_bytes(data)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path / "ds.pkl")], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    want = sum(_chip_sum(coll["arrays"], ds.index.ids[j], r0, c0) for j, r0, c0 in [(3, 32, 0), (0, 0, 64)])
    assert r.stdout.split() == ["0", "memmap", str(N_FILES), str(want), "False"]
    del ds
    gc.collect()
    assert not os.path.exists(folder)
    with pytest.warns(RuntimeWarning, match="are gone .* planning it again"):
        again = pickle.loads(data)
    assert again.num_files == N_FILES


def _worker_check(_):
    info = torch.utils.data.get_worker_info()
    assert index_mod.planned == 0, "a DataLoader worker planned the index again"
    assert isinstance(info.dataset.index.cols["rows"], np.memmap)


def test_spawned_workers_map_the_index(coll):
    _, sel = _deferred(coll)
    ds = rt.ChipDataset(sel, size=32)
    keys = list(rt.RandomChipSampler(ds, length=12, seed=4))
    loader = torch.utils.data.DataLoader(ds, batch_size=4, sampler=keys, num_workers=2, multiprocessing_context="spawn",
                                         worker_init_fn=_worker_check, collate_fn=rt.collate)
    got = [k for b in loader for k in b["key"]]
    assert got == keys


def _one_rank(coll, rank, world, streams=4):
    cat, sel = _deferred(coll)
    ds = rt.ChipDataset(sel, size=32, bands=["red", "nir"], streams=streams, rank=rank, world_size=world)
    return cat, ds


@pytest.mark.parametrize("kind", ["random", "grid", "tile"])
def test_sharded_ranks_plan_their_shards_and_keep_the_global_order(coll, kind):
    def make(ds, length=None):
        if kind == "random":
            return rt.RandomChipSampler(ds, length=48, seed=5, block=2)
        if kind == "grid":
            return rt.GridChipSampler(ds, stride=24, shuffle=True, seed=5, block=2, length=length)
        return rt.TileChipSampler(ds, shuffle=True, seed=5, block=2, length=length)

    _, one = _one_rank(coll, 0, 1)
    ref = make(one)
    whole = _named(one, list(ref))
    n = ref.epoch_length()
    assert len(whole) == n and (kind != "random" or n == 48)
    for world in (2, 4):
        parts = []
        seen_files: set[str] = set()
        for r in range(world):
            cat, ds = _one_rank(coll, r, world)
            mine = Streams(4, 8).shards_of(r, world).tolist()
            assert sorted(set(ds.index.shard.tolist())) == mine
            assert cat.groups_read == len(mine)  # only its own row groups were read
            keys = _named(ds, list(make(ds, length=n)))
            files = {k[0] for k in keys}
            assert not files & seen_files  # no file is read by two ranks
            seen_files |= files
            parts.append(keys)
        assert len({len(p) for p in parts}) == 1
        inter = [p[k] for k in range(len(parts[0])) for p in parts]
        assert inter == whole[:len(inter)] and len(inter) == n // world * world, world
    for fid, r0, c0 in whole:
        assert fid in coll["arrays"] and 0 <= r0 <= 64 and 0 <= c0 <= 64


def test_streams_read_blocks_of_files_in_turn(coll):
    """A stream's keys come a block of files at a time (every block's keys together, in a
    random order), the streams interleaved; a full permutation mixes every file."""
    _, ds = _one_rank(coll, 0, 1)
    s = rt.GridChipSampler(ds, stride=16, shuffle=True, seed=1, block=2)
    keys = np.array(list(s))
    C = s.streams.count
    assert C == 4 and len(keys) == s.epoch_length()
    shard = ds.index.shard
    orders = []
    for c in range(C):
        ks = keys[c::C]
        assert set((shard[ks[:, 0]] % C).tolist()) == {c}
        blocks = [int(np.flatnonzero(s.files_of(c) == j)[0]) // 2 for j in ks[:, 0]]
        runs = [b for k, b in enumerate(blocks) if k == 0 or b != blocks[k - 1]]
        assert len(runs) == len(set(runs)) == 2, "a block's keys are not together"
        orders.append(runs)
        files = [int(j) for j in ks[:, 0]]
        assert files != sorted(files)  # the keys of a block are shuffled
    assert [0, 1] in orders and [1, 0] in orders  # blocks in a random order
    full = np.array(list(rt.GridChipSampler(ds, stride=16, shuffle=True, seed=1)))
    assert sorted(map(tuple, full.tolist())) == sorted(map(tuple, keys.tolist()))


def test_resume_at_another_world_size_takes_every_key_once(coll):
    """Ranks of 4 take 5 keys each and save; 2 ranks resume from that state (and 3 ranks from a
    state saved by 2): the keys taken before and after are the epoch's, each once, in order."""
    _, one = _one_rank(coll, 0, 1)
    whole = _named(one, list(rt.RandomChipSampler(one, length=48, seed=7)))
    taken, states = [], []
    for r in range(4):
        _, ds = _one_rank(coll, r, 4)
        s = rt.RandomChipSampler(ds, length=48, seed=7)
        it = iter(s)
        taken.append(_named(ds, [next(it) for _ in range(5)]))
        states.append(s.state_dict())
    assert {json.dumps(st, sort_keys=True) for st in [dict(x, rank=0) for x in states]} == {json.dumps(dict(states[0], rank=0), sort_keys=True)}
    assert [p[k] for k in range(5) for p in taken] == whole[:20]
    rest = []
    for r in range(3):  # 20 is not a multiple of 3: the state carries the global offset
        _, ds = _one_rank(coll, r, 3, streams=4)
        s = rt.RandomChipSampler(ds, length=48, seed=0)
        s.load_state_dict(states[0])
        it = iter(s)
        rest.append(_named(ds, [next(it) for _ in range(3)]))
        st3 = s.state_dict()
        assert st3["offset"] == 20 and st3["yielded"] == 3
    got = [None] * 9
    for r in range(3):  # rank r took positions p = r (mod 3) from 20 on
        for k, key in enumerate(rest[r]):
            got[(r - 20) % 3 + 3 * k] = key
    assert got == whole[20:29]
    # the 3-rank state (29 keys taken) resumes 2 ranks at position 29
    _, ds = _one_rank(coll, 1, 2)
    s = rt.RandomChipSampler(ds, length=48, seed=0)
    s.load_state_dict(st3)
    keys = _named(ds, list(s))
    assert keys == [whole[p] for p in positions(48, 29, 1, 2)] and len(keys) == 9
    assert len(s) == 24  # an epoch's share, as before


def test_stream_arguments_are_checked(coll):
    with pytest.raises(ValueError, match="streams must be an integer >= 1"):
        rt.ChipDataset(coll["single"], size=32, streams=0)
    with pytest.raises(ValueError, match="rank and world_size place a sharded dataset"):
        rt.ChipDataset(coll["single"], size=32, rank=0, world_size=2)
    _, ds = _one_rank(coll, 1, 2)
    with pytest.raises(ValueError, match="planned for rank 1 of 2"):
        rt.RandomChipSampler(ds, length=8, rank=0, world_size=2)
    with pytest.raises(ValueError, match="planned with streams=4, not 2"):
        rt.RandomChipSampler(ds, length=8, streams=2)
    with pytest.raises(ValueError, match="reads 2 of the 4 streams and torch.distributed is not initialised: give length="):
        len(rt.GridChipSampler(ds))
    cat = rumi.Catalog.open(coll["parts"])  # 3 of the 16 files have a step on 2021-01-05: some shards plan none
    with pytest.raises(rumi.RequestError, match=r"streams=8: some of the 8 streams have no file with a chip \(stream c is "
                                                r"shards c, c \+ 8, \.\.\. of the selection's 8; on this rank, streams \[\d"):
        rt.ChipDataset(cat.search(defer=True), size=32, time="2021-01-05", streams=8)


_RANK = r"""
import json, sys, torch, torch.distributed as dist
import rumi, rumi.torch as rt
folder, out, stop, state_in = sys.argv[1:5]
dist.init_process_group("gloo")
r, w = dist.get_rank(), dist.get_world_size()
cat = rumi.Catalog.open(folder)
ds = rt.ChipDataset(cat.search(time=("2021-01-01", "2021-12-31"), defer=True), size=32, bands=["red", "nir"], streams=4)
res = dict(rank=r, world=w, shards=sorted(set(ds.index.shard.tolist())), groups=cat.groups_read, T=ds.T)
for kind in ("random", "grid"):
    s = rt.RandomChipSampler(ds, length=48, seed=5) if kind == "random" else rt.GridChipSampler(ds, stride=24, shuffle=True, seed=5)
    loader = ds.loader(s, batch_size=3)
    if state_in != "-":
        loader.load_state_dict(json.load(open(state_in))[kind])
    keys, sums, n = [], [], 0
    for b in loader:
        for (j, r0, c0), img in zip(b["key"], b["image"]):
            keys.append([ds.index.ids[j], r0, c0])
            sums.append(int(img.long().sum()))
        n += 1
        if n == int(stop):
            break
    res[kind] = dict(keys=keys, sums=sums, state=loader.state_dict(), epoch=s.epoch_length())
json.dump(res, open(f"{out}.{r}.json", "w"))
dist.destroy_process_group()
"""


def _torchrun(tmp_path, coll, world, name, stop, state):
    script = tmp_path / "rank.py"
    script.write_text(_RANK)
    out = tmp_path / name
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={world}",
                        str(script), coll["parts"], str(out), str(stop), str(state)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return [json.load(open(f"{out}.{k}.json")) for k in range(world)]


def test_torchrun_gloo_ranks_read_their_shards_and_resume_at_another_world_size(coll, tmp_path):
    """torchrun, gloo: 4 ranks each plan and read only their shards' row groups and files, with
    the 1-rank global order and pixels (a RandomChipSampler and a shuffled GridChipSampler, whose
    epoch length the ranks agree on); stopped after 2 batches, 2 ranks resume from rank 0's saved
    state and take exactly the rest of the epoch."""
    _, one = _one_rank(coll, 0, 1)
    wholes = {"random": _named(one, list(rt.RandomChipSampler(one, length=48, seed=5))),
              "grid": _named(one, list(rt.GridChipSampler(one, stride=24, shuffle=True, seed=5)))}
    four = _torchrun(tmp_path, coll, 4, "four", 2, "-")
    for x in four:
        mine = Streams(4, 8).shards_of(x["rank"], 4).tolist()
        assert x["shards"] == mine and x["groups"] == len(mine) and x["T"] == 3
    state = tmp_path / "state.json"
    state.write_text(json.dumps({k: four[0][k]["state"] for k in wholes}))
    two = _torchrun(tmp_path, coll, 2, "two", 0, state)
    for kind, whole in wholes.items():
        runs = [x[kind] for x in four]
        assert {x["epoch"] for x in runs} == {len(whole)}
        for x in runs:
            assert len(x["keys"]) == 6
            for (fid, r0, c0), total in zip(x["keys"], x["sums"]):
                assert total == _chip_sum(coll["arrays"], fid, r0, c0)
        files = [set(k[0] for k in x["keys"]) for x in runs]
        assert sum(len(f) for f in files) == len(set().union(*files)), kind  # no file read by two ranks
        first = [tuple(x["keys"][k]) for k in range(6) for x in runs]
        assert first == whole[:24], kind
        rest = [tuple(k) for x in two for k in x[kind]["keys"]]
        n = len(whole) // 2 * 2
        assert sorted(first + rest) == sorted(whole[:n]) and len(first + rest) == n, kind
        assert [tuple(two[k % 2][kind]["keys"][k // 2]) for k in range(n - 24)] == whole[24:n], kind


def test_the_frame_budget_goes_to_the_batches_files(coll):
    """The decoded-frame budget is shared by the files of the latest 4 batches (not by every
    file of the dataset): a chip read again by the next batch is served from memory, a file
    last read 4 batches back has lost its frames."""
    ds = rt.ChipDataset(coll["single"], size=32, time=WINDOW, cache_bytes=64 << 10)  # 4 KiB per file if split 16 ways
    frames = 3 * 2  # the chip's tile, every step and band: 2 KiB each
    first = ds.__getitems__([(0, 0, 0)])["stats"]
    assert (first["decoded"], first["cache_hits"]) == (frames, 0)
    again = ds.__getitems__([(0, 0, 0)])["stats"]
    assert (again["decoded"], again["cache_hits"], again["bytes_fetched"]) == (0, frames, 0)
    for j in (1, 2, 3, 4):
        ds.__getitems__([(j, 0, 0)])
    later = ds.__getitems__([(0, 0, 0)])["stats"]
    assert (later["decoded"], later["cache_hits"]) == (frames, 0)
