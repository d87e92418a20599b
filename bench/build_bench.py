"""Build throughput: STAC items -> files on a dask LocalCluster of 1 and 2 worker processes.

    target/py-venv/bin/python bench/build_bench.py [--dates 6] [--workers 1 2] [--repeat 2]

The pipelines users run today against rumi.build, on the same items and cluster, with the same
odc.stac.load parameters (bands, CRS, resolution, groupby, chunks), so the same pixels:
  cog   odc.stac.load -> one COG per time step with rioxarray's to_raster (ZSTD, predictor 2,
        256x256 blocks, no overviews since rumi has none, NUM_THREADS=ALL_CPUS), one dask task
        per time step, so the steps are loaded and written on the workers in parallel
  zarr  odc.stac.load -> Dataset.to_zarr (Zarr v3, zstd level 3 -- the codec's default -- one
        chunk per dask chunk), written by the workers
  rumi  rumi.build (items parsed, cells planned, loaded, written, catalogued: end to end), at
        rumi's default OpenZL level (7) and at level 0 (rumi-l0: the image candidates without
        OpenZL's numeric graph, the fastest to encode and to decode)
Items: the real Landsat 8 scene of the shared data folder cut into four overlapping quarters
(COGs, DEFLATE, served by nginx on 127.0.0.1), --dates dates; date k's quarters hold other
quarters of the scene, shifted and scaled (make_items), so that no two time steps of a place
repeat samples. Raw MB = T x B x Y x X x 2.
CPU-seconds: this process (client + scheduler) and every worker process (psutil), nginx apart.
The pixels of every output are read back and compared (rasterio, zarr, rumi.open).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python" / "tests"))
sys.path.insert(0, str(REPO / "tests" / "support"))
import stac_items as si  # noqa: E402
from nginx_server import Nginx  # noqa: E402

BANDS = ["red", "green", "blue"]
CRS = "EPSG:32621"
RES = 30
SIDE = 1800  # pixels of the area the quarters cover (the scene is 2041 x 1860)
QUARTERS = {"nw": (0, 0), "ne": (850, 0), "sw": (0, 850), "se": (850, 850)}  # 950 x 950 each


def make_items(data, cogs, dates, base_url):
    """Items of `dates` dates x four quarters; COGs cut once into cogs/. Date k's quarter q holds
    the scene's quarter (q + k) mod 4, shifted by (53k mod 90, 31k mod 60) pixels and scaled by
    1 + 0.05k: no two time steps of a place repeat each other's samples (a cube whose frames
    hold every time step could otherwise match them exactly, which real series never allow)."""
    landsat = Path(data) / si.LANDSAT
    stamp = cogs / f"done-v2-{dates}"
    names = list(QUARTERS)
    entries = []
    for k in range(dates):
        day = np.datetime64("2020-03-01") + np.timedelta64(16 * k, "D")
        for qi, (q, (qx, qy)) in enumerate(QUARTERS.items()):
            pid = f"d{k}-{q}"
            cx, cy = QUARTERS[names[(qi + k) % 4]]
            assets = {}
            for bi, band in enumerate(BANDS, 1):
                name = f"{pid}_{band}.tif"
                assets[band] = name
                if stamp.exists():
                    continue
                sx, sy = cx + (53 * k) % 90, cy + (31 * k) % 60
                # the place: the scene's pixel (qx, qy); its origin is (717345, -2776995)
                x0, y0 = 717345.0 + 30 * qx, -2776995.0 - 30 * qy
                f = 1 + 0.05 * k
                si.run("gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKSIZE=256",
                       "-b", bi, "-srcwin", sx, sy, 950, 950, "-a_ullr", x0, y0, x0 + 950 * 30, y0 - 950 * 30,
                       "-scale", 0, 65535, 0, round(65535 * f), "-ot", "UInt16", landsat, cogs / name)
            entries.append((pid, f"{day}T13:45:{10 + len(entries) % 4:02d}Z", assets))
    stamp.touch()
    return si.make_items(cogs, base_url, entries, "landsat")


YEAR_BANDS = ["blue", "green", "red", "nir"]
YEAR_CRS = "EPSG:32633"
YEAR_RES = 10
YEAR_SIDE = 2048


def year_texture(data):
    """(4, 2048, 2048) float32 texture from the real Landsat 8 scene: four 1024 x 1024 windows
    of its valid interior (no collar) as quadrants (two mirrored), and a near-infrared-like
    fourth band made of the visible ones (brighter where red exceeds blue)."""
    import rasterio

    with rasterio.open(Path(data) / si.LANDSAT) as f:
        a = f.read().astype("float32")  # red, green, blue
    z = (a == 0).any(0)
    ok = [(y, x) for y in range(0, a.shape[1] - 1023, 64) for x in range(0, a.shape[2] - 1023, 64)
          if not z[y:y + 1024, x:x + 1024].any()]
    picks = [ok[0], ok[len(ok) // 3], ok[2 * len(ok) // 3], ok[-1]]
    out = np.empty((3, 2048, 2048), "float32")
    for k, (y, x) in enumerate(picks):
        w = a[:, y:y + 1024, x:x + 1024]
        w = w[:, :, ::-1] if k in (1, 2) else w
        out[:, (k // 2) * 1024:(k // 2 + 1) * 1024, (k % 2) * 1024:(k % 2 + 1) * 1024] = w
    red, green, blue = out
    nir = np.clip(0.7 * red + 0.5 * green - 0.2 * blue + 1.5 * (red - blue), 0, None)
    return np.stack([blue, green, red, nir])


def year_day(k, dates):
    return np.datetime64("2021-01-01") + np.timedelta64(k * 365 // dates, "D")


def _year_date(args):
    """Writes date k's four COGs (ZSTD, predictor 2, 256 x 256 blocks, no overviews)."""
    import rasterio
    import rasterio.shutil
    from rasterio.io import MemoryFile
    from rasterio.transform import from_origin

    k, dates, tex_path, cogs = args
    tex = np.load(tex_path, mmap_mode="r")
    doy = int((year_day(k, dates) - np.datetime64("2021-01-01")) // np.timedelta64(1, "D"))
    season = np.sin(2 * np.pi * (doy - 100) / 365)
    rng = np.random.default_rng(1000 + k)
    amp = np.array([-0.12, -0.08, -0.15, 0.35], "float32")  # greener summers: nir up, visible down
    offset = rng.uniform(0, 250)  # the atmosphere of the day
    # fields green up differently: a smooth gain field over the cell, stronger in summer
    yy, xx = np.mgrid[0:YEAR_SIDE:64, 0:YEAR_SIDE:64].astype("float32") / YEAR_SIDE
    field = np.sin(6.3 * xx + 1.7) * np.cos(4.1 * yy + 0.3 * k / dates)
    field = np.kron(field, np.ones((64, 64), "float32"))
    clouds = np.zeros((YEAR_SIDE, YEAR_SIDE), bool)
    if rng.random() < 0.35:  # a third of the dates: one to three cloud patches
        Y, X = np.ogrid[0:YEAR_SIDE, 0:YEAR_SIDE]
        for _ in range(rng.integers(1, 4)):
            cy, cx, r = rng.integers(0, YEAR_SIDE), rng.integers(0, YEAR_SIDE), rng.integers(80, 400)
            clouds |= (Y - cy) ** 2 + ((X - cx) * 0.7) ** 2 < r * r
    tr = from_origin(491520.0, 4096000.0, YEAR_RES, YEAR_RES)
    for b, band in enumerate(YEAR_BANDS):
        v = tex[b] * (1 + amp[b] * season * (1 + 0.3 * field)) + offset
        v += rng.standard_normal(v.shape, dtype="float32") * 12
        v[clouds] = 0.25 * v[clouds] + 9000
        v = np.clip(np.rint(v), 1, 65535).astype("uint16")
        prof = dict(driver="GTiff", width=YEAR_SIDE, height=YEAR_SIDE, count=1, dtype="uint16", crs=YEAR_CRS,
                    transform=tr, nodata=0)
        with MemoryFile() as mf:
            with mf.open(**prof) as d:
                d.write(v, 1)
            with mf.open() as d:
                rasterio.shutil.copy(d, str(Path(cogs) / f"y{k:03d}_{band}.tif"), driver="COG", compress="ZSTD",
                                     predictor=2, blocksize=256, overviews="NONE", level=1)
    return k


def make_year_items(data, work, dates):
    """A synthetic Sentinel-2-like year over one 2048 x 2048 cell at 10 m (EPSG:32633):
    `dates` dates (every 365/dates days of 2021), four single-band uint16 COGs each, cached in
    work/cogs-year-{dates}; texture of the real Landsat 8 scene (year_texture), each date with
    its seasonal gain per band (a smooth field modulating it across the cell), an offset, noise
    (sigma 12) and, on about a third of the dates, cloud patches."""
    from multiprocessing import Pool

    cogs = Path(work) / f"cogs-year-{dates}"
    cogs.mkdir(parents=True, exist_ok=True)
    stamp = cogs / "done-v1"
    if not stamp.exists():
        tex_path = cogs / "texture.npy"
        np.save(tex_path, year_texture(data))
        with Pool(2) as p:
            for _ in p.imap_unordered(_year_date, [(k, dates, str(tex_path), str(cogs)) for k in range(dates)]):
                pass
        tex_path.unlink()
        stamp.touch()
    entries = [(f"y{k:03d}", f"{year_day(k, dates)}T10:10:00Z", {b: f"y{k:03d}_{b}.tif" for b in YEAR_BANDS})
               for k in range(dates)]
    return si.make_items(cogs, str(cogs), entries, "year")


def _year_once(mode, items_path, out, workers):
    """One year build in this (fresh) process, as rumi-build runs it: rumi.build on dask's
    threads (mode "local") or on a LocalCluster of `workers` processes of one thread ("cluster").
    Prints one JSON line: wall and CPU seconds (this process, its workers), peak RSS (getrusage:
    this process, each worker), the file's size and sha256, the manifest's load chunks."""
    import hashlib
    import resource

    import psutil

    import rumi

    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    base = peak()
    client = None
    if mode == "cluster":
        from dask.distributed import Client, LocalCluster

        client = Client(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None))
        client.run(lambda: __import__("odc.stac") and __import__("rumi") and None)
    procs = [psutil.Process()] + ([psutil.Process(p) for p in client.run(os.getpid).values()] if client else [])
    cpu0 = [sum(p.cpu_times()[:2]) for p in procs]
    t0 = time.perf_counter()
    cat = rumi.build(items_path, out, bands=YEAR_BANDS, crs=YEAR_CRS, resolution=YEAR_RES, groupby="solar_day")
    wall = time.perf_counter() - t0
    cpu = sum(sum(p.cpu_times()[:2]) - c for p, c in zip(procs, cpu0))
    workers_peak = list(client.run(peak).values()) if client else []
    build_peak = peak()  # before the checksum below (a whole-file read once made it the file's size)
    name = cat.report.written[0]
    path = Path(out) / name
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            h.update(chunk)
    sha = h.hexdigest()
    manifest = json.loads((Path(out) / "rumi-build.json").read_text())["files"]
    with rumi.open(str(path)) as ds:
        shape = ds.shape
    if client is not None:
        client.close()
    print(json.dumps({"mode": mode, "wall": wall, "cpu": cpu, "peak": build_peak, "base": base, "workers_peak": workers_peak,
                      "bytes": path.stat().st_size, "raw": cat.report.raw_bytes, "sha256": sha, "shape": list(shape),
                      "chunks": manifest.get(name, {}).get("chunks")}))


