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
            # each row group read once: its own shards' planned, the others' CHECK_COLUMNS only (the checks
            # of the selection are the same at every rank and world size)
            assert cat.groups_read == 8
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
        rt.GridChipSampler(ds).epoch_length()  # the other ranks' chips (its own length needs none)
    cat = rumi.Catalog.open(coll["parts"])  # 3 of the 16 files have a step on 2021-01-05: some shards plan none
    with pytest.raises(rumi.RequestError, match=r"streams=8: some of the 8 streams have no file with a chip \(stream c is "
                                                r"shards c, c \+ 8, \.\.\. of the selection's 8; streams \[[\d, ]+\]\): use fewer streams"):
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
        assert x["shards"] == mine and x["groups"] == 8 and x["T"] == 3  # row groups read once (see above)
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


def test_older_files_keep_their_frames_while_the_budget_holds_them(coll):
    """What the latest 4 batches' files cannot hold (each at most its whole file's decoded
    frames) stays with the files read before them, the most recently read first: on a small
    collection that fits the budget, a chip read again 5 batches later decodes nothing
    (issue 48: emptied, the loader decoded 2.1x the frames); beyond the budget, the older
    files' frames are dropped."""
    need = 3 * 2 * 96 * 96 * 2  # a file's frames: 3 steps, 2 bands, 96 x 96 uint16
    frames = 3 * 2
    # every file fits; or room for one file beyond the hot four (a file not yet open counts as
    # its whole share: 6 / 4 of a file here)
    for budget, kept in ((16 * need, {0, 1}), (6 * need, {1})):
        ds = rt.ChipDataset(coll["single"], size=32, time=WINDOW, cache_bytes=budget)
        for j in range(6):
            assert ds.__getitems__([(j, 0, 0)])["stats"]["decoded"] == frames
        for j in (1, 0):
            st = ds.__getitems__([(j, 0, 0)])["stats"]
            want = (0, frames) if j in kept else (frames, 0)
            assert (st["decoded"], st["cache_hits"]) == want, (budget, j)


# -- issue 47 E: a grid epoch visits every chip once at any world size and stream count ----------
@pytest.fixture(scope="module")
def uneven(tmp_path_factory):
    """12 files of different sizes (40 to 150 pixels a side), so the streams hold different
    numbers of chips; a partitioned catalogue of 1 row per group (12 shards)."""
    from affine import Affine

    d = tmp_path_factory.mktemp("uneven")
    rng = np.random.default_rng(3)
    paths, shapes = [], {}
    for k in range(12):
        Y, X = (int(v) for v in rng.integers(40, 151, 2))
        p = d / f"u{k:02d}.rumi"
        rumi.write(p, rng.integers(0, 100, (1, 1, Y, X), dtype=np.uint8), bands=["b"], times=["2021-03-01"],
                   crs="EPSG:32633", transform=Affine(10, 0, 500000 + 2000 * k, 0, -10, 5100000), tile=32)
        paths.append(str(p))
        shapes[f"u{k:02d}"] = (Y, X)
    cat = rumi.Catalog.build(paths, d / "cat.parquet")
    write_parts(cat.table, str(d / "parts"), rows_per_group=1)
    return {"parts": str(d / "parts") + "/", "shapes": shapes}


