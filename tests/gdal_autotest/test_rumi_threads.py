"""Concurrency through GDAL: several threads, each with its own dataset on the same file, and one
dataset read with GDAL_NUM_THREADS=ALL_CPUS, return exactly the pixels of a serial read. Each
test runs for a bounded time (about two seconds)."""

import contextlib
import random
import threading
import time

import numpy as np
import pytest
from osgeo import gdal

from rumi_util import config_option, make_rumi, sample_array

T, B, H, W, TILE = 2, 3, 97, 150, (32, 16)
THREADS = 4
BUDGET = 2.0  # seconds of hammering per test


@contextlib.contextmanager
def small_cache():
    """A 1 MiB block cache, so that blocks are evicted and frames decoded again and again."""
    old = gdal.GetCacheMax()
    gdal.SetCacheMax(1 << 20)
    try:
        yield
    finally:
        gdal.SetCacheMax(old)


@pytest.fixture(params=[0, 4], ids=["tiles", "cells"])
def cube(request, tmp_path):
    data = sample_array("uint16", T, B, H, W, seed=11)
    path, header = tmp_path / "c.rumi", tmp_path / "c.blob"
    make_rumi(path, data, "uint16", tile=TILE, frame_unit=request.param, header=header)
    return path, header, data.reshape(T * B, H, W)


def hammer(open_dataset, expected):
    """THREADS threads, each with its own dataset, read random windows for BUDGET seconds."""
    errors, counts = [], [0] * THREADS
    deadline = time.monotonic() + BUDGET

    def worker(i):
        try:
            rng = random.Random(i)
            ds = open_dataset()
            while time.monotonic() < deadline:
                band = rng.randrange(T * B)
                x0, y0 = rng.randrange(W), rng.randrange(H)
                xs, ys = rng.randint(1, W - x0), rng.randint(1, H - y0)
                if rng.random() < 0.2:
                    got = ds.ReadAsArray(x0, y0, xs, ys)  # every band at once
                    want = expected[:, y0:y0 + ys, x0:x0 + xs]
                else:
                    got = ds.GetRasterBand(band + 1).ReadAsArray(x0, y0, xs, ys)
                    want = expected[band, y0:y0 + ys, x0:x0 + xs]
                if not np.array_equal(got, want):
                    errors.append(f"thread {i}: band {band} window {(x0, y0, xs, ys)} differs")
                    return
                counts[i] += 1
            ds = None
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            errors.append(f"thread {i}: {e!r}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=BUDGET + 60)
    assert not any(t.is_alive() for t in threads), "a reader thread hangs"
    assert not errors, errors
    assert all(c > 0 for c in counts), counts
    return sum(counts)


@pytest.mark.parametrize("stateless", [False, True], ids=["validated", "stateless"])
def test_one_dataset_per_thread_matches_a_serial_read(cube, stateless):
    path, header, expected = cube
    oo = [f"HEADER={header}" if stateless else "HEADER=NONE"]
    serial = gdal.OpenEx(str(path), open_options=oo).ReadAsArray()
    np.testing.assert_array_equal(serial, expected)
    with small_cache():
        hammer(lambda: gdal.OpenEx(str(path), open_options=oo), expected)


def test_all_cpus_matches_a_serial_read(cube):
    path, _, expected = cube
    with config_option("GDAL_NUM_THREADS", "1"):
        serial = gdal.Open(str(path)).ReadAsArray()
    deadline = time.monotonic() + BUDGET
    reads = 0
    with config_option("GDAL_NUM_THREADS", "ALL_CPUS"), small_cache():
        while reads == 0 or time.monotonic() < deadline:
            ds = gdal.Open(str(path))
            np.testing.assert_array_equal(ds.ReadAsArray(), serial)
            np.testing.assert_array_equal(ds.ReadAsArray(5, 3, W - 9, H - 7), serial[:, 3:H - 4, 5:W - 4])
            reads += 1
    np.testing.assert_array_equal(serial, expected)
