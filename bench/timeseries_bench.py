"""Time-series chip benchmark (issues 35 and 41): [T, C, H, W] chips of a Cube read by rumi and by
its peers, each set up as a demanding user would, all in one run. Two suites (--suite):

"zarr" (issue 41; no torch needed): rumi against Zarr v3 at its fastest and at its smallest, in
one process. The data: the synthetic year below at the issue's size (T = 48, 3 bands,
1024 x 1024; --quick: 24 x 3 x 512 x 512; --dates/--bands/--pixels). Zarr chains: blosc-zstd and
blosc-lz4 with byte shuffle at Blosc's default level (what a speed-minded user picks), each with
chunks (T, C, 256, 256) unsharded and sharded (shards (T, C, 1024, 1024)), blosc-zstd also with
inner chunks (8, C, 256, 256), and the smallest of ZARR_CHAINS on the data (what a size-minded
user picks) unsharded and sharded. Zarr is read as a speed-minded user would: zarr.open_array
kept open, arr[:, :, r:r+256, c:c+256], zarr's default concurrency (printed); rumi through
rumi.open(...) kept open, .read(window=) on its default threads, its decoded-frame cache off so
that every chip decodes its frames as Zarr's does. Random unaligned 256 x 256 chips with every
date and with a 12-date window, the peers interleaved (the order rotates every repetition);
wall time and CPU time of the process (getrusage RUSAGE_SELF: every thread, zarr's event loop
and rumi's decoders included); medians over the repetitions. Reported: each store's size,
chips per second and per CPU-second, and rumi against the fastest Zarr store of the run (per
CPU-second and per wall second, each its own fastest) and against the smallest one (size).
Every store's pixels are checked against the source array.

"loaders" (issue 35; torch, TorchGeo):
  - rumi: Cubes (T, B, Y, X) written by rumi.write / rumi.Writer with frame units 0, 9 and the
    cell units 3, 4 (tiles 256, and 512 for unit 9), read through rumi.torch.ChipDataset (all
    dates) and through a map-style dataset over rumi.Dataset kept open per process (all dates,
    and the 12-date window, which ChipDataset's keys cannot name);
  - Zarr v3 (zarr-python 3, sharding codec, chunks (10, C, 256, 256) and (T, C, 256, 256), the
    smallest of its lossless chains measured on the data: blosc-zstd with byte shuffle or bit
    shuffle, zstd), read by a map-style dataset that opens the array once per process (an
    obstore HTTPStore for the remote case);
  - one GeoTIFF per date (the full-resolution level of a COG: tiled 256, ZSTD level 9 +
    predictor 2), rasterio with every date's dataset kept open per thread, the dates of a chip
    read on a thread pool (as Rasteret batches a window's dates);
  - TorchGeo 0.10's time-series path: a RasterDataset (time_series=True) over the per-date
    GeoTIFFs returning [T, C, H, W].
Data: the real 68-date NDVI stack of ../shared/data (float32, 101 x 100: 64 x 64 chips, tiles 64)
and a synthetic Sentinel-2-like year (T = 192, 4 bands uint16, 2048 x 2048) whose texture is the
real Landsat 8 scene with a seasonal gain per band, a per-date offset, sensor noise and cloud
patches on a third of the dates. Reads: random unaligned chips with every date ("all") and with a
random window of 12 consecutive dates ("w12"). Regimes: local files, and HTTP through loopback
nginx behind bench/delay_proxy.py (--delay per request, requests and bytes counted at nginx),
at 0 and 2 DataLoader workers. Figures: chips/s, chips per CPU-second (getrusage of the process
and of its finished workers), requests and bytes per chip, store sizes.

    target/py-venv/bin/python bench/timeseries_bench.py --suite zarr [--quick]   # needs zarr
    V=~/.cache/rumi/venvs/torchgeo-py3.12
    PYTHONPATH=python $V/bin/python bench/timeseries_bench.py [--quick]   # both suites

Generated data and stores are cached under build/ts-bench/ (the loaders suite's --quick: T = 48,
1024 x 1024). Noisy on a shared 2-core machine: compare ratios measured in one run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import rasterio
from rasterio.windows import Window

import rumi

try:
    import torch

    _Sampler, _TorchDataset = torch.utils.data.Sampler, torch.utils.data.Dataset
except ImportError:  # the zarr suite runs without torch; the loaders suite needs it
    torch = None
    _Sampler = _TorchDataset = object

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("RUMI_DATA_DIR", REPO.parent / "shared" / "data"))
if not DATA.is_dir():
    DATA = Path("/work/shared/data")
SCENE = DATA / "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"
NDVI = DATA / "eolearn_s2_ndvi_68t_float32.tif"
WINDOW = 12
CRS = 32633


def _cpu_self():
    """CPU seconds of this process, every thread."""
    s = resource.getrusage(resource.RUSAGE_SELF)
    return s.ru_utime + s.ru_stime


def _cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


# -- data ------------------------------------------------------------------------------------

def _smooth(rng, shape, cells):
    """A smooth random field in [0, 1] of `shape` (bilinear upsampling of a cells x cells grid)."""
    g = rng.random((cells + 1, cells + 1)).astype(np.float32)
    ys = np.linspace(0, cells, shape[0], dtype=np.float32)
    xs = np.linspace(0, cells, shape[1], dtype=np.float32)
    y0, x0 = np.minimum(ys.astype(int), cells - 1), np.minimum(xs.astype(int), cells - 1)
    fy, fx = (ys - y0)[:, None], (xs - x0)[None, :]
    a, b = g[y0][:, x0], g[y0][:, x0 + 1]
    c, d = g[y0 + 1][:, x0], g[y0 + 1][:, x0 + 1]
    return (a * (1 - fy) * (1 - fx) + b * (1 - fy) * fx + c * fy * (1 - fx) + d * fy * fx).astype(np.float32)


class SyntheticYear:
    """A Sentinel-2-like year: date t of band b is the Landsat texture of b times a seasonal gain,
    plus a per-date offset, sensor noise (sigma 12 DN) and, on a third of the dates, clouds
    (bright smooth patches with soft edges, 5-70 % cover)."""

    def __init__(self, T, size, seed=0):
        rng = np.random.default_rng(seed)
        with rasterio.open(SCENE) as src:
            ls = src.read().astype(np.float32)
        ls = np.pad(ls, ((0, 0), (0, max(0, size - ls.shape[1])), (0, max(0, size - ls.shape[2]))), mode="reflect")
        y0, x0 = (ls.shape[1] - size) // 2, (ls.shape[2] - size) // 2
        ls = ls[:, y0:y0 + size, x0:x0 + size]
        s2 = np.clip((ls - 6000.0) * 0.45, 0, None)  # Landsat L1 DN to a Sentinel-2 L1C-like range
        nir = np.clip(1.4 * s2[2] - 0.35 * s2[0] + 300, 0, None)
        self.base = np.concatenate([s2, nir[None]]).astype(np.float32)  # (4, size, size)
        self.T, self.size = T, size
        ph = np.linspace(0, 2 * np.pi, T, endpoint=False, dtype=np.float32)
        amp = np.array([0.08, 0.10, 0.14, 0.35], np.float32)[:, None]
        self.gain = (1 + amp * np.sin(ph - 1.3)[None]).T  # (T, 4)
        self.offset = rng.uniform(-60, 150, T).astype(np.float32)
        self.noise = [rng.normal(0, 12, (4, size, size)).astype(np.float32) for _ in range(3)]
        self.fields = [_smooth(rng, (size, size), c) for c in (6, 10, 16, 24)]
        self.shifts = rng.integers(0, size, (T, 2))
        self.cloudy = rng.random(T) < 1 / 3
        self.cover = rng.uniform(0.05, 0.7, T)
        self.pick = rng.integers(0, 1 << 30, (T, 2))

    def date(self, t):
        """(4, size, size) uint16 samples of date t."""
        img = self.base * self.gain[t][:, None, None] + self.offset[t]
        sy, sx = self.shifts[t]
        img += np.roll(self.noise[self.pick[t, 0] % 3], (sy, sx), axis=(1, 2))
        if self.cloudy[t]:
            f = np.roll(self.fields[self.pick[t, 1] % 4], (sx, sy), axis=(0, 1))
            thr = np.quantile(f[::16, ::16], 1 - self.cover[t])
            alpha = np.clip((f - thr) * 12, 0, 1)
            cloud = 5000 + 3000 * f
            img = img * (1 - alpha) + cloud * alpha
        return np.clip(img, 0, 65535).astype(np.uint16)


def times_of(T, start="2023-01-01", every_h=None):
    step = np.timedelta64(int(every_h or 365 * 24 * 3600 // T), "s")
    return np.datetime64(start, "s") + step * np.arange(T)


def make_raw(root, quick, shape=None):
    """The synthetic year as a raw (T, B, S, S) uint16 memmap (cached; B <= 4: its first B bands),
    its times. shape: (T, B, S), default (48, 4, 1024) with quick, else (192, 4, 2048)."""
    T, B, S = shape or ((48, 4, 1024) if quick else (192, 4, 2048))
    raw = root / (f"s2year_{T}x{S}.u16" if B == 4 else f"s2year_{T}x{B}x{S}.u16")
    if not raw.exists():
        t0 = time.perf_counter()
        gen = SyntheticYear(T, S)
        tmp = raw.with_suffix(".part")
        mm = np.memmap(tmp, np.uint16, "w+", shape=(T, B, S, S))
        for t in range(T):
            mm[t] = gen.date(t)[:B]
        mm.flush()
        del mm
        tmp.rename(raw)
        print(f"generated the synthetic year ({T} x {B} x {S} x {S}) in {time.perf_counter() - t0:.0f} s", flush=True)
    return np.memmap(raw, np.uint16, "r", shape=(T, B, S, S)), times_of(T)


def ndvi():
    with rasterio.open(NDVI) as src:
        a = src.read()  # (68, Y, X)
        gt = src.transform.to_gdal()
        crs = src.crs.to_epsg()
    T = a.shape[0]
    return a[:, None], times_of(T, "2015-07-11", 3 * 24 * 3600 * 13), gt, crs


# -- stores ----------------------------------------------------------------------------------

def write_rumi(path, arr, times, gt, crs, tile, unit, strip):
    if path.exists():
        return
    T, B, Y, X = arr.shape
    t0, c0 = time.perf_counter(), _cpu()
    with rumi.Writer(path, shape=arr.shape, dtype=arr.dtype, bands=[f"b{i + 1}" for i in range(B)], times=times,
                     crs=crs, geotransform=gt, tile=tile, frame_unit=unit) as w:
        for r in range(0, Y, strip):
            w.write(np.ascontiguousarray(arr[:, :, r:r + strip]), row=r)
    print(f"  wrote {path.name}: {time.perf_counter() - t0:.0f} s, {_cpu() - c0:.0f} CPU-s", flush=True)


ZARR_CHAINS = ("blosc-zstd-shuffle", "blosc-zstd-bitshuffle", "zstd", "delta-blosc-zstd-shuffle")


def _zarr_codecs(chain, dtype):
    """(filters, serializer, compressors) of a chain: blosc's zstd or lz4 at Blosc's default level
    (zarr's BloscCodec: 5) with byte or bit shuffle, plain zstd at level 5, pcodec, or numcodecs' delta
    (along the flattened chunk: x) before blosc."""
    import warnings

    from zarr.codecs import BloscCodec, BytesCodec, ZstdCodec

    filters = []
    if chain.startswith("delta-"):
        import numcodecs.zarr3 as nz

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            filters = [nz.Delta(dtype=str(dtype))]
        chain = chain[len("delta-"):]
    if chain == "zstd":
        return filters, BytesCodec(), [ZstdCodec(level=5)]
    if chain == "pcodec":  # pcodec's numeric codec (numcodecs.zarr3.PCodec, level 8: its default) as the serializer
        import numcodecs.zarr3 as nz

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return filters, nz.PCodec(level=8), []
    cname, shuffle = chain.split("-")[1], chain.split("-")[-1]
    return filters, BytesCodec(), [BloscCodec(cname=cname, shuffle=shuffle)]


def write_zarr(path, arr, tchunk, tile, chain, shard_px):
    """A Zarr v3 array of arr: chunks (tchunk, B, tile, tile), in shards of (whole T, B, shard_px,
    shard_px), or unsharded when shard_px is None."""
    import zarr

    if path.exists():
        return
    T, B, Y, X = arr.shape
    chunk = (tchunk, B, tile, tile)
    if shard_px is None:
        shard, step = None, (None, None, 4 * tile, 4 * tile)
    else:
        shard = (-(-T // tchunk) * tchunk, B, min(shard_px, -(-Y // tile) * tile), min(shard_px, -(-X // tile) * tile))
        step = shard
    t0, c0 = time.perf_counter(), _cpu()
    tmp = path.with_suffix(".part")
    shutil.rmtree(tmp, ignore_errors=True)
    filters, serializer, compressors = _zarr_codecs(chain, arr.dtype)
    z = zarr.create_array(store=str(tmp), shape=arr.shape, dtype=arr.dtype, shards=shard, chunks=chunk,
                          filters=filters, serializer=serializer, compressors=compressors, fill_value=0)
    for r in range(0, Y, step[2]):
        for c in range(0, X, step[3]):
            z[:, :, r:r + step[2], c:c + step[3]] = np.asarray(arr[:, :, r:r + step[2], c:c + step[3]])
    tmp.rename(path)
    print(f"  wrote {path.name}: {time.perf_counter() - t0:.0f} s, {_cpu() - c0:.0f} CPU-s", flush=True)


def write_cogs(folder, arr, times, gt, crs, tile):
    if (folder / "done").exists():
        return sorted(folder.glob("d_*.tif"))
    folder.mkdir(parents=True, exist_ok=True)
    T, B, Y, X = arr.shape
    t0, c0 = time.perf_counter(), _cpu()
    paths = []
    pred = 3 if arr.dtype.kind == "f" else 2
    for t in range(T):
        day = str(times[t].astype("datetime64[s]").astype(dt.datetime).strftime("%Y%m%dT%H%M%S"))
        p = folder / f"d_{day}.tif"
        with rasterio.open(p, "w", driver="GTiff", width=X, height=Y, count=B, dtype=arr.dtype, crs=f"EPSG:{crs}",
                           transform=rasterio.Affine.from_gdal(*gt), tiled=True, blockxsize=tile, blockysize=tile,
                           compress="zstd", zstd_level=9, predictor=pred) as d:
            d.write(np.asarray(arr[t]))
        paths.append(p)
    (folder / "done").write_text("")
    print(f"  wrote {T} GeoTIFFs in {folder.name}: {time.perf_counter() - t0:.0f} s, {_cpu() - c0:.0f} CPU-s", flush=True)
    return paths


def size_of(p):
    p = Path(p)
    if p.is_dir():
        return sum(f.stat().st_size for f in p.rglob("*") if f.is_file() and f.name != "done")
    return p.stat().st_size


# -- readers ---------------------------------------------------------------------------------

class Keys(_Sampler):
    def __init__(self, keys):
        self.keys = keys

    def __iter__(self):
        return iter(self.keys)

    def __len__(self):
        return len(self.keys)


class PerProcess(_TorchDataset):
    """A map-style dataset of [T, C, H, W] chips, key (r0, c0, t0, nt); what it opens is opened
    once per process (and never pickled)."""

    def __init__(self, size, n):
        self.size, self.n = size, n
        self._pid, self._h = None, None

    def __len__(self):
        return self.n

    def handle(self):
        if self._pid != os.getpid():
            self._h, self._pid = self.open(), os.getpid()
        return self._h

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_pid"], d["_h"] = None, None
        return d

    def __getitem__(self, key):
        return {"image": torch.from_numpy(self.read(self.handle(), *key))}


class RumiSeries(PerProcess):
    """rumi.Dataset kept open per process; a chip's frames decoded on `threads` threads."""

    def __init__(self, href, header, size, n, threads=1):
        super().__init__(size, n)
        self.href, self.header, self.threads = href, header, threads

    def open(self):
        return rumi.open(self.href, header=self.header)

    def read(self, ds, r0, c0, t0, nt):
        out = np.empty((nt, ds.count, self.size, self.size), ds.dtype)
        ds.read_into(out, t=list(range(t0, t0 + nt)), window=(r0, c0, self.size, self.size), threads=self.threads)
        return out


class ZarrSeries(PerProcess):
    def __init__(self, where, size, n):
        super().__init__(size, n)
        self.where = where

    def open(self):
        import zarr

        if self.where.startswith("http"):
            from obstore.store import HTTPStore
            from zarr.storage import ObjectStore

            store = HTTPStore.from_url(self.where, client_options={"allow_http": True})
            return zarr.open_array(ObjectStore(store, read_only=True), mode="r")
        return zarr.open_array(self.where, mode="r")

    def read(self, z, r0, c0, t0, nt):
        return z[t0:t0 + nt, :, r0:r0 + self.size, c0:c0 + self.size]


class CogSeries(PerProcess):
    """One GeoTIFF per date, every dataset kept open per thread; a chip's dates read on a pool."""

    def __init__(self, paths, size, n, threads, env):
        super().__init__(size, n)
        self.paths, self.threads, self.env = list(paths), threads, env

    def open(self):
        local = threading.local()
        env = self.env

        def init():
            local.env = rasterio.Env(**env)
            local.env.__enter__()
            local.open = {}

        pool = ThreadPoolExecutor(self.threads, initializer=init)
        return pool, local

    def read(self, h, r0, c0, t0, nt):
        pool, local = h
        w = Window(c0, r0, self.size, self.size)

        def one(t):
            d = local.open.get(t)
            if d is None:
                d = local.open[t] = rasterio.open(self.paths[t])
            return d.read(window=w)

        return np.stack(list(pool.map(one, range(t0, t0 + nt))))


def torchgeo_series(paths, env):
    """TorchGeo's RasterDataset over the per-date GeoTIFFs, time_series=True (its own handle
    cache: functools.lru_cache of 128 files)."""
    from torchgeo.datasets import RasterDataset

    class Dates(RasterDataset):
        filename_glob = "d_*.tif"
        filename_regex = r"^d_(?P<date>\d{8}T\d{6})\.tif$"
        date_format = "%Y%m%dT%H%M%S"
        is_image = True

    os.environ.update(env)
    ds = Dates(paths=[str(p) for p in paths], time_series=True)
    Dates._cached_load_warp_file.cache_clear()
    return ds


class TorchGeoQueries(_Sampler):
    """The benchmark's keys as TorchGeo GeoSlices (bounds in the CRS, the dates' interval)."""

    def __init__(self, keys, gt, times, size):
        self.q = []
        for r0, c0, t0, nt in keys:
            x0, y1 = gt[0] + c0 * gt[1], gt[3] + r0 * gt[5]
            x1, y0 = x0 + size * gt[1], y1 + size * gt[5]
            ts = times.astype("datetime64[s]").astype(dt.datetime)
            lo = ts[t0]
            hi = ts[t0 + nt - 1] + dt.timedelta(seconds=1)
            import pandas as pd

            self.q.append((slice(x0, x1, gt[1]), slice(y0, y1, -gt[5]), slice(pd.Timestamp(lo), pd.Timestamp(hi))))

    def __iter__(self):
        return iter(self.q)

    def __len__(self):
        return len(self.q)


def run_loader(loader, n_expected, shape=None):
    t0, c0 = time.perf_counter(), _cpu()
    n = 0
    for b in loader:
        img = b["image"]
        if shape is not None:
            assert tuple(img.shape[1:]) == shape, (tuple(img.shape), shape)
        n += img.shape[0]
    del loader
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    assert n == n_expected, (n, n_expected)
    return n / wall, n / max(cpu, 1e-9)


def loader_of(ds, keys, batch, workers, collate=None):
    kw = dict(batch_size=batch, sampler=Keys(keys), num_workers=workers)
    if collate is not None:
        kw["collate_fn"] = collate
    if workers:
        kw["persistent_workers"] = False
    return torch.utils.data.DataLoader(ds, **kw)


# -- the run ---------------------------------------------------------------------------------

def draw_keys(rng, n, T, Y, X, size, window):
    keys = []
    for _ in range(n):
        r0, c0 = int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1))
        if window:
            t0 = int(rng.integers(0, T - WINDOW + 1))
            keys.append((r0, c0, t0, WINDOW))
        else:
            keys.append((r0, c0, 0, T))
    return keys


