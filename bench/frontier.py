"""The size/speed frontier (issue 48, items 3-4): every contender at the settings a demanding user
picks, on the real rasters and a 48-date Cube, in ONE run, one process; a picture per input and
the dominance tables (which rumi setting beats each fast peer setting on both axes): caches off,
caches on, single-date chips on the Cube, and over a 20 ms link.

Contenders (each written here from the same array, its pixels checked against it):
  - rumi: `graph=` auto (the default), auto:25, auto:0 (the smallest), fast (rumi.write, tiles 256;
    on Cubes of 512 x 512 or more also fast with tiles 128; on inputs of several dates and one band,
    whose default frame unit 0 makes a frame a date, also every setting with frame unit 1, every
    date of a tile location in one frame: `u1`); read through rumi.open(...) kept open;
  - Zarr v3 (zarr-python 3, numcodecs): blosc-lz4 byte shuffle and bit shuffle, blosc-zstd byte
    shuffle (Blosc's default level 5), pcodec (numcodecs.zarr3.PCodec, level 8), numcodecs' delta
    + blosc-zstd shuffle, zstd 5 in shards of (T, C, 1024, 1024); chunks (T, C, 256, 256) (a Cube's
    single-date chip therefore decodes every date of its chunks: the layout for all-date chips);
    on Cubes also the layout a single-date user picks, chunks (1, C, 256, 256), with blosc-lz4
    shuffle, blosc-zstd shuffle, pcodec and zstd 5 in shards of (T, C, 1024, 1024) (single-date
    chips only); zarr.open_array once, zarr's default concurrency;
  - COG (tiled GeoTIFF 256, pixel-interleaved, no overviews; one file per date for Cubes, as a
    time series is kept): ZSTD 1 and 9, DEFLATE and LZW, each with its predictor (2 integers, 3
    floats), LERC_ZSTD lossless (MAX_Z_ERROR 0); rasterio datasets kept open;
  - JPEG-XL lossless effort 1 and HTJ2K (reversible) through imagecodecs, each 256 x 256 tile of
    each band alone, in memory (no file format: the codec's own cost); unsigned integers only
    (JPEG-XL) / integers only (HTJ2K); caches off only (they have none).
Per contender: bytes (raw / bytes), encode MB/s per CPU-second, decode of the whole input
from a fresh handle (files in the page cache; GDAL_NUM_THREADS unset, zarr's and rumi's default
threads) in MB of raw samples per CPU-second, and random unaligned chips (256 x 256; 64 x 64 on
inputs under 512 pixels a side) per CPU-second and per wall second, single date and (Cubes) all
dates, in two phases of the same run:
  - caches off: rumi's decoded-frame cache 0, GDAL's block cache 0 (GDALSetCacheMax64; GDAL still
    reuses the last block it decoded), Zarr has none: every chip decodes its frames / tiles /
    chunks; the same chips every repetition;
  - caches on, as a demanding user sets them up: rumi's decoded-frame cache at its default
    (32 MiB per open dataset; --rumi-cache-mb), GDAL's block cache at its default (5 % of the
    memory; --gdal-cache-mb), Zarr through zarr.experimental.cache_store.CacheStore over the
    store (zarr-python 3 has no cache of decoded chunks: this one keeps the encoded chunks, in a
    MemoryStore of GDAL's budget); handles opened for the phase and kept open; fresh random chips
    every repetition (a training epoch's), so a cache serves what the chips before left in it; and
    every rumi setting again with its cache at GDAL's budget (rows "..., cache = GDAL's": the same
    budget for both, as a user who sizes one would size the other).
Over the link (--link, default landsat8,cube): the input's files served by loopback nginx behind
bench/delay_proxy.py (+20 ms a request, --delay; requests counted at the proxy), caches on at
GDAL's budget for all three (rumi's decoded-frame cache too) and cold at each repetition's
and mode (handles opened again, GDAL's block and /vsicurl/ caches emptied: every input fits the budget,
so warm caches would read nothing over the link); rumi.open(URL); Zarr through zarr's FsspecStore
(fsspec + aiohttp) under the CacheStore;
COG through GDAL's /vsicurl/, rasterio datasets kept open through a mode's chips, the dates of a chip read on a pool of
16 threads (one dataset per date), GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR,
CPL_VSIL_CURL_ALLOWED_EXTENSIONS=.tif, GDAL_HTTP_MULTIRANGE=YES, GDAL_HTTP_MERGE_CONSECUTIVE_RANGES=YES,
GDAL_HTTP_VERSION=1.1 (its /vsicurl/ region cache on, its default). A subset of the settings there
(LINK below); --link-chips chips per repetition, fresh each one; each reader reads them one after
the other (a chip's own requests concurrent) and, from cold again, --link-batch of them at once as a
training loader with reads in flight does (rumi's and zarr's reads on a pool of that many threads:
rumi's releases the GIL, zarr's run on its event loop; the COGs' (chip, date) reads on the pool of 16
threads, each chip on a copy of the datasets, as a GDAL dataset serves one thread at a time).
CPU-seconds: getrusage RUSAGE_SELF (every thread of this process: zarr's event loop, rumi's and
GDAL's decoders and HTTP clients); nginx and the proxy are other processes, not counted.
Contenders interleaved, the order rotating every repetition; medians.

    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/frontier.py [--quick] [--only landsat8,cube] [--link '']
        [--merge: the inputs measured replace theirs in the last results.json] [--link-only: the link alone]
    (zarr, numcodecs, pcodec and aiohttp: `pip install --target build/frontier-pkgs zarr numcodecs
    pcodec aiohttp`, found there by this script; imagecodecs and matplotlib from the venv)

Writes bench/results/frontier.md (tables), build/frontier/results.json, docs/img/frontier-<input>.png.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests" / "support"))
if (REPO / "build" / "frontier-pkgs").is_dir():
    sys.path.append(str(REPO / "build" / "frontier-pkgs"))

import numpy as np  # noqa: E402
import rasterio  # noqa: E402
from rasterio.windows import Window  # noqa: E402

import rumi  # noqa: E402
import timeseries_bench as tsb  # noqa: E402

warnings.filterwarnings("ignore", message="Numcodecs codecs are not in the Zarr version 3 specification")
DATA = tsb.DATA
RUMI_SETTINGS = ("auto", "auto:25", "auto:0", "fast")
ZARR = (("blosc-lz4-shuffle", None), ("blosc-lz4-bitshuffle", None), ("blosc-zstd-shuffle", None),
        ("pcodec", None), ("delta-blosc-zstd-shuffle", None), ("zstd", 1024))
COG = (("ZSTD 1", dict(compress="zstd", zstd_level=1), True), ("ZSTD 9", dict(compress="zstd", zstd_level=9), True),
       ("DEFLATE", dict(compress="deflate"), True), ("LZW", dict(compress="lzw"), True),
       ("LERC_ZSTD", dict(compress="lerc_zstd", max_z_error=0), False))
MB = 1e6
CEILING = Path(os.environ.get("DECODE_CEILING", REPO / "target" / "release" / "examples" / "decode_ceiling"))
ZARR_1DATE = (("blosc-lz4-shuffle", None), ("blosc-zstd-shuffle", None), ("pcodec", None), ("zstd", 1024))
# the settings measured over the link (names as the tables print them)
LINK = ("rumi auto (default)", "rumi auto:25", "rumi fast", "rumi fast t128", "zarr blosc-lz4-shuffle", "zarr pcodec", "zarr zstd sharded",
        "zarr blosc-lz4-shuffle, 1-date chunks", "COG ZSTD 1 + predictor", "COG ZSTD 9 + predictor")
LINK_GDAL = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif",
             "GDAL_HTTP_MULTIRANGE": "YES", "GDAL_HTTP_MERGE_CONSECUTIVE_RANGES": "YES", "GDAL_HTTP_VERSION": "1.1"}
# the caches' budgets in bytes with caches on (main() sets them: rumi None = its default)
CACHE = {"rumi": None, "gdal": 0, "zarr": 0}


def _gdal():
    import ctypes

    lib = next(line.split()[-1] for line in open("/proc/self/maps") if "libgdal" in line)
    g = ctypes.CDLL(lib)
    g.GDALSetCacheMax64.argtypes = [ctypes.c_int64]
    g.GDALGetCacheMax64.restype = ctypes.c_int64
    return g


def gdal_cache(nbytes):
    """GDAL's block cache budget, now (GDALSetCacheMax64 of the libgdal rasterio loaded: GDAL_CACHEMAX
    is read once); 0 flushes it."""
    g = _gdal()
    g.GDALSetCacheMax64(int(nbytes))
    assert g.GDALGetCacheMax64() == int(nbytes)


def cold_caches():
    """GDAL's block cache and its /vsicurl/ cache emptied (then its budget back)."""
    gdal_cache(0)
    _gdal().VSICurlClearCache()
    gdal_cache(CACHE["gdal"])


