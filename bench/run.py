#!/usr/bin/python3
"""rumi vs Cloud-Optimized GeoTIFF, side by side, in one command.

    bench/run.sh [--quick] [--reps N] [--skip-big] [--skip-http] [--no-build] [--fresh]

(bench/run.sh runs this file with Debian's /usr/bin/python3, which has osgeo.) Everything it
writes goes under build/bench/ (inputs, competitors, rumi files, nginx, raw results.json),
except the report: bench/results/latest.md (--out to change). See bench/README.md for what
is measured and how; docs/performance.md for where the targets stand.

Inputs: the real rasters of ../shared/data (Landsat 8 uint16, LANDFIRE DEM int16, NAIP uint8,
the Sentinel-1 float32 pair as a 2-date Cube, the 68-date float32 NDVI Cube) and a ~500 MB
mosaic of the Landsat scene (--quick: ~90 MB). Competitors (gdal_translate -of COG, 256x256
blocks, no overviews): ZSTD level 9 and 22 with PREDICTOR=YES, DEFLATE level 9 with
PREDICTOR=YES, LERC_ZSTD with MAX_Z_ERROR=0, uncompressed. rumi: the default settings, level
9, --graph best, and every other frame unit that fits.

The machine is shared: every speed is measured several times with the files of one input
interleaved, and reported as median (min-max); ratios compare figures of the same run.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("RUMI_DATA_DIR", ROOT.parent / "shared" / "data"))
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
BENCH = ROOT / "build" / "bench"
PY = "/usr/bin/python3"
WORKER = Path(__file__).resolve().parent / "gdal_worker.py"

COGS = [
    # label, creation options (besides -of COG BLOCKSIZE=256 OVERVIEWS=NONE NUM_THREADS=ALL_CPUS)
    ("cog-zstd9", ["COMPRESS=ZSTD", "LEVEL=9", "PREDICTOR=YES"]),
    ("cog-zstd22", ["COMPRESS=ZSTD", "LEVEL=22", "PREDICTOR=YES"]),
    ("cog-deflate9", ["COMPRESS=DEFLATE", "LEVEL=9", "PREDICTOR=YES"]),
    ("cog-lerc-zstd", ["COMPRESS=LERC_ZSTD", "MAX_Z_ERROR=0"]),
    ("cog-none", ["COMPRESS=NONE"]),
]
LEAN = False
LANDSAT = "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"
SAR = ["S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif", "S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif"]
SAR_TIMES = "2015-03-09T17:30:17Z,2017-03-09T05:43:56Z"
NDVI = "eolearn_s2_ndvi_68t_float32.tif"


# ---- small helpers ------------------------------------------------------------------------------


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def med(v):
    return statistics.median(v) if v else float("nan")


def mmm(v, fmt="{:.0f}"):
    """median (min-max)"""
    if not v:
        return "-"
    return f"{fmt.format(med(v))} ({fmt.format(min(v))}-{fmt.format(max(v))})"


def run(cmd, env=None, capture=True, check=True):
    r = subprocess.run([str(c) for c in cmd], env=env, capture_output=capture, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stderr[-3000:]}")
    return r


def gdal_env(base):
    env = dict(base)
    for k in list(env):
        if k.startswith("RUMI_") or k in ("GDAL_NUM_THREADS", "CPL_DEBUG", "GDAL_CACHEMAX"):
            del env[k]
    env["GDAL_DRIVER_PATH"] = str(BENCH / "plugin")
    env["GDAL_PAM_ENABLED"] = "NO"  # never write .aux.xml beside the (shared, read-only) inputs
    return env


def worker(task, env):
    r = run([PY, WORKER, json.dumps(task)], env=env)
    return json.loads(r.stdout.strip().splitlines()[-1])


def raster_info(path, env):
    r = run(["gdalinfo", "-json", path], env=env)
    j = json.loads(r.stdout)
    b = j["bands"]
    return {"width": j["size"][0], "height": j["size"][1], "bands": len(b), "type": b[0]["type"]}


TYPE_BYTES = {"Byte": 1, "Int16": 2, "UInt16": 2, "Int32": 4, "UInt32": 4, "Float32": 4, "Float64": 8}


def calibrate():
    """CPU actually available: speed-up of 2 busy processes over 1 (2.0 on an idle 2-core box)."""
    code = "import time\nt=time.perf_counter()\ns=0\nfor i in range(6_000_000): s+=i\nprint(time.perf_counter()-t)"
    one = float(run([PY, "-c", code]).stdout)
    procs = [subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE, text=True) for _ in range(2)]
    t0 = time.perf_counter()
    for p in procs:
        p.communicate()
    two = time.perf_counter() - t0
    return {"speedup_2proc": 2 * one / two, "loadavg": os.getloadavg()[0]}


# ---- inputs -------------------------------------------------------------------------------------


def make_mosaic(path, quick, env):
    """Tiles the Landsat scene (mirrored copies, so seams are continuous) into an uncompressed
    tiled GeoTIFF: 10000 x 8334 x 3 uint16 = 500 MB (quick: 4082 x 3720 = 91 MB)."""
    code = r"""
import sys, numpy as np
from osgeo import gdal
gdal.UseExceptions()
src, out, W, H = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
s = gdal.Open(src)
a = s.ReadAsArray()
b, h, w = a.shape
d = gdal.GetDriverByName("GTiff").Create(out, W, H, b, gdal.GDT_UInt16,
        ["TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256", "COMPRESS=NONE", "BIGTIFF=IF_NEEDED"])
d.SetGeoTransform(s.GetGeoTransform()); d.SetProjection(s.GetProjection())
for i in range(b):
    d.GetRasterBand(i + 1).SetDescription(s.GetRasterBand(i + 1).GetDescription())
