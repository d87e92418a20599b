"""Chip loader benchmark (issues 16, 24): image + mask chips of the same pairs read by
rumi.torch.ChipDataset (labels=) and by its peers, each peer set up as a tuned user would:
  - rasterio-open: a map-style dataset that opens both GeoTIFFs per sample (TorchGeo's way);
  - rasterio-kept: the same with the datasets kept open per worker process (GDAL's block cache
    then keeps decoded blocks between samples);
  - torchgeo: TorchGeo's IntersectionDataset(RasterDataset, RasterDataset) (its rasterio/merge
    read path and file-handle cache) with torchgeo's stack_samples; the rumi sampler's chips as
    TorchGeo queries (each file carries its own date, each query that date: one file per query);
each on ZSTD (level 9) + predictor and on DEFLATE + predictor tiled GeoTIFFs (a COG's
full-resolution level, 256x256 blocks). Regimes:
  - small: --small pieces, --chips random 256x256 chips (chips share tiles, caches warm);
  - large: --large pieces, about one chip per piece, GDAL_CACHEMAX=16 (MB) and rumi's
    cache_bytes 16 MiB (a collection far larger than every cache);
  - remote (--remote): the small collection from loopback nginx behind bench/delay_proxy.py
    (--delay per request), requests counted at the proxy.
0 and 2 DataLoader workers. Figures: samples/s and samples per CPU-second (getrusage of the
process and of its finished workers, median of --repeats runs), the decode ceiling (the frames
rumi decoded in the run at the rate `decode_ceiling` decodes these files' frames, OpenZL alone,
every core), and the cost of resuming a 10,000-chip epoch in its middle.

    V=~/.cache/rumi/venvs/torchgeo-py3.12   # torch, TorchGeo 0.10, rasterio, rumi (scripts/test-torch.sh)
    $V/bin/python bench/chip_bench.py --repeats 3 [--remote]

The pieces are cut from the real Landsat 8 scene of ../shared/data (512x512x3 uint16, T=1); the
masks are uint8 classes of the same pieces (8 brightness classes of band 1). Noisy on a shared
2-core machine: compare ratios measured in one run.
"""

import argparse
import datetime as dt
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import rasterio
import torch
from rasterio.windows import Window

import rumi
import rumi.torch as rt
from delay_proxy import ProxyProcess