# -- inputs: (T, C, Y, X) arrays -------------------------------------------------------------

def _tif(name, crop=None):
    with rasterio.open(DATA / name) as src:
        a = src.read()
        gt, crs = src.transform.to_gdal(), src.crs.to_epsg()
    if crop:
        a = a[:, :crop, :crop]
    return a[None], gt, crs


def inputs(quick, only):
    """name -> (what, loader() -> (arr (T, C, Y, X), times, geotransform, epsg))."""
    one = tsb.times_of(1)
    crop = 1024 if quick else None

    def single(name, crop=None):
        def load():
            a, gt, crs = _tif(name, crop)
            return a, one, gt, crs
        return load

    def s1():
        a, gt, crs = _tif("S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif")
        b, _, _ = _tif("S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif")
        return np.concatenate([a, b]), tsb.times_of(2, "2015-03-09", 365 * 24 * 3600), gt, crs

    def ndvi():
        a, times, gt, crs = tsb.ndvi()
        return np.ascontiguousarray(a), times, gt, crs

    def cube():
        T, B, S = 48, 3, 512 if quick else 1024
        root = REPO / "build" / "ts-bench" / "frontier"
        root.mkdir(parents=True, exist_ok=True)
        arr, times = tsb.make_raw(root, True, (T, B, S))
        return np.ascontiguousarray(arr), times, (500000.0, 10.0, 0.0, 5000000.0, 0.0, -10.0), tsb.CRS

    all_ = {
        "landsat8": ("Landsat 8 OLI, uint16, 3 bands" + (" (1024 x 1024 crop)" if quick else ""),
                     single("landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif", crop)),
        "sentinel2": ("Sentinel-2, uint16, 4 bands, 300 x 200", single("xrspatial_s2_4band_10m_uint16.tif")),
        "naip": ("NAIP, uint8, 4 bands, 300 x 300", single("naip_m_3607824_se_17_1_20160620_sub.tif")),
        "dem": ("LANDFIRE elevation, int16, 1013 x 799", single("lf_elev_220_mt_hood_utm.tif")),
        "s1pair": ("Sentinel-1 pair, float32 dB, 2 dates x 268 x 217", s1),
        "ndvi68": ("NDVI stack, float32, 68 dates x 101 x 100", ndvi),
        "cube": ("synthetic Cube, uint16, 48 dates x 3 bands x " + ("512 x 512" if quick else "1024 x 1024"), cube),
    }
    return {k: v for k, v in all_.items() if not only or k in only}


# -- contenders ------------------------------------------------------------------------------

class Rumi:
    family = "rumi"

    def __init__(self, graph, tile=256, unit=None):
        """unit: the frame unit (None: the writer's default for the shape)."""
        self.graph, self.tile, self.unit = graph, tile, unit
        self.name = (f"rumi {graph}" + (" (default)" if graph == "auto" and unit is None else "")
                     + (f" t{tile}" if tile != 256 else "") + (f" u{unit}" if unit is not None else ""))
        self.modes = ("single", "all")

    def write(self, root, arr, times, gt, crs):
        self.path = root / f"rumi_{self.graph.replace(':', '_')}_t{self.tile}{'' if self.unit is None else f'_u{self.unit}'}.rumi"
        for p in (self.path, Path(str(self.path) + ".header"), Path(str(self.path) + ".aux.xml")):
            p.unlink(missing_ok=True)
        data = arr[0] if arr.shape[0] == 1 else arr
        rumi.write(self.path, data, bands=[f"b{i + 1}" for i in range(arr.shape[1])], times=list(times),
                   crs=crs, geotransform=gt, graph=self.graph, tile=self.tile, frame_unit=self.unit)
        self.T = arr.shape[0]

    def files(self):
        return [self.path, Path(str(self.path) + ".header")]

    def open(self, cache=False):
        ds = rumi.open(self.path)  # default threads
        if not cache:
            ds.set_cache_bytes(0)  # every chip decodes its frames (see the module's docstring)
        elif CACHE["rumi"] is not None:
            ds.set_cache_bytes(CACHE["rumi"])
        return ds

    def open_url(self, base):
        ds = rumi.open(base + self.path.name)
        ds.set_cache_bytes(CACHE["gdal"] if CACHE["rumi"] is None else CACHE["rumi"])  # the peers' budget
        return ds

    def chip(self, h, r, c, t0, nt, s):
        if self.T == 1:
            return h.read(window=(r, c, s, s))
        return h.read(t=slice(t0, t0 + nt), window=(r, c, s, s))

    def chips(self, h, keys, s):
        """keys read at once on a pool of threads (as the chip loader reads remote chips: at most
        max_in_flight reads in flight)."""
        return list(_pool(len(keys)).map(lambda k: self.chip(h, *k, s), keys))

    def decode_all(self, h):
        h.read()

    def codec_alone(self, arr, reps):
        """CPU seconds of one thread decoding every frame from memory (bench/decode_ceiling.rs)."""
        out = subprocess.run([str(CEILING), "--threads", "1", "--cpu", "--reps", str(3 * reps + 2), str(self.path)],
                             check=True, capture_output=True, text=True).stdout
        return statistics.median(json.loads(out.strip().splitlines()[-1])["runs_s"])


class RumiBudget(Rumi):
    """A Rumi contender's file read with its decoded-frame cache at GDAL's budget (caches on only)."""

    budget = True

    def __init__(self, base):
        self.__dict__.update(base.__dict__)
        self.base = base.name
        self.name = f"{base.name}, cache = GDAL's"

    def open(self, cache=False):
        ds = rumi.open(self.path)
        ds.set_cache_bytes(CACHE["gdal"])
        return ds