class Counter:
    """Requests and bytes at nginx (its access log) between two marks."""

    def __init__(self, ng):
        self.ng = ng

    def mark(self):
        return self.ng.mark()

    def since(self, m):
        reqs = self.ng.requests(m)
        return len(reqs), sum(int(q["bytes"]) for q in reqs)


def measure(name, run, keys, workers, counter, rows, repeats, regime, mode, dataset):
    res = []
    for _ in range(repeats):
        m = counter.mark() if counter else None
        a, b = run(keys, workers)
        q = counter.since(m) if counter else (None, None)
        res.append((a, b, *q))
    a = statistics.median(r[0] for r in res)
    b = statistics.median(r[1] for r in res)
    n = len(keys)
    reqs = None if counter is None else statistics.median(r[2] for r in res) / n
    byts = None if counter is None else statistics.median(r[3] for r in res) / n
    row = dict(dataset=dataset, regime=regime, mode=mode, workers=workers, peer=name, chips_s=a, chips_cpu_s=b,
               req=reqs, bytes=byts, chips=n)
    rows.append(row)
    extra = "" if reqs is None else f", {reqs:.1f} req/chip, {byts / 2**20:.2f} MiB/chip"
    print(f"  {dataset} {regime} {mode} w{workers} {name}: {a:.2f} chips/s, {b:.2f} chips/CPU-s{extra}", flush=True)