for ty in range(0, H, h):
    for tx in range(0, W, w):
        t = a
        if (tx // w) % 2: t = t[:, :, ::-1]
        if (ty // h) % 2: t = t[:, ::-1, :]
        t = t[:, : min(h, H - ty), : min(w, W - tx)]
        d.WriteRaster(tx, ty, t.shape[2], t.shape[1], np.ascontiguousarray(t).tobytes())
d = None
"""
    W, H = (4082, 3720) if quick else (10000, 8334)
    tmp = path.with_suffix(".tmp.tif")
    run([PY, "-c", code, DATA / LANDSAT, tmp, W, H], env=env)
    tmp.rename(path)


def inputs(args, env):
    """name -> dict(src: GDAL source for competitors, rumi: how to make the rumi file)."""
    ind = BENCH / "inputs"
    ind.mkdir(parents=True, exist_ok=True)
    out = {
        "landsat8": {"desc": "Landsat 8 OLI, uint16, 3 bands", "src": DATA / LANDSAT,
                     "rumi": ("convert", [DATA / LANDSAT], ["--time", "2020-05-18"])},
        "lf_elev": {"desc": "LANDFIRE elevation DEM, int16", "src": DATA / "lf_elev_220_mt_hood_utm.tif",
                    "rumi": ("convert", [DATA / "lf_elev_220_mt_hood_utm.tif"], ["--interval", "2020-01-01/2021-01-01"])},
        "naip": {"desc": "NAIP aerial, uint8, 4 bands", "src": DATA / "naip_m_3607824_se_17_1_20160620_sub.tif",
                 "rumi": ("convert", [DATA / "naip_m_3607824_se_17_1_20160620_sub.tif"], ["--time", "2016-06-20"])},
        "s2": {"desc": "Sentinel-2 (xarray-spatial), uint16, 4 bands", "src": DATA / "xrspatial_s2_4band_10m_uint16.tif",
               "rumi": ("convert", [DATA / "xrspatial_s2_4band_10m_uint16.tif"], ["--time", "2020-01-01"])},
        "rgb": {"desc": "rasterio RGB.byte, uint8, 3 bands", "src": DATA / "rasterio_RGB.byte.tif",
                "rumi": ("convert", [DATA / "rasterio_RGB.byte.tif"], ["--time", "2000-01-01"])},
    }
    # Sentinel-1 pair: a 2-date Cube for rumi, a 2-band GeoTIFF for the competitors.
    sar_vrt = ind / "sar_pair.vrt"
    if not sar_vrt.exists():
        run(["gdalbuildvrt", "-q", "-separate", sar_vrt] + [DATA / s for s in SAR], env=env)
    out["sar_pair"] = {"desc": "Sentinel-1 VV dB, float32, 2-date Cube", "src": sar_vrt,
                       "rumi": ("stack", [DATA / s for s in SAR], ["--times", SAR_TIMES])}
    # NDVI: 68 dates; the source GeoTIFF holds them as 68 bands described by their timestamps.
    r = run(["gdalinfo", "-json", DATA / NDVI], env=env)
    descs = [b["description"] for b in json.loads(r.stdout)["bands"]]
    vrts = []
    for i in range(len(descs)):
        v = ind / f"ndvi_t{i:02d}.vrt"
        if not v.exists():
            run(["gdal_translate", "-q", "-of", "VRT", "-b", str(i + 1), DATA / NDVI, v], env=env)
        vrts.append(v)
    out["ndvi68"] = {"desc": "Sentinel-2 NDVI, float32, 68-date Cube", "src": DATA / NDVI,
                     "rumi": ("stack", vrts, ["--times", ",".join(d + "Z" for d in descs), "--band-text", "NDVI"])}
    if not args.skip_big:
        big = ind / ("landsat_mosaic_quick.tif" if args.quick else "landsat_mosaic.tif")
        if not big.exists():
            log(f"making {big.name}")
            make_mosaic(big, args.quick, env)
        out["landsat_mosaic"] = {"desc": "Landsat 8 mosaic, uint16, 3 bands", "src": big, "big": True,
                                 "rumi": ("convert", [big], ["--time", "2020-05-18"])}
    for name, d in out.items():
        d["info"] = raster_info(d["src"], env)
        i = d["info"]
        d["raw"] = i["width"] * i["height"] * i["bands"] * TYPE_BYTES[i["type"]]
    return out


# ---- files under test ---------------------------------------------------------------------------


def make_cogs(name, inp, env, fresh):
    """Competitors, made once and kept (their creation time is remembered in a sidecar)."""
    d = BENCH / "files" / name
    d.mkdir(parents=True, exist_ok=True)
    files = []
    for label, co in COGS:
        out = d / f"{label}.tif"
        meta = d / f"{label}.json"
        key = {"src": str(inp["src"]), "mtime": os.path.getmtime(inp["src"]), "co": co}
        m = json.loads(meta.read_text()) if meta.exists() else {}
        if fresh or not out.exists() or m.get("key") != key:
            cmd = ["gdal_translate", "-q", "-of", "COG", "-co", "BLOCKSIZE=256", "-co", "OVERVIEWS=NONE",
                   "-co", "NUM_THREADS=ALL_CPUS"]
            for c in co:
                cmd += ["-co", c]
            log(f"{name}: gdal_translate {label}")
            t0 = time.perf_counter()
            run(cmd + [inp["src"], out], env=env)
            m = {"key": key, "seconds": time.perf_counter() - t0, "made": time.strftime("%Y-%m-%d %H:%M")}
            meta.write_text(json.dumps(m))
        files.append({"label": label, "kind": "cog", "path": str(out), "size": out.stat().st_size,
                      "write_s": [m["seconds"]], "made": m.get("made")})
    return files


def rumi_settings(inp):
    """(label, extra CLI options) for every rumi setting measured on this input."""
    kind, srcs, _ = inp["rumi"]
    bands, times = (1, len(srcs)) if kind == "stack" else (inp["info"]["bands"], 1)
    old_unit = 0 if bands == 1 and times == 1 else (1 if (bands > 1) != (times > 1) else 4)
    # `rumi convert` picks h w b cells (unit 2) for multi-band Images of 8-bit samples only with
    # --graph image; the default graph (auto) keeps the unit of the shape
    default_unit = old_unit
    units = [0] + ([1, 2] if (bands > 1) != (times > 1) else []) + (list(range(3, 10)) if bands > 1 and times > 1 else [])
    # the default before the image graphs (issue 15): numeric graph level 7, unit 1 for multi-band
    out = [("rumi-default", []), ("rumi-numeric7", ["--graph", "numeric", "--level", "7", "--frame-unit", str(old_unit)])]
    if LEAN:
        return out, default_unit
    if not inp.get("big"):
        out += [("rumi-level9", ["--level", "9"]), ("rumi-best", ["--graph", "best"])]
    else:
        out += [("rumi-best", ["--graph", "best"])]
    if min(inp["info"]["width"], inp["info"]["height"]) >= 512:
        out += [("rumi-tile512", ["--tile", "512"])]
    out += [(f"rumi-unit{u}", ["--frame-unit", str(u)]) for u in units if u != default_unit]
    if bands > 1 and times == 1 and inp["info"]["type"] in ("Byte", "UInt16", "Int16"):
        # pixel-interleaved cells, every candidate (the band predictors included), the smallest kept
        out += [("rumi-unit2-image", ["--frame-unit", "2", "--graph", "image"])]
    return out, default_unit


def make_rumis(name, inp, env, reps):
    """rumi files, written every run (writer speed is measured): `reps` timed writes each."""
    d = BENCH / "files" / name
    d.mkdir(parents=True, exist_ok=True)
    kind, srcs, extra = inp["rumi"]
    settings, default_unit = rumi_settings(inp)
    files = []
    for label, opts in settings:
        out = d / f"{label}.rumi"
        cmd = [BENCH / "bin" / "rumi", kind] + srcs + [out] + extra + ["--allow-nodata-loss", "--quiet"] + opts
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            run(cmd, env=env)
            times.append(time.perf_counter() - t0)
        header = Path(str(out) + ".header")
        files.append({"label": label, "kind": "rumi", "path": str(out), "header": str(header),
                      "size": out.stat().st_size + header.stat().st_size, "file_size": out.stat().st_size,
                      "blob_size": header.stat().st_size, "write_s": times,
                      "unit": int(opts[opts.index("--frame-unit") + 1]) if "--frame-unit" in opts else default_unit, "opts": " ".join(opts)})
    return files


# ---- measurements -------------------------------------------------------------------------------


def merge(into, part):
    """Appends the per-repetition lists of a decode result to `into`."""
    for label, v in part.items():
        d = into.setdefault(label, {"wall": [], "cpu": [], "open": [], "reads": [], "crc": None, "bytes": 0})
        for k in ("wall", "cpu", "open", "reads"):
            d[k] += v[k]
        d["crc"] = d["crc"] if d["crc"] is not None else v["crc"]
        d["bytes"] = v["bytes"]


def entry(f, label=None, config=None):
    e = {"label": label or f["label"], "path": f["path"]}
    if f["kind"] == "rumi":
        e["oo"] = ["HEADER=" + f["header"]]
    if config:
        e["config"] = config
    return e


def ceiling(files, reps, min_time, env):
    out = {}
    for f in files:
        if f["kind"] != "rumi":
            continue
        r = run([BENCH / "bin" / "decode_ceiling", "--threads", "1,2", "--reps", reps, "--min-time", min_time,
                 f["path"]], env=env)
        for line in r.stdout.splitlines():
            j = json.loads(line)
            out.setdefault(f["label"], {})[j["threads"]] = [j["raw_bytes"] / 1e6 / s for s in j["runs_s"]]
    return out


class Nginx:
    """A private nginx serving build/bench/files on 127.0.0.1, logging method, path, status,
    body bytes and Range of every request."""

    def __init__(self, root):
        self.dir = BENCH / "nginx"
        shutil.rmtree(self.dir, ignore_errors=True)
        (self.dir / "logs").mkdir(parents=True)
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        conf = f"""worker_processes 1;
daemon off;
pid {self.dir}/nginx.pid;
error_log {self.dir}/logs/error.log warn;
events {{ worker_connections 64; }}
http {{
  log_format bench '$request_method $uri $status $body_bytes_sent "$http_range"';
  access_log {self.dir}/logs/access.log bench;
  client_body_temp_path {self.dir}/tmp_body; proxy_temp_path {self.dir}/tmp_proxy;
  fastcgi_temp_path {self.dir}/tmp_fcgi; uwsgi_temp_path {self.dir}/tmp_uwsgi; scgi_temp_path {self.dir}/tmp_scgi;
  server {{ listen 127.0.0.1:{self.port}; root {root}; location / {{ }} }}
}}
"""
        (self.dir / "nginx.conf").write_text(conf)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.proc = subprocess.Popen([nginx, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"),
                                      "-e", str(self.dir / "logs" / "error.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.log = self.dir / "logs" / "access.log"
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not start")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}/{Path(path).relative_to(BENCH / 'files')}"

    def requests(self, fn):
        start = self.log.stat().st_size if self.log.exists() else 0
        fn()
        time.sleep(0.05)
        with open(self.log) as f:
            f.seek(start)
            lines = f.read().splitlines()
        reqs = []
        for line in lines:
            m = re.match(r'(\S+) (\S+) (\d+) (\d+) "(.*)"', line)
            if m:
                reqs.append({"method": m[1], "uri": m[2], "status": int(m[3]), "bytes": int(m[4]), "range": m[5]})
        return reqs

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def http_measure(nginx, files, inp, env):
    """Cold open + one window over /vsicurl/: one aligned 256x256 tile and one unaligned window."""
    i = inp["info"]
    tw, th = min(256, i["width"]), min(256, i["height"])
    tile = [256, 256, tw, th] if i["width"] >= 512 and i["height"] >= 512 else [0, 0, tw, th]
    win = [min(300, i["width"] - tw), min(300, i["height"] - th), tw, th]
    cfg = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR", "CPL_VSIL_CURL_CACHE_SIZE": "67108864"}
    cases = []
    for f in files:
        url = "/vsicurl/" + nginx.url(f["path"])
        if f["kind"] == "cog":
            cases.append((f["label"], f, url, []))
        elif f["label"] == "rumi-default":
            cases.append(("rumi (blob over HTTP)", f, url, ["HEADER=/vsicurl/" + nginx.url(f["header"])]))
            cases.append(("rumi (blob from catalog)", f, url, ["HEADER=" + f["header"]]))
            # RUMI:"..." names skip GDAL's identification read of the first 16 KiB; LAZY=YES, the
            # georeferencing block read at open (the check of the server's Range support)
            cases.append(("rumi (blob from catalog, RUMI:)", f, f'RUMI:"{url}"', ["HEADER=" + f["header"], "LAZY=YES"]))
            cases.append(("rumi (no blob)", f, url, ["HEADER=NONE"]))
    out = []
    for what, window in (("tile", tile), ("window", win)):
        for label, f, url, oo in cases:
            task = {"task": "http", "path": url, "oo": oo, "window": window, "config": cfg}
            res = {}
            reqs = nginx.requests(lambda: res.update(worker(task, env)))
            out.append({"what": what, "window": window, "label": label, "kind": f["kind"], "crc": res.get("crc"),
                        "requests": len(reqs), "gets": sum(r["method"] == "GET" for r in reqs),
                        "bytes": sum(r["bytes"] for r in reqs), "log": reqs})
    return out


def rss_measure(files, env, reps):
    """Peak RSS (and wall time) of a full gdal_translate to ENVI on /dev/shm."""
    out = {}
    dst = Path("/dev/shm") / f"rumi-bench-{os.getpid()}.envi"
    for f in files:
        if f["kind"] == "rumi" and f["label"] != "rumi-default":
            continue
        modes = [("1", {}), ("ALL_CPUS", {"GDAL_NUM_THREADS": "ALL_CPUS"}),
                 ("1, GDAL_CACHEMAX=256", {"GDAL_CACHEMAX": "256"})]
        for tlabel, extra in modes:
            e = dict(env, **extra)
            cmd = ["/usr/bin/time", "-f", "%M %e", "gdal_translate", "-q", "-of", "ENVI", f["path"], dst]
            if f["kind"] == "rumi":
                cmd[5:5] = ["-oo", "HEADER=" + f["header"]]
            rss, wall = [], []
            for _ in range(reps):
                r = run(cmd, env=e)
                kb, s = r.stderr.strip().splitlines()[-1].split()
                rss.append(int(kb) / 1024)
                wall.append(float(s))
                for p in dst.parent.glob(dst.name + "*"):
                    p.unlink()
                Path(str(dst).replace(".envi", ".hdr")).unlink(missing_ok=True)
            out[(f["label"], tlabel)] = {"rss_mb": rss, "wall_s": wall}
    for p in Path("/dev/shm").glob(f"rumi-bench-{os.getpid()}*"):
        p.unlink()
    return out


# ---- report -------------------------------------------------------------------------------------


def similar(cogs, size, factor=1.25):
    """Competitors whose file is at most `factor` times the rumi file (else: the smallest one)."""
    s = [c for c in cogs if c["size"] <= size * factor]
    return s or [min(cogs, key=lambda c: c["size"])]


FLOAT_TYPES = ("Float32", "Float64")


class Figures:
    """Derived figures of one input: speeds, ratios, best competitors."""

    def __init__(self, r):
        self.r = r
        self.inp = r["input"]
        self.raw = self.inp["raw"]
        self.files = r["files"]
        self.cogs = [f for f in self.files if f["kind"] == "cog"]
        self.rumis = [f for f in self.files if f["kind"] == "rumi"]
        self.best_cog_ratio = max(self.ratio(c) for c in self.cogs)

    def ratio(self, f):
        return self.raw / f["size"]

    def dec(self, f, threads="1", best=False):
        v = [self.raw / 1e6 / s for s in self.r["decode"][threads][f["label"]]["wall"]]
        return max(v) if best else med(v)

    def dec_all(self, f, threads="1"):
        return [self.raw / 1e6 / s for s in self.r["decode"][threads][f["label"]]["wall"]]

    def busy(self, f, threads="ALL_CPUS"):
        d = self.r["decode"][threads][f["label"]]
        return med([c / w for c, w in zip(d["cpu"], d["wall"])])

    def fastest_similar(self, f, threads="1"):
        return max(similar(self.cogs, f["size"]), key=lambda c: self.dec(c, threads))

    def win(self, f, kind):
        return med(self.r["windows"][f["label"]][kind])

    def best_win_similar(self, f, kind):
        return max(similar(self.cogs, f["size"]), key=lambda c: self.win(c, kind))

    def ceiling(self, f, threads):
        c = self.r["ceiling"].get(f["label"], {}).get(threads)
        return med(c) if c else None

    def recommended(self):
        """The fastest rumi setting (1T decode) whose ratio meets the ratio target: >= the best
        COG on integers, >= 0.95x on floats; else the setting with the best ratio."""
        floor = self.best_cog_ratio * (0.95 if self.inp["info"]["type"] in FLOAT_TYPES else 1.0)
        ok = [f for f in self.rumis if self.ratio(f) >= floor]
        if ok:
            return max(ok, key=lambda f: self.dec(f))
        return max(self.rumis, key=self.ratio)


def summary(res):
    L = ["## Summary: where the targets stand in this run\n"]
    L.append("Per input, `default` = `rumi convert` defaults, `rec.` = the recommended setting of this run (the "
             "fastest rumi setting whose ratio meets the ratio target). Ratios to the best competitor of the "
             "same run; decode 1T vs the fastest COG of similar size (file at most 1.25x rumi's).\n")
    L.append("| input | ratio: default / rec. vs best COG (target >= 1.0 int, >= 0.95 float) | decode 1T vs fastest "
             "similar COG: default / rec. (target >= 1.0) | driver overhead 1T, default (target <= 15 %) | "
             "ALL/1T, default (target >= 1.7) | open + read vs fastest similar COG, default: cold window / "
             "whole 1T (target >= 1.25); warm window (no open: no target) | rec. setting |")
    L.append("|---|---|---|---|---|---|---|")
    for name, r in res["inputs"].items():
        F = Figures(r)
        d = next(f for f in F.rumis if f["label"] == "rumi-default")
        rec = F.recommended()
        is_float = F.inp["info"]["type"] in FLOAT_TYPES
        target = 0.95 if is_float else 1.0

        def mark(v, t):
            return f"{v:.2f} {'ok' if v >= t else 'MISS'}"

        c1 = F.ceiling(d, 1)
        ovh = f"{1 - F.dec(d) / c1:+.0%} (best-of {1 - F.dec(d, best=True) / max(r['ceiling'][d['label']][1]):+.0%})" if c1 else "-"
        L.append(f"| {name} | {mark(F.ratio(d) / F.best_cog_ratio, target)} / {mark(F.ratio(rec) / F.best_cog_ratio, target)} | "
                 f"{mark(F.dec(d) / F.dec(F.fastest_similar(d)), 1.0)} / {mark(F.dec(rec) / F.dec(F.fastest_similar(rec)), 1.0)} | "
                 f"{ovh} | {F.dec(d, 'ALL_CPUS') / F.dec(d):.2f} (busy threads {F.busy(d):.1f}) | "
                 f"{mark(F.win(d, 'cold') / F.win(F.best_win_similar(d, 'cold'), 'cold'), 1.25)} / "
                 f"{mark(F.dec(d) / F.dec(F.fastest_similar(d)), 1.25)} / "
                 f"{F.win(d, 'warm') / F.win(F.best_win_similar(d, 'warm'), 'warm'):.2f} | "
                 f"`{rec['label']}`{' (' + rec['opts'] + ')' if rec.get('opts') else ''} |")
    http = [(n, h) for n, r in res["inputs"].items() for h in r.get("http", [])]
    if http:
        L.append("\nCold open + one 256x256 tile over `/vsicurl/` (rumi-default), vs the COG with the fewest "
                 "requests / bytes (target: fewer requests and fewer bytes with the blob):\n")
        L.append("| input | read | rumi blob from catalog: requests, bytes | same, opened as `RUMI:\"...\"` "
                 "| blob over HTTP | no blob | best COG: requests, bytes |")
        L.append("|---|---|---|---|---|---|---|")
        for name in dict.fromkeys(n for n, _ in http):
            for what in ("tile", "window"):
                rows = [h for n, h in http if n == name and h["what"] == what]
                cr = min(h["requests"] for h in rows if h["kind"] == "cog")
                cb = min(h["bytes"] for h in rows if h["kind"] == "cog")
                by = {h["label"]: h for h in rows}

                def cell(label):
                    h = by[label]
                    return f"{h['requests']} ({h['requests'] / cr:.2f}x), {h['bytes']:,} ({h['bytes'] / cb:.2f}x)"

                L.append(f"| {name} | {what} {rows[0]['window']} | {cell('rumi (blob from catalog)')} | "
                         f"{cell('rumi (blob from catalog, RUMI:)')} | "
                         f"{cell('rumi (blob over HTTP)')} | {cell('rumi (no blob)')} | {cr}, {cb:,} |")
    for name, r in res["inputs"].items():
        if r.get("rss"):
            rss = r["rss"]
            parts = []
            for mode in dict.fromkeys(t for (_, t) in rss):
                mine = [med(v["rss_mb"]) for (label, t), v in rss.items() if label == "rumi-default" and t == mode]
                cogs = [med(v["rss_mb"]) for (label, t), v in rss.items() if label.startswith("cog") and t == mode]
                if mine and cogs:
                    parts.append(f"{mode}: rumi-default {mine[0]:.0f} MB, COGs {min(cogs):.0f}-{max(cogs):.0f} MB")
            L.append(f"\nPeak RSS of a full `gdal_translate -of ENVI` of {name} ({r['input']['raw'] / 1e6:.0f} MB raw; "
                     "threads, cache): " + "; ".join(parts) + ".")
    return L


def report(res, args):
    L = []
    meta = res["meta"]
    L.append("# rumi vs COG: latest bench run\n")
    L.append(f"Generated by `bench/run.sh{' --quick' if args.quick else ''}` on {meta['date']} "
             f"(git {meta['git']}), GDAL {meta['gdal']}, {meta['cpu']} x {meta['cores']}, "
             f"{meta['reps']} repetitions per speed figure, {meta['runtime_min']:.1f} min in all.\n")
    cal = meta["calibration"]
    L.append("Machine load (shared machine): CPU-bound speed-up of 2 processes over 1, measured at the start "
             f"and end of the run: {cal[0]['speedup_2proc']:.2f}x / {cal[1]['speedup_2proc']:.2f}x "
             f"(2.0 = both cores free); load average {cal[0]['loadavg']:.1f} / {cal[1]['loadavg']:.1f}. "
             "Parallel figures (ALL/1T) cannot exceed that speed-up.\n")
    L += summary(res)
    L.append("\n## Details\n")
    L.append("Speeds are MB/s of raw (decoded) samples, median (min-max) of the repetitions (each repetition "
             "lasts at least 0.3 s; 0.15 s with --quick). `x best` columns divide by the best competitor of "
             "the same run: the highest COG ratio; the fastest COG whose file is at most 1.25x the rumi file "
             "(`similar`); the most windows/s among those. Ratio = raw bytes / (file + header blob). "
             "Decode = `ReadRaster()` of the whole raster through GDAL into a reused, pre-touched buffer "
             "(open excluded), `1T` = "
             "GDAL_NUM_THREADS unset, `ALL` = GDAL_NUM_THREADS=ALL_CPUS. Ceiling = all frames decoded by "
             "OpenZL with no GDAL (bench/decode_ceiling.rs, 1 thread / 2 threads); overhead = 1 - driver / "
             "ceiling (medians). Windows: random 256x256 windows, all bands, read with the header blob; "
             "cold = open + read + close each time; warm = one open dataset, a new random window each time "
             "(its blocks stay cached). Write = `rumi convert`/`stack` (all cores) or gdal_translate "
             "NUM_THREADS=ALL_CPUS.\n")
    for name, r in res["inputs"].items():
        F = Figures(r)
        inp = F.inp
        i = inp["info"]
        L.append(f"\n### {name}: {inp['desc']}, {i['width']} x {i['height']} x {i['bands']} "
                 f"({inp['raw'] / 1e6:.1f} MB raw)\n")
        L.append("| file | bytes | ratio | x best | decode 1T MB/s | x similar | decode ALL MB/s | ALL/1T | "
                 "ceiling 1T / 2T | overhead 1T / ALL | windows/s cold | x similar | windows/s warm | x similar | "
                 "write MB/s |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for f in F.files:
            rumi = f["kind"] == "rumi"
            cells = [f"`{f['label']}`" + (f" ({f['opts']})" if f.get("opts") else ""), f"{f['size']:,}",
                     f"{F.ratio(f):.3f}", f"{F.ratio(f) / F.best_cog_ratio:.3f}", mmm(F.dec_all(f))]
            cells.append(f"{F.dec(f) / F.dec(F.fastest_similar(f)):.2f} ({F.fastest_similar(f)['label']})" if rumi else "")
            cells += [mmm(F.dec_all(f, "ALL_CPUS")), f"{F.dec(f, 'ALL_CPUS') / F.dec(f):.2f}"]
            c1, c2 = F.ceiling(f, 1), F.ceiling(f, 2)
            if c1:
                cells += [f"{c1:.0f} / {c2:.0f}", f"{1 - F.dec(f) / c1:+.0%} / {1 - F.dec(f, 'ALL_CPUS') / c2:+.0%}"]
            else:
                cells += ["", ""]
            w = r["windows"][f["label"]]
            cells.append(mmm(w["cold"]))
            cells.append(f"{F.win(f, 'cold') / F.win(F.best_win_similar(f, 'cold'), 'cold'):.2f}" if rumi else "")
            cells.append(mmm(w["warm"]))
            cells.append(f"{F.win(f, 'warm') / F.win(F.best_win_similar(f, 'warm'), 'warm'):.2f}" if rumi else "")
            cells.append(mmm([inp["raw"] / 1e6 / s for s in f["write_s"]]) + ("" if rumi else " *"))
            L.append("| " + " | ".join(cells) + " |")
        L.append(f"\n`*` COG write speed: one gdal_translate run when the file was made "
                 f"({', '.join(sorted(set(c['made'] or '?' for c in F.cogs)))}; competitors are kept between runs).")
        ref = r["decode"]["1"]["cog-none"]["crc"]
        bad = [f["label"] for f in F.files
               if r["decode"]["1"][f["label"]]["crc"] != ref or r["decode"]["ALL_CPUS"][f["label"]]["crc"] != ref]
        wref = r["windows"]["cog-none"]["crc"]
        bad += [f["label"] + " (windows)" for f in F.files if r["windows"][f["label"]]["crc"] != wref]
        L.append("Pixels: " + ("every file, 1T and ALL, whole raster and cold windows, gives the CRC32 of the "
                              "uncompressed COG." if not bad else "MISMATCH: " + ", ".join(bad)))
        if r.get("modes"):
            L.append("\nDriver read paths of `rumi-default` (RUMI_MULTI_BLOCK_READ; AUTO = DIRECT for this "
                     "whole-raster read), full decode MB/s; busy threads = process CPU time / wall time:\n")
            L.append("| path | 1T | ALL | ALL/1T | busy threads ALL |")
            L.append("|---|---|---|---|---|")
            for mode, m in r["modes"].items():
                a = [inp["raw"] / 1e6 / s for s in m["1"]["wall"]]
                b = [inp["raw"] / 1e6 / s for s in m["ALL_CPUS"]["wall"]]
                busy = med([c / w for c, w in zip(m["ALL_CPUS"]["cpu"], m["ALL_CPUS"]["wall"])])
                L.append(f"| {mode} | {mmm(a)} | {mmm(b)} | {med(b) / med(a):.2f} | {busy:.1f} |")
        if r.get("modes_windows"):
            L.append("\nDriver read paths of `rumi-default`, random 256x256 windows/s (1T; AUTO = CACHE for "
                     "these):\n")
            L.append("| path | cold | warm |")
            L.append("|---|---|---|")
            for mode, m in r["modes_windows"].items():
                L.append(f"| {mode} | {mmm(m['cold'])} | {mmm(m['warm'])} |")
        if r.get("http"):
            L.append("\nCold open + one read over `/vsicurl/` from a local nginx (a new process each time; "
                     "GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR; every request of the access log counted; bytes = "
                     "response bodies). `blob from catalog` = HEADER=<local copy of the blob>:\n")
            L.append("| read | file | requests | GET | bytes | x fewest COG requests | x fewest COG bytes |")
            L.append("|---|---|---|---|---|---|---|")
            for what in ("tile", "window"):
                rows = [h for h in r["http"] if h["what"] == what]
                cr = min(h["requests"] for h in rows if h["kind"] == "cog")
                cb = min(h["bytes"] for h in rows if h["kind"] == "cog")
                for h in rows:
                    L.append(f"| {what} {h['window']} | {h['label']} | {h['requests']} | {h['gets']} | {h['bytes']:,} | "
                             f"{h['requests'] / cr:.2f} | {h['bytes'] / cb:.2f} |")
            for label in ("rumi (blob over HTTP)", "rumi (blob from catalog)", "rumi (blob from catalog, RUMI:)", "cog-zstd9"):
                seq = [h for h in r["http"] if h["what"] == "tile" and h["label"] == label]
                if seq:
                    L.append(f"\nRequests of `{label}`, tile: " + "; ".join(
                        f"{q['method']} {q['uri'].rsplit('/', 1)[-1]} {q['range'] if q['range'] != '-' else ''} "
                        f"({q['bytes']:,} B)" for q in seq[0]["log"]))
        if r.get("rss"):
            L.append("\nFull `gdal_translate -of ENVI` to /dev/shm: peak RSS (MB) and wall time (s), "
                     "GDAL_CACHEMAX default:\n")
            L.append("| file | threads | peak RSS MB | wall s | MB/s |")
            L.append("|---|---|---|---|---|")
            for (label, t), v in r["rss"].items():
                L.append(f"| {label} | {t} | {mmm(v['rss_mb'])} | {mmm(v['wall_s'], '{:.2f}')} | "
                         f"{inp['raw'] / 1e6 / med(v['wall_s']):.0f} |")
    if res.get("anchors"):
        L += anchors_section(res)
    return "\n".join(L) + "\n"


def anchors_section(res):
    """The lossless image codecs (bench/anchors.py) beside rumi and the COGs of the same run."""
    L = ["\n## Lossless image codecs (anchors)\n",
         "bench/anchors.py: each band of each 256x256 tile compressed alone (imagecodecs from PyPI, one "
         "thread; int16 shifted to uint16; ratio = raw / compressed tile bytes, no file overhead); decode "
         "MB/s = every tile decoded in Python, median of 3. rumi = `rumi convert` defaults and the old "
         "default (numeric 7), decode = OpenZL frames alone (ceiling, 1 thread); COG = the highest ratio "
         "and, through GDAL 1T, the fastest COG decode. Same run, loaded machine: compare speeds as ratios.\n",
         "| input | rumi default | rumi numeric 7 (old) | JPEG-LS | JPEG-XL e3 | JPEG-XL e7 | JPEG 2000 | zstd 9 | best COG |",
         "|---|---|---|---|---|---|---|---|---|"]
    for name, a in res["anchors"].items():
        r = res["inputs"].get(name)
        if r is None or not a:
            continue
        F = Figures(r)
        cell = []
        for label in ("rumi-default", "rumi-numeric7"):
            f = next((f for f in F.rumis if f["label"] == label), None)
            c = r["ceiling"].get(label, {}).get(1) if f else None
            cell.append(f"{F.ratio(f):.3f} ({med(c):.0f} MB/s)" if f and c else (f"{F.ratio(f):.3f}" if f else "-"))
        for k in ("jpegls", "jpegxl_e3", "jpegxl_e7", "jpeg2k", "zstd9"):
            v = a.get(k)
            cell.append(f"{v['ratio']:.3f} ({v['decode_mbs']:.0f} MB/s)" if v else "-")
        cogs = [f for f in r["files"] if f["kind"] == "cog" and f["label"] != "cog-none"]
        best = max(cogs, key=F.ratio)
        cell.append(f"{F.ratio(best):.3f} {best['label']}")
        L.append(f"| {name} | " + " | ".join(cell) + " |")
    return L


# ---- main ---------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="~90 MB mosaic, 3 repetitions, fewer windows")
    ap.add_argument("--reps", type=int, help="repetitions per speed figure (default 4, --quick 3)")
    ap.add_argument("--skip-big", action="store_true", help="leave out the Landsat mosaic")
    ap.add_argument("--skip-http", action="store_true", help="leave out the /vsicurl/ request counts")
    ap.add_argument("--only", help="comma-separated inputs to run (default: all)")
    ap.add_argument("--no-build", action="store_true", help="use what target/release holds")
    ap.add_argument("--fresh", action="store_true", help="remake the competitors too")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "latest.md"))
    ap.add_argument("--report-only", action="store_true", help="rewrite the report from build/bench/results.json")
    ap.add_argument("--results", help="with --report-only: the results.json to render (default build/bench/results.json)")
    ap.add_argument("--lean", action="store_true", help="rumi: only the default and the old default (numeric 7)")
    ap.add_argument("--anchors", metavar="PYTHON",
                    help="a Python with imagecodecs and tifffile: also run bench/anchors.py (JPEG-LS, JPEG-XL, JPEG 2000)")
    args = ap.parse_args()
    global LEAN
    LEAN = args.lean
    if args.report_only:
        results = json.loads(Path(args.results or BENCH / "results.json").read_text())
        write_report(results, args)
        return
    reps = args.reps or (3 if args.quick else 4)
    min_time = 0.15 if args.quick else 0.3
    t_start = time.perf_counter()
    if not DATA.is_dir():
        sys.exit(f"{DATA} is missing: the real rasters are needed (RUMI_DATA_DIR)")

    if not args.no_build:
        log("cargo build --release")
        run(["cargo", "build", "--release", "--bin", "rumi", "--lib", "--example", "decode_ceiling"],
            capture=False)
    # Snapshot the binaries: other builds of the shared target dir must not change them mid-run.
    for sub in ("plugin", "bin"):
        (BENCH / sub).mkdir(parents=True, exist_ok=True)
    shutil.copy2(TARGET / "release" / "libgdal_rumi.so", BENCH / "plugin" / "gdal_RUMI.so")
    shutil.copy2(TARGET / "release" / "rumi", BENCH / "bin" / "rumi")
    shutil.copy2(TARGET / "release" / "examples" / "decode_ceiling", BENCH / "bin" / "decode_ceiling")
    env = gdal_env(os.environ)

    git = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], check=False).stdout.strip()
    dirty = run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], check=False).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    meta = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), "git": git + ("+dirty" if dirty else ""),
            "gdal": run(["gdal-config", "--version"]).stdout.strip(), "cpu": cpu, "cores": os.cpu_count(),
            "reps": reps, "calibration": [calibrate()]}
    log(f"calibration: {meta['calibration'][0]}")

    ins = inputs(args, env)
    if args.only:
        keep = args.only.split(",")
        ins = {k: v for k, v in ins.items() if k in keep}
    nginx = None if args.skip_http else Nginx(BENCH / "files")
    results = {"meta": meta, "inputs": {}}
    try:
        for name, inp in ins.items():
            big = inp.get("big", False)
            r_reps = max(2, min(3, reps - 1)) if big else reps
            log(f"{name}: files")
            files = make_cogs(name, inp, env, args.fresh)
            files += make_rumis(name, inp, env, 1 if big else min(3, reps))
            r = {"input": {k: (str(v) if isinstance(v, Path) else v) for k, v in inp.items() if k != "rumi"},
                 "files": files, "decode": {}}
            entries = [entry(f) for f in files]
            # Driver and ceiling alternate, one repetition at a time, so that both see the same
            # load of the shared machine (the overhead compares them).
            log(f"{name}: full decode (1T, ALL_CPUS) and decode ceiling, {r_reps} rounds")
            r["ceiling"] = {}
            for rep in range(r_reps):
                for threads in ("1", "ALL_CPUS"):
                    d = worker({"task": "decode", "entries": entries, "reps": 1, "rotate": rep,
                                "threads": threads, "min_time": min_time}, env)
                    merge(r["decode"].setdefault(threads, {}), d)
                for k, c in ceiling(files, 1, min_time, env).items():
                    for t, v in c.items():
                        r["ceiling"].setdefault(k, {}).setdefault(int(t), []).extend(v)
            log(f"{name}: windows")
            n_cold, n_warm = (5, 20) if args.quick else (10, 40)
            r["windows"] = worker({"task": "windows", "entries": entries, "reps": r_reps, "threads": "1",
                                   "size": 256, "seed": 7, "n_cold": n_cold, "n_warm": n_warm,
                                   "min_time": min_time}, env)
            if nginx and name in ("landsat8", "landsat_mosaic", "ndvi68"):
                log(f"{name}: HTTP requests")
                r["http"] = http_measure(nginx, files, inp, env)
            if big:
                log(f"{name}: peak RSS of gdal_translate")
                rss = rss_measure(files, env, 1 if args.quick else 2)
                r["rss"] = {f"{k[0]}|{k[1]}": v for k, v in rss.items()}
            results["inputs"][name] = r
    finally:
        if nginx:
            nginx.stop()
    if args.anchors:
        log("anchors: JPEG-LS, JPEG-XL e3/e7, JPEG 2000, zstd 9 per tile")
        results["anchors"] = {}
        for name, r in results["inputs"].items():
            src = ins[name]["src"]
            if ins[name]["rumi"][0] != "convert":
                continue
            out = BENCH / f"anchors-{name}.json"
            run([args.anchors, ROOT / "bench" / "anchors.py", "--reps", "3", "--json", out, src], env=env)
            results["anchors"][name] = next(iter(json.loads(out.read_text()).values()), {})
    meta["calibration"].append(calibrate())
    meta["runtime_min"] = (time.perf_counter() - t_start) / 60
    (BENCH / "results.json").write_text(json.dumps(results, indent=1, default=str))
    write_report(json.loads((BENCH / "results.json").read_text()), args)
    log(f"wrote {args.out} and {BENCH / 'results.json'} ({meta['runtime_min']:.1f} min)")


def write_report(results, args):
    """Renders the report from results as stored in results.json (string keys)."""
    for r in results["inputs"].values():
        if r.get("rss"):
            r["rss"] = {tuple(k.split("|")): v for k, v in r["rss"].items()}
        r["ceiling"] = {k: {int(t): v for t, v in c.items()} for k, c in r["ceiling"].items()}
    text = report(results, args)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
