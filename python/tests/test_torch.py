"""rumi.torch: ChipDataset, samplers, DataLoader workers (issue 16)."""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")

import rumi  # noqa: E402
import rumi.torch as rt  # noqa: E402

# the catalogue tests' fixtures: the same small collection and its catalogue
from test_catalog import cat, files  # noqa: E402,F401


def _arrays(files):
    return [files["a"][1], files["b"][1]]


def _expected(ds, arrays, key, size):
    j, r0, c0 = key
    a = arrays[ds.rows[j]]
    return a[np.ix_(ds.time_idx[j], ds.band_idx[j])][:, :, r0:r0 + size, c0:c0 + size]


def test_batch_pixels_bounds_and_stats(cat, files):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=48, bands=["nir", "red"])
    assert (ds.num_files, ds.T, ds.B, ds.encoding) == (2, 3, 2, "uint16")
    keys = [(0, 0, 0), (1, 100, 200), (0, 252, 472), (0, 10, 11)]
    b = ds.__getitems__(keys)
    img = b["image"]
    assert img.shape == (4, 3, 2, 48, 48) and img.dtype == torch.uint16
    for k, key in enumerate(keys):
        np.testing.assert_array_equal(img[k].numpy(), _expected(ds, _arrays(files), key, 48))
    assert b["bounds"][1] == (505200.0 + 2000.0, 5100000.0 - 1480.0, 505200.0 + 2480.0, 5100000.0 - 1000.0)
    assert b["crs"] == ["EPSG:32633"] * 4
    assert [str(t[0])[:10] for t in b["time"]] == ["2020-01-01", "2021-01-01", "2020-01-01", "2020-01-01"]
    st = b["stats"]
    assert st["bytes_needed"] == 4 * 3 * 2 * 48 * 48 * 2
    assert st["chips"] == 4 and st["files"] == 2 and st["bytes_fetched"] > 0
    # chips (0,0,0) and (0,10,11) share their frames: each frame decoded once in the batch
    assert st["decoded"] + st["cache_hits"] == st["frames"] and st["cache_hits"] >= 1
    with pytest.raises(IndexError, match="outside file 0"):
        ds.__getitems__([(0, 260, 0)])


