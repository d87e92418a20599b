"""rumi's Python package vs rasterio on the equivalent COG, on the real rasters of ../shared/data.

    bench/python_bench.sh            # makes target/bench-venv (rasterio wheel + the rumi wheel), runs this

Per input (rumi file converted by the `rumi` CLI with default settings; COGs made by Debian's
gdal_translate: -of COG BLOCKSIZE=256 OVERVIEWS=NONE, ZSTD level 9 + PREDICTOR=YES and
LERC_ZSTD MAX_Z_ERROR=0), all in ONE run so that ratios compare figures of the same moment:

- full read (all bands) into a reused, pre-touched buffer: rumi `Dataset.read(out=)` vs
  rasterio `read(out=)`, 1 and 2 threads (rasterio: GDAL_NUM_THREADS), and the GDAL plugin
  (gdal_RUMI.so through Debian's /usr/bin/python3 osgeo, ReadRaster into a buffer) on the same
  .rumi file; samples/s.
- random 256x256 windows (all bands, one open dataset): samples/s.
- every contender of an input (rumi, the two COGs, the plugin; 1 and 2 threads; full and
  windows) runs once per round, in an order rotating every round, --reps rounds: the report
  gives the best round of each (the load of a shared machine moves between rounds; interleaving
  exposes every contender to the same loads). RUMI_BENCH_PLUGIN=path/to/libgdal_rumi.so picks
  the plugin build (default target/release/libgdal_rumi.so).
- frames decoded per pass of windows (rumi's planner statistics) and blocks a COG pass decodes
  (distinct blocks the windows touch; GDAL's block cache keeps them within the pass): with
  both caches working, a pass costs about one decode of each touched tile, so the window ratio
  is mostly the codecs' per-tile decode speed.
- loopback HTTP (nginx): cold open + one random 256x256 window, per window: requests and bytes
  from nginx's log. rumi with the header blob in hand (bytes); rasterio over /vsicurl/.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import rasterio
from rasterio.windows import Window

import rumi

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python" / "tests"))
from conftest import Nginx  # noqa: E402

DATA = Path(os.environ.get("RUMI_DATA_DIR", REPO.parent / "shared" / "data"))
if not DATA.is_dir() and not os.environ.get("RUMI_DATA_DIR"):
    DATA = Path("/work/shared/data")
CLI = REPO / "target" / "release" / "rumi"
INPUTS = {
    "landsat8": "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif",
    "lf_elev": "lf_elev_220_mt_hood_utm.tif",
    "rgb_byte": "rasterio_RGB.byte.tif",
}
COGS = {"cog-zstd9": ["COMPRESS=ZSTD", "LEVEL=9", "PREDICTOR=YES"], "cog-lerc-zstd": ["COMPRESS=LERC_ZSTD", "MAX_Z_ERROR=0"]}

GDAL_WORKER = r"""
import json, sys, time
from osgeo import gdal
gdal.UseExceptions()
task = json.loads(sys.argv[1])
if task["threads"] > 1:
    gdal.SetConfigOption("GDAL_NUM_THREADS", str(task["threads"]))
buf = bytearray(task["nbytes"])
gdal.Open(task["path"]).ReadRaster(buf_obj=buf)
out = []
for _ in range(task["reps"]):
    t0 = time.perf_counter(); n = 0
    while True:
        ds = gdal.Open(task["path"]); ds.ReadRaster(buf_obj=buf); ds = None; n += 1
        if time.perf_counter() - t0 > task["min_s"]:
            break
    out.append((time.perf_counter() - t0) / n)
