"""Chip loader benchmark (issue 16): the same random 256x256 chips from the same scenes, read by
rumi.torch.ChipDataset and by a plain rasterio-window dataset over equivalent tiled GeoTIFFs
(256x256 tiles, DEFLATE + predictor), through a DataLoader with 0 and 2 workers; plus the time to
the first batch over a 10,000-row catalogue. Figures: samples/s (median of --repeats runs),
requests/sample and bytes fetched / bytes needed (rumi's planner counters), first batch (s).

    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/chip_bench.py --files 200 --chips 256 --repeats 3

The collection is cut from the real Landsat 8 scene of ../shared/data (512x512x3 uint16 pieces,
T=1) into a temporary folder. Noisy on a shared 2-core machine: compare ratios of one run.
"""

import argparse
import os
import statistics
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


def cut(out: Path, n: int, piece=512):
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
        rumi.write(p, sub, bands=["b1", "b2", "b3"], times=["2020-05-18"], crs=f"EPSG:{epsg}", transform=t, tile=256)
        os.unlink(f"{p}.header")
        q = out / f"s{k:04d}.tif"
        with rasterio.open(q, "w", driver="GTiff", width=piece, height=piece, count=3, dtype="uint16", crs=f"EPSG:{epsg}",
                           transform=rasterio.Affine.from_gdal(*t), tiled=True, blockxsize=256, blockysize=256,
                           compress="deflate", predictor=2, interleave="pixel") as d:
            d.write(sub)
        rumis.append(str(p))
        tifs.append(str(q))
    return rumis, tifs


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
        if isinstance(b, dict):
            stats.append(b["stats"])
    return n / (time.perf_counter() - t0), first, stats


def remote(tmp, rumis, tifs, args):
    """nginx on loopback behind DelayProxy (args.delay per request); rumi over HTTP vs rasterio
    over /vsicurl/, requests counted at the proxy."""
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
        rb = RasterioChips(["/vsicurl/" + base + Path(p).name for p in tifs], 256, env)
        for workers in (0, 2):
            res = {}
            for name in ("rumi", "rasterio"):
                sps, reqs = [], []
                for _ in range(args.repeats):
                    if name == "rumi":
                        ds = rt.ChipDataset(cat, size=256, verify_size=False)  # fresh readers: no warm connections
                        loader = ds.loader(keys, batch_size=args.batch, num_workers=workers)
                    else:
                        loader = torch.utils.data.DataLoader(rb, batch_size=args.batch, sampler=keys, num_workers=workers)
                    r0 = px.requests
                    s, _, _ = run_loader(loader)
                    sps.append(s)
                    reqs.append((px.requests - r0) / len(keys))
                res[name] = (statistics.median(sps), statistics.median(reqs))
            print(f"loopback nginx +{args.delay * 1000:.0f} ms/request, {workers} workers: rumi {res['rumi'][0]:.1f} samples/s "
                  f"({res['rumi'][1]:.2f} requests/sample), rasterio /vsicurl/ {res['rasterio'][0]:.1f} samples/s "
                  f"({res['rasterio'][1]:.2f} requests/sample) -> {res['rumi'][0] / res['rasterio'][0]:.1f}x")
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
    args = ap.parse_args()
    if not SCENE.exists():
        sys.exit(f"{SCENE} is absent")
    tmp = Path(tempfile.mkdtemp(prefix="rumi-chip-bench-"))
    t = time.perf_counter()
    rumis, tifs = cut(tmp, args.files)
    print(f"collection: {len(rumis)} files of 512x512x3 uint16 cut from {SCENE.name} ({time.perf_counter() - t:.1f} s)")
    cat = rumi.Catalog.build(rumis, tmp / "cat.parquet")
    ds = rt.ChipDataset(cat, size=256)
    keys = list(rt.RandomChipSampler(ds, length=args.chips, seed=0))
    base = RasterioChips(tifs, 256)
    # same chips, same pixels
    for k in keys[:8]:
        assert torch.equal(ds[k]["image"], base[k]), k
    rows = []
    for workers in ((0, 2) if args.only in (None, "local") else ()):
        res = {}
        for name in ("rumi", "rasterio"):
            sps = []
            for _ in range(args.repeats):
                if name == "rumi":
                    loader = ds.loader(keys, batch_size=args.batch, num_workers=workers)
                else:
                    loader = torch.utils.data.DataLoader(base, batch_size=args.batch, sampler=keys, num_workers=workers)
                s, _, st = run_loader(loader)
                sps.append(s)
                if st:
                    res["req"] = sum(x["requests"] for x in st) / args.chips
                    res["ratio"] = sum(x["bytes_fetched"] for x in st) / sum(x["bytes_needed"] for x in st)
            res[name] = statistics.median(sps)
        rows.append((workers, res))
        print(f"local, {workers} workers: rumi {res['rumi']:.0f} samples/s, rasterio-window {res['rasterio']:.0f} samples/s "
              f"-> {res['rumi'] / res['rasterio']:.1f}x; rumi requests/sample {res['req']:.2f}, "
              f"bytes fetched/needed {res['ratio']:.2f}")
    if args.only in (None, "remote"):
        remote(tmp, rumis, tifs, args)
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


if __name__ == "__main__":
    main()