def test_batches_reuse_released_memory_and_keep_what_is_held(cat, files):
    """A batch's tensors live in spare buffers (rumi.spare): a released batch's memory serves a
    later batch of the same size, a batch still held keeps its own memory and pixels."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=48, bands=["nir", "red"])
    keys = [(0, 0, 0), (1, 100, 200), (0, 252, 472), (0, 10, 11)]
    want = np.stack([_expected(ds, _arrays(files), k, 48) for k in keys])
    held = ds.__getitems__(keys)
    b = ds.__getitems__(keys[::-1])
    assert held["image"].data_ptr() != b["image"].data_ptr()
    addr = b["image"].data_ptr()
    nbytes = b["image"].numel() * b["image"].element_size()
    del b
    # what the C allocator would now hand out for this size goes elsewhere: only a pool that
    # kept the released buffer gives its address again
    other = np.empty(nbytes, np.uint8)
    other[:] = 1
    again = ds.__getitems__(keys)
    assert again["image"].data_ptr() == addr, "the released batch's buffer is reused"
    np.testing.assert_array_equal(again["image"].numpy(), want)
    for _ in range(3):
        ds.__getitems__(keys[::-1])
    np.testing.assert_array_equal(held["image"].numpy(), want)  # untouched by later batches
    del ds
    np.testing.assert_array_equal(held["image"].numpy(), want)  # outlives its dataset


def test_time_and_band_selection(cat, files):
    ds = rt.ChipDataset(cat, size=32, bands=["nir"], time=("2020-01-15", "2020-02-15"), crs="EPSG:32633")
    assert ds.T == 1 and ds.B == 1 and ds.num_files == 1  # only a has a step in the window
    b = ds[(0, 5, 6)]
    np.testing.assert_array_equal(b["image"].numpy(), files["a"][1][1:2, 1:2, 5:37, 6:38])
    with pytest.raises(rumi.RequestError, match=r"row 2 \(c\) lacks some of the bands \['red', 'nir'\]"):
        rt.ChipDataset(cat, size=32)
    with pytest.raises(rumi.RequestError, match=r"align_time: the files' time axes differ in the time selection: a has "
                       r"\['2020-03-01T00:00:00'\], b has \['2021-01-01T00:00:00', '2021-02-01T00:00:00', '2021-03-01T00:00:00'\]"):
        rt.ChipDataset(cat.search(bands=["red"]), size=32, time=("2020-02-15", "2021-12-31"), align_time=True)


def test_float_and_bfloat_types(tmp_path):
    ml = pytest.importorskip("ml_dtypes")
    a = (np.arange(2 * 70 * 80, dtype=np.float32).reshape(1, 2, 70, 80) / 7).astype(ml.bfloat16)
    rumi.write(tmp_path / "h.rumi", a, bands=["x", "y"], times=["2020-01-01"], crs="EPSG:32633",
               geotransform=(0.0, 1.0, 0.0, 0.0, 0.0, -1.0), tile=16)
    cat = rumi.Catalog.build([str(tmp_path / "h.rumi")], tmp_path / "c.parquet")
    ds = rt.ChipDataset(cat, size=20)
    img = ds[(0, 3, 4)]["image"]
    assert img.dtype == torch.bfloat16
    np.testing.assert_array_equal(img.float().numpy(), a[:, :, 3:23, 4:24].astype(np.float32))
    img = rt.ChipDataset(cat, size=20, dtype=torch.float32)[(0, 3, 4)]["image"]  # torch's cast: numpy has no bfloat16
    assert img.dtype == torch.float32
    np.testing.assert_array_equal(img.numpy(), a[:, :, 3:23, 4:24].astype(np.float32))


def test_tile_aligned_chips_cost_one_frame(cat):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=64)
    s = rt.TileChipSampler(ds)
    keys = list(s)
    assert len(keys) == 4 * 8 + 4 * 4  # whole 64x64 tiles of a (300x520) and b (260x300)
    assert all(r % 64 == 0 and c % 64 == 0 for _, r, c in keys)
    for k in keys[:5]:
        st = ds.__getitems__([k])["stats"]
        # the Cube default (frame unit 9): one frame per date and band at this tile location,
        # nothing of another tile, all in one request
        assert (st["frames"], st["requests"]) == (ds.shapes[k[0]][0] * ds.shapes[k[0]][1], 1), st


def test_random_chips_aligned_to_tiles_decode_only_their_tiles(cat):
    """RandomChipSampler(align=True): offsets on the tile grid, so a chip of 2 x 2 tiles decodes
    4 tile locations' frames where an unaligned one decodes 9; align=k: multiples of k."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=128, keep_cache=False)
    per_tile = ds.__getitems__([(0, 64, 64)])["stats"]["frames"] // 4  # frames of one tile location
    assert ds.__getitems__([(0, 65, 3)])["stats"]["frames"] == 9 * per_tile
    s = rt.RandomChipSampler(ds, length=40, seed=2, align=True)
    keys = list(s)
    assert len(keys) == 40 and len(set(keys)) > 5
    for j, r, c in keys:
        _, _, Y, X = ds.shapes[j]
        assert r % 64 == 0 and c % 64 == 0 and r + 128 <= Y and c + 128 <= X
        assert ds.__getitems__([(j, r, c)])["stats"]["frames"] == 4 * per_tile
    assert list(rt.RandomChipSampler(ds, length=40, seed=2, align=True)) == keys  # deterministic
    assert all(r % 32 == 0 and c % 32 == 0 for _, r, c in rt.RandomChipSampler(ds, length=40, seed=2, align=32))
    # not aligned: the sequence of the sampler without the option
    assert list(rt.RandomChipSampler(ds, length=40, seed=2, align=False)) == list(rt.RandomChipSampler(ds, length=40, seed=2))
    with pytest.raises(ValueError, match="align"):
        rt.RandomChipSampler(ds, length=4, align=0)


def test_samplers_deterministic_and_sharded(cat):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=40)
    a = list(rt.RandomChipSampler(ds, length=50, seed=3))
    assert a == list(rt.RandomChipSampler(ds, length=50, seed=3))
    assert a != list(rt.RandomChipSampler(ds, length=50, seed=4))
    s = rt.RandomChipSampler(ds, length=50, seed=3)
    s.set_epoch(1)
    assert list(s) != a
    for _, r, c in a:
        assert r >= 0 and c >= 0
    ranks = [list(rt.RandomChipSampler(ds, length=50, seed=3, rank=r, world_size=3)) for r in range(3)]
    assert [len(x) for x in ranks] == [16, 16, 16]
    assert sorted(sum(ranks, [])) == sorted(a[:48])
    g = [list(rt.GridChipSampler(ds, rank=r, world_size=2)) for r in range(2)]
    full = list(rt.GridChipSampler(ds))
    # every chip once over the ranks (none left out: the ranks' lengths differ by at most one)
    assert not set(g[0]) & set(g[1]) and len(g[0]) + len(g[1]) == len(full) and set(g[0]) | set(g[1]) == set(full)
    # grid covers every pixel of each file
    for j, (_, _, Y, X) in enumerate(ds.shapes):
        cover = np.zeros((Y, X), bool)
        for jj, r, c in full:
            if jj == j:
                cover[r:r + 40, c:c + 40] = True
        assert cover.all()


