"""Chip loader benchmark (issue 16): the same random 256x256 chips from the same scenes, read by
rumi.torch.ChipDataset and by its anchors over equivalent tiled GeoTIFFs (256x256 tiles,
DEFLATE + predictor: what a COG's full-resolution level is):
  - rasterio-window: a map-style dataset, rasterio.open + one windowed read per sample;
  - TorchGeo RasterDataset (torchgeo.datasets, its rasterio/WarpedVRT/merge read path and
    handle cache) through a DataLoader with torchgeo's stack_samples. TorchGeo's RandomGeoSampler
    draws its own positions: for the same chips a Sampler yields the rumi sampler's chips as
    TorchGeo queries. Each file carries its own date (in its name) and each query that date, so a
    query selects its one file (the pieces overlap: without it TorchGeo would mosaic several);
  - Rasteret (PyPI `rasteret`, COG headers cached in its Parquet collection, reads through
    obstore), in its own Python (>= 3.12, no torch: bench/rasteret_chips.py, one read_window per
    chip; "workers" are processes). Skipped with the reason when RUMI_RASTERET_PYTHON is unset.
Each from local disk and from loopback nginx behind bench/delay_proxy.py (--delay per request),
with 0 and 2 DataLoader workers; plus the time to the first batch over a 10,000-row catalogue.
Figures: samples/s (median of --repeats runs), requests/sample (counted at the proxy), bytes
fetched / bytes needed (rumi's planner counters), first batch (s).

    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/chip_bench.py --files 200 --chips 256 --repeats 3
    (pip install torchgeo into that venv for TorchGeo; RUMI_RASTERET_PYTHON=<python 3.12 with
    rasteret> for Rasteret; see bench/README.md)

The collection is cut from the real Landsat 8 scene of ../shared/data (512x512x3 uint16 pieces,
T=1) into a temporary folder. Noisy on a shared 2-core machine: compare ratios of one run.
"""

import argparse
import datetime as dt
import json
import os
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