def run_year(a):
    """--year: the synthetic year (make_year_items) built locally and on a LocalCluster, each in
    a fresh process (so that its peak RSS is that build's), one table."""
    import subprocess

    work = Path(a.year_work)
    t0 = time.perf_counter()
    items = make_year_items(a.data, work, a.dates)
    items_path = work / f"items-{a.dates}.json"
    import pystac

    items_path.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    print(f"# {len(items)} items ({a.dates} dates x {len(YEAR_BANDS)} COGs of {YEAR_SIDE} x {YEAR_SIDE} uint16) "
          f"ready in {time.perf_counter() - t0:.1f} s; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}", flush=True)
    rows = []
    for mode in a.modes:
        out = work / "out" / mode
        shutil.rmtree(out, ignore_errors=True)
        r = subprocess.run([sys.executable, __file__, "--year-once", mode, str(items_path), str(out), "--workers",
                            str(a.workers[-1])], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{mode}: {r.stderr[-4000:]}")
        row = json.loads(r.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(f"  {mode}: {json.dumps(row)}", flush=True)
        shutil.rmtree(out, ignore_errors=True)
    print("\n| mode | T | cell | peak RSS MB (process; workers) | wall s | CPU s | raw MB | output MB | load chunks | sha256 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        T, B, Y, X = r["shape"]
        w = "; ".join(f"{v / 1e6:.0f}" for v in r["workers_peak"])
        print(f"| {r['mode']} | {T} | {B} x {Y} x {X} | {r['peak'] / 1e6:.0f}{'; ' + w if w else ''} | {r['wall']:.1f} | "
              f"{r['cpu']:.1f} | {r['raw'] / 1e6:.0f} | {r['bytes'] / 1e6:.1f} | {r['chunks']} | {r['sha256'][:12]} |")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))


def cpu_seconds(client):
    import psutil

    pids = [os.getpid()] + list(client.run(os.getpid).values())
    total = 0.0
    for pid in pids:
        t = psutil.Process(pid).cpu_times()
        total += t.user + t.system
    return total


def write_cog(da, path):
    da.rio.to_raster(path, driver="COG", compress="ZSTD", predictor=2, blocksize=256, overviews="NONE",
                     num_threads="ALL_CPUS", bigtiff="IF_SAFER")
    return os.path.getsize(path)


def run_cog(items, out, chunks):
    import dask
    import odc.stac
    import rioxarray  # noqa: F401

    xx = odc.stac.load(items, bands=BANDS, crs=CRS, resolution=RES, groupby="solar_day", chunks=chunks)
    tasks = [dask.delayed(write_cog)(xx.isel(time=t).to_array("band"), str(out / f"t{t}.tif"))
             for t in range(xx.sizes["time"])]
    return sum(dask.compute(*tasks)), xx


def run_zarr(items, out, chunks):
    import odc.stac
    import zarr

    xx = odc.stac.load(items, bands=BANDS, crs=CRS, resolution=RES, groupby="solar_day", chunks=chunks)
    enc = {b: {"compressors": [zarr.codecs.ZstdCodec(level=3)]} for b in BANDS}
    xx.to_zarr(out / "cube.zarr", zarr_format=3, encoding=enc, mode="w", consolidated=False)
    return dir_size(out / "cube.zarr"), xx


def run_rumi(items, out, chunks, level=None):
    import rumi

    cat = rumi.build(items, out / "rumi", bands=BANDS, crs=CRS, resolution=RES, groupby="solar_day", chunks=chunks,
                     level=level)
    return sum(os.path.getsize(p) for p in (out / "rumi").glob("*.rumi*")), cat


def run_rumi_l0(items, out, chunks):
    return run_rumi(items, out, chunks, level=0)


PIPELINES = (("cog", run_cog), ("zarr", run_zarr), ("rumi", run_rumi), ("rumi-l0", run_rumi_l0))


def dir_size(p):
    return sum(f.stat().st_size for f in Path(p).rglob("*") if f.is_file())


def check_same(outdir, ref):
    """Every output's pixels equal the computed odc.stac.load reference."""
    import rasterio
    import rumi
    import xarray as xr

    want = np.stack([ref[b].values for b in BANDS], axis=1)  # (T, B, Y, X)
    for name in ("rumi", "rumi-l0"):
        with rumi.open(outdir / name / "rumi" / "all.rumi") as ds:
            np.testing.assert_array_equal(ds.read(), want)
    z = xr.open_zarr(outdir / "zarr" / "cube.zarr", zarr_format=3, consolidated=False)
    np.testing.assert_array_equal(np.stack([z[b].values for b in BANDS], axis=1), want)
    for t in range(want.shape[0]):
        with rasterio.open(outdir / "cog" / f"t{t}.tif") as f:
            np.testing.assert_array_equal(f.read(), want[t])
    return want.nbytes


def encode_only(want, times):
    """CPU seconds of the codecs alone on the loaded cube, in this process: rumi.write (default
    threads; levels 7 and 0) and numcodecs' zstd level 3 per 512 x 512 chunk (Zarr's codec)."""
    import numcodecs
    import rumi

    out = {}
    for lvl in (7, 0):
        c0 = time.process_time()
        rumi.write(str(REPO / "target" / "build-bench" / "encode.rumi"), want, bands=BANDS, times=times, level=lvl)
        out[f"rumi.write level {lvl}"] = time.process_time() - c0
    z = numcodecs.Zstd(level=3)
    c0 = time.process_time()
    T, B, Y, X = want.shape
    for t in range(T):
        for b in range(B):
            for y in range(0, Y, 512):
                for x in range(0, X, 512):
                    z.encode(np.ascontiguousarray(want[t, b, y:y + 512, x:x + 512]))
    out["zstd level 3 (numcodecs)"] = time.process_time() - c0
    return out


# --- planning at scale (issue 40, item 4): rumi.plan_build over a stac-geoparquet table -------
#
# A Sentinel-2 L2A-like table as Earth Search v1 serves it (assets of the 12 bands, SCL, AOT,
# WVP, the true-colour image, thumbnail and metadata; the projection extension per asset, the
# raster and eo extensions; about 50 properties): 100 MGRS-like tiles of 109.8 km (UTM zones 32
# and 33, 5 x 10 tiles each, 100 km apart, so neighbours overlap by 9.8 km), each acquired on
# 3 of every 11 days (about 100 dates a year, a tile column's dates shifted as relative orbits
# are), at about 10:30 solar time with milliseconds (real items carry them), a third of the
# footprints cut diagonally (the swath's edge). N items: the first N acquisitions from
# 2023-01-01 on (10 k: a year; 50 k: five). Planning never opens a source: the items give
# every band's sample type and nodata, and the hrefs point at no reachable server.


PLAN_BANDS = ["blue", "green", "red", "nir"]
PLAN_CRS = "EPSG:32633"


def plan_table(work, n):
    """The generated table of n items (cached in work)."""
    path = Path(work) / f"s2-l2a-{n}.parquet"
    if not path.exists():
        t0 = time.perf_counter()
        tmp = path.with_suffix(".tmp")
        si.make_s2_table(n, tmp)
        tmp.rename(path)
        print(f"# {path.name}: {n} items written in {time.perf_counter() - t0:.1f} s, {path.stat().st_size / 1e6:.1f} MB",
              flush=True)
    return path


def _plan_once(items_path, period, trace):
    """One plan_build in this (fresh) process: the 100-tile table on a GridSpec of 2048 x 2048
    cells at 10 m in EPSG:32633 (20.48 km), bands blue, green, red, nir, one file a cell and
    period. Prints one JSON line: wall, CPU seconds of the process (every thread), peak RSS
    (VmHWM) and RSS before planning (rumi and odc-geo imported), tracemalloc's peak with --tracemalloc, the plan's
    counts, and digests of its files (names and time steps; fingerprints) to compare two
    versions' plans."""
    import hashlib
    import resource
    import warnings

    from odc.geo.gridspec import GridSpec

    import rumi
    from rumi._build import plan_build

    def usage():
        # the peak is this program's VmHWM: getrusage's ru_maxrss keeps the parent's size at the
        # fork (the table generator's, when it ran in the parent)
        r = resource.getrusage(resource.RUSAGE_SELF)
        with open("/proc/self/status") as f:
            hwm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))
        return r.ru_utime + r.ru_stime, hwm

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    base = rss()
    if trace:
        import tracemalloc

        tracemalloc.start()
    cpu0, _ = usage()
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        plan = plan_build(items_path, Path(items_path).parent / "plan-out", bands=PLAN_BANDS, crs=PLAN_CRS, resolution=10,
                          tiles=GridSpec(PLAN_CRS, (2048, 2048), 10), time=period)
    wall = time.perf_counter() - t0
    cpu, peak = usage()
    traced = tracemalloc.get_traced_memory()[1] if trace else None
    shape = hashlib.sha256()
    fps = hashlib.sha256()
    for f in plan.files:
        shape.update(f"{f.name} {plan.shape(f)} {f.time_range}\n".encode())
        fps.update(f"{f.name} {f.fingerprint}\n".encode())
    n = sum(len(f.items) for f in plan.files)
    print(json.dumps({
        "wall": wall, "cpu": cpu - cpu0, "peak": peak, "base": base, "traced": traced, "files": len(plan.files),
        "empty": len(plan.empty), "items": len(plan.items), "item_refs": n, "steps": sum(f.steps for f in plan.files),
        "raw": plan.raw_bytes(), "warnings": len(said), "files_sha": shape.hexdigest(), "fingerprints_sha": fps.hexdigest(),
        "rumi": str(Path(rumi.__file__).parent),
        "index": "-" if not hasattr(plan, "index") else ("columns" if plan.index.fast else "parsed"),
        "footprints": len(plan.index.footprints) if hasattr(plan, "index") else None,
    }))