def test_pickle_small(cat, tmp_path):
    from rumi.catalog import Catalog
    import pyarrow as pa

    rumi.catalog.write_table(pa.concat_tables([cat.table] * 3000), str(tmp_path / "big.parquet"))
    big = Catalog.open(tmp_path / "big.parquet").search(bands=["red"])
    ds = rt.ChipDataset(big, size=32)
    assert ds.num_files == 6000
    blob = pickle.dumps(ds)
    assert len(blob) < 2000, len(blob)
    back = pickle.loads(blob)
    assert back.num_files == 6000
    np.testing.assert_array_equal(back[(5, 1, 2)]["image"].numpy(), ds[(5, 1, 2)]["image"].numpy())


def _run_loader(ds, method, workers, seed):
    s = rt.RandomChipSampler(ds, length=24, seed=seed)
    kw = {}
    if workers:
        kw["multiprocessing_context"] = mp.get_context(method)
    loader = ds.loader(s, batch_size=6, num_workers=workers, **kw)
    out = []
    for b in loader:
        out.append((b["image"].clone(), b["bounds"]))
    return out


@pytest.mark.parametrize("workers,method", [(0, None)] + [(w, m) for w in (2, 4) for m in ("fork", "spawn", "forkserver")])
def test_dataloader_workers(cat, files, method, workers):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    ds[(0, 0, 0)]  # the parent has read data (open readers, a thread pool) before the workers start
    ds.__getitems__([(0, 1, 1), (1, 2, 2)])
    got = _run_loader(ds, method, workers, seed=11)
    keys = list(rt.RandomChipSampler(ds, length=24, seed=11))
    assert len(got) == 4
    arrays = _arrays(files)
    for bi, (img, bounds) in enumerate(got):
        for k in range(6):
            key = keys[bi * 6 + k]
            np.testing.assert_array_equal(img[k].numpy(), _expected(ds, arrays, key, 32))
            assert bounds[k] == ds.bounds(*key)
    # the parent still reads after its workers are gone
    np.testing.assert_array_equal(ds[(1, 0, 0)]["image"].numpy(), _expected(ds, arrays, (1, 0, 0), 32))


