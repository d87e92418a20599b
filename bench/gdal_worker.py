"""Measurement worker of bench/run.py: runs one task through GDAL's Python bindings and prints
its result as JSON on stdout. Run by run.py under /usr/bin/python3 with GDAL_DRIVER_PATH
pointing at the plugin snapshot of the run; not meant to be called by hand.

    gdal_worker.py TASK_JSON

Tasks ("task" key):
- decode:  full-raster ReadRaster of each entry into a reused, pre-touched buffer, `reps`
           times, entries interleaved (the order rotates every repetition); wall and process CPU
           seconds per read, CRC32 of the pixels.
- windows: random windows per second, cold (open + one window + close, each time) and warm
           (one open dataset, a new random window each time).
- http:    one cold open + one window read (run in a fresh process so that /vsicurl/ caches are
           empty); run.py counts the requests in nginx's access log.
"""

import json
import random
import sys
import time
import zlib

from osgeo import gdal

gdal.UseExceptions()


def set_config(config):
    for k, v in config.items():
        gdal.SetConfigOption(k, v)


def clear_config(config):
    for k in config:
        gdal.SetConfigOption(k, None)


def open_entry(e):
    return gdal.OpenEx(e["path"], gdal.OF_RASTER, open_options=e.get("oo", []))


def raster_bytes(e):
    """Bytes of a whole-raster ReadRaster() of entry `e` (all bands, native type)."""
    ds = open_entry(e)
    n = ds.RasterXSize * ds.RasterYSize * sum(
        gdal.GetDataTypeSize(ds.GetRasterBand(b).DataType) // 8 for b in range(1, ds.RasterCount + 1))
    ds = None
    return n


def reused_buffer(n):
    """A buffer of `n` bytes with every page already touched, as a training loop's
    preallocated array: the reads then measure decoding, not the kernel's first-touch page
    faults of a fresh allocation (which the decode ceiling does not pay either)."""
    buf = bytearray(n)
    buf[::4096] = b"\x01" * len(range(0, n, 4096))
    return buf


def task_decode(t):
    """Each sample repeats open + ReadRaster() + close until `min_time` seconds of reading
    (open and close are not timed; closing empties GDAL's block cache of the dataset). The
    pixels go into one reused buffer per entry (`reuse`, default on; off: a new bytes object
    per read, as plain `ds.ReadRaster()`)."""
    entries, reps, min_time = t["entries"], t["reps"], t.get("min_time", 0.3)
    out = {e["label"]: {"wall": [], "cpu": [], "open": [], "reads": [], "crc": None, "bytes": 0} for e in entries}
    reuse = {e["label"]: reused_buffer(raster_bytes(e)) for e in entries} if t.get("reuse", True) else {}
    for rep in range(reps):
        k = (rep + t.get("rotate", 0)) % len(entries)
        for e in entries[k:] + entries[:k]:
            config = dict(e.get("config", {}))
            config["GDAL_NUM_THREADS"] = t["threads"]
            set_config(config)
            wall = cpu = opened = 0.0
            n = 0
            r = out[e["label"]]
            while n == 0 or wall < min_time:
                t0 = time.perf_counter()
                ds = open_entry(e)
                t1 = time.perf_counter()
                c1 = time.process_time()
                buf = ds.ReadRaster(buf_obj=reuse.get(e["label"]))
                c2 = time.process_time()
                t2 = time.perf_counter()
                ds = None
                opened += t1 - t0
                wall += t2 - t1
                cpu += c2 - c1
                n += 1
                r["bytes"] = len(buf)
                if r["crc"] is None and t.get("crc", True):
                    r["crc"] = zlib.crc32(buf)
                del buf
            clear_config(config)
            r["open"].append(opened / n)
            r["wall"].append(wall / n)
            r["cpu"].append(cpu / n)
            r["reads"].append(n)
    return out


def windows_for(width, height, size, n, seed):
    rng = random.Random(seed)
    w, h = min(size, width), min(size, height)
    return [(rng.randrange(0, width - w + 1), rng.randrange(0, height - h + 1), w, h) for _ in range(n)]


def task_windows(t):
    """cold: open + one window + close, repeated; warm: one open dataset, a new random window
    each time. Each sample runs at least `n` windows and `min_time` seconds."""
    entries, reps, min_time = t["entries"], t["reps"], t.get("min_time", 0.3)
    out = {e["label"]: {"cold": [], "warm": [], "crc": None} for e in entries}
    for rep in range(reps):
        k = rep % len(entries)
        for e in entries[k:] + entries[:k]:
            config = dict(e.get("config", {}))
            config["GDAL_NUM_THREADS"] = t["threads"]
            set_config(config)
            ds = open_entry(e)
            width, height = ds.RasterXSize, ds.RasterYSize
            ds = None
            wins = windows_for(width, height, t["size"], 100000, t["seed"] + 1000 * rep)
            crc, i = 0, 0
            t0 = time.perf_counter()
            while i < t["n_cold"] or time.perf_counter() - t0 < min_time:
                x, y, w, h = wins[i]
                ds = open_entry(e)
                buf = ds.ReadRaster(x, y, w, h)
                if i < t["n_cold"]:
                    crc = zlib.crc32(buf, crc)
                ds = None
                i += 1
            cold = i / (time.perf_counter() - t0)
            ds = open_entry(e)
            j = 0
            t0 = time.perf_counter()
            while j < t["n_warm"] or time.perf_counter() - t0 < min_time:
                x, y, w, h = wins[i + j]
                ds.ReadRaster(x, y, w, h)
                j += 1
            warm = j / (time.perf_counter() - t0)
            ds = None
            clear_config(config)
            r = out[e["label"]]
            r["cold"].append(cold)
            r["warm"].append(warm)
            if rep == 0:
                r["crc"] = crc
    return out


def task_http(t):
    set_config(t.get("config", {}))
    ds = gdal.OpenEx(t["path"], gdal.OF_RASTER, open_options=t.get("oo", []))
    x, y, w, h = t["window"]
    buf = ds.ReadRaster(x, y, w, h)
    ds = None
    return {"crc": zlib.crc32(buf), "bytes": len(buf)}


def main():
    t = json.loads(sys.argv[1])
    fn = {"decode": task_decode, "windows": task_windows, "http": task_http}[t["task"]]
    print(json.dumps(fn(t)))


if __name__ == "__main__":
    main()