DATA = Path(os.environ.get("RUMI_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))
if not DATA.is_dir():
    DATA = Path("/work/shared/data")
SCENE = DATA / "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"


def cut(out: Path, n: int, piece=512, rumi_tile=256, tif_tile=256):
    with rasterio.open(SCENE) as src:
        a = src.read()
        gt = src.transform
        epsg = src.crs.to_epsg()
    _, Y, X = a.shape
    pos = [(r, c) for r in range(0, Y - piece + 1, 64) for c in range(0, X - piece + 1, 64)]
    rng = np.random.default_rng(0)
    pos = [pos[i] for i in rng.permutation(len(pos))[:n]]
    rumis, tifs = [], []
    for k, (r, c) in enumerate(pos):
        sub = np.ascontiguousarray(a[:, r:r + piece, c:c + piece])
        t = (gt.c + c * gt.a, gt.a, 0.0, gt.f + r * gt.e, 0.0, gt.e)
        p = out / f"s{k:04d}.rumi"
        rumi.write(p, sub, bands=["b1", "b2", "b3"], times=["2020-05-18"], crs=f"EPSG:{epsg}", transform=t, tile=rumi_tile)
        os.unlink(f"{p}.header")
        day = (dt.date(2020, 1, 1) + dt.timedelta(days=k)).strftime("%Y%m%d")  # TorchGeo's time index
        q = out / f"s{k:04d}_{day}.tif"
        with rasterio.open(q, "w", driver="GTiff", width=piece, height=piece, count=3, dtype="uint16", crs=f"EPSG:{epsg}",
                           transform=rasterio.Affine.from_gdal(*t), tiled=True, blockxsize=tif_tile, blockysize=tif_tile,
                           compress="deflate", predictor=2, interleave="pixel") as d:
            d.write(sub)
        rumis.append(str(p))
        tifs.append(str(q))
    return rumis, tifs


def torchgeo_dataset(paths):
    """A TorchGeo RasterDataset over the tifs (None when torchgeo is not installed)."""
    try:
        from torchgeo.datasets import RasterDataset
    except ImportError as e:
        print(f"TorchGeo: not measured (cannot import torchgeo: {e})")
        return None

    class Chips(RasterDataset):
        filename_glob = "s*.tif"
        filename_regex = r"^s\d{4}_(?P<date>\d{8})\.tif$"
        date_format = "%Y%m%d"
        is_image = True
        separate_files = False

    return Chips(paths=list(paths))


class TorchGeoQueries(torch.utils.data.Sampler):
    """The chips (file, row, col) as TorchGeo queries (x slice, y slice, t slice)."""

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


def torchgeo_loader(tg, sampler, batch, workers):
    from torchgeo.datasets import stack_samples

    type(tg)._cached_load_warp_file.cache_clear()  # its file-handle cache starts cold each run
    return torch.utils.data.DataLoader(tg, batch_size=batch, sampler=sampler, num_workers=workers, collate_fn=stack_samples)


def rasteret_run(tmp, hrefs, tifs, transforms, epsg, keys, workers, tag, built={}):
    """samples/s of Rasteret (bench/rasteret_chips.py in RUMI_RASTERET_PYTHON), or None."""
    py = os.environ.get("RUMI_RASTERET_PYTHON")
    if not py:
        return None
    spec = {"workspace": str(tmp / f"rasteret-{tag}"), "hrefs": hrefs, "check": tifs, "transforms": transforms, "epsg": epsg,
            "keys": [list(k) for k in keys], "size": 256, "workers": workers}
    path = tmp / f"rasteret-{tag}.json"
    path.write_text(json.dumps(spec))
    here = str(Path(__file__).resolve().parent)
    env = dict(os.environ, PYTHONPATH=here)
    if tag not in built:
        r = subprocess.run([py, "-m", "rasteret_chips", "build", str(path)], capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise SystemExit(f"Rasteret build failed: {r.stderr[-2000:]}")
        built[tag] = json.loads(r.stdout.strip().splitlines()[-1])["build_s"]
        print(f"Rasteret ({tag}): collection with the COG headers of {len(hrefs)} files built in {built[tag]:.1f} s")
    r = subprocess.run([py, "-m", "rasteret_chips", "read", str(path)], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"Rasteret read failed: {r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])["samples_per_s"]


class RasterioChips(torch.utils.data.Dataset):
    """The plain baseline: rasterio.open per sample, one windowed read (what TorchGeo does)."""

    def __init__(self, tifs, size, env=None):
        self.tifs, self.size, self.env = tifs, size, env or {}

    def __len__(self):
        return len(self.tifs)

    def __getitem__(self, key):
        j, r, c = key
        with rasterio.Env(**self.env), rasterio.open(self.tifs[j]) as d:
            a = d.read(window=Window(c, r, self.size, self.size))
        return torch.from_numpy(a[np.newaxis])


def run_loader(loader):
    t0 = time.perf_counter()
    n, first, stats = 0, None, []
    for b in loader:
        img = b["image"] if isinstance(b, dict) else b
        if first is None:
            first = time.perf_counter() - t0
        n += img.shape[0]
        if isinstance(b, dict) and "stats" in b:
            stats.append(b["stats"])
    return n / (time.perf_counter() - t0), first, stats


def measure(label, methods, keys, args, counter=None):
    """methods: name -> factory(workers) -> samples/s of one run over keys (None: not measured).
    Prints one line per worker count; returns {workers: {name: (samples/s, requests/sample)}}."""
    out = {}
    for workers in (0, 2):
        res = {}
        for name, run in methods.items():
            sps, reqs = [], []
            for _ in range(args.repeats):
                r0 = counter() if counter else 0
                s = run(workers)
                if s is None:
                    break
                sps.append(s)
                reqs.append(((counter() - r0) / len(keys)) if counter else None)
            if sps:
                res[name] = (statistics.median(sps), statistics.median(reqs) if counter else None)
        out[workers] = res
        best = max(v[0] for k, v in res.items() if k != "rumi")
        cells = ", ".join(f"{k} {v[0]:.1f}" + (f" ({v[1]:.2f} req/sample)" if v[1] is not None else "") for k, v in res.items())
        print(f"{label}, {workers} workers (samples/s): {cells} -> rumi / best other {res['rumi'][0] / best:.1f}x", flush=True)
    best_rumi = max(out[w]["rumi"][0] for w in out)
    best_other = max(v[0] for w in out for k, v in out[w].items() if k != "rumi")
    print(f"{label}: best rumi / best other (any worker count) {best_rumi / best_other:.1f}x", flush=True)
    return out


def loader_methods(cat, keys, rb, tg, tg_sampler, args, rasteret=None, verify_size=True):
    def rumi_run(workers):
        ds = rt.ChipDataset(cat, size=256, verify_size=verify_size)  # fresh readers: nothing warm from the last run
        return run_loader(ds.loader(keys, batch_size=args.batch, num_workers=workers))[0]

    m = {"rumi": rumi_run,
         "rasterio-window": lambda w: run_loader(torch.utils.data.DataLoader(rb, batch_size=args.batch, sampler=keys, num_workers=w))[0]}
    if tg is not None:
        m["torchgeo"] = lambda w: run_loader(torchgeo_loader(tg, tg_sampler, args.batch, w))[0]
    if rasteret is not None:
        m["rasteret"] = rasteret
    return m


def check_same_pixels(ds, base, tg, tg_sampler, keys):
    for n, k in enumerate(keys[:8]):
        want = base[k]
        assert torch.equal(ds[k]["image"], want), k
        if tg is not None:
            got = tg[tg_sampler.q[n]]["image"]
            assert torch.equal(got, want[0].to(got.dtype)), f"torchgeo chip {k}"


def remote(tmp, rumis, tifs, transforms, days, epsg, args):
    """nginx on loopback behind DelayProxy (args.delay per request); rumi over HTTP, rasterio and
    TorchGeo over /vsicurl/, Rasteret over obstore's HTTP store; requests counted at the proxy."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python" / "tests"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conftest import Nginx
    from delay_proxy import DelayProxy

    ng = Nginx(Path(tempfile.mkdtemp(prefix="rumi-bench-nginx-")), tmp).start()
    px = DelayProxy(ng.port, args.delay)
    try:
        base = f"http://127.0.0.1:{px.port}/"
        cat = rumi.Catalog.build([base + Path(p).name for p in rumis], tmp / "remote.parquet")
        ds = rt.ChipDataset(cat, size=256, verify_size=False)
        keys = list(rt.RandomChipSampler(ds, length=args.remote_chips, seed=2))
        env = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_ALLOWED_EXTENSIONS": ".tif",
               "GDAL_HTTP_MULTIRANGE": "YES", "GDAL_HTTP_MERGE_CONSECUTIVE_RANGES": "YES"}
        os.environ.update(env)  # TorchGeo takes GDAL's settings from the environment
        urls = [base + Path(p).name for p in tifs]
        rb = RasterioChips(["/vsicurl/" + u for u in urls], 256, env)
        t = time.perf_counter()
        tg = torchgeo_dataset("/vsicurl/" + u for u in urls)
        if tg is not None:
            print(f"TorchGeo (remote): index of {len(urls)} files in {time.perf_counter() - t:.1f} s")
        tgs = TorchGeoQueries(keys, transforms, days)
        check_same_pixels(ds, rb, tg, tgs, keys)
        rr = (lambda w: rasteret_run(tmp, urls, tifs, transforms, epsg, keys, w, "remote")) if os.environ.get("RUMI_RASTERET_PYTHON") else None
        methods = loader_methods(cat, keys, rb, tg, tgs, args, rr, verify_size=False)
        return measure(f"loopback nginx +{args.delay * 1000:.0f} ms/request", methods, keys, args, counter=lambda: px.requests)
    finally:
        px.stop()
        ng.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--chips", type=int, default=256)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--delay", type=float, default=0.02, help="injected latency per HTTP request (s)")
    ap.add_argument("--remote-chips", type=int, default=64)
    ap.add_argument("--only", choices=["local", "remote", "first"], help="run one part")
    ap.add_argument("--rumi-tile", type=int, default=256, help="tile size of the rumi files (rumi.write tile=)")
    ap.add_argument("--tif-tile", type=int, default=256, help="block size of the GeoTIFFs (a multiple of 16)")
    args = ap.parse_args()
    if not SCENE.exists():
        sys.exit(f"{SCENE} is absent")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start; torch {torch.__version__}, "
          f"rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__})", flush=True)
    if not os.environ.get("RUMI_RASTERET_PYTHON"):
        print("Rasteret: not measured (set RUMI_RASTERET_PYTHON to a python >= 3.12 with rasteret installed)")
    tmp = Path(tempfile.mkdtemp(prefix="rumi-chip-bench-"))
    t = time.perf_counter()
    rumis, tifs = cut(tmp, args.files, rumi_tile=args.rumi_tile, tif_tile=args.tif_tile)
    print(f"collection: {len(rumis)} files of 512x512x3 uint16 cut from {SCENE.name}, rumi tiles {args.rumi_tile}, "
          f"GeoTIFF blocks {args.tif_tile} ({time.perf_counter() - t:.1f} s)")
    cat = rumi.Catalog.build(rumis, tmp / "cat.parquet")
    transforms = [tuple(rasterio.open(p).transform.to_gdal()) for p in tifs]
    days = [Path(p).stem.split("_")[1] for p in tifs]
    epsg = rasterio.open(tifs[0]).crs.to_epsg()
    ds = rt.ChipDataset(cat, size=256)
    keys = list(rt.RandomChipSampler(ds, length=args.chips, seed=0))
    base = RasterioChips(tifs, 256)
    tg = torchgeo_dataset(tifs)
    tgs = TorchGeoQueries(keys, transforms, days)
    check_same_pixels(ds, base, tg, tgs, keys)  # same chips, same pixels
    if args.only in (None, "local"):
        rr = (lambda w: rasteret_run(tmp, tifs, tifs, transforms, epsg, keys, w, "local")) if os.environ.get("RUMI_RASTERET_PYTHON") else None
        res = measure("local disk", loader_methods(cat, keys, base, tg, tgs, args, rr), keys, args)
        st = run_loader(ds.loader(keys, batch_size=args.batch))[2]
        print(f"local disk: rumi requests/sample {sum(x['requests'] for x in st) / args.chips:.2f}, bytes fetched/needed "
              f"{sum(x['bytes_fetched'] for x in st) / sum(x['bytes_needed'] for x in st):.2f}")
    if args.only in (None, "remote"):
        remote(tmp, rumis, tifs, transforms, days, epsg, args)
    # first batch over a 10,000-row catalogue
    import pyarrow as pa
    from rumi.catalog import Catalog

    reps = -(-10000 // len(cat))
    Catalog._write(pa.concat_tables([cat.table] * reps).slice(0, 10000), str(tmp / "big.parquet"))
    t0 = time.perf_counter()
    big = Catalog.open(tmp / "big.parquet")
    bds = rt.ChipDataset(big, size=256)
    b = next(iter(bds.loader(rt.RandomChipSampler(bds, length=10000, seed=1), batch_size=args.batch)))
    first = time.perf_counter() - t0
    print(f"10,000-row catalogue: open + dataset + first batch of {b['image'].shape[0]} in {first:.2f} s")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