def test_worker_batches_reuse_shared_memory_the_main_process_let_go():
    """rumi.torch.shared: a segment sent as Lent is LENT until the receiving side frees every
    view of its tensor, then FREE, and the next take() of that size reuses it."""
    from multiprocessing.reduction import ForkingPickler

    from rumi.torch import shared

    t, seg = shared.take((2, 3, 5), torch.int16)
    t.copy_(torch.arange(30, dtype=torch.int16).view(2, 3, 5))
    sent = shared.lend([seg], {"image": t, "key": [1, 2]})
    assert isinstance(sent["image"], shared.Lent) and sent["key"] == [1, 2]
    assert seg.header[0] == shared.LENT
    got = pickle.loads(bytes(ForkingPickler.dumps(sent)))
    img = got["image"]
    assert type(img) is torch.Tensor and img.dtype == torch.int16
    assert torch.equal(img, torch.arange(30, dtype=torch.int16).view(2, 3, 5))
    view = img[1]  # a view outlives the batch tensor: the segment stays lent
    del got, img, sent, t
    assert seg.header[0] == shared.LENT
    assert shared.take((2, 3, 5), torch.int16)[1].storage.data_ptr() != seg.storage.data_ptr()
    del view
    assert seg.header[0] == shared.FREE
    assert shared.take((2, 3, 5), torch.int16)[1].storage.data_ptr() == seg.storage.data_ptr()


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_batches_held_keep_their_pixels(cat, files, method):
    """Batches from workers (in reused shared memory) that the loop keeps are never overwritten
    by later batches; those it lets go are reused (the pixels stay right either way)."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32, bands=["nir", "red"])
    s = rt.RandomChipSampler(ds, length=60, seed=3)
    keys = list(s)
    arrays = _arrays(files)
    loader = ds.loader(s, batch_size=5, num_workers=2, multiprocessing_context=mp.get_context(method))
    held = []
    for bi, b in enumerate(loader):
        if bi % 3 == 0:
            held.append((bi, b["image"]))  # kept as it came, no copy
        for k in range(5):
            np.testing.assert_array_equal(b["image"][k].numpy(), _expected(ds, arrays, keys[bi * 5 + k], 32))
    assert len(held) == 4
    for bi, img in held:
        for k in range(5):
            np.testing.assert_array_equal(img[k].numpy(), _expected(ds, arrays, keys[bi * 5 + k], 32))


def test_loader_defaults_are_a_gpu_pipelines(cat, monkeypatch):
    """ChipDataset.loader: without CUDA 0 workers (read-ahead threads), unpinned; with CUDA
    workers (half the CPUs, at most 8, split between local ranks), pinned, prefetch 4,
    persistent; anything given explicitly wins."""
    from rumi.torch import loader as L

    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    s = rt.RandomChipSampler(ds, length=4)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    lo = ds.loader(s)
    assert (lo.num_workers, lo.pin_memory, lo.read_ahead) == (0, False, 2)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)), raising=False)
    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    assert L.gpu_defaults() == {"num_workers": 8, "pin_memory": True, "prefetch_factor": 4, "persistent_workers": True}
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "4")
    assert L.gpu_defaults()["num_workers"] == 2
    assert L.gpu_defaults(num_workers=0) == {"num_workers": 0, "pin_memory": True}
    assert L.gpu_defaults(3, False, 2, False) == {"num_workers": 3, "pin_memory": False, "prefetch_factor": 2,
                                                   "persistent_workers": False}


def test_read_ahead_keeps_order_and_overlaps_batches(cat, files):
    """num_workers=0: batches are read ahead on threads (up to read_ahead besides the one being
    waited for), come in the sampler's order with the pixels of read_ahead=0."""
    import threading
    import time

    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    s = rt.RandomChipSampler(ds, length=30, seed=5)
    plain = [b["image"].clone() for b in ds.loader(s, batch_size=5, read_ahead=0)]
    state = {"now": 0, "most": 0}
    lock = threading.Lock()
    orig = ds.__getitems__

    def slow(keys):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.05)  # a round trip: the next batches start meanwhile
        try:
            return orig(keys)
        finally:
            with lock:
                state["now"] -= 1

    ds.__getitems__ = slow
    loader = ds.loader(s, batch_size=5, read_ahead=2)
    assert isinstance(loader, torch.utils.data.DataLoader) and len(loader) == 6
    got = [b["image"].clone() for b in loader]
    assert len(got) == 6 and all(torch.equal(a, b) for a, b in zip(got, plain))
    assert state["most"] == 3  # the batch waited for and two ahead
    keys = list(s)
    arrays = _arrays(files)
    for k in range(5):
        np.testing.assert_array_equal(got[3][k].numpy(), _expected(ds, arrays, keys[15 + k], 32))
    # stopping early leaves nothing running and the dataset usable
    for n, _ in enumerate(ds.loader(s, batch_size=5)):
        if n == 1:
            break
    assert torch.equal(ds[keys[0]]["image"], plain[0][0])
    with pytest.raises(ValueError, match="read_ahead must be an integer >= 0"):
        ds.loader(s, read_ahead=-1)


def test_read_ahead_raises_at_the_failing_batch(cat, files):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    keys = [(0, 0, 0), (0, 1, 1), (1, 0, 0), (0, 2, 2)]  # batch 2 reads file b
    with open(files["b"][0], "r+b") as f:
        f.truncate(os.path.getsize(files["b"][0]) - 1)
    seen = []
    with pytest.raises(rumi.FormatError, match="changed since it was catalogued"):
        for b in ds.loader(keys, batch_size=1, read_ahead=3):
            seen.append(b["image"].clone())
    assert len(seen) == 2  # the batches before it were delivered, in order
    np.testing.assert_array_equal(seen[1][0].numpy(), files["a"][1][:, :, 1:33, 1:33])


class _InFlight(torch.utils.data.Dataset):
    """What a worker's ChipDataset allows in flight, local and remote."""

    def __init__(self, ds):
        self.ds = ds

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return (self.ds.readers.in_flight(""), self.ds.readers.in_flight("example.org:80"))


