"""Streaming and distributed writing (issue 22): figures printed, nothing asserted.

1. Peak RSS of rumi.Writer writing a raster 20x larger than one block of tile rows, blocks in
   order and in reverse order (the spool), against the block size: "within 3 blocks plus a
   constant". Each case runs in a fresh process; the constant is that process's peak RSS after
   writing a one-block raster (imports, the block generator, thread pools, codec contexts).
2. rumi.to_rumi of one dask cube on a LocalCluster of 1 and of 2 worker processes (1 thread
   each): raw MB/s, wall and CPU-seconds (workers' getrusage + the client's).
3. rumi.to_rumi of the same cube to s3:// on moto's standalone server against local disk, on
   the threaded scheduler (written locally, uploaded at close) and on a LocalCluster of 2
   workers (the workers upload their blocks as parts): the ratio of wall times.

    python bench/write_bench.py [--quick]     # needs rumi, dask[distributed], xarray, moto[server]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np

CHILD = r"""
import json, resource, sys, numpy as np, rumi
order, T, B, TH, X, N, path = sys.argv[1], *map(int, sys.argv[2:7]), sys.argv[7]
Y = TH * N
def block(y0):
    y = np.arange(y0, y0 + TH, dtype=np.int64)[:, None]
    x = np.arange(X, dtype=np.int64)[None, :]
    plane = ((y * 3 + x * 5) % 4093 + (x * y) % 7).astype(np.uint16)
    return np.broadcast_to(plane, (T, B, TH, X)).copy()
# the constant: imports, the block generator, thread pools and codec contexts after a first
# write of one block (a raster of one tile row)
with rumi.Writer(path + ".warm", shape=(T, B, TH, X), dtype="uint16", bands=[f"b{i}" for i in range(B)],
                 times=[f"2020-01-{d + 1:02d}" for d in range(T)], tile=TH) as w:
    w.write(block(0), row=0)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
rows = list(range(0, Y, TH))
if order == "reverse":
    rows = rows[::-1]
with rumi.Writer(path, shape=(T, B, Y, X), dtype="uint16", bands=[f"b{i}" for i in range(B)],
                 times=[f"2020-01-{d + 1:02d}" for d in range(T)], tile=TH) as w:
    for y0 in rows:
        w.write(block(y0), row=y0)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"base": base, "peak": peak, "block": T * B * TH * X * 2, "bytes": T * B * Y * X * 2}))