def _watch(cmd, env, limit):
    """Runs cmd, sampling its peak RSS (VmHWM) and CPU every 0.2 s; kills it after limit
    seconds. (JSON it printed or None, sampled peak bytes, CPU s, wall s)."""
    import subprocess

    import psutil

    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ps = psutil.Process(p.pid)
    hwm, cpu = 0, 0.0
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        hwm = max(hwm, int(line.split()[1]) * 1024)
            t = ps.cpu_times()
            cpu = t.user + t.system
        except (OSError, psutil.Error):
            pass
        if time.perf_counter() - t0 > limit:
            p.kill()
            p.wait()
            return None, hwm, cpu, time.perf_counter() - t0
        time.sleep(0.2)
    out, err = p.communicate()
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {err[-4000:]}")
    return json.loads(out.strip().splitlines()[-1]), hwm, cpu, time.perf_counter() - t0


def run_plan(a):
    """--plan: planning over generated tables of each --items size, in fresh processes, for
    this checkout's rumi and each --rumi-path (e.g. a copy of an older python/rumi), one table."""
    work = Path(a.plan_work)
    work.mkdir(parents=True, exist_ok=True)
    versions = ([] if a.skip_this else [("this", str(REPO / "python"))]) + [(Path(p).name or p, p) for p in a.rumi_path]
    rows = []
    print(f"# {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; time={a.period}; limit {a.limit:.0f} s a run", flush=True)
    for n in [int(v) for v in a.items.split(",")]:
        path = plan_table(work, n)
        for label, root in versions:
            env = dict(os.environ, PYTHONPATH=root)
            cmd = [sys.executable, __file__, "--plan-once", str(path), "--period", a.period] + (["--tracemalloc"] if a.tracemalloc else [])
            out, hwm, cpu, wall = _watch(cmd, env, a.limit)
            row = {"items": n, "version": label, "path": root, "hwm": hwm, "killed": out is None, "wall_outside": wall,
                   "cpu_outside": cpu, **(out or {})}
            rows.append(row)
            print(f"  {json.dumps(row)}", flush=True)
    print("\n| items | rumi | files | item refs | plan wall s | CPU s | peak RSS MB | RSS before planning MB | tracemalloc peak MB | path | files sha | fingerprints sha |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r["killed"]:
            print(f"| {r['items']} | {r['version']} | - | - | > {r['wall_outside']:.0f} (stopped) | > {r['cpu_outside']:.0f} | "
                  f">= {r['hwm'] / 1e6:.0f} | - | - | - | - | - |")
            continue
        tm = "-" if r["traced"] is None else f"{r['traced'] / 1e6:.0f}"
        print(f"| {r['items']} | {r['version']} | {r['files']} | {r['item_refs']} | {r['wall']:.2f} | {r['cpu']:.2f} | "
              f"{r['peak'] / 1e6:.0f} | {r['base'] / 1e6:.0f} | {tm} | {r['index']} | {r['files_sha'][:10]} | "
              f"{r['fingerprints_sha'][:10]} |")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.environ.get("RUMI_DATA_DIR", str(REPO.parent / "shared" / "data")))
    ap.add_argument("--work", default=str(REPO / "target" / "build-bench"))
    ap.add_argument("--dates", type=int, default=6)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=512, help="odc.stac.load chunks, pixels (y and x; a multiple of 256 so that rumi blocks are whole chunks)")
    ap.add_argument("--json", help="write the figures here too")
    ap.add_argument("--year", action="store_true", help="instead: build a synthetic year (--dates 192) of one 2048 x 2048 "
                    "cell locally and on a LocalCluster of the last --workers, peak RSS per process")
    ap.add_argument("--modes", nargs="+", default=["local", "cluster"], help="--year: local, cluster")
    ap.add_argument("--year-work", default=str(REPO / "build" / "year-bench"), help="--year: COGs (cached) and outputs")
    ap.add_argument("--year-once", nargs=3, metavar=("MODE", "ITEMS", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("--plan", action="store_true", help="instead: plan_build over generated Sentinel-2-like stac-geoparquet "
                    "tables of --items items, each plan in a fresh process (wall, CPU, peak RSS)")
    ap.add_argument("--items", default="10000,50000", help="--plan: table sizes, comma-separated")
    ap.add_argument("--period", default="P1Y", help="--plan: time= of the plan (P1Y: a file a cell and year)")
    ap.add_argument("--plan-work", default=str(REPO / "build" / "plan-bench"), help="--plan: the tables (cached)")
    ap.add_argument("--rumi-path", nargs="*", default=[], help="--plan: also plan with the rumi package under each "
                    "folder (PYTHONPATH), e.g. a copy of an earlier python/")
    ap.add_argument("--skip-this", action="store_true", help="--plan: only the --rumi-path versions")
    ap.add_argument("--limit", type=float, default=3600, help="--plan: stop a plan after this many seconds")
    ap.add_argument("--tracemalloc", action="store_true", help="--plan: also trace Python allocations (slower)")
    ap.add_argument("--plan-once", metavar="ITEMS", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.plan_once:
        return _plan_once(a.plan_once, a.period, a.tracemalloc)
    if a.plan:
        return run_plan(a)
    if a.year_once:
        return _year_once(a.year_once[0], a.year_once[1], a.year_once[2], a.workers[-1])
    if a.year:
        if a.dates == 6:
            a.dates = 192
        return run_year(a)
    if not (Path(a.data) / si.LANDSAT).exists():
        sys.exit(f"{Path(a.data) / si.LANDSAT} is absent (--data)")
    from dask.distributed import Client, LocalCluster

    import odc.stac
    import rumi

    work = Path(a.work)
    cogs = work / "cogs"
    cogs.mkdir(parents=True, exist_ok=True)
    ng = Nginx(work / "nginx", cogs)
    (work / "nginx").mkdir(exist_ok=True)
    ng.start()
    try:
        t0 = time.perf_counter()
        items = make_items(a.data, cogs, a.dates, ng.url(""))
        print(f"# {len(items)} items ({a.dates} dates x 4 quarters x {len(BANDS)} COGs) in {time.perf_counter() - t0:.1f} s; "
              f"rumi {rumi.CORE_VERSION}, odc-stac {odc.stac.__version__}, {os.cpu_count()} CPUs, "
              f"load {os.getloadavg()[0]:.2f}", flush=True)
        chunks = {"x": a.chunk, "y": a.chunk}
        rows = []
        raw = None
        for w in a.workers:
            with LocalCluster(n_workers=w, threads_per_worker=1, processes=True, dashboard_address=None) as lc, Client(lc) as client:
                client.run(lambda: __import__("odc.stac") and __import__("rumi") and __import__("rioxarray") and None)
                for rep in range(a.repeat):
                    for name, fn in PIPELINES:
                        out = work / "out" / name
                        shutil.rmtree(out, ignore_errors=True)
                        out.mkdir(parents=True)
                        c0, t0 = cpu_seconds(client), time.perf_counter()
                        size, _ = fn(items, out, chunks)
                        wall, cpu = time.perf_counter() - t0, cpu_seconds(client) - c0
                        rows.append({"workers": w, "rep": rep, "pipeline": name, "wall": wall, "cpu": cpu, "bytes": size})
                        print(f"  {w} worker(s) rep {rep} {name:5s} wall {wall:6.2f} s  cpu {cpu:6.2f} s  {size / 1e6:7.2f} MB", flush=True)
                if raw is None:
                    ref = odc.stac.load(items, bands=BANDS, crs=CRS, resolution=RES, groupby="solar_day", chunks=chunks).compute()
                    raw = check_same(work / "out", ref)
                    T, Y, X = ref.sizes["time"], ref.sizes["y"], ref.sizes["x"]
                    print(f"# same pixels in every output: (T, B, Y, X) = ({T}, {len(BANDS)}, {Y}, {X}), {raw / 1e6:.1f} MB raw", flush=True)
                    want = np.stack([ref[b].values for b in BANDS], axis=1)
                    for k, v in encode_only(want, list(ref.time.values.astype("datetime64[s]"))).items():
                        print(f"# encode only, {k}: {v:.2f} CPU s ({raw / 1e6 / v:.1f} raw MB per CPU s)", flush=True)
    finally:
        ng.stop()

    best = {}
    for r in rows:
        k = (r["workers"], r["pipeline"])
        if k not in best or r["wall"] < best[k]["wall"]:
            best[k] = r
    names = [n for n, _ in PIPELINES]
    print(f"\n| pipeline | workers | wall s (best of {a.repeat}) | CPU s | raw MB/s | raw MB per CPU s | output MB | rumi wall / this wall | this size / rumi size |")
    print("|---|---|---|---|---|---|---|---|---|")
    for w in a.workers:
        for name in names:
            r = best[(w, name)]
            rr = best[(w, "rumi")]
            print(f"| {name} | {w} | {r['wall']:.2f} | {r['cpu']:.2f} | {raw / 1e6 / r['wall']:.1f} | {raw / 1e6 / r['cpu']:.1f} | "
                  f"{r['bytes'] / 1e6:.2f} | {rr['wall'] / r['wall']:.2f} | {r['bytes'] / rr['bytes']:.2f}x |")
    if len(a.workers) > 1:
        w0, w1 = a.workers[0], a.workers[-1]
        for name in names:
            print(f"# {name}: {w1} workers / {w0}: {best[(w0, name)]['wall'] / best[(w1, name)]['wall']:.2f}x throughput")
    if a.json:
        Path(a.json).write_text(json.dumps({"raw_bytes": raw, "runs": rows}, indent=1))


if __name__ == "__main__":
    main()