DATA = Path(os.environ.get("RUMI_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))
if not DATA.is_dir():
    DATA = Path("/work/shared/data")
SCENE = DATA / "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"
REPO = Path(__file__).resolve().parents[1]
CEILING = REPO / "target" / "release" / "examples" / "decode_ceiling"
CODECS = {"zstd": dict(compress="zstd", zstd_level=9, predictor=2), "deflate": dict(compress="deflate", predictor=2)}


def cut(out: Path, n: int, piece=512, tile=256):
    """n pieces: rumi image + mask, and GeoTIFF image + mask per codec. Returns the paths."""
    with rasterio.open(SCENE) as src:
        a = src.read()
        gt = src.transform
        epsg = src.crs.to_epsg()
    _, Y, X = a.shape
    pos = [(r, c) for r in range(0, Y - piece + 1, 64) for c in range(0, X - piece + 1, 64)]
    rng = np.random.default_rng(0)
    pos = [pos[i] for i in rng.permutation(len(pos))[:n]]
    edges = np.quantile(a[0][a[0] > 0], np.linspace(0, 1, 9)[1:-1])
    files = {"rumi": [], "rumi_mask": [], "transforms": [], "days": []}
    for codec in CODECS:
        files[f"tif_{codec}"], files[f"tif_{codec}_mask"] = [], []
    for k, (r, c) in enumerate(pos):
        img = np.ascontiguousarray(a[:, r:r + piece, c:c + piece])
        mask = np.digitize(img[0], edges).astype(np.uint8)[np.newaxis]
        t = (gt.c + c * gt.a, gt.a, 0.0, gt.f + r * gt.e, 0.0, gt.e)
        day = (dt.date(2000, 1, 1) + dt.timedelta(days=k)).strftime("%Y%m%d")  # TorchGeo's time index
        for kind, arr, bands in (("rumi", img, ["b1", "b2", "b3"]), ("rumi_mask", mask, ["class"])):
            p = out / f"{'s' if kind == 'rumi' else 'm'}{k:04d}.rumi"
            rumi.write(p, arr, bands=bands, times=["2020-05-18"], crs=f"EPSG:{epsg}", geotransform=t, tile=tile)
            os.unlink(f"{p}.header")
            files[kind].append(str(p))
        for codec, opts in CODECS.items():
            for kind, arr, stem in (("", img, "s"), ("_mask", mask, "m")):
                d = out / f"{codec}{kind}"
                d.mkdir(exist_ok=True)
                q = d / f"{stem}{k:04d}_{day}.tif"
                with rasterio.open(q, "w", driver="GTiff", width=piece, height=piece, count=arr.shape[0], dtype=arr.dtype,
                                   crs=f"EPSG:{epsg}", transform=rasterio.Affine.from_gdal(*t), tiled=True, blockxsize=tile,
                                   blockysize=tile, interleave="pixel", **opts) as f:
                    f.write(arr)
                files[f"tif_{codec}{kind}"].append(str(q))
        files["transforms"].append(t)
        files["days"].append(day)
    return files


class RasterioPairs(torch.utils.data.Dataset):
    """Image + mask windows of the GeoTIFF pairs: opened per sample, or kept open per process."""

    def __init__(self, images, masks, size, keep_open, env=None):
        self.images, self.masks, self.size, self.keep_open, self.env = images, masks, size, keep_open, env or {}
        self._open = {}

    def __len__(self):
        return len(self.images)

    def _read(self, path, window):
        if not self.keep_open:
            with rasterio.Env(**self.env), rasterio.open(path) as d:
                return d.read(window=window)
        key = (os.getpid(), path)
        d = self._open.get(key)
        if d is None:
            if not hasattr(self, "_envctx") or self._envpid != os.getpid():
                self._envctx, self._envpid = rasterio.Env(**self.env), os.getpid()
                self._envctx.__enter__()  # one GDAL environment per process, kept
            d = self._open[key] = rasterio.open(path)
        return d.read(window=window)

    def __getitem__(self, key):
        j, r, c = key
        w = Window(c, r, self.size, self.size)
        return {"image": torch.from_numpy(self._read(self.images[j], w)[np.newaxis]),
                "mask": torch.from_numpy(self._read(self.masks[j], w)[np.newaxis])}

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_open"] = {}
        d.pop("_envctx", None)
        d.pop("_envpid", None)
        return d


def _tg_classes():
    """TorchGeo RasterDataset subclasses for the pieces (module-level: workers under spawn or
    forkserver unpickle them by name)."""
    from torchgeo.datasets import RasterDataset

    global TgImages, TgMasks

    class TgImages(RasterDataset):
        filename_glob = "s*.tif"
        filename_regex = r"^s\d{4}_(?P<date>\d{8})\.tif$"
        date_format = "%Y%m%d"

    class TgMasks(RasterDataset):
        filename_glob = "m*.tif"
        filename_regex = r"^m\d{4}_(?P<date>\d{8})\.tif$"
        date_format = "%Y%m%d"
        is_image = False

    TgImages.__qualname__, TgMasks.__qualname__ = "TgImages", "TgMasks"
    return TgImages, TgMasks


try:
    _tg_classes()
except ImportError:
    pass


def torchgeo_pair(images, masks):
    """TorchGeo's IntersectionDataset of two RasterDatasets over the GeoTIFFs (None without torchgeo)."""
    try:
        from torchgeo.datasets import IntersectionDataset
    except ImportError as e:
        print(f"TorchGeo: not measured (cannot import torchgeo: {e})")
        return None
    return IntersectionDataset(TgImages(paths=list(images)), TgMasks(paths=list(masks)))


class TorchGeoQueries(torch.utils.data.Sampler):
    """The chips (file, row, col) as TorchGeo queries (x slice, y slice, t slice: the file's day)."""

    def __init__(self, keys, transforms, days, size=256):
        import pandas as pd

        self.q = []
        for j, r, c in keys:
            x0, xres, _, y0, _, yres = transforms[j]
            t0 = pd.Timestamp(days[j])
            self.q.append((slice(x0 + c * xres, x0 + (c + size) * xres, xres),
                           slice(y0 + (r + size) * yres, y0 + r * yres, -yres),
                           slice(t0, t0 + pd.Timedelta(hours=1))))

    def __len__(self):
        return len(self.q)

    def __iter__(self):
        return iter(self.q)


MP_CONTEXT = None  # --mp-context: DataLoader workers' start method (None: the platform's, fork)


def _mp(workers):
    import multiprocessing as mp

    return {"multiprocessing_context": mp.get_context(MP_CONTEXT)} if workers and MP_CONTEXT else {}


def _cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def run_loader(loader):
    """(samples/s, samples per CPU-second, rumi stats) of one pass; workers end with the pass."""
    t0, c0 = time.perf_counter(), _cpu()
    n, stats = 0, []
    for b in loader:
        n += b["image"].shape[0]
        if "stats" in b:
            stats.append(b["stats"])
    del loader  # joins the workers: their CPU time is in RUSAGE_CHILDREN
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return n / wall, n / max(cpu, 1e-9), stats


def methods(files, cat, mcat, keys, args, cache_bytes, root=None, env=None, verify_size=True):
    """name -> run(workers) -> (samples/s, samples/CPU-s, stats)."""
    def rumi_run(w):
        ds = rt.ChipDataset(cat, size=256, labels=mcat, verify_size=verify_size, cache_bytes=cache_bytes)  # fresh readers
        # workers end with the pass (their CPU is in RUSAGE_CHILDREN), as the peers'
        return run_loader(ds.loader(keys, batch_size=args.batch, num_workers=w, persistent_workers=False, **_mp(w)))

    m = {"rumi": rumi_run}
    tr = (lambda p: p) if root is None else (lambda p: "/vsicurl/" + root + Path(p).parent.name + "/" + Path(p).name)
    for codec in CODECS:
        imgs = [tr(p) for p in files[f"tif_{codec}"]]
        msks = [tr(p) for p in files[f"tif_{codec}_mask"]]
        for keep in (False, True):
            # a fresh dataset per run, as rumi's readers: datasets kept open within a run, never
            # from one repetition to the next (their block caches would serve a later run warm)
            m[f"rasterio-{'kept' if keep else 'open'}-{codec}"] = (
                lambda w, imgs=imgs, msks=msks, keep=keep: run_loader(torch.utils.data.DataLoader(
                    RasterioPairs(imgs, msks, 256, keep, env), batch_size=args.batch, sampler=keys, num_workers=w,
                    **_mp(w))))
        if not args.no_torchgeo:
            tg = torchgeo_pair(imgs, msks)
            if tg is not None:
                from torchgeo.datasets import stack_samples

                q = TorchGeoQueries(keys, files["transforms"], files["days"])

                def tg_run(w, tg=tg, q=q):
                    for d in tg.datasets:
                        type(d)._cached_load_warp_file.cache_clear()  # its handle cache starts cold each run
                    return run_loader(torch.utils.data.DataLoader(tg, batch_size=args.batch, sampler=q, num_workers=w, **_mp(w),
                                                                  collate_fn=stack_samples))

                m[f"torchgeo-{codec}"] = tg_run
    return m


def check_same_pixels(files, cat, mcat, keys):
    ds = rt.ChipDataset(cat, size=256, labels=mcat)
    ref = RasterioPairs(files["tif_zstd"], files["tif_zstd_mask"], 256, False)
    b = ds.__getitems__(keys[:8])
    for i, k in enumerate(keys[:8]):
        want = ref[k]
        assert torch.equal(b["image"][i], want["image"]), k
        assert torch.equal(b["mask"][i], want["mask"]), k


def ceiling(files, decoded_frames, chips):
    """Samples/s if the machine only decoded the frames rumi decoded (OpenZL alone, every core):
    decode_ceiling's rate on a sample of these files, per frame."""
    if not CEILING.exists():
        return None
    sample = files["rumi"][:8] + files["rumi_mask"][:8]
    r = subprocess.run([str(CEILING), "--threads", str(os.cpu_count()), "--reps", "3", *sample], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    per_frame = []
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            j = json.loads(line)
            per_frame.append(statistics.median(j["runs_s"]) / j["frames"])
    # images and masks: the mean seconds per frame of each kind, weighted as rumi decoded them
    s = statistics.mean(per_frame[:len(per_frame) // 2]) * decoded_frames[0] + statistics.mean(per_frame[len(per_frame) // 2:]) * decoded_frames[1]
    return chips / s


def measure(label, ms, keys, args, files, counter=None):
    out = {}
    for workers in args.workers:
        res = {}
        for name, run in ms.items():
            sps, cps, reqs, st = [], [], [], None
            for _ in range(args.repeats):
                r0 = counter() if counter else 0
                a, b, stats = run(workers)
                sps.append(a)
                cps.append(b)
                st = stats or st
                if counter:
                    reqs.append((counter() - r0) / len(keys))
            res[name] = (statistics.median(sps), statistics.median(cps), statistics.median(reqs) if reqs else None, st)
        out[workers] = res
        peers = {k: v for k, v in res.items() if k != "rumi"}
        bw = max(peers, key=lambda k: peers[k][0])
        bc = max(peers, key=lambda k: peers[k][1])
        cells = "; ".join(f"{k} {v[0]:.1f}/s {v[1]:.1f}/cpu-s" + (f" {v[2]:.2f} req" if v[2] is not None else "")
                          for k, v in res.items())
        r = res["rumi"]
        print(f"{label}, {workers} workers: {cells}", flush=True)
        print(f"{label}, {workers} workers: rumi / best peer {r[0] / peers[bw][0]:.2f}x wall ({bw}), "
              f"{r[1] / peers[bc][1]:.2f}x per CPU-second ({bc})", flush=True)
        st = r[3]
        if st and workers == 0 and counter is None:
            # frames decoded by rumi in the run: images and masks (the stats count both; split by bytes needed)
            dec = sum(x["decoded"] for x in st)
            c = ceiling(files, (dec / 2, dec / 2), len(keys))  # images and masks share one tile grid
            if c:
                print(f"{label}: decode ceiling {c:.1f} samples/s ({dec} frames decoded by rumi); the loader at "
                      f"{100 * r[0] / c:.0f} % of it", flush=True)
    return out


def resume_cost(cat, mcat, args):
    ds = rt.ChipDataset(cat, size=256, labels=mcat)
    s = rt.RandomChipSampler(ds, length=10_000, seed=1)
    loader = ds.loader(s, batch_size=args.batch)
    t0 = time.perf_counter()
    st = {"seed": 1, "epoch": 0, "rank": 0, "world_size": 1, "samples_delivered": 5_008}
    fresh = ds.loader(rt.RandomChipSampler(ds, length=10_000, seed=0), batch_size=args.batch)
    fresh.load_state_dict(st)
    b = next(iter(fresh))
    dt_ = time.perf_counter() - t0
    want = list(s)[5_008:5_008 + args.batch]
    assert b["key"] == want
    del loader
    print(f"resume in the middle of a 10,000-chip epoch: load_state_dict + first batch in {dt_:.3f} s", flush=True)


def remote(tmp, files, cat_keys, args):
    sys.path.insert(0, str(REPO / "python" / "tests"))
    from conftest import Nginx

    ng = Nginx(Path(tempfile.mkdtemp(prefix="rumi-bench-nginx-")), tmp).start()
    px = ProxyProcess(ng.port, args.delay)
    try:
        base = f"http://127.0.0.1:{px.port}/"
        cat = rumi.Catalog.build([base + Path(p).name for p in files["rumi"]], tmp / "remote.parquet")
        mcat = rumi.Catalog.build([base + Path(p).name for p in files["rumi_mask"]], tmp / "remote_m.parquet")
        keys = cat_keys[:args.remote_chips]
        env = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif",
               "GDAL_HTTP_MULTIRANGE": "YES", "GDAL_HTTP_MERGE_CONSECUTIVE_RANGES": "YES"}
        os.environ.update(env)  # TorchGeo takes GDAL's settings from the environment
        ms = methods(files, cat, mcat, keys, args, None, root=base, env=env, verify_size=False)
        return measure(f"loopback nginx +{args.delay * 1000:.0f} ms/request", ms, keys, args, files, counter=lambda: px.requests)
    finally:
        px.stop()
        ng.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", type=int, default=60, help="pieces of the small collection")
    ap.add_argument("--large", type=int, default=300, help="pieces of the large collection")
    ap.add_argument("--chips", type=int, default=256)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=lambda s: [int(v) for v in s.split(",")], default=[0, 2])
    ap.add_argument("--regimes", default="small,large", help="comma-separated: small, large")
    ap.add_argument("--remote", action="store_true", help="also the small collection over the delayed loopback")
    ap.add_argument("--delay", type=float, default=0.02, help="injected latency per HTTP request (s)")
    ap.add_argument("--remote-chips", type=int, default=64)
    ap.add_argument("--no-torchgeo", action="store_true")
    ap.add_argument("--mp-context", choices=["fork", "spawn", "forkserver"],
                    help="workers' start method (GDAL's /vsicurl/ state does not survive fork: forkserver over HTTP)")
    ap.add_argument("--remote-only", action="store_true", help="the small collection over the delayed loopback only")
    ap.add_argument("--no-header", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    global MP_CONTEXT
    MP_CONTEXT = args.mp_context
    if not SCENE.exists():
        sys.exit(f"{SCENE} is absent")
    try:
        import torchgeo

        tgv = torchgeo.__version__
    except ImportError:
        tgv = "absent"
    if not args.no_header:
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start; torch {torch.__version__}, "
              f"rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__}), torchgeo {tgv}", flush=True)
    for regime in args.regimes.split(","):
        if regime == "large" and os.environ.get("GDAL_CACHEMAX") != "16":
            # GDAL reads GDAL_CACHEMAX once per process: the large regime runs in its own
            argv = [a for a in sys.argv[1:]]
            if "--regimes" in argv:
                i = argv.index("--regimes")
                del argv[i:i + 2]
            subprocess.run([sys.executable, __file__, *argv, "--regimes", "large", "--no-header"],
                           env=dict(os.environ, GDAL_CACHEMAX="16"), check=True)
            continue
        n = args.small if regime == "small" else args.large
        chips = args.chips if regime == "small" else n
        tmp = Path(tempfile.mkdtemp(prefix=f"rumi-chip-bench-{regime}-"))
        t = time.perf_counter()
        files = cut(tmp, n)
        cat = rumi.Catalog.build(files["rumi"], tmp / "cat.parquet")
        mcat = rumi.Catalog.build(files["rumi_mask"], tmp / "mcat.parquet")
        sz = {k: sum(os.path.getsize(p) for p in files[k]) / 2**20 for k in files if k.startswith(("rumi", "tif"))}
        print(f"{regime}: {n} pieces of 512x512x3 uint16 + uint8 masks ({time.perf_counter() - t:.1f} s); MiB: "
              + ", ".join(f"{k} {v:.1f}" for k, v in sz.items()), flush=True)
        ds = rt.ChipDataset(cat, size=256)
        keys = list(rt.RandomChipSampler(ds, length=chips, seed=0))
        check_same_pixels(files, cat, mcat, keys)
        cache = 16 << 20 if regime == "large" else None
        if args.remote_only:
            remote(tmp, files, keys, args)
            continue
        measure(f"{regime} ({n} pieces, {chips} chips{', GDAL_CACHEMAX=16, rumi cache 16 MiB' if cache else ''})",
                methods(files, cat, mcat, keys, args, cache), keys, args, files)
        if regime == "small":
            resume_cost(cat, mcat, args)
            if args.remote:
                remote(tmp, files, keys, args)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