def peers(stores, size, batch, remote_base=None, ng_root=None, cog_threads=8, env=None, which=None):
    """name -> (run(keys, workers) -> (chips/s, chips/CPU-s), modes it can read)."""
    import rumi.torch as rt

    out = {}
    href = (lambda p: p if remote_base is None else remote_base + str(Path(p).relative_to(ng_root)))
    for name, (kind, path, extra) in stores.items():
        if which is not None and name not in which:
            continue
        if kind == "rumi":
            hdr = Path(str(path) + ".header").read_bytes()
            cat = extra["cat_remote"] if remote_base else extra["cat"]
            shape = extra["shape"]

            def chipds(keys, w, cat=cat, shape=shape):
                ds = rt.ChipDataset(cat, size=size, verify_size=False)
                ks = [(0, r0, c0) for r0, c0, _, _ in keys]
                return run_loader(ds.loader(ks, batch_size=batch, num_workers=w), len(keys), (shape[0], shape[1], size, size))

            def series(keys, w, path=path, hdr=hdr):
                # the process's share of the cores decodes (rumi.open's default threads at 0 workers)
                threads = max(1, (os.cpu_count() or 1) // max(1, w))
                return run_loader(loader_of(RumiSeries(href(str(path)), hdr, size, 1, threads), keys, batch, w),
                                  len(keys))

            out[name + " ChipDataset"] = (chipds, ("all",))
            out[name + " Dataset"] = (series, ("all", "w12"))
        elif kind == "zarr":
            def zrun(keys, w, path=path):
                return run_loader(loader_of(ZarrSeries(href(str(path)), size, 1), keys, batch, w), len(keys))

            out[name] = (zrun, ("all", "w12"))
        elif kind == "cog":
            paths = [href(str(p)) if remote_base is None else "/vsicurl/" + href(str(p)) for p in path]

            def crun(keys, w, paths=paths):
                return run_loader(loader_of(CogSeries(paths, size, 1, cog_threads, env or {}), keys, batch, w),
                                  len(keys))

            out[name] = (crun, ("all", "w12"))

            def tgrun(keys, w, paths=paths, extra=extra):
                from torchgeo.datasets import stack_samples

                tg = torchgeo_series(paths, env or {})
                q = TorchGeoQueries(keys, extra["gt"], extra["times"], size)
                return run_loader(torch.utils.data.DataLoader(tg, batch_size=batch, sampler=q, num_workers=w,
                                                              collate_fn=stack_samples), len(keys))

            out["torchgeo (" + name + ")"] = (tgrun, ("all", "w12"))
    return out


def check_pixels(stores, arr, size):
    """Every peer reads the same samples as the array (one all-dates chip, one window)."""
    rng = np.random.default_rng(7)
    T, B, Y, X = arr.shape
    for key in draw_keys(rng, 1, T, Y, X, size, False) + draw_keys(rng, 1, T, Y, X, size, True):
        r0, c0, t0, nt = key
        want = np.asarray(arr[t0:t0 + nt, :, r0:r0 + size, c0:c0 + size])
        for name, (kind, path, extra) in stores.items():
            if kind == "rumi":
                ds = RumiSeries(str(path), None, size, 1)
            elif kind == "zarr":
                ds = ZarrSeries(str(path), size, 1)
            else:
                ds = CogSeries(path, size, 1, 2, {})
            got = ds.read(ds.handle(), *key)
            assert np.array_equal(got, want), (name, key)
    print("  pixels: every store reads the array's samples", flush=True)


def build_stores(root, name, arr, times, gt, crs, tile, units, zarr_chain, strip, extra_tiles=()):
    st = {}
    for u in units:
        p = root / f"{name}_u{u}_t{tile}.rumi"
        write_rumi(p, arr, times, gt, crs, tile, u, strip)
        st[f"rumi u{u} t{tile}"] = ("rumi", p, {})
    for u, t in extra_tiles:
        p = root / f"{name}_u{u}_t{t}.rumi"
        write_rumi(p, arr, times, gt, crs, t, u, max(strip, t))
        st[f"rumi u{u} t{t}"] = ("rumi", p, {})
    T = arr.shape[0]
    for tc in (10, T):
        p = root / f"{name}_zarr_c{tc}_t{tile}_{zarr_chain}.zarr"
        write_zarr(p, arr, tc, tile, zarr_chain, 4 * tile)
        st[f"zarr ({'10' if tc == 10 else 'T'},C,{tile},{tile})"] = ("zarr", p, {})
    cogs = write_cogs(root / f"{name}_cogs_t{tile}", arr, times, gt, crs, tile)
    st["GeoTIFF per date"] = ("cog", cogs, {"gt": gt, "times": times})
    return st


def choose_zarr_chain(root, name, arr, tile):
    """The smallest of ZARR_CHAINS on a (T, C, 4 tiles, 4 tiles) corner of arr."""
    sub = np.asarray(arr[:, :, :2 * tile, :2 * tile])
    sizes = {}
    for chain in ZARR_CHAINS:
        p = root / f"{name}_chainprobe_{chain}.zarr"
        write_zarr(p, sub, sub.shape[0], tile, chain, 2 * tile)
        sizes[chain] = size_of(p)
    best = min(sizes, key=sizes.get)
    print(f"  zarr chains on a corner: " + ", ".join(f"{k} {v / 2**20:.2f} MiB" for k, v in sizes.items())
          + f" -> {best}", flush=True)
    return best


# -- the zarr suite: Zarr at its fastest and at its smallest (issue 41) ----------------------

def zarr_suite_stores(root, name, arr, times, gt, crs, tiles, smallest):
    """label -> (kind, path, note): rumi Cubes (frame unit 9, the Cube default; tiles `tiles`) and
    the Zarr stores a speed-minded and a size-minded user would write."""
    T, B, Y, X = arr.shape
    st = {}
    for tile in tiles:
        p = root / f"{name}_u9_t{tile}.rumi"
        write_rumi(p, arr, times, gt, crs, tile, 9, max(512, tile))
        st[f"rumi t{tile}" + (" (defaults)" if tile == 256 else "")] = ("rumi", p, "unit 9, level 7, --graph auto")
    for chain, tc, shard, role in (("blosc-zstd-shuffle", T, None, "fastest"),
                                   ("blosc-zstd-shuffle", T, 1024, "fastest"),
                                   ("blosc-zstd-shuffle", 8, 1024, "fastest"),
                                   ("blosc-lz4-shuffle", T, None, "fastest"),
                                   ("blosc-lz4-shuffle", T, 1024, "fastest"),
                                   (smallest, T, None, "smallest"),
                                   (smallest, T, 1024, "smallest")):
        if tc > T:
            continue
        s = f"_s{shard}" if shard else ""
        p = root / f"{name}_zarr_{chain}_c{tc}_t256{s}.zarr"
        write_zarr(p, arr, tc, 256, chain, shard)
        chunk = f"({'T' if tc == T else tc},C,256,256)"
        sp = shard and min(shard, -(-Y // 256) * 256)
        label = f"zarr {chain} {chunk}" + (f" in (T,C,{sp},{sp})" if shard else "")
        st[label] = ("zarr", p, role)
    return st


def zarr_suite_open(kind, path):
    """(handle, read(handle, r0, c0, t0, nt, size) -> array): each store opened once, as a user
    who wants speed would."""
    if kind == "rumi":
        ds = rumi.open(str(path))  # its .header sidecar; default threads (the CPU count)
        ds.set_cache_bytes(0)  # every chip decodes its frames, as Zarr's reads do

        def read(h, r0, c0, t0, nt, size):
            t = None if nt == h.shape[0] else slice(t0, t0 + nt)
            return h.read(t=t, window=(r0, c0, size, size))

        return ds, read
    import zarr

    z = zarr.open_array(str(path), mode="r")

    def read(h, r0, c0, t0, nt, size):
        if nt == h.shape[0]:
            return h[:, :, r0:r0 + size, c0:c0 + size]
        return h[t0:t0 + nt, :, r0:r0 + size, c0:c0 + size]

    return z, read


def zarr_suite(args, root):
    import warnings

    import zarr

    warnings.filterwarnings("ignore", message="Numcodecs codecs are not in the Zarr version 3 specification")
    T, B, S = (args.dates or (24 if args.quick else 48), args.bands or 3, args.pixels or (512 if args.quick else 1024))
    size, window = 256, min(WINDOW, T)
    print(f"zarr suite: zarr {zarr.__version__} (async.concurrency {zarr.config.get('async.concurrency')}, "
          f"threading.max_workers {zarr.config.get('threading.max_workers')}: the defaults)", flush=True)
    arr, times = make_raw(root, args.quick, (T, B, S))
    gt, crs = (500000.0, 10.0, 0.0, 5000000.0, 0.0, -10.0), CRS
    print(f"s2year: {T} x {B} x {S} x {S} {arr.dtype}, {arr.nbytes / 2**20:.0f} MiB raw", flush=True)
    t0 = time.perf_counter()
    smallest = choose_zarr_chain(root, f"s2year_{T}x{B}x{S}", arr, 256)
    stores = zarr_suite_stores(root, f"s2year_{T}x{B}x{S}", arr, times, gt, crs, args.rumi_tiles, smallest)
    print(f"  stores ready in {time.perf_counter() - t0:.0f} s", flush=True)
    rng = np.random.default_rng(41)
    modes = {"all": draw_keys(rng, args.zarr_chips, T, S, S, size, False)}
    if window < T:
        modes["w12"] = draw_keys(rng, args.zarr_window_chips, T, S, S, size, True)
    # open each store once; its pixels checked (one all-date chip and one window, also the warm-up)
    opened = {}
    for label, (kind, path, _) in stores.items():
        h, read = zarr_suite_open(kind, path)
        for r0, c0, t0_, nt in draw_keys(np.random.default_rng(7), 2, T, S, S, size, False) + \
                draw_keys(np.random.default_rng(8), 1, T, S, S, size, True):
            got = read(h, r0, c0, t0_, nt, size)
            want = np.asarray(arr[t0_:t0_ + nt, :, r0:r0 + size, c0:c0 + size])
            assert got.dtype == want.dtype and np.array_equal(got, want), (label, (r0, c0, t0_, nt))
        opened[label] = (h, read)
    threads = {h.threads for h, _ in opened.values() if isinstance(h, rumi.Dataset)}
    print(f"  pixels: every store reads the array's samples; rumi decodes on {threads} threads (its default)",
          flush=True)
    labels = list(stores)
    res = {(m, l): [] for m in modes for l in labels}
    for rep in range(args.zarr_repeats):
        for mode, keys in modes.items():
            order = labels[rep % len(labels):] + labels[:rep % len(labels)]
            for label in order:
                h, read = opened[label]
                wall0, cpu0 = time.perf_counter(), _cpu_self()
                for r0, c0, t0_, nt in keys:
                    read(h, r0, c0, t0_, nt, size)
                wall, cpu = time.perf_counter() - wall0, _cpu_self() - cpu0
                res[(mode, label)].append((len(keys) / wall, len(keys) / max(cpu, 1e-9)))
        print(f"  repetition {rep + 1}/{args.zarr_repeats} done, load average {os.getloadavg()[0]:.2f}", flush=True)
    raw = arr.nbytes
    rows = []
    for label in labels:
        kind, path, note = stores[label]
        # rumi: the file and its header blob sidecar
        nbytes = size_of(path) + (size_of(str(path) + ".header") if kind == "rumi" else 0)
        row = dict(store=label, kind=kind, role=note, bytes=nbytes)
        for mode in modes:
            v = res[(mode, label)]
            row[mode] = dict(chips_s=statistics.median(a for a, _ in v), chips_cpu_s=statistics.median(b for _, b in v),
                             chips=len(modes[mode]), repeats=len(v), each_s=[a for a, _ in v],
                             each_cpu_s=[b for _, b in v])
        rows.append(row)
    zr = [r for r in rows if r["kind"] == "zarr"]
    smallest_zarr = min(zr, key=lambda r: r["bytes"])
    fastest = {(m, k): max(zr, key=lambda r: r[m][k]) for m in modes for k in ("chips_s", "chips_cpu_s")}
    mode_name = {"all": "all dates", "w12": f"{window}-date window"}
    cols = [("store", lambda r: r["store"]), ("MiB", lambda r: f"{r['bytes'] / 2**20:.1f}"),
            ("raw / size", lambda r: f"{raw / r['bytes']:.3f}")]
    for m in modes:
        cols += [(f"{mode_name[m]}: chips/s", lambda r, m=m: f"{r[m]['chips_s']:.2f}"),
                 ("chips/CPU-s", lambda r, m=m: f"{r[m]['chips_cpu_s']:.2f}"),
                 ("CPU / wall", lambda r, m=m: f"{r[m]['chips_s'] / r[m]['chips_cpu_s']:.2f}")]
    table(rows, f"rumi and Zarr v3, {T} x {B} x {S} x {S} uint16, {len(modes['all'])} all-date chips"
          + (f" and {len(modes['w12'])} windows" if "w12" in modes else "")
          + f", median of {args.zarr_repeats}", cols)
    print()
    for m in modes:
        for k, what in (("chips_cpu_s", "per CPU-second"), ("chips_s", "per wall second")):
            print(f"fastest Zarr, {mode_name[m]}, {what}: {fastest[(m, k)]['store']} ({fastest[(m, k)][m][k]:.2f})")
    print(f"smallest Zarr: {smallest_zarr['store']} ({smallest_zarr['bytes'] / 2**20:.1f} MiB)")
    ratios = []
    for r in rows:
        if r["kind"] != "rumi":
            continue
        q = dict(store=r["store"], size=smallest_zarr["bytes"] / r["bytes"])
        for m in modes:
            for k in ("chips_cpu_s", "chips_s"):
                q[f"{m}_{k}"] = r[m][k] / fastest[(m, k)][m][k]
        ratios.append(q)
    rcols = [("rumi", lambda q: q["store"])]
    for m in modes:
        rcols += [(f"{mode_name[m]}: / fastest Zarr per CPU-s", lambda q, m=m: f"{q[f'{m}_chips_cpu_s']:.2f}x"),
                  ("per wall-s", lambda q, m=m: f"{q[f'{m}_chips_s']:.2f}x")]
    rcols.append(("smallest Zarr size / rumi size", lambda q: f"{q['size']:.3f}x"))
    table(ratios, "rumi against the fastest Zarr store (each figure its own fastest) and the smallest", rcols)
    out = root / f"zarr_suite_{T}x{B}x{S}.json"
    out.write_text(json.dumps(dict(shape=[T, B, S, S], rows=rows, ratios=ratios, smallest=smallest_zarr["store"],
                                   fastest={f"{m} {k}": v["store"] for (m, k), v in fastest.items()}), indent=1))
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}; results in {out}", flush=True)


def table(rows, title, cols):
    print(f"\n#### {title}\n")
    print("| " + " | ".join(c for c, _ in cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(f(r) for _, f in cols) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="T = 48, 1024 x 1024 (a smoke run)")
    ap.add_argument("--chips", type=int, default=12, help="chips per local run (all dates)")
    ap.add_argument("--window-chips", type=int, default=24, help="chips per local run (12-date window)")
    ap.add_argument("--remote-chips", type=int, default=8)
    ap.add_argument("--slow-chips", type=int, default=2, help="chips per run for the per-date GeoTIFF peers over HTTP")
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--workers", type=lambda s: [int(v) for v in s.split(",")], default=[0, 2])
    ap.add_argument("--delay", type=float, default=0.02)
    ap.add_argument("--datasets", default="ndvi,s2year")
    ap.add_argument("--regimes", default="local,remote")
    ap.add_argument("--root", default=str(REPO / "build" / "ts-bench"))
    ap.add_argument("--suite", default="zarr,loaders", help="zarr (issue 41, no torch), loaders (issue 35), or both")
    ap.add_argument("--dates", type=int, help="zarr suite: T (default 48; --quick 24)")
    ap.add_argument("--bands", type=int, help="zarr suite: bands, at most 4 (default 3)")
    ap.add_argument("--pixels", type=int, help="zarr suite: rows = columns (default 1024; --quick 512)")
    ap.add_argument("--rumi-tiles", type=lambda s: [int(v) for v in s.split(",")], default=[256],
                    help="zarr suite: rumi tile sizes (frame unit 9)")
    ap.add_argument("--zarr-chips", type=int, help="zarr suite: all-date chips per repetition (default 40; --quick 8)")
    ap.add_argument("--zarr-window-chips", type=int, help="zarr suite: windows per repetition (default 40; --quick 8)")
    ap.add_argument("--zarr-repeats", type=int, help="zarr suite: repetitions (default 3; --quick 1)")
    args = ap.parse_args()
    args.zarr_chips = args.zarr_chips or (8 if args.quick else 40)
    args.zarr_window_chips = args.zarr_window_chips or (8 if args.quick else 40)
    args.zarr_repeats = args.zarr_repeats or (1 if args.quick else 3)
    root = Path(args.root) / ("quick" if args.quick else "full")
    root.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start; "
          f"rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__})", flush=True)
    suites = args.suite.split(",")
    if "zarr" in suites:
        zarr_suite(args, root)
    if "loaders" in suites:
        if torch is None:
            print("loaders suite skipped: no torch in this Python (run it in the TorchGeo venv)", flush=True)
        else:
            loaders_suite(args, root)


def loaders_suite(args, root):
    import torchgeo
    import zarr

    print(f"loaders suite: torch {torch.__version__}, torchgeo {torchgeo.__version__}, zarr {zarr.__version__}", flush=True)
    rows, sizes = [], []
    for dsname in args.datasets.split(","):
        t0 = time.perf_counter()
        if dsname == "ndvi":
            arr, times, gt, crs = ndvi()
            size, tile, units, strip, extra_tiles = 64, 64, (0, 1), 64, ()
        else:
            arr, times = make_raw(root, args.quick)
            gt, crs = (500000.0, 10.0, 0.0, 5000000.0, 0.0, -10.0), CRS
            # tiles of 512 (units 9 and 4) in the smoke run only: larger and slower there (each
            # unaligned 256 x 256 chip decodes 2.25 tiles of 512 on average against 4 of 256)
            # unit 3 (b t h w) in the smoke run only: the size and speed of unit 4 there
            size, tile, units, strip = 256, 256, (0, 9, 3, 4) if args.quick else (0, 9, 4), 512
            extra_tiles = ((9, 512), (4, 512)) if args.quick else ()
        T, B, Y, X = arr.shape
        print(f"{dsname}: {T} x {B} x {Y} x {X} {arr.dtype}, {arr.nbytes / 2**20:.0f} MiB raw", flush=True)
        chain = choose_zarr_chain(root, dsname, arr, tile)
        stores = build_stores(root, dsname, arr, times, gt, crs, tile, units, chain, strip, extra_tiles)
        for name, (kind, path, extra) in stores.items():
            if kind == "rumi":
                extra["cat"] = rumi.Catalog.build([str(path)], root / f"{path.name}.parquet")
                extra["shape"] = (T, B)
        check_pixels(stores, arr, size)
        raw = arr.nbytes
        best_other = None
        for name, (kind, path, extra) in stores.items():
            s = size_of(path) if kind != "cog" else sum(size_of(p) for p in path)
            sizes.append(dict(dataset=dsname, store=name, bytes=s, ratio=raw / s))
            if kind != "rumi":
                best_other = s if best_other is None else min(best_other, s)
        for r in sizes:
            if r["dataset"] == dsname:
                r["vs_best_peer"] = best_other / r["bytes"]
        print(f"  stores ready in {time.perf_counter() - t0:.0f} s", flush=True)
        rng = np.random.default_rng(1)
        keys_all = draw_keys(rng, args.chips, T, Y, X, size, False)
        keys_w = draw_keys(rng, args.window_chips, T, Y, X, size, True)
        if "local" in args.regimes:
            ps = peers(stores, size, args.batch)
            for mode, keys in (("all", keys_all), ("w12", keys_w)):
                for w in args.workers:
                    for name, (run, modes) in ps.items():
                        if mode in modes:
                            measure(name, run, keys, w, None, rows, args.repeats, "local", mode, dsname)
        if "remote" in args.regimes and dsname != "ndvi":
            remote(args, root, stores, size, keys_all, keys_w, rows, dsname)
    table(sizes, "Store sizes", [("data", lambda r: r["dataset"]), ("store", lambda r: r["store"]),
                                 ("MiB", lambda r: f"{r['bytes'] / 2**20:.1f}"), ("ratio", lambda r: f"{r['ratio']:.3f}"),
                                 ("best peer / this", lambda r: f"{r['vs_best_peer']:.3f}")])
    for (d, regime, mode) in sorted({(r["dataset"], r["regime"], r["mode"]) for r in rows}):
        sel = [r for r in rows if (r["dataset"], r["regime"], r["mode"]) == (d, regime, mode)]
        cols = [("peer", lambda r: r["peer"]), ("workers", lambda r: str(r["workers"])),
                ("chips/s", lambda r: f"{r['chips_s']:.2f}"), ("chips/CPU-s", lambda r: f"{r['chips_cpu_s']:.2f}")]
        if regime == "remote":
            cols += [("req/chip", lambda r: f"{r['req']:.1f}"), ("MiB/chip", lambda r: f"{r['bytes'] / 2**20:.2f}")]
        cols.append(("chips", lambda r: str(r["chips"])))
        table(sel, f"{d}, {regime}, {'all dates' if mode == 'all' else '12-date window'}", cols)
    out = root / "results.json"
    out.write_text(json.dumps(dict(sizes=sizes, rows=rows), indent=1, default=str))
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}; results in {out}")


def remote(args, root, stores, size, keys_all, keys_w, rows, dsname):
    sys.path.insert(0, str(REPO / "tests" / "support"))
    sys.path.insert(0, str(REPO / "bench"))
    from delay_proxy import ProxyProcess
    from nginx_server import Nginx

    ng = Nginx(Path(tempfile.mkdtemp(prefix="rumi-ts-nginx-")), root).start()
    px = ProxyProcess(ng.port, args.delay)
    try:
        base = f"http://127.0.0.1:{px.port}/"
        for name, (kind, path, extra) in stores.items():
            if kind == "rumi":
                extra["cat_remote"] = rumi.Catalog.build([base + path.name], root / f"{path.name}.remote.parquet")
        env = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif",
               "GDAL_HTTP_MULTIRANGE": "YES", "GDAL_HTTP_MERGE_CONSECUTIVE_RANGES": "YES", "GDAL_HTTP_VERSION": "1.1"}
        which = [n for n in stores if n in ("rumi u9 t256", "rumi u0 t256", "rumi u4 t256")
                 or stores[n][0] in ("zarr", "cog")]
        ps = peers(stores, size, args.batch, remote_base=base, ng_root=root, cog_threads=16, env=env, which=which)
        counter = Counter(ng)
        label = f"remote +{args.delay * 1000:.0f} ms"
        for mode, keys in (("all", keys_all), ("w12", keys_w)):
            for w in args.workers:
                for name, (run, modes) in ps.items():
                    if mode not in modes:
                        continue
                    slow = name.startswith(("GeoTIFF", "torchgeo"))
                    ks = keys[:args.slow_chips if slow else args.remote_chips]
                    measure(name, run, ks, w, counter, rows, args.repeats, label, mode, dsname)
    finally:
        px.stop()
        ng.stop()


if __name__ == "__main__":
    main()
