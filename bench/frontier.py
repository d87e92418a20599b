"""The size/speed frontier (issue 48, items 3-4): every contender at the settings a demanding user
picks, on the real rasters and a 48-date Cube, in ONE run, one process; a picture per input and
the dominance table (which rumi setting beats each fast peer setting on both axes).

Contenders (each written here from the same array, its pixels checked against it):
  - rumi: `graph=` auto (the default), auto:25, auto:0 (the smallest), fast (rumi.write, tiles 256);
    read through rumi.open(...) kept open, its decoded-frame cache on (the default);
  - Zarr v3 (zarr-python 3, numcodecs): blosc-lz4 byte shuffle and bit shuffle, blosc-zstd byte
    shuffle (Blosc's default level 5), pcodec (numcodecs.zarr3.PCodec, level 8), numcodecs' delta
    + blosc-zstd shuffle, zstd 5 in shards of (T, C, 1024, 1024); chunks (T, C, 256, 256) (a Cube's
    single-date chip therefore decodes every date of its chunks: the layout for all-date chips);
    zarr.open_array once, zarr's default concurrency;
  - COG (tiled GeoTIFF 256, pixel-interleaved, no overviews; one file per date for Cubes, as a
    time series is kept): ZSTD 1 and 9, DEFLATE and LZW, each with its predictor (2 integers, 3
    floats), LERC_ZSTD lossless (MAX_Z_ERROR 0); rasterio datasets kept open, GDAL's block cache on;
  - JPEG-XL lossless effort 1 and HTJ2K (reversible) through imagecodecs, each 256 x 256 tile of
    each band alone, in memory (no file format: the codec's own cost); unsigned integers only
    (JPEG-XL) / integers only (HTJ2K).
Per contender: bytes (raw / bytes), encode MB/s per CPU-second, decode of the whole input
from a fresh handle (files in the page cache; one thread where the reader has the choice: rumi
threads=1 and no cache, GDAL_NUM_THREADS unset, zarr's defaults) in MB of raw samples per
CPU-second, and random unaligned chips (256 x 256; 64 x 64 on inputs under 512 pixels a side) per
CPU-second and per wall second, single date and (Cubes) all dates. CPU-seconds: getrusage
RUSAGE_SELF (every thread of the process; no worker processes). Contenders interleaved, the order
rotating every repetition; medians.

    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/frontier.py [--quick] [--only landsat8,cube]
    (zarr, numcodecs and pcodec: `pip install --target build/frontier-pkgs zarr numcodecs pcodec`,
    found there by this script; imagecodecs and matplotlib from the venv)

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
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
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

    def __init__(self, graph, tile=256):
        self.graph, self.tile = graph, tile
        self.name = f"rumi {graph}" + (" (default)" if graph == "auto" else "") + (f" t{tile}" if tile != 256 else "")

    def write(self, root, arr, times, gt, crs):
        self.path = root / f"rumi_{self.graph.replace(':', '_')}_t{self.tile}.rumi"
        for p in (self.path, Path(str(self.path) + ".header"), Path(str(self.path) + ".aux.xml")):
            p.unlink(missing_ok=True)
        data = arr[0] if arr.shape[0] == 1 else arr
        rumi.write(self.path, data, bands=[f"b{i + 1}" for i in range(arr.shape[1])], times=list(times),
                   crs=crs, geotransform=gt, graph=self.graph, tile=self.tile)
        self.T = arr.shape[0]

    def files(self):
        return [self.path, Path(str(self.path) + ".header")]

    def open(self):
        ds = rumi.open(self.path)  # default threads
        ds.set_cache_bytes(0)  # every chip decodes its frames (see the module's docstring)
        return ds

    def chip(self, h, r, c, t0, nt, s):
        if self.T == 1:
            return h.read(window=(r, c, s, s))
        return h.read(t=slice(t0, t0 + nt), window=(r, c, s, s))

    def decode_all(self, h):
        h.read()

    def codec_alone(self, arr, reps):
        """CPU seconds of one thread decoding every frame from memory (bench/decode_ceiling.rs)."""
        out = subprocess.run([str(CEILING), "--threads", "1", "--cpu", "--reps", str(3 * reps + 2), str(self.path)],
                             check=True, capture_output=True, text=True).stdout
        return statistics.median(json.loads(out.strip().splitlines()[-1])["runs_s"])


class Zarr:
    family = "zarr"

    def __init__(self, chain, shard):
        self.chain, self.shard = chain, shard
        self.name = f"zarr {chain}" + (" sharded" if shard else "")

    def write(self, root, arr, times, gt, crs):
        self.path = root / f"zarr_{self.chain}{'_s' if self.shard else ''}.zarr"
        shutil.rmtree(self.path, ignore_errors=True)
        tsb.write_zarr(self.path, arr, arr.shape[0], 256, self.chain, self.shard)

    def files(self):
        return [self.path]

    def open(self):
        import zarr

        return zarr.open_array(str(self.path), mode="r")

    def chip(self, h, r, c, t0, nt, s):
        return h[t0:t0 + nt, :, r:r + s, c:c + s]

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
        chunks = []
        for r in range(0, Y, 256):
            for c in range(0, X, 256):
                b = np.ascontiguousarray(arr[:, :, r:r + 256, c:c + 256])
                for k in codecs:
                    b = k.encode(b)
                chunks.append((bytes(b), arr[:, :, r:r + 256, c:c + 256].shape))

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

    def open(self):
        return [rasterio.open(p) for p in self.paths]

    def chip(self, h, r, c, t0, nt, s):
        w = Window(c, r, s, s)
        return np.stack([d.read(window=w) for d in h[t0:t0 + nt]])

    def decode_all(self, h):
        for d in h:
            d.read()

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

    def open(self):
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


def contenders(cube):
    """Every contender; on a Cube of 512 x 512 or more also rumi fast with tiles 128 (an all-date
    chip decodes 2.25x its area instead of 4x: a layout a rumi user can pick for chips)."""
    return ([Rumi(g) for g in RUMI_SETTINGS] + ([Rumi("fast", 128)] if cube else [])
            + [Zarr(c, s) for c, s in ZARR] + [Cog(*x) for x in COG] + [Tiles("jxl"), Tiles("htj2k")])


def nbytes(k):
    if isinstance(k, Tiles):
        return k.nbytes()
    return sum(tsb.size_of(p) for p in k.files())


# -- measuring -------------------------------------------------------------------------------

def timed(fn, min_s):
    """(wall s, CPU s) per call of fn, repeated until min_s of wall time."""
    n, w0, c0 = 0, time.perf_counter(), tsb._cpu_self()
    while True:
        fn()
        n += 1
        w = time.perf_counter() - w0
        if w >= min_s:
            return w / n, (tsb._cpu_self() - c0) / n


def run_input(name, what, load, args, root):
    arr, times, gt, crs = load()
    T, C, Y, X = arr.shape
    raw = arr.nbytes
    size = 256 if min(Y, X) >= 512 else 64
    print(f"\n== {name}: {what}, {raw / MB:.1f} MB raw, chips {size} x {size}", flush=True)
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    ks, rows = [], {}
    for k in contenders(T > 1 and min(Y, X) >= 512):
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
    modes = {"single": [(int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1)), int(rng.integers(0, T)), 1)
                        for _ in range(args.chips)]}
    if T > 1:
        modes["all"] = [(int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1)), 0, T)
                        for _ in range(args.chips)]
    handles = {}
    for k in ks:  # open once; pixels checked (also the warm-up)
        h = k.open()
        for r, c, t0, nt in modes["single"][:2] + modes.get("all", [])[:1]:
            got, want = np.asarray(k.chip(h, r, c, t0, nt, size)), arr[t0:t0 + nt, :, r:r + size, c:c + size]
            assert got.dtype == want.dtype and np.array_equal(got.reshape(want.shape), want, equal_nan=want.dtype.kind == "f"), (name, k.name, r, c, t0, nt)
        handles[k.name] = h
    res = {(m, k.name): [] for m in modes for k in ks}
    dec = {k.name: [] for k in ks}
    for rep in range(args.reps):
        order = ks[rep % len(ks):] + ks[:rep % len(ks)]
        for k in order:
            dec[k.name].append(timed(lambda: k.decode_all(handles[k.name]), args.min_s))
            h = handles[k.name]
            for m, keys in modes.items():
                w0, c0 = time.perf_counter(), tsb._cpu_self()
                for r, c, t0, nt in keys:
                    k.chip(h, r, c, t0, nt, size)
                w, cpu = time.perf_counter() - w0, tsb._cpu_self() - c0
                res[(m, k.name)].append((len(keys) / w, len(keys) / max(cpu, 1e-9)))
        print(f"  repetition {rep + 1}/{args.reps}, load {os.getloadavg()[0]:.1f}", flush=True)
    for k in ks:
        row = rows[k.name]
        row["decode_mb_cpu_s"] = statistics.median(raw / MB / max(c, 1e-9) for _, c in dec[k.name])
        row["decode_mb_s"] = statistics.median(raw / MB / w for w, _ in dec[k.name])
        row["codec_mb_cpu_s"] = raw / MB / max(k.codec_alone(arr, args.reps), 1e-9)
        for m in modes:
            v = res[(m, k.name)]
            row[f"{m}_chips_s"] = statistics.median(a for a, _ in v)
            row[f"{m}_chips_cpu_s"] = statistics.median(b for _, b in v)
    for h in handles.values():
        for d in (h if isinstance(h, list) else []):
            d.close()
    return dict(name=name, what=what, shape=[T, C, Y, X], dtype=str(arr.dtype), raw=raw, chip=size,
                modes=list(modes), chips=args.chips, reps=args.reps, rows=list(rows.values()))


# -- reporting -------------------------------------------------------------------------------

def main_mode(inp):
    return "all" if "all" in inp["modes"] else "single"


def dominance(inp, fast_mb=500.0, need=1.2):
    """For each peer setting whose codec alone decodes faster than fast_mb MB per CPU-second: per chip mode, the rumi
    setting no larger that is fastest on chips, its speed and size ratios, met or missed."""
    rumis = [r for r in inp["rows"] if r["family"] == "rumi"]
    out = []
    for p in inp["rows"]:
        if p["family"] == "rumi" or p["codec_mb_cpu_s"] < fast_mb:
            continue
        for m in inp["modes"]:
            k = f"{m}_chips_cpu_s"
            ok = [r for r in rumis if r["bytes"] <= p["bytes"]]
            if ok:
                best = max(ok, key=lambda r: r[k])
                speed = best[k] / p[k]
                out.append(dict(peer=p["name"], mode=m, rumi=best["name"], speed=speed, size=p["bytes"] / best["bytes"],
                                met=speed >= need))
            else:
                small = min(rumis, key=lambda r: r["bytes"])
                out.append(dict(peer=p["name"], mode=m, rumi=small["name"], speed=small[k] / p[k],
                                size=p["bytes"] / small["bytes"], met=False))
    return out


def glance(results):
    """The dominance table as a matrix: a row per peer setting, a column per input, each cell the
    input's main chips (all dates on Cubes, else single date): the rumi setting, its chips per
    CPU-second and its size against the peer's; '-' where the peer's codec decodes under 0.5 GB/s
    or does not take the input."""
    peers = list(dict.fromkeys(r["name"] for inp in results for r in inp["rows"] if r["family"] != "rumi"))
    L = ["| peer setting | " + " | ".join(i["name"] + (" (all dates)" if main_mode(i) == "all" else "") for i in results) + " |",
         "|---|" + "---|" * len(results)]
    for p in peers:
        cells = []
        for inp in results:
            d = next((d for d in inp["dominance"] if d["peer"] == p and d["mode"] == main_mode(inp)), None)
            if d is None:
                cells.append("-")
            else:
                name = d["rumi"].replace("rumi ", "").replace(" (default)", "")
                cell = f"{name} {d['speed']:.2f}x, {d['size']:.2f}x"
                cells.append(cell if d["met"] else f"**missed**: {cell}")
        L.append(f"| {p} | " + " | ".join(cells) + " |")
    return L


def render(results, args, when):
    L = [f"# The size/speed frontier (bench/frontier.py{' --quick' if args.quick else ''})", "",
         f"{when}; {args.chips} chips per mode, {args.reps} repetitions (medians). "
         "MB = 10^6 bytes of raw samples; CPU-s = every thread of the process.", ""]
    mode_name = {"single": "single date", "all": "all dates"}
    for inp in results:
        L += [f"## {inp['name']}: {inp['what']} ({inp['raw'] / MB:.1f} MB raw, chips {inp['chip']} x {inp['chip']})", "",
              f"![{inp['name']}](../../docs/img/frontier-{inp['name']}.png)", ""]
        head = ["setting", "ratio", "encode MB/CPU-s", "codec alone MB/CPU-s", "whole read MB/CPU-s"]
        for m in inp["modes"]:
            head += [f"{mode_name[m]} chips/CPU-s", "chips/s"]
        L += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in inp["rows"]:
            cells = [r["name"], f"{r['ratio']:.3f}", f"{r['encode_mb_cpu_s']:.1f}", f"{r['codec_mb_cpu_s']:.0f}",
                     f"{r['decode_mb_cpu_s']:.0f}"]
            for m in inp["modes"]:
                cells += [f"{r[f'{m}_chips_cpu_s']:.1f}", f"{r[f'{m}_chips_s']:.1f}"]
            L.append("| " + " | ".join(cells) + " |")
        L.append("")
    L += ["## Dominance at a glance", "", "Each cell: the rumi setting no larger than the peer that reads the most chips "
          "per CPU-second, then its chips per CPU-second and the peer's bytes, each against the peer's (met: >= 1.2x "
          "and >= 1.00x); all-date chips on Cubes, single-date chips on images; '-': the peer's codec decodes under "
          "0.5 GB/s per CPU-second, or does not take the input.", ""] + glance(results) + [""]
    L += ["## Dominance: each peer setting whose codec decodes > 0.5 GB/s per CPU-second -> the rumi setting that beats it", "",
          "The rumi setting no larger than the peer that reads the most chips per CPU-second; met = at least "
          "1.2x the peer's chips per CPU-second and no larger (size = peer bytes / rumi bytes). Where no rumi "
          "setting is as small, the smallest one.", "",
          "| input | peer setting | chips | rumi setting | chips per CPU-s | size | |", "|---|---|---|---|---|---|---|"]
    for inp in results:
        for d in inp["dominance"]:
            # a Cube's Zarr chunks hold every date: its single-date chips decode them all (layout, not codec)
            note = " (Zarr chunks of every date)" if inp["shape"][0] > 1 and d["mode"] == "single" and d["peer"].startswith("zarr") else ""
            L.append(f"| {inp['name']} | {d['peer']} | {mode_name[d['mode']]}{note} | {d['rumi']} | {d['speed']:.2f}x | "
                     f"{d['size']:.3f}x | {'met' if d['met'] else '**missed**'} |")
    return "\n".join(L) + "\n"


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
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    colours = {"zarr": "tab:blue", "cog": "tab:orange", "tiles": "tab:green"}
    for ax, key, xl in ((axes[0], f"{m}_chips_cpu_s", f"{'all-date' if m == 'all' else ''} chips per CPU-second"),
                        (axes[1], "codec_mb_cpu_s", "decode of frames / chunks / tiles alone, MB per CPU-second, 1 thread")):
        rr = sorted((r for r in inp["rows"] if r["family"] == "rumi"), key=lambda r: r[key])
        ax.plot([r[key] for r in rr], [r["ratio"] for r in rr], "-o", color="tab:red", label="rumi", zorder=3)
        for r in rr:
            ax.annotate(r["name"].replace("rumi ", "").replace(" (default)", "*"), (r[key], r["ratio"]),
                        textcoords="offset points", xytext=(4, 4), fontsize=8, color="tab:red")
        for fam, col in colours.items():
            pts = [r for r in inp["rows"] if r["family"] == fam]
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
    axes[0].legend(fontsize=8, loc="best")
    fig.suptitle(f"{inp['what']}: bytes against speed (up and right is better)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
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
    args = ap.parse_args()
    args.chips = args.chips or (12 if args.quick else 40)
    args.reps = args.reps or (3 if args.quick else 5)
    args.min_s = args.min_s if args.min_s is not None else (0.1 if args.quick else 0.3)
    os.environ["GDAL_CACHEMAX"] = "0"  # read by GDAL at its first block: every chip decodes its tiles
    if not CEILING.is_file():
        sys.exit(f"{CEILING} is missing: cargo build --release --example decode_ceiling (or DECODE_CEILING=path)")
    import zarr

    print(f"zarr {zarr.__version__}, rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__}), rumi "
          f"{getattr(rumi, '__version__', '?')}; CPU {cpu_name()}", flush=True)
    root = REPO / "build" / "frontier"
    only = {s for s in args.only.split(",") if s}
    results = []
    if args.replot:
        saved = json.loads((root / "results.json").read_text())
        args.quick, args.chips, args.reps = saved["quick"], saved.get("chips", args.chips), saved.get("reps", args.reps)
        results = saved["results"]
        if args.img:
            Path(args.img).mkdir(parents=True, exist_ok=True)
        for inp in results if args.img else ():
            plot(inp, Path(args.img) / f"frontier-{inp['name']}.png")
        Path(args.out).write_text(render(results, args, saved.get("when")))
        print(render(results, args, saved.get("when")))
        return
    for name, (what, load) in inputs(args.quick, only).items():
        inp = run_input(name, what, load, args, root)
        inp["dominance"] = dominance(inp)
        results.append(inp)
        if args.img:
            Path(args.img).mkdir(parents=True, exist_ok=True)
            plot(inp, Path(args.img) / f"frontier-{name}.png")
    when = time.strftime("%Y-%m-%d %H:%M") + f" UTC; CPU: {cpu_name()}; {os.cpu_count()} cores; load average at the end {os.getloadavg()[0]:.1f}"
    (root / "results.json").write_text(json.dumps(dict(quick=args.quick, chips=args.chips, reps=args.reps, when=when,
                                                       results=results), indent=1))
    md = render(results, args, when)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(md)
    print("\n" + md)
    print(f"written: {args.out}, {root / 'results.json'}" + (f", {args.img}/frontier-*.png" if args.img else ""))


if __name__ == "__main__":
    main()
