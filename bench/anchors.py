#!/usr/bin/env python3
"""Lossless image-codec anchors on the same tiles rumi frames hold.

Every band of every input is cut into 256x256 tiles (edge tiles clipped), as rumi's tiles are;
each tile is compressed alone by JPEG-LS (CharLS), JPEG-XL lossless (libjxl, efforts 3 and 7)
and JPEG 2000 reversible (OpenJPEG), all through imagecodecs from PyPI, single-threaded.
int16 samples are shifted to uint16 (these codecs take unsigned samples). Floats and complex
samples are skipped (no lossless float mode in JPEG-LS/JPEG 2000).

Prints a Markdown table and writes JSON: ratio = raw bytes / sum of compressed tile bytes;
decode MB/s = raw bytes / seconds to decode every tile (median of --reps passes).

Run (imagecodecs and tifffile in a venv, see bench/README.md):
    build/anchors-venv/bin/python bench/anchors.py [--reps 3] [--json out.json] FILE.tif...
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import imagecodecs
import tifffile

TILE = 256


def tiles(arr):
    """arr: (bands, y, x) -> list of C-contiguous 2-D tiles"""
    b, y, x = arr.shape
    out = []
    for band in range(b):
        for ty in range(0, y, TILE):
            for tx in range(0, x, TILE):
                out.append(np.ascontiguousarray(arr[band, ty:ty + TILE, tx:tx + TILE]))
    return out


def load(path):
    with tifffile.TiffFile(path) as tf:
        page = tf.pages[0]
        a = page.asarray()
        spp = page.samplesperpixel
        planar = page.planarconfig
    if a.ndim == 2:
        a = a[None]
    elif a.ndim == 3 and spp > 1 and planar == 1:  # contiguous: (y, x, b)
        a = np.moveaxis(a, -1, 0)
    return a


CODECS = {
    # the calibrator: codec_bench.rs measures the same zstd 9 per tile beside rumi's frames, so
    # speeds of the two scripts compare as ratios to it
    "zstd9": (lambda t: imagecodecs.zstd_encode(t, level=9), lambda c: imagecodecs.zstd_decode(c)),
    "jpegls": (lambda t: imagecodecs.jpegls_encode(t), lambda c: imagecodecs.jpegls_decode(c)),
    "jpegxl_e3": (
        lambda t: imagecodecs.jpegxl_encode(t, lossless=True, effort=3, numthreads=1),
        lambda c: imagecodecs.jpegxl_decode(c, numthreads=1),
    ),
    "jpegxl_e7": (
        lambda t: imagecodecs.jpegxl_encode(t, lossless=True, effort=7, numthreads=1),
        lambda c: imagecodecs.jpegxl_decode(c, numthreads=1),
    ),
    "jpeg2k": (
        lambda t: imagecodecs.jpeg2k_encode(t, level=0, reversible=True, numthreads=1),
        lambda c: imagecodecs.jpeg2k_decode(c, numthreads=1),
    ),
}


def measure(ts, name, reps):
    enc, dec = CODECS[name]
    raw = sum(t.nbytes for t in ts)
    t0 = time.perf_counter()
    comp = [enc(t) for t in ts]
    enc_s = time.perf_counter() - t0
    for c, t in zip(comp, ts):
        d = dec(c)
        d = np.frombuffer(d, t.dtype) if isinstance(d, (bytes, bytearray)) else d
        if not np.array_equal(d.reshape(t.shape), t):
            raise SystemExit(f"{name}: not lossless")
    runs = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for c in comp:
            dec(c)
        runs.append(time.perf_counter() - t0)
    runs.sort()
    size = sum(len(c) for c in comp)
    return {"ratio": raw / size, "bytes": size, "encode_mbs": raw / enc_s / 1e6,
            "decode_mbs": raw / runs[len(runs) // 2] / 1e6}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--codecs", default=",".join(CODECS))
    a = ap.parse_args()
    results = {}
    print("| input | codec | ratio | encode MB/s | decode MB/s |")
    print("|---|---|---|---|---|")
    for f in a.files:
        arr = load(f)
        name = os.path.basename(f)
        if arr.dtype.kind not in "ui" or arr.dtype.itemsize > 2:
            print(f"| {name} | (skipped: {arr.dtype}) | | | |")
            continue
        if arr.dtype == np.int16:
            arr = (arr.astype(np.int32) + 32768).astype(np.uint16)
        ts = tiles(arr)
        results[name] = {}
        for c in a.codecs.split(","):
            try:
                r = measure(ts, c, a.reps)
            except Exception as e:  # a codec refusing an input is a result, not a crash
                print(f"| {name} | {c} | failed: {e} | | |")
                continue
            results[name][c] = r
            print(f"| {name} | {c} | {r['ratio']:.3f} | {r['encode_mbs']:.1f} | {r['decode_mbs']:.1f} |")
            sys.stdout.flush()
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