def test_local_reads_use_the_process_share_of_cpus(cat):
    """Local reads only decode: at most one per CPU of the process's share (workers split the
    CPUs); remote ones wait on the network and keep max_in_flight."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32, max_in_flight=16)
    cpus = len(os.sched_getaffinity(0))
    assert (ds.readers.in_flight(""), ds.readers.in_flight("example.org:80")) == (min(16, cpus), 16)
    got = list(torch.utils.data.DataLoader(_InFlight(ds), batch_size=None, num_workers=2,
                                           multiprocessing_context=mp.get_context("fork")))
    assert [tuple(int(v) for v in g) for g in got] == [(max(1, min(16, cpus // 2)), 16)] * 4
    assert rt.ChipDataset(cat.search(bands=["red"]), size=32, max_in_flight=1).readers.in_flight("") == 1


def test_changed_file_fails_in_the_loader(cat, files):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    with open(files["b"][0], "r+b") as f:
        f.truncate(os.path.getsize(files["b"][0]) - 1)
    with pytest.raises(rumi.FormatError, match="changed since it was catalogued"):
        ds[(1, 0, 0)]
    np.testing.assert_array_equal(ds[(0, 0, 0)]["image"].numpy(), files["a"][1][:, :, :32, :32])


def test_remote_one_request_per_tile_chip(files, tmp_path, nginx):
    """Over HTTP a tile-aligned chip of a Cube is one GET of exactly its frame; no header GET."""
    import shutil

    for n in ("a", "b"):
        shutil.copy(files[n][0], nginx.root / f"t16_{n}.rumi")
    cat = rumi.Catalog.build([nginx.url("t16_a.rumi"), nginx.url("t16_b.rumi")], tmp_path / "r.parquet")
    ds = rt.ChipDataset(cat, size=64)
    keys = list(rt.TileChipSampler(ds, shuffle=True, seed=1))[:12]
    since = nginx.mark()
    b = ds.__getitems__(keys)
    reqs = nginx.requests(since)
    gets = [r for r in reqs if r["method"] == "GET"]
    heads = [r for r in reqs if r["method"] == "HEAD"]
    assert len(gets) == 12 and all(r["range"].startswith("bytes=") for r in gets), reqs
    files_touched = {k[0] for k in keys}
    # size check + the store's own size: at most 2 HEADs per file per process (none on later batches)
    assert len(heads) <= 2 * len(files_touched), reqs
    arrays = _arrays(files)
    for k, key in enumerate(keys):
        np.testing.assert_array_equal(b["image"][k].numpy(), _expected(ds, arrays, key, 64))
    since = nginx.mark()
    ds.__getitems__(keys[:4])
    # decoded frames are kept across batches by default (keep_cache=True): nothing is fetched again
    assert nginx.requests(since) == []
    cold = rt.ChipDataset(cat, size=64, keep_cache=False)
    cold.__getitems__(keys[:4])
    since = nginx.mark()
    cold.__getitems__(keys[:4])
    reqs = nginx.requests(since)
    assert [r["method"] for r in reqs] == ["GET"] * 4, reqs


def test_dataloader_without_a_chip_sampler_says_what_to_do(cat):
    """DataLoader's own samplers give int indices (and need len()); a ChipDataset sample is a
    (file, row_off, col_off) key: the error says to pass a chip sampler or use ds.loader(), and
    what it suggests runs as written (torch's default collate_fn)."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    for kw in (dict(shuffle=True), dict()):
        with pytest.raises(TypeError, match=r"\(file, row_off, col_off\) key") as e:
            next(iter(torch.utils.data.DataLoader(ds, batch_size=16, **kw)))
        assert "sampler=rumi.torch.RandomChipSampler" in str(e.value) and "ds.loader(" in str(e.value)
    with pytest.raises(TypeError, match=r"DataLoader's own samplers .* give int indices"):
        ds[3]
    # what it suggests works, as written
    b = next(iter(torch.utils.data.DataLoader(ds, batch_size=16, sampler=rt.RandomChipSampler(ds, length=10_000))))
    assert b["image"].shape == (16, 3, 2, 32, 32)
    b = next(iter(ds.loader(rt.RandomChipSampler(ds, length=10_000), batch_size=16)))
    assert b["image"].shape == (16, 3, 2, 32, 32)


@pytest.mark.parametrize("workers", [0, 2])
def test_dataloader_with_its_default_collate(cat, files, workers):
    """DataLoader(ds, batch_size=4, sampler=...) with torch's default collate_fn: the batch dict
    of ds.loader (image, time_mask, time, bounds, crs, key, stats), at 0 and 2 workers."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    sampler = rt.RandomChipSampler(ds, length=8, seed=4)
    keys = list(sampler)
    kw = {"num_workers": 2, "multiprocessing_context": mp.get_context("fork")} if workers else {}
    batches = list(torch.utils.data.DataLoader(ds, batch_size=4, sampler=sampler, **kw))
    assert len(batches) == 2
    arrays = _arrays(files)
    for bi, b in enumerate(batches):
        assert set(b) == {"image", "time_mask", "time", "bounds", "crs", "key", "stats"}
        assert b["image"].shape == (4, 3, 2, 32, 32) and b["image"].dtype == torch.uint16
        assert b["key"] == keys[bi * 4:bi * 4 + 4] and b["crs"] == ["EPSG:32633"] * 4
        assert b["time_mask"].shape == (4, 3) and b["time_mask"].all()
        for k, key in enumerate(b["key"]):
            np.testing.assert_array_equal(b["image"][k].numpy(), _expected(ds, arrays, key, 32))
            assert b["bounds"][k] == ds.bounds(*key)
            assert b["time"][k].dtype == np.dtype("datetime64[s]") and len(b["time"][k]) == 3
        assert b["stats"]["chips"] == 4


def test_samples_collate_without_a_copy_or_stack(cat, files):
    """A batch's samples, whole and in order, collate back into the batch's own tensors; any
    other list of samples (single reads, a changed sample) is stacked."""
    from torch.utils.data import default_collate

    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    keys = [(0, 0, 0), (1, 5, 6), (0, 40, 50)]
    got = ds.__getitems__(keys)
    assert isinstance(got, list) and len(got) == 3 and got[1]["key"] == (1, 5, 6)
    for fn in (default_collate, rt.collate):
        b = fn(got)
        assert b["image"].data_ptr() == got["image"].data_ptr()  # the batch itself, no copy
    one = ds[(1, 5, 6)]
    assert one["image"].shape == (3, 2, 32, 32) and one["stats"]["chips"] == 1
    np.testing.assert_array_equal(one["image"].numpy(), _expected(ds, _arrays(files), (1, 5, 6), 32))
    for fn in (default_collate, rt.collate):
        b = fn([ds[k] for k in keys])
        assert b["key"] == keys and b["image"].shape == (3, 3, 2, 32, 32) and "stats" not in b
        np.testing.assert_array_equal(b["image"].numpy(), got["image"].numpy())
        b = fn(got[::-1])
        assert b["key"] == keys[::-1]
        np.testing.assert_array_equal(b["image"].numpy(), got["image"].numpy()[::-1])
    got[1]["image"] = torch.zeros_like(got[1]["image"])  # a transform replaced one sample's image
    b = default_collate(got)
    assert b["image"].data_ptr() != got["image"].data_ptr() and not b["image"][1].any()
    np.testing.assert_array_equal(b["image"][0].numpy(), got["image"][0].numpy())


def test_dtype_converts_the_images(cat, files, tmp_path):
    """torch.uint16 has few kernels (x - 5 raises); dtype= gives images of a type torch computes
    with, the same values; lossy integer and float-to-integer conversions are refused."""
    sel = cat.search(bands=["red"])
    keys = [(0, 0, 0), (1, 5, 7)]
    raw = rt.ChipDataset(sel, size=32).__getitems__(keys)["image"]
    with pytest.raises(NotImplementedError):
        raw - 5
    want = raw.numpy().astype(np.int64)
    for dt, name in ((torch.float32, None), (torch.int32, None), (torch.float64, "float64"), (torch.float16, None)):
        ds = rt.ChipDataset(sel, size=32, dtype=name or dt)
        img = ds.__getitems__(keys)["image"]
        assert img.dtype == dt
        np.testing.assert_array_equal(img.numpy(), want.astype(torch.empty(0, dtype=dt).numpy().dtype))
        assert (img - 5).dtype == dt
    ds = rt.ChipDataset(sel, size=32, dtype=torch.float32)
    b = next(iter(torch.utils.data.DataLoader(ds, batch_size=2, sampler=keys, num_workers=2,
                                              multiprocessing_context=mp.get_context("fork"))))
    np.testing.assert_array_equal(b["image"].numpy(), want.astype(np.float32))
    with pytest.raises(ValueError, match=r"dtype=torch.int16 cannot hold every uint16 value \(0..65535; it holds "
                                         r"-32768..32767\): values would wrap around"):
        rt.ChipDataset(sel, size=32, dtype=torch.int16)
    with pytest.raises(ValueError, match=r"dtype=torch.int32: converting float32 samples to an integer type would "
                                         r"truncate them"):
        rt.ChipDataset(cat.search(bands=["dem"]), size=16, dtype=torch.int32)
    with pytest.raises(TypeError, match="dtype must be a torch.dtype"):
        rt.ChipDataset(sel, size=32, dtype=np.float32)
    # labels: label_dtype (torch.int64 for a loss), with the images converted too
    with pytest.raises(ValueError, match="label_dtype .* needs labels="):
        rt.ChipDataset(sel, size=32, label_dtype=torch.int64)
    ds = rt.ChipDataset(sel, size=32, labels=str(files["a"][0]), label_bands=["nir"], dtype=torch.float32,
                        label_dtype=torch.int64)
    b = ds.__getitems__([(0, 3, 4)])
    assert b["mask"].dtype == torch.int64 and b["image"].dtype == torch.float32
    np.testing.assert_array_equal(b["mask"][0].numpy(), files["a"][1][:, 1:2, 3:35, 4:36].astype(np.int64))


def test_len_is_not_a_file_count(cat):
    """len(ds) would be a count of files that range(len(ds)) and steps-per-epoch computations
    take for samples: it is a TypeError naming len(sampler) and ds.num_files; samplers and
    loaders have their lengths."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    with pytest.raises(TypeError, match=r"a ChipDataset has no len\(\).*len\(sampler\) chips per epoch; ds.num_files"):
        len(ds)
    assert ds.num_files == 2 and bool(ds)
    s = rt.RandomChipSampler(ds, length=10)
    assert len(s) == 10 and len(torch.utils.data.DataLoader(ds, batch_size=4, sampler=s)) == 3
    assert len(ds.loader(s, batch_size=4)) == 3
    assert len(list(rt.GridChipSampler(ds))) == len(rt.GridChipSampler(ds)) > 0


def test_a_date_selects_its_whole_day(tmp_path):
    """time="2023-05-11" is every step of that day, not its midnight; an end date includes its
    day (as pystac-client's datetime search); an instant with a time of day stays exact."""
    a = np.arange(4 * 1 * 40 * 40, dtype=np.uint16).reshape(4, 1, 40, 40)
    p = tmp_path / "day.rumi"
    rumi.write(p, a, bands=["x"], times=["2023-05-10T23:00:00", "2023-05-11T10:30:00", "2023-05-11T23:59:59",
                                         "2023-05-12T00:00:00"],
               crs="EPSG:32633", geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), tile=16)
    cat = rumi.Catalog.build([str(p)], tmp_path / "day.parquet")
    ds = rt.ChipDataset(cat, size=16, time="2023-05-11")
    assert [str(t) for t in ds.times[0]] == ["2023-05-11T10:30:00", "2023-05-11T23:59:59"]
    b = ds[(0, 2, 3)]
    np.testing.assert_array_equal(b["image"].numpy(), a[1:3, :, 2:18, 3:19])
    ds = rt.ChipDataset(cat, size=16, time=("2023-05-10", "2023-05-11"))
    assert [str(t) for t in ds.times[0]] == ["2023-05-10T23:00:00", "2023-05-11T10:30:00", "2023-05-11T23:59:59"]
    assert [str(t) for t in rt.ChipDataset(cat, size=16, time="2023-05-11T10:30:00").times[0]] == ["2023-05-11T10:30:00"]
    with pytest.raises(rumi.RequestError, match="no file of the selection has a time step in 2023-05-11T10:00:00"):
        rt.ChipDataset(cat, size=16, time="2023-05-11T10:00:00")