def _every_chip(shapes, size, stride, kind):
    """The oracle: every chip of each file, a grid of stride pixels with the last row and column
    moved in to end at the edge (grid), or the 32-pixel tile grid where a chip fits whole (tile)."""
    out = set()
    for fid, (Y, X) in shapes.items():
        if Y < size or X < size:
            continue
        if kind == "grid":
            rows = set(range(0, Y - size + 1, stride)) | {Y - size}
            cols = set(range(0, X - size + 1, stride)) | {X - size}
        else:
            step = 32 * -(-size // 32)
            rows, cols = set(range(0, Y - size + 1, step)), set(range(0, X - size + 1, step))
        out |= {(fid, r, c) for r in rows for c in cols}
    return out


def _sampler(kind, ds, **kw):
    if kind == "grid":
        return rt.GridChipSampler(ds, **kw)
    kw.pop("stride", None)
    return rt.TileChipSampler(ds, **kw)


hyp = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_EPOCH = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@_EPOCH
@given(world=st.integers(1, 8), streams=st.integers(1, 4), size=st.sampled_from([16, 24, 32, 40]),
       stride=st.integers(8, 48), kind=st.sampled_from(["grid", "tile"]), shuffle=st.booleans(),
       block=st.integers(1, 3), seed=st.integers(0, 9), sharded=st.booleans())
def test_a_grid_epoch_visits_every_chip_once_at_any_world_size_and_stream_count(
        uneven, world, streams, size, stride, kind, shuffle, block, seed, sharded):
    """The union over the ranks of one epoch is the whole grid, no chip twice (the streams'
    chip counts differ: 840 chips came back as 832 distinct with 2 streams before)."""
    full = _every_chip(uneven["shapes"], size, stride, kind)
    cat = rumi.Catalog.open(uneven["parts"])
    sel = cat.search(defer=True)
    got = []
    one = None if sharded else rt.ChipDataset(sel, size=size)
    for r in range(world):
        if sharded:  # each rank plans only its streams' shards
            ds = rt.ChipDataset(sel, size=size, streams=streams, rank=r, world_size=world)
            s = _sampler(kind, ds, stride=stride, shuffle=shuffle, seed=seed, block=block)
        else:
            ds = one
            s = _sampler(kind, ds, stride=stride, shuffle=shuffle, seed=seed, block=block, streams=streams, rank=r,
                         world_size=world)
        keys = _named(ds, list(s))
        assert len(keys) == len(s), (r, world)
        got += keys
    assert len(got) == len(full) and set(got) == full
    whole = one if one is not None else rt.ChipDataset(sel, size=size)
    for epoch in (1, 2):  # every epoch, in another order when shuffled
        again = []
        for r in range(world):
            s = _sampler(kind, whole, stride=stride, shuffle=shuffle, seed=seed, block=block, streams=streams, rank=r,
                         world_size=world)
            s.set_epoch(epoch)
            again += _named(s.ds, list(s))
        assert len(again) == len(full) and set(again) == full


@_EPOCH
@given(world=st.integers(1, 8), world2=st.integers(1, 8), world3=st.integers(1, 8), streams=st.integers(1, 4),
       taken=st.integers(0, 40), taken2=st.integers(0, 40), shuffle=st.booleans(), seed=st.integers(0, 9))
def test_a_grid_epoch_resumed_at_other_world_sizes_visits_every_chip_once(
        uneven, world, world2, world3, streams, taken, taken2, shuffle, seed):
    """w ranks take `taken` keys each and save (rank 0's state); w2 ranks resume and take
    `taken2` each and save; w3 ranks finish the epoch: every chip once over the three. (The
    ranks step together: a state is saved while every rank still has keys, as when ranks
    stepping in lockstep save; one saved after a rank ran out names only that rank's keys.)"""
    full = _every_chip(uneven["shapes"], 24, 20, "grid")
    ds = rt.ChipDataset(rumi.Catalog.open(uneven["parts"]).search(defer=True), size=24)

    def run(w, state, stop):
        def make(r):
            s = rt.GridChipSampler(ds, stride=20, shuffle=shuffle, seed=seed, streams=streams, rank=r, world_size=w)
            if state is not None:
                s.load_state_dict(state)
            return s

        if stop is not None:  # every rank still has keys when they save
            stop = min([stop] + [len(list(make(r))) for r in range(w)])
        keys, states = [], []
        for r in range(w):
            s = make(r)
            it = iter(s)
            mine = [k for _, k in zip(range(stop), it)] if stop is not None else list(it)
            keys += _named(ds, mine)
            states.append(s.state_dict())
        return keys, states[0]

    first, st1 = run(world, None, taken)
    second, st2 = run(world2, st1, taken2)
    rest, _ = run(world3, st2, None)
    got = first + second + rest
    assert len(got) == len(full) and set(got) == full


def test_a_grid_rank_reads_only_its_streams_and_the_ranks_lengths_follow_them(uneven):
    """With 4 streams of unequal chip counts at 2 ranks: rank r's chips are those of the streams
    r, r + 2 (no file of another rank), its length their chips; without streams the ranks'
    lengths differ by at most one."""
    sel = rumi.Catalog.open(uneven["parts"]).search(defer=True)
    one = rt.ChipDataset(sel, size=32)
    counts = np.array([sum(len(_every_chip({one.index.ids[j]: uneven["shapes"][one.index.ids[j]]}, 32, 32, "grid"))
                           for j in np.flatnonzero(one.index.shard % 4 == c)) for c in range(4)])
    assert len(set(counts.tolist())) > 1  # the streams differ
    seen = set()
    for r in range(2):
        ds = rt.ChipDataset(sel, size=32, streams=4, rank=r, world_size=2)
        s = rt.GridChipSampler(ds)
        keys = list(s)
        assert len(keys) == len(s) == counts[r::2].sum()
        files = {ds.index.ids[j] for j, _, _ in keys}
        assert not files & seen
        seen |= files
    n = len(_every_chip(uneven["shapes"], 32, 32, "grid"))
    lens = [len(list(rt.GridChipSampler(one, rank=r, world_size=3))) for r in range(3)]
    assert sum(lens) == n and max(lens) - min(lens) <= (1 if n % 3 else 0)


@_EPOCH
@given(world=st.integers(1, 8), streams=st.integers(1, 4), length=st.integers(4, 200), seed=st.integers(0, 9))
def test_a_random_epoch_is_the_same_sequence_split_at_any_world_size(uneven, world, streams, length, seed):
    """RandomChipSampler: length // C * C keys per epoch (streams), the ranks' keys interleaved
    are the 1-rank sequence's first len // w * w, every rank the same number."""
    sel = rumi.Catalog.open(uneven["parts"]).search(defer=True)
    ds = rt.ChipDataset(sel, size=32)
    ref = rt.RandomChipSampler(ds, length=length, seed=seed, streams=streams)
    whole = list(ref)
    C = ref.streams.count
    assert len(whole) == ref.epoch_length() == length // C * C
    parts = [list(rt.RandomChipSampler(ds, length=length, seed=seed, streams=streams, rank=r, world_size=world))
             for r in range(world)]
    assert {len(p) for p in parts} == {len(whole) // world}
    assert [p[k] for k in range(len(parts[0])) for p in parts] == whole[:len(whole) // world * world]


# -- issue 47 C: a selection's checks give the same answer at every world size and stream count --
@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """8 files of 64 x 64 in shard order (1 row per row group): uint16 and uint8 alternating
    ("types"); all uint16 with file 5 lacking the band "nir" ("bands"); all uint16 with the
    times of file 6 another day ("times"); all uint16 with nodata catalogued for files 0-3 only
    ("nodata")."""
    from affine import Affine
    import pyarrow as pa

    d = tmp_path_factory.mktemp("mixed")
    rng = np.random.default_rng(5)
    out = {}
    for kind in ("types", "bands", "times", "nodata"):
        paths = []
        for k in range(8):
            dt = np.uint8 if kind == "types" and k % 2 else np.uint16
            bands = ["red"] if kind == "bands" and k == 5 else ["red", "nir"]
            day = "02" if kind == "times" and k == 6 else "01"
            p = d / f"{kind}{k}.rumi"
            rumi.write(p, rng.integers(0, 200, (1, len(bands), 64, 64)).astype(dt), bands=bands,
                       times=[f"2021-03-{day}"], crs="EPSG:32633",
                       transform=Affine(10, 0, 500000 + 1000 * k, 0, -10, 5100000), tile=32)
            paths.append(str(p))
        t = rumi.Catalog.build(paths, d / f"{kind}.parquet").table
        if kind == "nodata":
            nd = pa.array([[0.0, 0.0] if k < 4 else None for k in range(8)], pa.list_(pa.float64()))
            t = t.set_column(t.schema.get_field_index("rumi:nodata"), "rumi:nodata", nd)
        write_parts(t, str(d / kind), rows_per_group=1)
        out[kind] = str(d / kind) + "/"
    # the valid summary recorded (nodata 0) for files 0-3 only: min_valid with nodata=0 refuses 4-7
    paths = [str(d / f"bands{k}.rumi") for k in range(8) if k != 5] + [str(d / "times0.rumi")]
    t = pa.concat_tables([rumi.Catalog.build(paths[:4], d / "s0.parquet", nodata=0).table,
                          rumi.Catalog.build(paths[4:], d / "s1.parquet").table])
    write_parts(t, str(d / "summary"), rows_per_group=1)
    out["summary"] = str(d / "summary") + "/"
    return out


def _answers(folder, sampler=None, **kw):
    """Each rank's answer at 1, 2, 4 and 8 ranks and 1 to 4 streams (and unsharded): the sample
    type planned or the error's text (with sampler: of the sampler made of the dataset)."""
    got = {}
    sel = rumi.Catalog.open(folder).search(defer=True)
    places = [(None, 0, 1)] + [(c, r, w) for w in (1, 2, 4, 8) for c in (1, 2, 3, 4) for r in range(w)]
    for c, r, w in places:
        try:
            if c is None:
                ds = rt.ChipDataset(sel, size=32, **kw)
            else:
                ds = rt.ChipDataset(sel, size=32, streams=c, rank=r, world_size=w, **kw)
            if sampler is not None:
                sampler(ds)
            got[(c, r, w)] = ("ok", ds.index.encoding)
        except (rumi.RequestError, ValueError) as e:
            got[(c, r, w)] = ("error", str(e))
    return got


@pytest.mark.parametrize("kind, kw, message", [
    ("types", {"dtype": torch.float32}, r"different sample types \['uint16', 'uint8'\] \(first files: uint16 \(types[0246]\), "
                                        r"uint8 \(types[1357]\)\): one ChipDataset per type"),
    ("types", {}, r"different sample types \['uint16', 'uint8'\]"),
    ("bands", {"bands": ["red", "nir"]}, r"row \d \(bands5\) lacks some of the bands \['red', 'nir'\]"),
    ("times", {"align_time": True}, r"align_time: the files' time axes differ in the time selection: (times[0-57] has "
                                    r"\['2021-03-01T00:00:00'\], times6 has \['2021-03-02T00:00:00'\]|times6 has \['2021-03-02T00:00:00'\], times[0-57] "
                                    r"has \['2021-03-01T00:00:00'\])"),
    ("nodata", {"return_valid": True}, r"return_valid=True needs the nodata of the bands read, and none is known for 4 of "
                                       r"the 8 files \(nodata[4-7], nodata[4-7], nodata[4-7] \.\.\.\)"),
])
def test_a_selection_is_refused_alike_at_every_world_size_and_stream_count(mixed, kind, kw, message):
    """uint16 and uint8 files (and a band missing, time axes that differ, nodata unknown for
    some files): every rank at every world size and stream count refuses the selection with the
    same message (before, a rank that planned only the uint16 files trained on them)."""
    import re

    got = _answers(mixed[kind], **kw)
    assert set(got.values()) == {got[(None, 0, 1)]}, {k: v for k, v in got.items() if v != got[(None, 0, 1)]}
    what, text = got[(None, 0, 1)]
    assert what == "error" and re.search(message, text), text


def test_min_valid_is_refused_alike_at_every_world_size(mixed):
    """The valid summary recorded for nodata 0 for 4 of the 8 files: min_valid with nodata=0 is
    refused by every rank (before, the ranks that read only the other 4 files drew chips)."""
    import re

    got = _answers(mixed["summary"], sampler=lambda ds: rt.RandomChipSampler(ds, length=8, min_valid=0.5), nodata=0)
    assert set(got.values()) == {got[(None, 0, 1)]}, {k: v for k, v in got.items() if v != got[(None, 0, 1)]}
    what, text = got[(None, 0, 1)]
    assert what == "error" and re.search(r"min_valid=0\.5 bounds a chip's valid fraction from the catalogue's per-tile "
                                         r"summary \(rumi:valid\), but for 4 of the 8 files \(\w+ \.\.\.\) it was not "
                                         r"recorded", text), text


def test_a_selection_that_passes_passes_at_every_world_size(mixed):
    """The same files read as they are (the band present in all: "red"; no align_time): every
    rank plans, with the same T."""
    got = _answers(mixed["bands"], bands=["red"])
    assert set(got.values()) == {("ok", "uint16")}


# -- issue 47: the read-ahead opens each file once per process ------------------------------------
def test_read_ahead_opens_each_http_file_once(nginx, tmp_path, monkeypatch):
    """Batches read ahead on threads that need the same files open each once: one HEAD per file
    (37 HEADs for 33 files before, two threads opening a file at the same time). Each open is
    slowed so that the batches' threads always meet."""
    import time as _time

    from affine import Affine

    import rumi.torch.readers as readers

    names = []
    for k in range(12):
        name = f"ra{k:02d}.rumi"
        rumi.write(nginx.root / name, np.full((1, 1, 32, 32), k, np.uint8), bands=["b"], times=["2021-01-01"],
                   crs="EPSG:32633", transform=Affine(10, 0, 500000 + 1000 * k, 0, -10, 5100000), tile=32)
        names.append(name)
    cat = rumi.Catalog.build([nginx.url(n) for n in names], tmp_path / "ra.parquet")
    real, opened = readers.open_row, []

    def slow(row, **kw):
        opened.append(row["location"])
        _time.sleep(0.05)
        return real(row, **kw)

    monkeypatch.setattr(readers, "open_row", slow)
    ds = rt.ChipDataset(cat, size=32)
    # batch 0: file 0; batches 1 to 4: every other file, read ahead together
    keys = [(0, 0, 0)] + [(j, 0, 0) for _ in range(4) for j in range(1, 12)]
    since = nginx.mark()
    got = [b for b in ds.loader(keys, batch_size=11, read_ahead=3, num_workers=0, pin_memory=False)]
    heads = [r["uri"] for r in nginx.requests(since) if r["method"] == "HEAD"]
    assert sorted(opened) == sorted(nginx.url(n) for n in names)  # each file opened once
    # one HEAD per file, one per PAM sidecar (open_row's check of the catalogued values)
    assert sorted(heads) == sorted([f"/{n}" for n in names] + [f"/{n}.aux.xml" for n in names]), heads
    chips = torch.cat([b["image"] for b in got])
    assert [int(c.max()) for c in chips] == [j for j, _, _ in keys]
