"""Helpers of the rumi GDAL autotest suite: where the plugin and the fixture writer live, and
how to write a rumi file from a numpy array (through examples/make_fixture.rs)."""

import contextlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
PLUGIN = TARGET / "release" / "libgdal_rumi.so"
MAKE_FIXTURE = TARGET / "release" / "examples" / "make_fixture"
DATA_DIR = ROOT.parent / "shared" / "data"
PYTHON = "/usr/bin/python3"

# encoding -> numpy dtype of the raw little-endian samples the writer takes
RAW_DTYPES = {
    "bool": "u1",
    "uint8": "u1",
    "uint16": "<u2",
    "uint32": "<u4",
    "uint64": "<u8",
    "int8": "i1",
    "int16": "<i2",
    "int32": "<i4",
    "int64": "<i8",
    "float16": "<f2",
    "float32": "<f4",
    "float64": "<f8",
    "complex32": "<f2",  # two float16 components per sample: arrays carry a trailing axis of 2
    "complex64": "<c8",
    "complex128": "<c16",
    "float8_e4m3fn": "u1",  # raw codes
    "float8_e5m2": "u1",
    "bfloat16": "<u2",  # raw bits
    "float8_e8m0fnu": "u1",
    "float8_e4m3fnuz": "u1",
    "float8_e5m2fnuz": "u1",
}

NATIVE = ["bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
          "float32", "float64", "complex64", "complex128"]
PROMOTED = ["float16", "bfloat16", "complex32", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu",
            "float8_e4m3fnuz", "float8_e5m2fnuz"]

UTM = {"epsg": 32631, "model": "projected", "raster_type": "area",
       "affine": [20.0, 0.0, 500000.0, 0.0, -20.0, 4000000.0]}


def valid_units(bands, times):
    """Frame units valid for B and T (spec: frame_unit table)."""
    units = [0]
    if (bands > 1) != (times > 1):
        units += [1, 2]
    if bands > 1 and times > 1:
        units += list(range(3, 10))
    return units


def instants(times, start=1_600_000_000, step=5 * 86400 + 7):
    return {"kind": "instant", "seconds": [start + i * step for i in range(times)]}


def sample_array(encoding, times, bands, length, width, seed=0):
    """Deterministic samples valid for `encoding`, shape (T, B, Y, X) (+ (2,) for complex32)."""
    rng = np.random.default_rng(seed)
    shape = (times, bands, length, width)
    ramp = np.add.outer(np.arange(length), np.arange(width))[None, None] + np.zeros(shape, dtype=np.int64)
    if encoding == "bool":
        return (rng.integers(0, 2, shape)).astype("u1")
    dt = np.dtype(RAW_DTYPES[encoding])
    if encoding == "complex32":
        return (rng.standard_normal(shape + (2,)) * 100).astype("<f2")
    if encoding in ("float16", "float32", "float64"):
        return (ramp * 0.5 + rng.standard_normal(shape) * 10).astype(dt)
    if encoding in ("complex64", "complex128"):
        return (ramp + 1j * rng.standard_normal(shape) * 100).astype(dt)
    if encoding == "bfloat16":
        f = (ramp * 0.25 + rng.standard_normal(shape)).astype("<f4")
        return (f.view("<u4") >> 16).astype("<u2")
    if encoding.startswith("float8"):
        return rng.integers(0, 256, shape).astype("u1")
    info = np.iinfo(dt)
    lo, hi = max(info.min, -(2**40)), min(info.max, 2**40)
    noise = rng.integers(lo, hi, shape, dtype=np.int64) if dt.itemsize > 2 else rng.integers(info.min, info.max, shape)
    out = noise.astype(dt)
    out.flat[0], out.flat[-1] = info.max, info.min  # the extremes must survive exactly
    return out


def make_rumi(path, data, encoding, tile=(16, 8), frame_unit=0, georef=None, band_texts=None, time=None,
              header=None):
    """Writes `data` ((T, B, Y, X), + (2,) for complex32) to the rumi file `path`; writes its
    header blob to `header` when given. Returns `path`."""
    data = np.ascontiguousarray(data)
    times, bands, length, width = data.shape[:4]
    spec = {
        "width": int(width), "length": int(length), "bands": int(bands), "times": int(times),
        "encoding": encoding, "tile": list(tile), "frame_unit": int(frame_unit),
        "georef": georef if georef is not None else UTM,
        "band_texts": band_texts if band_texts is not None else [f"band {b}" for b in range(bands)],
        "time": time if time is not None else instants(times),
    }
    raw = np.asarray(data, dtype=np.dtype(RAW_DTYPES[encoding]))
    with tempfile.TemporaryDirectory() as tmp:
        spec_path = Path(tmp) / "spec.json"
        raw_path = Path(tmp) / "samples.raw"
        spec_path.write_text(json.dumps(spec))
        raw_path.write_bytes(raw.tobytes())
        args = [str(MAKE_FIXTURE), str(spec_path), str(raw_path), str(path)]
        if header is not None:
            args.append(str(header))
        subprocess.run(args, check=True, capture_output=True, text=True)
    return Path(path)


def gdal_expected(encoding, data):
    """What GDAL's ReadAsArray returns for `data` of `encoding` (PROMOTE=FLOAT32 where needed)."""
    # int8: GDAL 3.6 has Byte with PIXELTYPE=SIGNEDBYTE, which the Python bindings read as int8
    if encoding in ("float16",):
        return data.astype(np.float32)
    if encoding == "complex32":
        f = data.astype(np.float32)
        return f[..., 0] + 1j * f[..., 1]
    if encoding == "bfloat16":
        return (data.astype("<u4") << 16).view("<f4")
    if encoding.startswith("float8"):
        return np.vectorize(lambda v: float8_value(encoding, int(v)), otypes=[np.float32])(data)
    return data


def float8_value(encoding, v):
    """Reference float8 decoder (ONNX float8 / OCP MX E8M0), independent of the Rust one."""
    if encoding == "float8_e8m0fnu":
        return float("nan") if v == 0xFF else 2.0 ** (v - 127)
    ebits, bias = {"float8_e4m3fn": (4, 7), "float8_e4m3fnuz": (4, 8),
                   "float8_e5m2": (5, 15), "float8_e5m2fnuz": (5, 16)}[encoding]
    mbits = 7 - ebits
    sign = -1.0 if v & 0x80 else 1.0
    e = (v >> mbits) & ((1 << ebits) - 1)
    m = v & ((1 << mbits) - 1)
    if encoding.endswith("fnuz") and v == 0x80:
        return float("nan")
    if encoding == "float8_e4m3fn" and e == 15 and m == 7:
        return float("nan")
    if encoding == "float8_e5m2" and e == 31:
        return sign * float("inf") if m == 0 else float("nan")
    if e == 0:
        return sign * m / (1 << mbits) * 2.0 ** (1 - bias)
    return sign * (1 + m / (1 << mbits)) * 2.0 ** (e - bias)


@contextlib.contextmanager
def config_option(name, value):
    """Sets a GDAL configuration option for a block (gdal.config_option of newer bindings;
    GDAL 3.6 has none), restoring the previous value. osgeo is imported here, not at the top:
    conftest imports this module before it points GDAL_DRIVER_PATH at this tree's plugin."""
    from osgeo import gdal

    old = gdal.GetConfigOption(name)
    gdal.SetConfigOption(name, value)
    try:
        yield
    finally:
        gdal.SetConfigOption(name, old)