def test_rumi_torch_is_a_lazy_attribute():
    import subprocess
    import sys

    code = ("import sys, rumi; assert 'rumi.torch' not in sys.modules; "
            "print(rumi.torch.ChipDataset.__name__, rumi.torch.RandomChipSampler.__module__)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["ChipDataset", "rumi.torch"]


def test_uses_only_public_dataset_api():
    """rumi.torch reads through rumi.Dataset's public methods (no native reader, no private
    attribute of another object), in every module of the package."""
    import importlib
    import inspect
    import pkgutil
    import re

    mods = [rt] + [importlib.import_module(f"rumi.torch.{m.name}") for m in pkgutil.iter_modules(rt.__path__)]
    assert len(mods) > 5
    src = "\n".join(inspect.getsource(m) for m in mods)
    assert ".native" not in src and "_native" not in src and "_trusted_blob" not in src
    assert not re.search(r"\br\._", src), re.findall(r"\br\._\w+", src)


def test_remote_file_changed_since_cataloguing_fails_after_the_first_read(files, tmp_path, nginx):
    """Remote files open from the catalogued blob without a HEAD when verify_size=False; the
    blob is still checked against the size the first range response gives (rumi.open's deferred
    check): a file cut short before its trailer is a FormatError, never silently read."""
    import shutil

    shutil.copy(files["a"][0], nginx.root / "d_a.rumi")
    cat = rumi.Catalog.build([nginx.url("d_a.rumi")], tmp_path / "d.parquet")
    end = rumi.open(files["a"][0]).frame_range(rumi.open(files["a"][0]).frame_count - 1)
    with open(nginx.root / "d_a.rumi", "r+b") as f:
        f.truncate(end[0] + end[1])  # frames intact, trailer gone
    ds = rt.ChipDataset(cat, size=32, verify_size=False)
    with pytest.raises(rumi.FormatError, match="does not describe"):
        ds[(0, 0, 0)]


def test_a_rumi_file_is_a_dataset_as_its_catalogue_is(files):
    """ChipDataset of a rumi file path (or a Dataset) reads what the file's one-row catalogue
    reads (it was a pyarrow "Parquet magic bytes not found" error)."""
    path, array = files["a"]
    keys = [(0, 0, 0), (0, 5, 7)]
    for src in (str(path), path, rumi.open(path)):
        ds = rt.ChipDataset(src, size=32)
        assert ds.num_files == 1
        img = ds.__getitems__(keys)["image"].numpy()
        for k, (_, r0, c0) in enumerate(keys):
            np.testing.assert_array_equal(img[k], array[:, :, r0:r0 + 32, c0:c0 + 32])


def test_read_options_read_what_their_keywords_read(cat, files):
    """rumi.torch.ReadOptions given as read_options= (issue 49 item 2) reads the batches, with the
    statistics and settings, that its keywords read; it is pickled with the dataset; a keyword
    beside it is refused by name, and a bad value gives the keyword's error whichever way."""
    import pickle

    kw = dict(threads=2, max_in_flight=3, keep_cache=False, cache_bytes=1 << 20, verify_size=False)
    sel = cat.search(bands=["red"])
    by_kw = rt.ChipDataset(sel, size=48, bands=["nir", "red"], **kw)
    by_value = rt.ChipDataset(sel, size=48, bands=["nir", "red"], read_options=rt.ReadOptions(**kw))
    assert by_kw.read_options == by_value.read_options == rt.ReadOptions(**kw)
    assert (by_value.threads, by_value.max_in_flight, by_value.keep_cache, by_value.cache_bytes) == (2, 3, False, 1 << 20)
    assert by_value.readers.__getstate__() == by_kw.readers.__getstate__()
    keys = [(0, 0, 0), (1, 100, 200), (0, 10, 11)]
    want = np.stack([_expected(by_kw, _arrays(files), k, 48) for k in keys])
    timing = {"decode_s", "wait_s", "batch_s"}
    for again in range(2):  # keep_cache=False: the second batch decodes again, alike
        a, b = by_kw.__getitems__(keys), by_value.__getitems__(keys)
        np.testing.assert_array_equal(a["image"].numpy(), want)
        np.testing.assert_array_equal(b["image"].numpy(), want)
        sa, sb = ({k: v for k, v in s["stats"].items() if k not in timing} for s in (a, b))
        assert sa == sb and sa["cache_hits"] >= 1
    back = pickle.loads(pickle.dumps(by_value))
    assert back.read_options == by_value.read_options
    np.testing.assert_array_equal(back.__getitems__(keys)["image"].numpy(), want)
    # the defaults, and an attribute set as before (a new value)
    plain = rt.ChipDataset(sel, size=48)
    assert plain.read_options == rt.ReadOptions() and plain.cache_bytes == rt.DEFAULT_CACHE_BYTES
    plain.keep_cache = False
    assert plain.read_options == rt.ReadOptions(keep_cache=False)
    with pytest.raises(TypeError, match=r"ChipDataset: threads=, keep_cache= given beside read_options="):
        rt.ChipDataset(sel, size=48, threads=4, keep_cache=False, read_options=rt.ReadOptions())
    with pytest.raises(TypeError, match=r"read_options= takes a ReadOptions, not dict"):
        rt.ChipDataset(sel, size=48, read_options={"threads": 2})
    for call in (lambda: rt.ChipDataset(sel, size=48, threads="two"),
                 lambda: rt.ChipDataset(sel, size=48, read_options=rt.ReadOptions(threads="two"))):
        with pytest.raises(ValueError, match=r"^invalid literal for int\(\) with base 10: 'two'$"):
            call()


def test_a_child_forked_while_a_parent_thread_holds_the_reader_pools_lock_opens_its_readers():
    """fork() copies a held threading.Lock held: a DataLoader worker forked while a read-ahead
    thread of the parent was inside ReaderPool.reader waited forever for the pool's lock."""
    from test_dlpack_fork import forked, holding

    from rumi.torch.readers import ReaderPool

    pool = ReaderPool(files=4)

    class Asked(Exception):
        pass

    def row():
        raise Asked  # the child got the lock and asked for the row of a file it has not open

    def child():
        try:
            pool.reader("k", row)
        except Asked:
            return True
        return False

    done = holding(pool._lock)
    try:
        status = forked(child)
    finally:
        done()
    assert status == 0