class Zarr:
    family = "zarr"

    def __init__(self, chain, shard, tchunk=None):
        """tchunk: dates per chunk (None: all of them)."""
        self.chain, self.shard, self.tchunk = chain, shard, tchunk
        self.name = f"zarr {chain}" + (" sharded" if shard else "") + (", 1-date chunks" if tchunk == 1 else "")
        self.modes = ("single",) if tchunk == 1 else ("single", "all")

    def write(self, root, arr, times, gt, crs):
        self.path = root / f"zarr_{self.chain}{'_s' if self.shard else ''}{'_t1' if self.tchunk == 1 else ''}.zarr"
        shutil.rmtree(self.path, ignore_errors=True)
        tsb.write_zarr(self.path, arr, self.tchunk or arr.shape[0], 256, self.chain, self.shard)

    def files(self):
        return [self.path]

    @staticmethod
    def _cached(store):
        """The store under zarr-python 3's cache (encoded chunks, in memory, GDAL's budget)."""
        from zarr.experimental.cache_store import CacheStore
        from zarr.storage import MemoryStore

        return CacheStore(store, cache_store=MemoryStore(), max_size=CACHE["zarr"])

    def open(self, cache=False):
        import zarr
        from zarr.storage import LocalStore

        if not cache:
            return zarr.open_array(str(self.path), mode="r")
        return zarr.open_array(self._cached(LocalStore(str(self.path), read_only=True)), mode="r")

    def open_url(self, base):
        import zarr
        from zarr.storage import FsspecStore

        return zarr.open_array(self._cached(FsspecStore.from_url(base + self.path.name, read_only=True)), mode="r")

    def chip(self, h, r, c, t0, nt, s):
        return h[t0:t0 + nt, :, r:r + s, c:c + s]

    def chips(self, h, keys, s):
        """keys read at once on a pool of threads (each a synchronous zarr read: zarr runs every read's
        chunk requests on its one event loop, so all the chips' chunks are in flight together)."""
        return list(_pool(len(keys)).map(lambda k: self.chip(h, *k, s), keys))

    def decode_all(self, h):
        h[...]

    def codec_alone(self, arr, reps):
        """CPU seconds of decoding every (T, C, 256, 256) chunk, encoded in memory by numcodecs with
        the store's codecs (no store, no zarr pipeline)."""
        import numcodecs

        if self.chain == "pcodec":
            from numcodecs.pcodec import PCodec

            codecs = [PCodec(level=8)]
        elif self.chain == "zstd":
            codecs = [numcodecs.Zstd(level=5)]
        else:
            c = self.chain.replace("delta-", "")
            shuffle = numcodecs.Blosc.BITSHUFFLE if c.endswith("bitshuffle") else numcodecs.Blosc.SHUFFLE
            codecs = [numcodecs.Blosc(cname=c.split("-")[1], clevel=5, shuffle=shuffle)]
            if self.chain.startswith("delta-"):
                codecs.insert(0, numcodecs.Delta(dtype=str(arr.dtype)))
        T, C, Y, X = arr.shape
        tc = self.tchunk or T
        chunks = []
        for t in range(0, T, tc):
            for r in range(0, Y, 256):
                for c in range(0, X, 256):
                    b = np.ascontiguousarray(arr[t:t + tc, :, r:r + 256, c:c + 256])
                    for k in codecs:
                        b = k.encode(b)
                    chunks.append((bytes(b), arr[t:t + tc, :, r:r + 256, c:c + 256].shape))

        def dec():
            for b, shape in chunks:
                for k in reversed(codecs):
                    b = k.decode(b)
                np.frombuffer(b, arr.dtype).reshape(shape)

        return min(timed(dec, 0.05)[1] for _ in range(reps))


class Cog:
    family = "cog"

    def __init__(self, name, opts, predictor):
        self.label, self.opts, self.pred = name, opts, predictor
        self.name = f"COG {name}" + (" + predictor" if predictor else "")
        self.modes = ("single", "all")

    def write(self, root, arr, times, gt, crs):
        T, C, Y, X = arr.shape
        folder = root / f"cog_{self.label.replace(' ', '')}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        opts = dict(self.opts)
        if self.pred:
            opts["predictor"] = 3 if arr.dtype.kind == "f" else 2
        self.paths = []
        for t in range(T):
            p = folder / f"d{t:03d}.tif"
            with rasterio.open(p, "w", driver="GTiff", width=X, height=Y, count=C, dtype=arr.dtype,
                               crs=f"EPSG:{crs}", transform=rasterio.Affine.from_gdal(*gt), tiled=True,
                               blockxsize=256, blockysize=256, **opts) as d:
                d.write(arr[t])
            self.paths.append(p)

    def files(self):
        return self.paths

    def open(self, cache=False):
        return [rasterio.open(p) for p in self.paths]  # GDAL's cache: gdal_cache(), for the process

    def open_url(self, base, copies=1):
        """Every date's dataset over /vsicurl/ (opened on the pool), its reads on the pool: one
        dataset per date, so no dataset is read by two threads at once; `copies` sets of them for
        chips read at once (a GDAL dataset serves one thread at a time: chip i of a batch reads copy
        i; the copies share GDAL's /vsicurl/ cache of the file's bytes, not its block cache)."""
        pool = ThreadPoolExecutor(16)
        urls = ["/vsicurl/" + base + f"{p.parent.name}/{p.name}" for p in self.paths]
        return pool, [list(pool.map(rasterio.open, urls)) for _ in range(copies)]

    def chip(self, h, r, c, t0, nt, s):
        w = Window(c, r, s, s)
        if isinstance(h, tuple):
            pool, copies = h
            return np.stack(list(pool.map(lambda d: d.read(window=w), copies[0][t0:t0 + nt])))
        return np.stack([d.read(window=w) for d in h[t0:t0 + nt]])

    def chips(self, h, keys, s):
        """keys read at once: every (chip, date) on the pool of 16 threads, chip i from copy i."""
        pool, copies = h
        assert len(keys) <= len(copies), "one copy of the datasets a chip in flight"
        jobs = [(i, t, Window(c, r, s, s)) for i, (r, c, t0, nt) in enumerate(keys) for t in range(t0, t0 + nt)]
        got = list(pool.map(lambda j: copies[j[0]][j[1]].read(window=j[2]), jobs))
        out, at = [], 0
        for r, c, t0, nt in keys:
            out.append(np.stack(got[at:at + nt]))
            at += nt
        return out

    def decode_all(self, h):
        for d in h:
            d.read()

    @staticmethod
    def close(h):
        pool, copies = h if isinstance(h, tuple) else (None, [h])
        for d in (d for ds in copies for d in ds):
            d.close()
        if pool is not None:
            pool.shutdown()

    def codec_alone(self, arr, reps):
        """CPU seconds of decoding every tile of every file from memory with tifffile (imagecodecs:
        the same zstd / zlib / LZW / LERC libraries and the predictor), no GDAL."""
        import tifffile

        tiles = []
        for p in self.paths:
            with tifffile.TiffFile(p) as tf:
                page = tf.pages[0]
                data = p.read_bytes()
                tiles += [(page, data[o:o + n], i) for i, (o, n) in enumerate(zip(page.dataoffsets, page.databytecounts))]

        def dec():
            for page, b, i in tiles:
                page.decode(b, i)

        return min(timed(dec, 0.05)[1] for _ in range(reps))