print(json.dumps(out))
"""


def sample(fn, min_s):
    """Seconds per call of `fn`: calls it until `min_s` seconds have passed."""
    t0 = time.perf_counter()
    n = 0
    while True:
        fn()
        n += 1
        if time.perf_counter() - t0 > min_s:
            return (time.perf_counter() - t0) / n


def interleaved(contenders, rounds, min_s):
    """Runs every contender (name -> fn returning seconds per operation) once per round, in an
    order that rotates every round, after one warm-up call each; returns name -> list of
    seconds per operation, one per round. On a machine shared with other work the load moves
    between rounds; interleaving puts every contender under the same loads, and the best round
    of each (the least disturbed) is what the report compares."""
    names = list(contenders)
    for k in names:
        contenders[k]()
    out = {k: [] for k in names}
    for r in range(rounds):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            out[name].append(contenders[name]())
    return out


def prepare(work: Path, name: str, tif: str):
    src = DATA / tif
    out = {"src": src}
    r = work / f"{name}.rumi"
    # converted afresh every run (under a second each): a file kept from an earlier run would be
    # an older writer's frames (the COGs below are kept: Debian's GDAL does not change)
    p = subprocess.run([str(CLI), "convert", "--force", str(src), str(r), "--time", "2020-05-18", "--allow-nodata-loss"],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"rumi convert {src}: {p.stderr}")
    out["rumi"] = r
    for label, co in COGS.items():
        c = work / f"{name}-{label}.tif"
        if not c.exists():
            cmd = ["gdal_translate", "-q", "-of", "COG", "-co", "BLOCKSIZE=256", "-co", "OVERVIEWS=NONE"]
            for o in co:
                cmd += ["-co", o]
            subprocess.run(cmd + [str(src), str(c)], check=True, env=dict(os.environ, GDAL_DRIVER_PATH=""))
        out[label] = c
    return out


def windows(shape, n, seed):
    rng = random.Random(seed)
    _, _, Y, X = shape
    return [(rng.randrange(0, max(1, Y - 256)), rng.randrange(0, max(1, X - 256)), min(256, Y), min(256, X))
            for _ in range(n)]


def bench_input(name, files, args, plugin_dir, nginx):
    res = {"input": name}
    # Every timed full read opens the file afresh (rumi: with its blob; GDAL: default block
    # cache), so that no run is served by decoded data of the previous one; windows share one
    # open per pass of --windows random windows (caches of both sides work within a pass, as in
    # a data loader). All contenders of the input run interleaved (see `interleaved`).
    ds = rumi.open(str(files["rumi"]))
    blob = ds.header
    T, B, Y, X = ds.shape
    samples = B * Y * X
    res["shape"] = ds.shape
    res["dtype"] = str(ds.dtype)
    res["bytes"] = {"rumi": files["rumi"].stat().st_size + len(blob)}
    path = str(files["rumi"])
    wins = windows(ds.shape, args.windows, 1)
    wsamples = len(wins) * B * wins[0][2] * wins[0][3]
    ref = ds.read()
    buf = np.empty((1, B, Y, X), ds.dtype)
    wbuf = np.empty((1, B, 256, 256), ds.dtype)
    wout = [wbuf[:, :, :h, :w] if (h, w) != (256, 256) else wbuf for _, _, h, w in wins]
    work = {}  # name -> (samples per operation, fn giving seconds per operation)
    frames = {}

    def rumi_windows(th):
        def one():
            d = rumi.open(path, header=blob, threads=th)
            n = 0
            for (r, c, h, w), o in zip(wins, wout):
                d.read(window=(r, c, h, w), out=o)
                n += d.last_stats["decoded"]
            frames["rumi"] = n
        return one

    for th in (1, 2):
        work[f"full rumi {th}T"] = (samples, lambda th=th: sample(
            lambda: rumi.open(path, header=blob, threads=th).read(out=buf), args.min_s))
        work[f"windows rumi {th}T"] = (wsamples, lambda f=rumi_windows(th): sample(f, args.min_s))
    for label in COGS:
        res["bytes"][label] = files[label].stat().st_size
        with rasterio.open(files[label]) as src:
            rbuf = np.empty((B, Y, X), src.dtypes[0])
            src.read(out=rbuf)
            assert np.array_equal(rbuf, ref[0]), f"{label} pixels differ from rumi's"
            bw, bh = src.block_shapes[0][1], src.block_shapes[0][0]
        # blocks a pass decodes (GDAL's block cache keeps them within the pass)
        frames[label] = len({(y, x) for r, c, h, w in wins for y in range(r // bh, (r + h - 1) // bh + 1)
                             for x in range(c // bw, (c + w - 1) // bw + 1)})
        wb = np.empty((B, 256, 256), ref.dtype)
        rwout = [wb[:, :h, :w] if (h, w) != (256, 256) else wb for _, _, h, w in wins]

        def rio(th, label=label, rbuf=rbuf, rwout=rwout, full=True):
            def one():
                with rasterio.Env(GDAL_NUM_THREADS=str(th)):
                    with rasterio.open(files[label]) as src:
                        if full:
                            src.read(out=rbuf)
                        else:
                            for (r, c, h, w), o in zip(wins, rwout):
                                src.read(window=Window(c, r, w, h), out=o)
            return lambda: sample(one, args.min_s)

        for th in (1, 2):
            work[f"full {label} {th}T"] = (samples, rio(th))
            work[f"windows {label} {th}T"] = (wsamples, rio(th, full=False))
    # the GDAL plugin on the same .rumi file (Debian's GDAL + gdal_RUMI.so), one process per round
    if plugin_dir and Path("/usr/bin/python3").exists():
        def plugin(th):
            task = {"path": path, "nbytes": ref.nbytes, "reps": 1, "min_s": args.min_s, "threads": th}

            def one():
                out = subprocess.run(["/usr/bin/python3", "-c", GDAL_WORKER, json.dumps(task)], capture_output=True,
                                     text=True, env=dict(os.environ, GDAL_DRIVER_PATH=str(plugin_dir)))
                if out.returncode != 0:
                    sys.exit(f"gdal plugin failed: {out.stderr[-300:]}")
                return json.loads(out.stdout)[0]
            return one

        for th in (1, 2):
            work[f"full gdal-plugin {th}T"] = (samples, plugin(th))
    times = interleaved({k: v[1] for k, v in work.items()}, args.reps, args.min_s)
    for k, (n, _) in work.items():
        res[k] = n / min(times[k])
        res[k + " median"] = n / statistics.median(times[k])
    res["frames decoded per pass"] = frames
    # HTTP: cold open + one window, per window
    if nginx is not None and args.http_windows > 0:
        for f in [files["rumi"]] + [files[l] for l in COGS]:
            shutil.copy(f, nginx.root / f.name)
        blob = ds.header
        hw = wins[: args.http_windows]
        stats = {}
        for label in ["rumi"] + list(COGS):
            reqs = nbytes = 0
            for r, c, h, w in hw:
                mark = nginx.mark()
                if label == "rumi":
                    d = rumi.open(nginx.url(files["rumi"].name), header=blob, threads=1)
                    got = d.read(window=(r, c, h, w))
                else:
                    env = dict(GDAL_DISABLE_READDIR_ON_OPEN="EMPTY_DIR", CPL_VSIL_CURL_CACHE_SIZE="0",
                               VSI_CACHE="FALSE", GDAL_HTTP_MULTIRANGE="YES")
                    with rasterio.Env(**env):
                        with rasterio.open(f"/vsicurl/{nginx.url(files[label].name)}") as src:
                            got = src.read(window=Window(c, r, w, h))[np.newaxis]
                assert np.array_equal(got, ref[:, :, r:r + h, c:c + w]), label
                q = nginx.requests(mark)
                reqs += len(q)
                nbytes += sum(int(x["bytes"]) for x in q)
            stats[label] = (reqs / len(hw), nbytes / len(hw))
        res["http"] = stats
    return res


def fmt(v):
    return "-" if v is None else f"{v / 1e6:.1f}"


def report(results, args):
    L = [f"# Python package benchmark ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", "",
         f"rumi {rumi.__name__} wheel vs rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__}) on COGs; "
         f"Msamples/s, best of {args.reps} interleaved rounds of >= {args.min_s}s (every contender of an input runs once per round); {args.windows} random 256x256 windows "
         "(all bands, one open per pass); every full read opens the file afresh. 2 cores, shared machine: compare ratios within a row.", ""]
    L.append("| input | shape | full rumi 1T / 2T | full GDAL plugin 1T / 2T | full cog-zstd9 1T / 2T | "
             "full cog-lerc-zstd 1T / 2T | windows rumi 1T / 2T | windows cog-zstd9 1T / 2T | windows cog-lerc-zstd 1T / 2T | "
             "window ratio rumi / best COG (1T, 2T) | full ratio rumi / plugin (1T, 2T) | frames (blocks) decoded per pass: rumi / COGs |")
    L.append("|" + "---|" * 12)
    for r in results:
        def pair(k):
            return f"{fmt(r.get(k + ' 1T'))} / {fmt(r.get(k + ' 2T'))}"

        best = [max(r[f"windows {l} {t}"] for l in COGS) for t in ("1T", "2T")]
        ratio = f"{r['windows rumi 1T'] / best[0]:.2f}x, {r['windows rumi 2T'] / best[1]:.2f}x"
        if r.get("full gdal-plugin 1T"):
            plug = f"{r['full rumi 1T'] / r['full gdal-plugin 1T']:.2f}x, {r['full rumi 2T'] / r['full gdal-plugin 2T']:.2f}x"
        else:
            plug = "-"
        fr = r["frames decoded per pass"]
        frames = f"{fr['rumi']} / " + " / ".join(str(fr[l]) for l in COGS)
        L.append(f"| {r['input']} | {r['shape'][1]}x{r['shape'][2]}x{r['shape'][3]} {r['dtype']} | {pair('full rumi')} | "
                 f"{pair('full gdal-plugin')} | {pair('full cog-zstd9')} | {pair('full cog-lerc-zstd')} | "
                 f"{pair('windows rumi')} | {pair('windows cog-zstd9')} | {pair('windows cog-lerc-zstd')} | {ratio} | {plug} | "
                 f"{frames} |")
    if any("http" in r for r in results):
        L += ["", "Loopback HTTP (nginx), cold open + one random 256x256 window (all bands), per window: "
              "requests, KiB. rumi with the header blob in hand; rasterio over /vsicurl/.", "",
              "| input | rumi | cog-zstd9 | cog-lerc-zstd | file sizes (rumi+blob / zstd9 / lerc-zstd) |", "|---|---|---|---|---|"]
        for r in results:
            h = r["http"]
            cells = " | ".join(f"{h[k][0]:.1f} req, {h[k][1] / 1024:.0f} KiB" for k in ["rumi"] + list(COGS))
            b = r["bytes"]
            L.append(f"| {r['input']} | {cells} | {b['rumi']} / {b['cog-zstd9']} / {b['cog-lerc-zstd']} |")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-s", type=float, default=0.3)
    ap.add_argument("--windows", type=int, default=40)
    ap.add_argument("--http-windows", type=int, default=8)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "python.md"))
    args = ap.parse_args()
    if not DATA.is_dir():
        sys.exit(f"{DATA} is absent: the benchmark needs the real rasters (RUMI_DATA_DIR)")
    work = REPO / "build" / "bench-python"
    work.mkdir(parents=True, exist_ok=True)
    plugin = None
    so = Path(os.environ.get("RUMI_BENCH_PLUGIN", REPO / "target" / "release" / "libgdal_rumi.so"))
    if so.exists():
        plugin = work / "plugin"
        plugin.mkdir(exist_ok=True)
        shutil.copy(so, plugin / "gdal_RUMI.so")
    nginx = None
    if shutil.which("nginx") or Path("/usr/sbin/nginx").exists():
        www = Path(tempfile.mkdtemp(prefix="rumi-bench-www-"))
        nginx = Nginx(Path(tempfile.mkdtemp(prefix="rumi-bench-nginx-")), www).start()
    results = []
    try:
        for name, tif in INPUTS.items():
            if args.only and name not in args.only.split(","):
                continue
            print(f"== {name}", flush=True)
            files = prepare(work, name, tif)
            r = bench_input(name, files, args, plugin, nginx)
            print(json.dumps(r, default=str), flush=True)
            results.append(r)
    finally:
        if nginx:
            nginx.stop()
    text = report(results, args)
    print(text)
    Path(args.out).write_text(text)
    (work / "results.json").write_text(json.dumps(results, default=str, indent=1))


if __name__ == "__main__":
    main()
