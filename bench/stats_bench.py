"""Dataset statistics from the catalogue against a pass over the pixels (issue 50, items 3-4).

1. Rows: docs/scaling.md's Sentinel-2-like one-year Cubes (bench/scale_bench.py's rows: 4
   uint16 bands, 2048 x 2048 cells in 128 x 128 tiles, 20-76 steps) with a rumi:stats of
   realistic values (per band and step, per band and cell: counts with some nodata, integer
   sums, float32 m2, integer min/max). Measured: the Parquet size with and without the column
   (bytes a row, growth against the Parquet data and against Parquet + header blobs), the
   search with and without it, and Catalog.stats of a 10 k-row selection: whole files, a time
   window (the steps level), and a box (the cells level, exact=False: these files do not exist).
2. The pixel pass a TorchGeo user writes for mean/std (every pixel of every file read and
   summed per band, here with rumi's own reader and numpy in float64: a lower bound of a
   DataLoader's), on real rumi Cubes written here, beside Catalog.stats of the same files; the
   two agree to 1e-6 (mean) and 1e-4 (std), checked. The pass's time is extrapolated to the
   10 k files of part 1 from its measured decoded bytes a second (labelled as such).

    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/stats_bench.py            # ~2 min
    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/stats_bench.py --rows 10000 --size-rows 100000
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def _scale_bench():
    """bench/scale_bench.py as a module (its rows, stats_blobs and with_stats)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("scale_bench", HERE / "scale_bench.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def parquet_rows(sb, n: int, seed: int = 1):
    """n rows (part schema) of scale_bench's tiling, one year, and their T."""
    import pyarrow as pa

    tiles = sb.Tiles(n)
    rng = np.random.default_rng(seed)
    table, _ = sb.year_table(tiles, np.arange(n), 2020, rng)
    T = np.asarray(pa.compute.list_value_length(table.column("rumi:times")).to_numpy(), np.int64)
    return table, T, rng


def part1(args, out: dict) -> None:
    import pyarrow as pa

    import rumi
    from rumi.catalog.parts import write_parts

    sb = _scale_bench()
    work = Path(tempfile.mkdtemp(prefix="stats_bench_"))
    try:
        # -- size: the Parquet with and without the column ---------------------------------
        table, T, rng = parquet_rows(sb, args.size_rows)
        t0 = time.perf_counter()
        blobs = sb.stats_blobs(T, rng)
        gen = time.perf_counter() - t0
        sizes = {}
        for name, t in (("without", table), ("with", sb.with_stats(table, blobs))):
            d = work / f"size_{name}"
            write_parts(t, str(d) + "/")
            # the parts and, beside them, the column's .stats.lazy files (not in the parts since 2026-12-07 12:00)
            sizes[name] = sum(f.stat().st_size for f in d.glob("*.parquet")) + sum(f.stat().st_size for f in d.glob("*.lazy"))
        # the blobs a catalogue of these rows lays beside its parts (scale_bench writes them as
        # sparse files; write_parts here has none): their sizes, rumi:header_size
        headers = int(pa.compute.sum(table.column("rumi:header_size")).as_py())
        per_row = (sizes["with"] - sizes["without"]) / args.size_rows
        out["size"] = {"rows": args.size_rows, "parquet_without": sizes["without"], "parquet_with": sizes["with"],
                       "stats_bytes_a_row": per_row, "raw_bytes_a_row": float(np.mean([len(b) for b in blobs])),
                       "mean_T": float(T.mean()), "growth_parquet": per_row / (sizes["without"] / args.size_rows),
                       "blob_bytes_a_row": headers / args.size_rows, "generate_s": gen,
                       "growth_parquet_and_blobs": per_row / ((sizes["without"] + headers) / args.size_rows)}
        # the same search with and without the column (searches leave it unread: LAZY_COLUMNS)
        bb = table.column("bbox").to_pylist()[:1][0]
        q = {"bbox": ((bb["xmin"] + bb["xmax"]) / 2 - 3, (bb["ymin"] + bb["ymax"]) / 2 - 3,
                      (bb["xmin"] + bb["xmax"]) / 2 + 3, (bb["ymin"] + bb["ymax"]) / 2 + 3), "time": ("2020-01-01", "2020-12-31")}
        for name in ("without", "with"):
            best = None
            for _ in range(args.repeat):
                c = rumi.Catalog.open(str(work / f"size_{name}") + "/")
                r0 = resource.getrusage(resource.RUSAGE_SELF)
                t0 = time.perf_counter()
                k = len(c.search(**q))
                el = time.perf_counter() - t0
                r1 = resource.getrusage(resource.RUSAGE_SELF)
                cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
                if best is None or el < best[0]:
                    best = (el, cpu, k)
            out["size"][f"search_{name}"] = {"s": best[0], "cpu_s": best[1], "rows": best[2]}
        print(json.dumps(out["size"], indent=1))
        # -- the 10 k selection: search, then stats ----------------------------------------
        d = work / "sel"
        table, T, rng = parquet_rows(sb, args.rows, seed=2)
        write_parts(sb.with_stats(table, sb.stats_blobs(T, rng)), str(d) + "/")
        cat = rumi.Catalog.open(str(d) + "/")
        bb = table.column("bbox").to_pylist()
        w = min(b["xmin"] for b in bb) - 1
        s = min(b["ymin"] for b in bb) - 1
        e = max(b["xmax"] for b in bb) + 1
        n = max(b["ymax"] for b in bb) + 1
        c0 = bb[0]
        cx, cy = (c0["xmin"] + c0["xmax"]) / 2, (c0["ymin"] + c0["ymax"]) / 2
        box4 = (cx - 2, cy - 2, cx + 2, cy + 2)
        res = {}
        for label, kw, st_kw in (("whole files", {"bbox": (w, s, e, n)}, {}),
                                 ("time window (steps level)", {"bbox": (w, s, e, n), "time": ("2020-03-01", "2020-08-31")}, {}),
                                 ("4 x 4 degree box (edge files by cells, exact=False)", {"bbox": box4}, {"exact": False})):
            best = {}
            for rep in range(args.repeat):
                c = rumi.Catalog.open(str(d) + "/")
                r0 = resource.getrusage(resource.RUSAGE_SELF)
                t0 = time.perf_counter()
                sel = c.search(**kw)
                _ = len(sel)
                t1 = time.perf_counter()
                r1 = resource.getrusage(resource.RUSAGE_SELF)
                st = sel.stats(**st_kw)
                t2 = time.perf_counter()
                r2 = resource.getrusage(resource.RUSAGE_SELF)
                cpu = lambda a, b: (b.ru_utime + b.ru_stime) - (a.ru_utime + a.ru_stime)  # noqa: E731
                got = {"rows": len(sel), "search_s": t1 - t0, "search_cpu_s": cpu(r0, r1), "stats_s": t2 - t1,
                       "stats_cpu_s": cpu(r1, r2), "read_files": st.read_files, "mean": st.mean.round(3).tolist()}
                if not best or got["stats_s"] < best["stats_s"]:
                    best = got
            res[label] = best
            print(label, json.dumps(best))
        out["selection"] = res
        del cat
    finally:
        shutil.rmtree(work, ignore_errors=True)


def part2(args, out: dict) -> None:
    """The pixel pass against Catalog.stats on real rumi Cubes."""
    import rumi

    work = Path(tempfile.mkdtemp(prefix="stats_pixels_"))
    try:
        rng = np.random.default_rng(3)
        paths = []
        T, B, S = args.cube
        yy, xx = np.mgrid[0:S, 0:S]
        for i in range(args.files):
            base = (1500 + 800 * np.sin(xx / 37.0 + i) * np.cos(yy / 53.0)).astype(np.float64)
            a = np.empty((T, B, S, S), np.uint16)
            for t in range(T):
                for b in range(B):
                    a[t, b] = np.clip(base * (0.6 + 0.15 * b) + rng.normal(0, 60, (S, S)) + 40 * t, 1, 65535)
            a[:, :, : S // 8, : S // 5] = 0  # a nodata corner
            p = work / f"cube{i}.rumi"
            rumi.write(p, a, bands=["B02", "B03", "B04", "B08"][:B], times=[f"2020-{1 + t % 12:02d}-{1 + t // 12:02d}" for t in range(T)],
                       crs="EPSG:32633", geotransform=(500000.0 + i * S * 10, 10.0, 0.0, 5100000.0, 0.0, -10.0), tile=128, nodata=0)
            paths.append(str(p))
        t0 = time.perf_counter()
        cat = rumi.Catalog.build(paths, work / "c.parquet")
        build_s = time.perf_counter() - t0
        # the pixel pass: every pixel of every file, per band count, sum, sum of squares (float64)
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        n = np.zeros(B)
        s1 = np.zeros(B)
        s2 = np.zeros(B)
        decoded = 0
        for p in paths:
            with rumi.open(p) as ds:
                for t in range(T):
                    a = ds.read(t=[t])[0]
                    decoded += a.nbytes
                    for b in range(B):
                        x = a[b][a[b] != 0].astype(np.float64)
                        n[b] += x.size
                        s1[b] += x.sum()
                        s2[b] += (x * x).sum()
        pass_s = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        mean = s1 / n
        std = np.sqrt(s2 / n - mean**2)
        t0 = time.perf_counter()
        st = cat.stats()
        stats_s = time.perf_counter() - t0
        assert (st.count == n).all(), (st.count, n)
        assert np.all(np.abs(st.mean - mean) <= 1e-6 * mean), (st.mean, mean)
        assert np.all(np.abs(st.std - std) <= 1e-4 * std), (st.std, std)
        rate = decoded / pass_s
        row_bytes = 2048 * 2048 * 4 * 2 * 48  # part 1's mean file: 48 steps of 4 x 2048 x 2048 uint16
        out["pixels"] = {"files": args.files, "cube": args.cube, "decoded_bytes": decoded, "pass_s": pass_s,
                         "pass_cpu_s": (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime),
                         "stats_s": stats_s, "catalogue_build_s": build_s, "decoded_MB_per_s": rate / 1e6,
                         "extrapolated_10k_files_s": 10_000 * row_bytes / rate,
                         "file_bytes_on_disk": sum(os.path.getsize(p) for p in paths)}
        print(json.dumps(out["pixels"], indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--size-rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--cube", type=lambda s: tuple(int(v) for v in s.split("x")), default=(12, 4, 512), help="T x B x side")
    ap.add_argument("--out", default=None, help="results JSON")
    args = ap.parse_args()
    out: dict = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count()}
    part1(args, out)
    part2(args, out)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