class Tiles:
    """A codec's tiles in memory, each 256 x 256 tile of each band of each date alone."""

    family = "tiles"
    modes = ("single", "all")

    def __init__(self, codec):
        import imagecodecs as ic

        self.codec = codec
        if codec == "jxl":
            self.name, self.enc = "JPEG-XL lossless e1", lambda a: ic.jpegxl_encode(a, lossless=True, effort=1, numthreads=1)
            self.dec = lambda b: ic.jpegxl_decode(b, numthreads=1)
        else:
            self.name, self.enc, self.dec = "HTJ2K lossless", lambda a: ic.htj2k_encode(a, reversible=True), ic.htj2k_decode

    def usable(self, dtype):
        return dtype.kind == "u" if self.codec == "jxl" else dtype.kind in "ui"

    def write(self, root, arr, times, gt, crs):
        T, C, Y, X = arr.shape
        self.shape, self.dtype = arr.shape, arr.dtype
        self.tiles = {}
        for t in range(T):
            for c in range(C):
                for r0 in range(0, Y, 256):
                    for c0 in range(0, X, 256):
                        self.tiles[(t, c, r0 // 256, c0 // 256)] = self.enc(np.ascontiguousarray(arr[t, c, r0:r0 + 256, c0:c0 + 256]))

    def nbytes(self):
        return sum(len(b) for b in self.tiles.values())

    def open(self, cache=False):
        return self

    def chip(self, h, r, c, t0, nt, s):
        C = self.shape[1]
        out = np.empty((nt, C, s, s), self.dtype)
        for t in range(t0, t0 + nt):
            for tr in range(r // 256, (r + s - 1) // 256 + 1):
                for tc in range(c // 256, (c + s - 1) // 256 + 1):
                    y0, x0 = tr * 256, tc * 256
                    ys, xs = max(r, y0), max(c, x0)
                    for b in range(C):
                        tile = self.dec(self.tiles[(t, b, tr, tc)])
                        ye, xe = min(r + s, y0 + tile.shape[0]), min(c + s, x0 + tile.shape[1])
                        out[t - t0, b, ys - r:ye - r, xs - c:xe - c] = tile[ys - y0:ye - y0, xs - x0:xe - x0]
        return out

    def decode_all(self, h):
        for b in self.tiles.values():
            self.dec(b)

    def codec_alone(self, arr, reps):
        return min(timed(lambda: self.decode_all(self), 0.05)[1] for _ in range(reps))


def contenders(cube, dates, one_band=False):
    """Every contender; on a Cube of 512 x 512 or more also rumi fast with tiles 128 (an all-date
    chip decodes 2.25x its area instead of 4x: a layout a rumi user can pick for chips); on
    every input of several dates also Zarr with chunks of one date (the single-date user's layout);
    on inputs of several dates and one band also every rumi setting with frame unit 1 (every date
    of a tile location in one frame, the all-date user's layout: the default there, unit 0, makes
    a frame a date)."""
    return ([Rumi(g) for g in RUMI_SETTINGS] + ([Rumi("fast", 128)] if cube else [])
            + ([Rumi(g, unit=1) for g in RUMI_SETTINGS] if dates and one_band else [])
            + [Zarr(c, s) for c, s in ZARR] + ([Zarr(c, s, 1) for c, s in ZARR_1DATE] if dates else [])
            + [Cog(*x) for x in COG] + [Tiles("jxl"), Tiles("htj2k")])


def nbytes(k):
    if isinstance(k, Tiles):
        return k.nbytes()
    return sum(tsb.size_of(p) for p in k.files())


# -- measuring -------------------------------------------------------------------------------

_POOLS = {}


def _pool(n):
    """A thread pool of n threads, kept (the batches' reads)."""
    if n not in _POOLS:
        _POOLS[n] = ThreadPoolExecutor(n)
    return _POOLS[n]


def timed(fn, min_s):
    """(wall s, CPU s) per call of fn, repeated until min_s of wall time."""
    n, w0, c0 = 0, time.perf_counter(), tsb._cpu_self()
    while True:
        fn()
        n += 1
        w = time.perf_counter() - w0
        if w >= min_s:
            return w / n, (tsb._cpu_self() - c0) / n


def draw(rng, n, mode, T, Y, X, size):
    """n random unaligned chips (row, col, first date, dates): one date, or every date."""
    return [(int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1)),
             int(rng.integers(0, T)) if mode == "single" else 0, 1 if mode == "single" else T) for _ in range(n)]


def open_checked(k, opener, arr, keys, size, name):
    """k's handle from opener(), its first chips checked against the array (also the warm-up)."""
    h = opener()
    for m in k.modes:
        for r, c, t0, nt in keys.get(m, [])[:2 if m == "single" else 1]:
            got, want = np.asarray(k.chip(h, r, c, t0, nt, size)), arr[t0:t0 + nt, :, r:r + size, c:c + size]
            assert got.dtype == want.dtype and np.array_equal(got.reshape(want.shape), want, equal_nan=want.dtype.kind == "f"), (name, k.name, r, c, t0, nt)
    return h


def rounds(ks, handles, keys_of, modes, size, reps, decode_min_s=None, requests=None, first=0, batch=1):
    """The chips of every mode (keys_of(rep, mode)), the contenders interleaved, the order rotating
    every repetition: (mode, name) -> [(chips/s, chips/CPU-s, requests/chip)], name -> [(wall, CPU) of
    a whole decode] when decode_min_s is given. batch > 1: the chips read batch at a time, each batch
    at once (k.chips), one batch after the other."""
    res, dec = defaultdict(list), defaultdict(list)
    for rep in range(first, first + reps):
        order = ks[rep % len(ks):] + ks[:rep % len(ks)]
        for k in order:
            h = handles[k.name]
            if decode_min_s is not None:
                dec[k.name].append(timed(lambda: k.decode_all(h), decode_min_s))
            for m in modes:
                if m not in k.modes:
                    continue
                keys = keys_of(rep, m)
                q0 = requests() if requests else 0
                w0, c0 = time.perf_counter(), tsb._cpu_self()
                if batch > 1:
                    for i in range(0, len(keys), batch):
                        k.chips(h, keys[i:i + batch], size)
                else:
                    for r, c, t0, nt in keys:
                        k.chip(h, r, c, t0, nt, size)
                w, cpu = time.perf_counter() - w0, tsb._cpu_self() - c0
                q = (requests() - q0) / len(keys) if requests else None
                res[(m, k.name)].append((len(keys) / w, len(keys) / max(cpu, 1e-9), q))
        print(f"  repetition {rep + 1}/{first + reps}, load {os.getloadavg()[0]:.1f}", flush=True)
    return res, dec


def medians(row, res, name, modes, suffix):
    for m in modes:
        v = res.get((m, name))
        if v:
            row[f"{m}_{suffix}s"] = statistics.median(a for a, _, _ in v)
            row[f"{m}_{suffix}cpu_s"] = statistics.median(b for _, b, _ in v)
            if v[0][2] is not None:
                row[f"{m}_{suffix}requests"] = statistics.median(q for _, _, q in v)


def run_input(name, what, load, args, root):
    arr, times, gt, crs = load()
    T, C, Y, X = arr.shape
    raw = arr.nbytes
    size = 256 if min(Y, X) >= 512 else 64
    print(f"\n== {name}: {what}, {raw / MB:.1f} MB raw, chips {size} x {size}", flush=True)
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    ks, rows = [], {}
    for k in contenders(T > 1 and min(Y, X) >= 512, T > 1, C == 1):
        if args.link_only and k.name not in LINK:
            continue
        if isinstance(k, Tiles) and not k.usable(arr.dtype):
            print(f"  {k.name}: not for {arr.dtype}", flush=True)
            continue
        if isinstance(k, Zarr) and k.chain == "pcodec" and arr.dtype.itemsize == 1:
            print(f"  {k.name}: pcodec has no 8-bit samples", flush=True)
            continue
        if isinstance(k, Zarr) and k.chain.startswith("delta") and arr.dtype.kind == "f":
            print(f"  {k.name}: numcodecs' Delta rounds float differences (not lossless)", flush=True)
            continue
        w0, c0 = time.perf_counter(), tsb._cpu_self()
        try:
            k.write(folder, arr, times, gt, crs)
        except Exception as e:  # a codec that refuses this input: said, left out
            print(f"  {k.name}: could not write ({type(e).__name__}: {e})", flush=True)
            continue
        cpu = tsb._cpu_self() - c0
        rows[k.name] = dict(name=k.name, family=k.family, bytes=nbytes(k), ratio=raw / nbytes(k),
                            encode_mb_cpu_s=raw / MB / max(cpu, 1e-9), encode_wall_s=time.perf_counter() - w0)
        ks.append(k)
    rng = np.random.default_rng(48)
    modes = ["single"] + (["all"] if T > 1 else [])
    if args.link_only:  # the link alone, the files' other figures from the last run's results (--merge)
        prev = {r["name"]: r for r in args.prev.get(name, {}).get("rows", [])}
        for k in ks:
            rows[k.name]["codec_mb_cpu_s"] = prev.get(k.name, {}).get("codec_mb_cpu_s", float("nan"))
        return dict(name=name, link=run_link(name, ks, rows, arr, folder, args, size, modes))
    keys = {m: draw(rng, args.chips, m, T, Y, X, size) for m in modes}
    # caches off: the same chips every repetition
    gdal_cache(0)
    handles = {k.name: open_checked(k, k.open, arr, keys, size, name) for k in ks}
    print("  caches off", flush=True)
    res, dec = rounds(ks, handles, lambda rep, m: keys[m], modes, size, args.reps, decode_min_s=args.min_s)
    # caches on: handles of their own, fresh chips every repetition (an epoch's)
    print(f"  caches on (rumi {'default' if CACHE['rumi'] is None else CACHE['rumi']}, GDAL {CACHE['gdal'] / 2**20:.0f} MiB, "
          f"zarr CacheStore {CACHE['zarr'] / 2**20:.0f} MiB)", flush=True)
    gdal_cache(CACHE["gdal"])
    kc = [k for k in ks if k.family != "tiles"] + [RumiBudget(k) for k in ks if isinstance(k, Rumi)]
    hc = {k.name: open_checked(k, lambda k=k: k.open(cache=True), arr, keys, size, name) for k in kc}
    rng_c = np.random.default_rng(4848)
    keys_c = [{m: draw(rng_c, args.chips, m, T, Y, X, size) for m in modes} for _ in range(args.reps)]
    res_c, _ = rounds(kc, hc, lambda rep, m: keys_c[rep][m], modes, size, args.reps)
    for k in ks:
        row = rows[k.name]
        row["decode_mb_cpu_s"] = statistics.median(raw / MB / max(c, 1e-9) for _, c in dec[k.name])
        row["decode_mb_s"] = statistics.median(raw / MB / w for w, _ in dec[k.name])
        row["codec_mb_cpu_s"] = raw / MB / max(k.codec_alone(arr, args.reps), 1e-9)
        medians(row, res, k.name, modes, "chips_")
        medians(row, res_c, k.name, modes, "cached_chips_")
    for k in kc:
        if isinstance(k, RumiBudget):
            rows[k.name] = row = {f: rows[k.base][f] for f in ("family", "bytes", "ratio", "encode_mb_cpu_s", "codec_mb_cpu_s",
                                                               "decode_mb_cpu_s", "decode_mb_s")}
            row.update(name=k.name, budget=True)
            medians(row, res_c, k.name, modes, "cached_chips_")
    for hs in (handles, hc):
        for k in ks:
            if isinstance(k, Cog) and k.name in hs:
                Cog.close(hs[k.name])
    hs = hc = handles = None
    gdal_cache(0)
    out = dict(name=name, what=what, shape=[T, C, Y, X], dtype=str(arr.dtype), raw=raw, chip=size,
               modes=modes, chips=args.chips, reps=args.reps, rows=list(rows.values()))
    if name in args.link:
        out["link"] = run_link(name, ks, rows, arr, folder, args, size, modes)
    return out


def run_link(name, ks, rows, arr, folder, args, size, modes):
    """The LINK settings over loopback nginx + the delay proxy, caches on at one budget (GDAL's: its block
    cache, rumi's decoded frames, Zarr's CacheStore) and cold at each repetition's and mode's start (every handle opened
    again, GDAL's block and /vsicurl/ caches emptied: every input fits the budget, so warm caches would read
    nothing over the link); fresh chips each repetition."""
    from delay_proxy import ProxyProcess
    from nginx_server import Nginx

    T, C, Y, X = arr.shape
    lk = [k for k in ks if k.name in LINK]
    saved = {v: os.environ.get(v) for v in LINK_GDAL}
    os.environ.update(LINK_GDAL)  # GDAL reads its configuration from the environment at each use
    gdal_cache(CACHE["gdal"])
    ng = Nginx(Path(tempfile.mkdtemp(prefix="rumi-frontier-nginx-")), folder).start()
    px = ProxyProcess(ng.port, args.delay)
    rng = np.random.default_rng(2020)
    keys = [{m: draw(rng, args.link_chips, m, T, Y, X, size) for m in modes} for _ in range(args.reps + 1)]
    opened, res = defaultdict(list), {1: defaultdict(list), args.link_batch: defaultdict(list)}
    batches = sorted(res)  # 1: one chip after the other; link_batch: that many chips at once

    def open_url(k, base):
        return k.open_url(base, copies=args.link_batch) if isinstance(k, Cog) else k.open_url(base)

    print(f"  over loopback nginx + {args.delay * 1000:.0f} ms a request ({len(lk)} settings, {args.link_chips} chips a mode)",
          flush=True)

    def close(handles):
        for k in lk:
            if isinstance(k, Cog) and k.name in handles:
                Cog.close(handles[k.name])

    handles = {}
    try:
        base = f"http://127.0.0.1:{px.port}/"
        handles = {k.name: open_checked(k, lambda k=k: open_url(k, base), arr, keys[-1], size, name) for k in lk}
        for k in lk if args.link_batch > 1 else ():  # the batch reads' pixels too
            for m in (m for m in modes if m in k.modes):
                ks_ = keys[-1][m][:args.link_batch]
                for (r, c, t0, nt), got in zip(ks_, k.chips(handles[k.name], ks_, size)):
                    want = arr[t0:t0 + nt, :, r:r + size, c:c + size]
                    assert np.array_equal(np.asarray(got).reshape(want.shape), want, equal_nan=want.dtype.kind == "f"), (name, k.name)
        for rep in range(args.reps):
            for m in modes:
                for b in batches:  # cold for each mode and batch: a mode's chips find nothing the other's left
                    close(handles)
                    handles = {}
                    cold_caches()
                    for k in lk:
                        if m in k.modes:
                            q0, w0 = px.requests, time.perf_counter()
                            handles[k.name] = open_url(k, base)
                            opened[k.name].append((time.perf_counter() - w0, px.requests - q0))
                    r, _ = rounds([k for k in lk if m in k.modes], handles, lambda rep, m: keys[rep][m], [m], size, 1,
                                  requests=lambda: px.requests, first=rep, batch=b)
                    for key, v in r.items():
                        res[b][key] += v
    finally:
        close(handles)
        handles = None
        px.stop()
        shortages = ng.shortages()
        ng.stop()
        gdal_cache(0)
        for v, x in saved.items():
            if x is None:
                os.environ.pop(v, None)
            else:
                os.environ[v] = x
    if shortages:  # nginx closed idle connections: the readers after it retried (their backoff in the figures)
        print(f"  WARNING: nginx ran out of connections {shortages} times: these link figures are the server's",
              flush=True)
    out = []
    for k in lk:
        row = {f: rows[k.name][f] for f in ("name", "family", "bytes", "ratio", "codec_mb_cpu_s")}
        row["open_s"] = statistics.median(w for w, _ in opened[k.name])
        row["open_requests"] = statistics.median(q for _, q in opened[k.name])
        medians(row, res[1], k.name, modes, "chips_")
        if args.link_batch > 1:
            medians(row, res[args.link_batch], k.name, modes, "batch_chips_")
        out.append(row)
    return dict(delay=args.delay, chips=args.link_chips, reps=args.reps, batch=args.link_batch, rows=out,
                nginx_shortages=shortages)


# -- reporting -------------------------------------------------------------------------------

def main_mode(inp):
    return "all" if "all" in inp["modes"] else "single"


MEASURES = {  # what a dominance table compares: row key suffix, its words
    "off": ("chips_cpu_s", "chips per CPU-second, caches off"),
    "on": ("cached_chips_cpu_s", "chips per CPU-second, caches on"),
    "eq": ("cached_chips_cpu_s", "chips per CPU-second, caches on, rumi's at GDAL's budget"),
    "link": ("chips_s", "chips per wall second over the link"),
    "linkb": ("batch_chips_s", "chips per wall second over the link, a batch of chips at once"),
}
LINKS = ("link", "linkb")


def dominance(inp, measure="off", fast_mb=500.0, need=1.2):
    """For each peer setting whose codec alone decodes faster than fast_mb MB per CPU-second: per chip mode, the rumi
    setting no larger that is fastest on the measure, its speed and size ratios, met or missed (the link: every
    peer setting measured there)."""
    suffix = MEASURES[measure][0]
    rows = inp["link"]["rows"] if measure in LINKS else inp["rows"]
    rumis = [r for r in rows if r["family"] == "rumi" and bool(r.get("budget")) == (measure == "eq")]
    out = []
    for p in rows:
        if p["family"] == "rumi" or (measure not in LINKS and p["codec_mb_cpu_s"] < fast_mb):
            continue
        for m in inp["modes"]:
            k = f"{m}_{suffix}"
            if k not in p:
                continue
            ok = [r for r in rumis if r["bytes"] <= p["bytes"] and k in r]
            if ok:
                best = max(ok, key=lambda r: r[k])
                speed = best[k] / p[k]
                out.append(dict(peer=p["name"], mode=m, rumi=best["name"], speed=speed, size=p["bytes"] / best["bytes"],
                                met=speed >= need))
            else:
                small = min((r for r in rumis if k in r), key=lambda r: r["bytes"])
                out.append(dict(peer=p["name"], mode=m, rumi=small["name"], speed=small[k] / p[k],
                                size=p["bytes"] / small["bytes"], met=False))
    return out


def cell(d):
    if d is None:
        return "-"
    name = d["rumi"].replace("rumi ", "").replace(" (default)", "").replace(", cache = GDAL's", "")
    c = f"{name} {d['speed']:.2f}x, {d['size']:.2f}x"
    return c if d["met"] else f"**missed**: {c}"


def glance(results, measure="off", mode_of=main_mode):
    """A dominance table as a matrix: a row per peer setting, a column per input, each cell the
    input's chips of mode_of(input) (by default all dates on Cubes, else single date): the rumi
    setting, its chips against the peer's and its size against the peer's; '-' where the peer's
    codec decodes under 0.5 GB/s, does not take the input or was not measured there."""
    results = [i for i in results if measure not in LINKS or f"dominance_{measure}" in i]
    key = "dominance" if measure == "off" else f"dominance_{measure}"
    peers = list(dict.fromkeys(d["peer"] for inp in results for d in inp.get(key, [])))
    L = ["| peer setting | " + " | ".join(i["name"] + (" (all dates)" if mode_of(i) == "all" else "") for i in results) + " |",
         "|---|" + "---|" * len(results)]
    for p in peers:
        cells = [cell(next((d for d in inp.get(key, []) if d["peer"] == p and d["mode"] == mode_of(inp)), None))
                 for inp in results]
        if any(c != "-" for c in cells):  # (1-date Zarr chunks: single-date chips only, in their own table)
            L.append(f"| {p} | " + " | ".join(cells) + " |")
    return L


def single_dates(results):
    """Single-date chips on the inputs of several dates: caches off, on, and over the link."""
    multi = [i for i in results if i["shape"][0] > 1]
    if not multi:
        return []
    L = ["## Single-date chips on inputs of several dates", "",
         "Each cell as in the tables above, for single-date chips: caches off, caches on, caches on with rumi's at "
         "GDAL's budget (`eq`; chips per CPU-second) and, "
         "where measured, over the link (chips per wall second: `link` one chip after the other, `linkb` a batch of "
         "chips at once). Zarr with chunks (T, C, 256, 256) decodes every date of "
         "a single-date chip's chunks; `1-date chunks`: (1, C, 256, 256), the layout a single-date user picks.", ""]
    cols = [(i, meas) for i in multi for meas in ("off", "on", "eq", "link", "linkb") if meas not in LINKS or f"dominance_{meas}" in i]
    L += ["| peer setting | " + " | ".join(f"{i['name']} {meas}" for i, meas in cols) + " |", "|---|" + "---|" * len(cols)]
    key = {"off": "dominance", "on": "dominance_on", "eq": "dominance_eq", "link": "dominance_link", "linkb": "dominance_linkb"}
    peers = list(dict.fromkeys(d["peer"] for i, meas in cols for d in i.get(key[meas], []) if d["mode"] == "single"))
    for p in peers:
        cells = [cell(next((d for d in i.get(key[meas], []) if d["peer"] == p and d["mode"] == "single"), None))
                 for i, meas in cols]
        L.append(f"| {p} | " + " | ".join(cells) + " |")
    return L + [""]


def render(results, args, when):
    L = [f"# The size/speed frontier (bench/frontier.py{' --quick' if args.quick else ''})", "",
         f"{when}; {args.chips} chips per mode, {args.reps} repetitions (medians). "
         "MB = 10^6 bytes of raw samples; CPU-s = every thread of the process (RUSAGE_SELF: nginx and the delay proxy "
         "of the link are other processes, not counted). Caches off: rumi's decoded-frame cache 0, GDAL's block cache "
         "0, the same chips every repetition; caches on: " + cache_words() + ", fresh random chips every repetition "
         "(an epoch's), the handles kept open through the repetitions.", ""]
    mode_name = {"single": "single date", "all": "all dates"}
    for inp in results:
        L += [f"## {inp['name']}: {inp['what']} ({inp['raw'] / MB:.1f} MB raw, chips {inp['chip']} x {inp['chip']})", "",
              f"![{inp['name']}](../../docs/img/frontier-{inp['name']}.png)", ""]
        if inp.get("measured") or inp.get("link_when"):
            L += ["Measured " + ", ".join(x for x in (inp.get("measured"), inp.get("link_when") and
                                                      f"the link {inp['link_when']}") if x) + ".", ""]
        head = ["setting", "ratio", "encode MB/CPU-s", "codec alone MB/CPU-s", "whole read MB/CPU-s"]
        for m in inp["modes"]:
            head += [f"{mode_name[m]} chips/CPU-s", "chips/s", "caches on: chips/CPU-s", "chips/s"]
        L += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in inp["rows"]:
            cells = [r["name"], f"{r['ratio']:.3f}", f"{r['encode_mb_cpu_s']:.1f}", f"{r['codec_mb_cpu_s']:.0f}",
                     f"{r['decode_mb_cpu_s']:.0f}"]
            for m in inp["modes"]:
                cells += [f"{r[f'{m}_{x}']:.1f}" if f"{m}_{x}" in r else "-"
                          for x in ("chips_cpu_s", "chips_s", "cached_chips_cpu_s", "cached_chips_s")]
            L.append("| " + " | ".join(cells) + " |")
        L.append("")
        if "link" in inp:
            lk = inp["link"]
            L += [f"Over loopback nginx + {lk['delay'] * 1000:.0f} ms a request, caches on at one budget (GDAL's) and cold "
                  f"at each repetition's and mode's start, {lk['chips']} fresh chips a mode and repetition (open: a handle's open, "
                  "median, not timed in the chips):", ""]
            nb = lk.get("batch", 1)
            if nb > 1:
                L[-2] = L[-2][:-1] + (f"; `{nb} at once`: the same chips read {nb} at a time, each batch's chips on as many "
                                      "threads (rumi's and zarr's reads; the COGs' (chip, date) reads on 16 threads, a "
                                      "copy of the datasets a chip), from cold again):")
            head = ["setting", "ratio", "open s (requests)"]
            for m in inp["modes"]:
                head += [f"{mode_name[m]} chips/s", "chips/CPU-s", "requests/chip"]
                if nb > 1:
                    head += [f"{nb} at once: chips/s", "chips/CPU-s"]
            L += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            for r in lk["rows"]:
                cells = [r["name"], f"{r['ratio']:.3f}", f"{r['open_s']:.2f} ({r['open_requests']:.0f})"]
                for m in inp["modes"]:
                    cells += [f"{r[f'{m}_chips_s']:.2f}", f"{r[f'{m}_chips_cpu_s']:.1f}", f"{r[f'{m}_chips_requests']:.1f}"] \
                        if f"{m}_chips_s" in r else ["-"] * 3
                    if nb > 1:
                        cells += [f"{r[f'{m}_batch_chips_s']:.2f}", f"{r[f'{m}_batch_chips_cpu_s']:.1f}"] \
                            if f"{m}_batch_chips_s" in r else ["-"] * 2
                L.append("| " + " | ".join(cells) + " |")
            L.append("")
    L += ["## Dominance at a glance", "", "Each cell: the rumi setting no larger than the peer that reads the most chips "
          "per CPU-second, then its chips per CPU-second and the peer's bytes, each against the peer's (met: >= 1.2x "
          "and >= 1.00x); all-date chips on Cubes, single-date chips on images; '-': the peer's codec decodes under "
          "0.5 GB/s per CPU-second, or does not take the input.", "", "### Caches off", ""] + glance(results) + [""]
    L += ["### Caches on (" + cache_words() + ")", ""] + glance(results, "on") + [""]
    L += ["### Caches on, rumi's decoded-frame cache at GDAL's budget (rows `..., cache = GDAL's`)", ""] + glance(results, "eq") + [""]
    if any("link" in i for i in results):
        L += ["### Over the link (chips per wall second; caches on at GDAL's budget for all, cold at each repetition's "
              "and mode's start; every setting measured there)", ""] + glance(results, "link") + [""]
    if any("dominance_linkb" in i for i in results):
        L += ["### Over the link, a batch of chips at once (chips per wall second; as above, the chips read a batch at "
              "a time)", ""] + glance(results, "linkb") + [""]
    L += single_dates(results)
    L += ["## Dominance: each peer setting whose codec decodes > 0.5 GB/s per CPU-second -> the rumi setting that beats it", "",
          "The rumi setting no larger than the peer that is fastest on the measure; met = at least "
          "1.2x the peer's chips and no larger (size = peer bytes / rumi bytes). Where no rumi "
          "setting is as small, the smallest one.", "",
          "| input | peer setting | chips | measure | rumi setting | chips | size | |", "|---|---|---|---|---|---|---|---|"]
    for inp in results:
        for meas in ("off", "on", "eq", "link", "linkb"):
            for d in inp.get("dominance" if meas == "off" else f"dominance_{meas}", []):
                # a Cube's Zarr chunks hold every date: its single-date chips decode them all (layout, not codec)
                note = (" (Zarr chunks of every date)" if inp["shape"][0] > 1 and d["mode"] == "single"
                        and d["peer"].startswith("zarr") and "1-date" not in d["peer"] else "")
                L.append(f"| {inp['name']} | {d['peer']} | {mode_name[d['mode']]}{note} | {MEASURES[meas][1]} | {d['rumi']} | "
                         f"{d['speed']:.2f}x | {d['size']:.3f}x | {'met' if d['met'] else '**missed**'} |")
    return "\n".join(L) + "\n"


def cache_words():
    rumi_c = "its default, 32 MiB a dataset" if CACHE["rumi"] is None else f"{CACHE['rumi'] / 2**20:.0f} MiB a dataset"
    return (f"rumi's decoded-frame cache {rumi_c}, GDAL's block cache {CACHE['gdal'] / 2**20:.0f} MiB, Zarr's CacheStore "
            f"(encoded chunks) {CACHE['zarr'] / 2**20:.0f} MiB")


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def plot(inp, out):
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = main_mode(inp)
    dates = "all-date " if m == "all" else ""
    panels = [(inp["rows"], f"{m}_chips_cpu_s", f"{dates}chips per CPU-second, caches off"),
              (inp["rows"], f"{m}_cached_chips_cpu_s", f"{dates}chips per CPU-second, caches on"),
              (inp["rows"], "codec_mb_cpu_s", "decode of frames / chunks / tiles alone, MB per CPU-second, 1 thread")]
    if inp["shape"][0] > 1:
        panels.insert(2, (inp["rows"], "single_chips_cpu_s", "single-date chips per CPU-second, caches off"))
    if "link" in inp:
        panels.append((inp["link"]["rows"], f"{m}_chips_s", f"{dates}chips per wall second over the "
                       f"{inp['link']['delay'] * 1000:.0f} ms link, caches on from cold"))
        if inp["link"].get("batch", 1) > 1:
            panels.append((inp["link"]["rows"], f"{m}_batch_chips_s", f"{dates}chips per wall second over the "
                           f"{inp['link']['delay'] * 1000:.0f} ms link, {inp['link']['batch']} at once"))
    cols = 2
    fig, axes = plt.subplots(-(-len(panels) // cols), cols, figsize=(12, 4.4 * -(-len(panels) // cols)), squeeze=False)
    colours = {"zarr": "tab:blue", "cog": "tab:orange", "tiles": "tab:green"}
    for ax, (rows, key, xl) in zip(axes.flat, panels):
        rows = [r for r in rows if key in r and (not r.get("budget") or "cached" in key)]
        for budget, style, col in ((False, "-o", "tab:red"), (True, "--s", "tab:purple")):
            rr = sorted((r for r in rows if r["family"] == "rumi" and bool(r.get("budget")) == budget), key=lambda r: r[key])
            if not rr:
                continue
            ax.plot([r[key] for r in rr], [r["ratio"] for r in rr], style, color=col, zorder=3,
                    label="rumi, decoded-frame cache at GDAL's budget" if budget else "rumi")
            for r in rr:
                ax.annotate(r["name"].replace("rumi ", "").replace(" (default)", "*").replace(", cache = GDAL's", ""),
                            (r[key], r["ratio"]), textcoords="offset points", xytext=(4, 4), fontsize=8, color=col)
        for fam, col in colours.items():
            pts = [r for r in rows if r["family"] == fam]
            if pts:
                ax.scatter([r[key] for r in pts], [r["ratio"] for r in pts], color=col,
                           label={"zarr": "Zarr v3", "cog": "COG", "tiles": "image codecs (tiles)"}[fam], zorder=2)
                for r in pts:
                    ax.annotate(r["name"].replace("zarr ", "").replace("COG ", "").replace(" + predictor", ""),
                                (r[key], r["ratio"]), textcoords="offset points", xytext=(4, -9), fontsize=7, color=col)
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel(xl.strip() + " (log)")
        ax.set_ylabel("compression ratio (raw / bytes)")
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8, loc="best")
    axes.flat[1].legend(fontsize=8, loc="lower right")
    fig.suptitle(f"{inp['what']}: bytes against speed (up and right is better)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="Landsat 8 cropped to 1024 x 1024, the Cube 48 x 3 x 512 x 512, "
                    "12 chips, 3 repetitions")
    ap.add_argument("--only", default="", help="inputs, comma-separated (landsat8,sentinel2,naip,dem,s1pair,ndvi68,cube)")
    ap.add_argument("--chips", type=int, default=None)
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--min-s", type=float, default=None, help="least wall seconds of each whole-decode measure")
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "frontier.md"))
    ap.add_argument("--img", default=str(REPO / "docs" / "img"), help="folder of the pictures ('' for none)")
    ap.add_argument("--replot", action="store_true", help="only render the report and pictures of the last run's results.json")
    ap.add_argument("--link", default="landsat8,cube", help="inputs also read over the delayed loopback ('' for none)")
    ap.add_argument("--link-chips", type=int, default=None, help="chips per mode and repetition over the link")
    ap.add_argument("--delay", type=float, default=0.02, help="seconds added to each request over the link")
    ap.add_argument("--link-batch", type=int, default=8, help="over the link also the chips read this many at once "
                    "(1: one after the other only)")
    ap.add_argument("--link-only", action="store_true", help="only the link's settings, written and read over the link "
                    "(implies --merge: the inputs' other figures stay the last run's)")
    ap.add_argument("--merge", action="store_true", help="the inputs measured replace theirs in the last run's "
                    "results.json, the others kept (the report says when each was measured)")
    ap.add_argument("--rumi-cache-mb", type=float, default=None, help="rumi's decoded-frame cache with caches on "
                    "(default: rumi's default)")
    ap.add_argument("--gdal-cache-mb", type=float, default=None, help="GDAL's block cache with caches on, also the "
                    "Zarr CacheStore's budget (default: GDAL's default, 5 %% of the memory)")
    args = ap.parse_args()
    args.chips = args.chips or (12 if args.quick else 40)
    args.reps = args.reps or (3 if args.quick else 5)
    args.min_s = args.min_s if args.min_s is not None else (0.1 if args.quick else 0.3)
    args.link = {s for s in args.link.split(",") if s}
    args.link_chips = args.link_chips or (4 if args.quick else 8)
    args.link_batch = max(1, min(args.link_batch, args.link_chips))
    args.merge = args.merge or args.link_only
    prev_file = REPO / "build" / "frontier" / "results.json"
    prev = json.loads(prev_file.read_text()) if args.merge and prev_file.is_file() else None
    if args.merge and prev is None:
        sys.exit(f"--merge / --link-only: no {prev_file} to merge into")
    args.prev = {i["name"]: i for i in prev["results"]} if prev else {}
    os.environ["GDAL_CACHEMAX"] = "0"  # caches off first (gdal_cache() sets it for each phase)
    CACHE["rumi"] = None if args.rumi_cache_mb is None else int(args.rumi_cache_mb * 2**20)
    CACHE["gdal"] = CACHE["zarr"] = (int(args.gdal_cache_mb * 2**20) if args.gdal_cache_mb is not None else
                                     os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 20)
    if not CEILING.is_file():
        sys.exit(f"{CEILING} is missing: cargo build --release --example decode_ceiling (or DECODE_CEILING=path)")
    import zarr

    print(f"zarr {zarr.__version__}, rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__}), rumi "
          f"{getattr(rumi, '__version__', '?')}; CPU {cpu_name()}", flush=True)
    root = REPO / "build" / "frontier"
    only = {s for s in args.only.split(",") if s}
    started, load0 = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg()[0]
    results = []
    if args.replot:
        saved = json.loads((root / "results.json").read_text())
        args.quick, args.chips, args.reps = saved["quick"], saved.get("chips", args.chips), saved.get("reps", args.reps)
        results = saved["results"]
        CACHE.update(saved.get("cache", {}))
        if args.img:
            Path(args.img).mkdir(parents=True, exist_ok=True)
        for inp in results if args.img else ():
            plot(inp, Path(args.img) / f"frontier-{inp['name']}.png")
        Path(args.out).write_text(render(results, args, saved.get("when")))
        print(render(results, args, saved.get("when")))
        return
    for name, (what, load) in inputs(args.quick, only).items():
        if args.link_only and name not in args.link:
            continue
        t0 = time.strftime("%Y-%m-%d %H:%M")
        inp = run_input(name, what, load, args, root)
        if args.link_only:
            inp = dict(args.prev[name], link=inp["link"], link_when=f"{t0}-" + time.strftime("%H:%M") + " UTC")
        else:
            inp["measured"] = f"{t0}-" + time.strftime("%H:%M") + " UTC"
            inp["dominance"] = dominance(inp)
            inp["dominance_on"] = dominance(inp, "on")
            inp["dominance_eq"] = dominance(inp, "eq")
        inp.pop("dominance_link", None)
        inp.pop("dominance_linkb", None)
        if "link" in inp:
            inp["dominance_link"] = dominance(inp, "link")
            if inp["link"].get("batch", 1) > 1:
                inp["dominance_linkb"] = dominance(inp, "linkb")
        results.append(inp)
        if args.img:
            Path(args.img).mkdir(parents=True, exist_ok=True)
            plot(inp, Path(args.img) / f"frontier-{name}.png")
    when = (f"{started}-" + time.strftime("%H:%M") + f" UTC; CPU: {cpu_name()}; {os.cpu_count()} cores; load average "
            f"at the start {load0:.1f}, at the end {os.getloadavg()[0]:.1f}")
    if prev:  # the inputs measured now replace theirs; the rest stay the last run's
        measured = [i["name"] for i in results]
        new = {i["name"]: i for i in results}
        results = [new.pop(i["name"], i) for i in prev["results"]] + list(new.values())
        what = "the link of " if args.link_only else ""
        when = f"{prev['when']}; {what}{', '.join(measured)} measured again {when}"
        if prev.get("quick") != args.quick or prev.get("chips") != args.chips or prev.get("reps") != args.reps:
            when += f" ({'--quick, ' if args.quick else ''}{args.chips} chips, {args.reps} repetitions)"
    (root / "results.json").write_text(json.dumps(dict(quick=args.quick, chips=args.chips, reps=args.reps, when=when,
                                                       cache=CACHE, results=results), indent=1))
    md = render(results, args, when)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(md)
    print("\n" + md)
    print(f"written: {args.out}, {root / 'results.json'}" + (f", {args.img}/frontier-*.png" if args.img else ""))


if __name__ == "__main__":
    main()
