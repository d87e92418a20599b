"""Zarr v3 anchors for rumi's codec figures: the store ML users pick for cubes.

Each real raster is written with zarr-python 3 as a (bands, rows, cols) array in 1 x 256 x 256
chunks (one band-tile per chunk, as a rumi per-band tile or a COG tile), with each compressor
setting below, into a local directory store; the size is every file of the store (chunks and
metadata), the decode speed a whole-array read `arr[...]` into numpy, one thread (zarr's
`async.concurrency` 1 and `threading.max_workers` 1), best of `--reps` reads. MB/s of raw samples.

Run with a Python that has zarr >= 3 and tifffile (not Debian's):
    python3 -m venv build/zarr-venv && build/zarr-venv/bin/pip install "zarr>=3" tifffile
    build/zarr-venv/bin/python bench/zarr_anchors.py [--reps 5] FILE.tif...
Prints a Markdown table (and one JSON line per result with --json).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np
import tifffile
import zarr
from zarr.codecs import BloscCodec, ZstdCodec

SETTINGS = [
    ("zstd 3", lambda: [ZstdCodec(level=3)]),
    ("zstd 9", lambda: [ZstdCodec(level=9)]),
    ("zstd 3 + shuffle", lambda: [BloscCodec(cname="zstd", clevel=3, shuffle="shuffle")]),
    ("zstd 9 + shuffle", lambda: [BloscCodec(cname="zstd", clevel=9, shuffle="shuffle")]),
]


def load(path):
    """(bands, rows, cols), as bench/anchors.py reads it"""
    with tifffile.TiffFile(path) as tf:
        page = tf.pages[0]
        a = page.asarray()
        spp, planar = page.samplesperpixel, page.planarconfig
    if a.ndim == 2:
        a = a[None]
    elif a.ndim == 3 and spp > 1 and planar == 1:  # contiguous: (rows, cols, bands)
        a = np.moveaxis(a, -1, 0)
    return np.ascontiguousarray(a)


def store_bytes(root):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root) for f in fs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    zarr.config.set({"async.concurrency": 1, "threading.max_workers": 1})
    print("| input | setting | bytes | ratio | decode MB/s (1 thread) |")
    print("|---|---|---|---|---|")
    for path in args.files:
        a = load(path)
        name = os.path.splitext(os.path.basename(path))[0]
        raw = a.nbytes
        for label, compressors in SETTINGS:
            root = tempfile.mkdtemp(prefix="zarr-anchor-")
            try:
                z = zarr.create_array(
                    store=root,
                    shape=a.shape,
                    chunks=(1, min(256, a.shape[1]), min(256, a.shape[2])),
                    dtype=a.dtype,
                    compressors=compressors(),
                    fill_value=0,
                )
                z[...] = a
                size = store_bytes(root)
                r = zarr.open_array(store=root, mode="r")
                out = r[...]
                if not np.array_equal(out, a):
                    sys.exit(f"{name} {label}: decoded samples differ")
                best = float("inf")
                for _ in range(args.reps):
                    t0 = time.perf_counter()
                    r[...]
                    best = min(best, time.perf_counter() - t0)
            finally:
                shutil.rmtree(root, ignore_errors=True)
            mbs = raw / 1e6 / best
            print(f"| {name} | {label} | {size} | {raw / size:.3f} | {mbs:.0f} |")
            if args.json:
                print(json.dumps({"file": name, "setting": label, "bytes": size, "raw": raw, "decode_mbs": mbs}))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