"""


def rss(quick: bool) -> None:
    T, B, TH, X, N = (1, 4, 256, 4096, 20) if quick else (1, 4, 256, 8192, 20)
    print(f"\n== 1. peak RSS, rumi.Writer, {N} blocks of {T}x{B}x{TH}x{X} uint16")
    with tempfile.TemporaryDirectory() as d:
        for order in ("in-order", "reverse"):
            out = subprocess.run(
                [sys.executable, "-c", CHILD, order, str(T), str(B), str(TH), str(X), str(N), os.path.join(d, "r.rumi")],
                check=True, capture_output=True, text=True,
            ).stdout
            r = json.loads(out)
            extra = r["peak"] - r["base"]
            print(f"  {order:9s} raster {r['bytes'] / 2**20:7.1f} MiB, block {r['block'] / 2**20:5.1f} MiB: "
                  f"peak {r['peak'] / 2**20:6.1f} MiB = constant {r['base'] / 2**20:6.1f} MiB + "
                  f"{extra / 2**20:6.1f} MiB ({extra / r['block']:.2f} blocks)")


def cube(shape, chunks):
    import dask.array as da
    import xarray as xr

    def pattern(block, block_info=None):
        loc = block_info[None]["array-location"]
        t, b, y, x = np.ogrid[tuple(slice(lo, hi) for lo, hi in loc)]
        # a smooth surface plus 8 bits of hashed noise: compresses about 2x, as imagery does
        noise = ((x * 7919 + y * 104729 + b * 31 + t * 17) * 2654435761 % 4294967296 >> 20) & 255
        return ((y * 3 + x * 5 + b * 1000 + t * 77) % 4093 + noise).astype("uint16")

    lazy = da.zeros(shape, dtype="uint16", chunks=chunks).map_blocks(pattern, dtype="uint16")
    T, B, Y, X = shape
    return xr.DataArray(
        lazy, dims=("time", "band", "y", "x"),
        coords={"time": np.arange(T).astype("datetime64[D]").astype("datetime64[ns]"), "band": [f"b{i}" for i in range(B)],
                "y": 5e6 - 5 - 10 * np.arange(Y), "x": 3e5 + 5 + 10 * np.arange(X)},
        attrs={"crs": "EPSG:32632"},
    )


def cpu_of_workers(client) -> float:
    r = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF))
    return sum(u.ru_utime + u.ru_stime for u in r.values())


def self_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def workers(quick: bool) -> None:
    import distributed

    import rumi

    shape = (2, 3, 2048, 4096) if quick else (2, 3, 4096, 6144)
    x = cube(shape, (1, 3, 512, 2048))
    mb = x.nbytes / 1e6
    print(f"\n== 2. rumi.to_rumi on a dask LocalCluster, cube {shape} uint16 ({mb:.0f} MB), chunks (1, 3, 512, 2048)")
    rates = {}
    with tempfile.TemporaryDirectory() as d:
        for n in (1, 2):
            with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                          dashboard_address=":0", memory_limit="1GiB") as c, \
                    distributed.Client(c) as client:
                rumi.to_rumi(x.isel(y=slice(0, 256)), os.path.join(d, "warm.rumi"), tile=256)  # imports on workers
                w0, c0, s0 = time.perf_counter(), cpu_of_workers(client), self_cpu()
                rumi.to_rumi(x, os.path.join(d, f"w{n}.rumi"), tile=256)
                wall = time.perf_counter() - w0
                cpu = cpu_of_workers(client) - c0 + self_cpu() - s0
                rates[n] = mb / wall
                print(f"  {n} worker(s): {wall:6.2f} s wall, {cpu:6.2f} CPU-s, {mb / wall:6.1f} MB/s raw, "
                      f"{mb / cpu:6.1f} MB per CPU-s; file {os.path.getsize(os.path.join(d, f'w{n}.rumi')) / 1e6:.1f} MB")
    print(f"  2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def best_local_and_s3(rumi, x, d: str) -> tuple[float, float]:
    """Best of 2 rounds (local, then s3:// each round) of rumi.to_rumi(x): the two wall times."""
    times: dict[str, list[float]] = {}
    for _ in range(2):
        for dest in ("local", "s3"):
            target = os.path.join(d, "l.rumi") if dest == "local" else "s3://bench/c.rumi"
            t0 = time.perf_counter()
            rumi.to_rumi(x, target, tile=256)
            times.setdefault(dest, []).append(time.perf_counter() - t0)
    return min(times["local"]), min(times["s3"])


def s3_vs_local(quick: bool) -> None:
    import boto3

    import rumi

    exe = shutil.which("moto_server") or os.path.join(os.path.dirname(sys.executable), "moto_server")
    port = free_port()
    proc = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        endpoint = f"http://127.0.0.1:{port}"
        os.environ.update(AWS_ENDPOINT_URL=endpoint, AWS_ACCESS_KEY_ID="k", AWS_SECRET_ACCESS_KEY="s",
                          AWS_REGION="us-east-1", AWS_ALLOW_HTTP="true")
        boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="bench")
        shape = (1, 3, 2048, 4096) if quick else (2, 3, 4096, 4096)
        x = cube(shape, (1, 3, 512, 4096))
        print(f"\n== 3. rumi.to_rumi to s3:// (moto on loopback) against local disk, cube {shape}, threaded scheduler")
        with tempfile.TemporaryDirectory() as d:
            lo, s3 = best_local_and_s3(rumi, x, d)
            size = os.path.getsize(os.path.join(d, "l.rumi")) / 1e6
            print(f"  local {lo:.2f} s, s3 {s3:.2f} s (best of 2; file {size:.1f} MB): s3 / local = {s3 / lo:.2f}x")
            import distributed

            print("  the same on a LocalCluster of 2 worker processes (1 thread each): to s3:// the workers "
                  "upload their blocks as parts")
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                          dashboard_address=":0", memory_limit="1GiB") as c, \
                    distributed.Client(c):
                rumi.to_rumi(x.isel(y=slice(0, 256)), os.path.join(d, "warm.rumi"), tile=256)  # imports on workers
                lo, s3 = best_local_and_s3(rumi, x, d)
            print(f"  local {lo:.2f} s, s3 {s3:.2f} s (best of 2): s3 / local = {s3 / lo:.2f}x")
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller rasters")
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    rss(a.quick)
    workers(a.quick)
    s3_vs_local(a.quick)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
