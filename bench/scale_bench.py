"""Catalogues at scale (issue 40, items 1 and 5): generates realistic partitioned catalogues
(rumi.catalog.parts) of N rows and measures, per N, write, open, a bbox + time search of about
10 k rows, opening one row's blob, and appending 10 k rows; locally and over S3 (moto's server
behind a proxy adding 20 ms per request, requests counted).

    target/py-venv/bin/python bench/scale_bench.py --rows 100000,1000000,10000000
    target/py-venv/bin/python bench/scale_bench.py --quick          # 20 k rows, a minute
    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/scale_bench.py --rows 5000000 --stats --no-s3
        # rows with rumi:stats (~2.5 KB a row of Parquet more: 10 M rows need ~32 GB of disk)
    target/py-venv/bin/python bench/scale_bench.py --only-build     # rumi.build planning, 10 k and 50 k items
    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/scale_bench.py --only-loader   # the chip loader: 1 M files,
        # torchrun at 1, 2, 4 ranks, egress and shuffle quality (bench/scale_loader.py; needs torch)

Rows: one-year Cubes of Sentinel-2-like tiles (2048 x 2048 cells of 10 m, 4 bands, 128 x 128
tiles: 256 tiles a band) on a tiling of the land (20.48 km cells of a global grid whose columns
shrink with cos(latitude), kept where a fixed smooth random field says land: about 29 % of
the globe, ~357 k cells); N rows = min(N / 10, land cells) tiles x the years needed. Each row:
a distinct footprint (the cell rotated by the UTM grid's convergence, 5 vertices), 20 to 76
acquisition times in its year, an EPSG:326xx/327xx CRS, a rumi:valid summary (1 KB, mostly
255), and a header blob of 32 + 0.305 bytes a frame (0.06 MB for T = 192, as the issue
measured; 15 KB for the mean T of 48). The blobs lie beside each part as the format says, in a
sparse file here (a 10 M-row catalogue's blobs are ~150 GB): reading one is measured, their
content is zeros. With --stats each row also has a rumi:stats (stats_blobs' values, from a pool:
StatsPool) and an empty rumi:classes, as cataloguing such files records them; without, both
are null.

Each measurement of open / search runs in a fresh process (RSS added is that process's
resident set after minus before, CPU seconds are user + system of the process, threads
included). The results go to --out/results.json and a Markdown table on stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent  # rumi: the installed package (CI's venv: a wheel), never the source tree

CELL_KM = 20.48
DEG_KM = 111.32
BANDS = ["B02", "B03", "B04", "B08"]
BYTES_PER_FRAME = (0.06e6 - 32) / (192 * 4 * 256)
FIRST_YEAR = 2000


# -- the tiling of the land ----------------------------------------------------------------
def land_field(lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """A fixed smooth random field on the sphere (sums of sinusoids): its highest values are
    'land'."""
    rng = np.random.default_rng(2024)
    f = np.zeros(lon.shape)
    x, y = np.radians(lon), np.radians(lat)
    for _ in range(24):
        kx, ky = rng.integers(1, 7), rng.integers(1, 6)
        f += rng.normal() * np.cos(kx * x + rng.uniform(0, 6.3)) * np.cos(ky * y + rng.uniform(0, 6.3))
    return f - 0.9 * np.abs(lat) / 90 * (np.abs(lat) > 60)


def land_cells() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(centre lon, centre lat, cell width in degrees, field value) of every cell of the grid
    between 60 S and 78 N, sorted by the field, highest first."""
    dlat = CELL_KM / DEG_KM
    lats = np.arange(-60 + dlat / 2, 78, dlat)
    lon_c, lat_c, dlon_c = [], [], []
    for la in lats:
        dlon = dlat / math.cos(math.radians(la))
        n = int(360 // dlon)
        lon_c.append(-180 + (np.arange(n) + 0.5) * (360 / n))
        lat_c.append(np.full(n, la))
        dlon_c.append(np.full(n, 360 / n))
    lon, lat, dlon = np.concatenate(lon_c), np.concatenate(lat_c), np.concatenate(dlon_c)
    f = land_field(lon, lat)
    keep = np.argsort(-f)[: int(0.29 * 510e6 / CELL_KM**2)]
    return lon[keep], lat[keep], dlon[keep], f[keep]


def footprints(lon: np.ndarray, lat: np.ndarray, dlon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(WKB polygons as one bytes buffer of 93-byte records, bbox (n, 4)) of the cells rotated
    by the UTM grid convergence at their centre."""
    n = len(lon)
    dlat = CELL_KM / DEG_KM
    cm = (np.floor((lon + 180) / 6) * 6 - 177)  # the UTM zone's central meridian
    g = np.radians((lon - cm) * np.sin(np.radians(lat)))  # grid convergence
    hx, hy = dlon / 2, np.full(n, dlat / 2)
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)], float)
    xs = lon[:, None] + corners[None, :, 0] * hx[:, None] * np.cos(g)[:, None] - corners[None, :, 1] * hy[:, None] * np.sin(g)[:, None] / np.cos(np.radians(lat))[:, None]
    ys = lat[:, None] + corners[None, :, 0] * hx[:, None] * np.sin(g)[:, None] * np.cos(np.radians(lat))[:, None] + corners[None, :, 1] * hy[:, None] * np.cos(g)[:, None]
    rec = np.zeros(n, np.dtype([("bo", "u1"), ("ty", "<u4"), ("nr", "<u4"), ("np", "<u4"), ("xy", "<f8", (10,))], align=False))
    rec["bo"], rec["ty"], rec["nr"], rec["np"] = 1, 3, 1, 5
    rec["xy"][:, 0::2], rec["xy"][:, 1::2] = xs, ys
    bbox = np.stack([xs.min(1), ys.min(1), xs.max(1), ys.max(1)], 1)
    return rec, bbox


def utm_origins(tiles: "Tiles", idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(x0, y0) of the tiles' grids: the top-left corner of a 20.48 km square centred on each
    cell's centre in its UTM zone (the grid a search tests; the stored footprint is its rotated
    cell, close to it)."""
    import pyproj

    x, y = np.zeros(len(idx)), np.zeros(len(idx))
    codes = tiles.code[idx]
    for c in np.unique(codes):
        k = codes == c
        t = pyproj.Transformer.from_crs("EPSG:4326", f"EPSG:{c}", always_xy=True)
        x[k], y[k] = t.transform(tiles.lon[idx][k], tiles.lat[idx][k])
    half = CELL_KM * 500.0
    return x - half, y + half


class Tiles:
    def __init__(self, n: int) -> None:
        lon, lat, dlon, _ = land_cells()
        if n > len(lon):
            raise SystemExit(f"{n} tiles asked, the land holds {len(lon)}")
        self.lon, self.lat, self.dlon = lon[:n], lat[:n], dlon[:n]
        self.wkb, self.bbox = footprints(self.lon, self.lat, self.dlon)
        zone = np.floor((self.lon + 180) / 6).astype(int) + 1
        self.code = np.where(self.lat >= 0, 32600, 32700) + zone
        self.n = n


def year_table(tiles: Tiles, idx: np.ndarray, year: int, rng: np.random.Generator, stats: "StatsPool | None" = None):
    """The catalogue rows (part schema: blobs beside, their offsets and sizes given) of the
    tiles idx for one year; also each row's blob size. stats: rumi:stats values from this pool
    and rumi:classes an empty list (what cataloguing these files records: they have no
    categorical band); None: both null (a catalogue built without them)."""
    import pyarrow as pa

    n = len(idx)
    ts = pa.timestamp("us", tz="UTC")
    T = rng.integers(20, 77, n)
    off = np.zeros(n + 1, np.int64)
    np.cumsum(T, out=off[1:])
    y0 = np.datetime64(f"{year}-01-01", "s").astype(np.int64)
    days = rng.integers(0, 365, off[-1])
    # sorted days within each row: sort by (row, day)
    row_of = np.repeat(np.arange(n), T)
    order = np.lexsort((days, row_of))
    secs = y0 + days[order] * 86400 + 37800 + (row_of % 600)  # ~10:30 UTC
    times = pa.ListArray.from_arrays(pa.array(off.astype(np.int32)), pa.array(secs * 1_000_000, ts))
    start = secs[off[:-1]] * 1_000_000
    end = secs[off[1:] - 1] * 1_000_000
    codes = np.array([f"EPSG:{c}" for c in tiles.code[idx]], object)
    # the cell's UTM grid: 20.48 km around the cell's centre in its zone (searches decide on it)
    x0, y0_ = utm_origins(tiles, idx)
    tr = np.stack([np.full(n, 10.0), np.zeros(n), x0, np.zeros(n), np.full(n, -10.0), y0_], 1).ravel()
    hrefs = pa.array([f"s3://cubes/s2/{year}/T{t:06d}.rumi" for t in idx])
    shape = np.stack([T, np.full(n, 4), np.full(n, 2048), np.full(n, 2048)], 1).ravel()
    valid = np.full(n * 1024, 255, np.uint8)
    valid[rng.integers(0, n * 1024, n * 51)] = rng.integers(0, 255, n * 51, dtype=np.uint8)  # ~5 % of tiles with nodata
    blob = (32 + T * 4 * 256 * BYTES_PER_FRAME).astype(np.int64)
    boff = np.zeros(n, np.int64)
    np.cumsum(blob[:-1], out=boff[1:])
    table = part_rows(tiles, idx, year=year, hrefs=hrefs, times=times, start=start, end=end, codes=codes, transforms=tr,
                      shapes=shape, tile=128, file_sizes=T * 4 * 256 * 40_000 + blob, valid=valid,
                      header_offsets=boff, header_sizes=blob)
    if stats is not None:
        table = with_stats(table, stats.take(T, rng))
        i = table.schema.get_field_index("rumi:classes")
        table = table.set_column(i, table.schema.field(i), pa.array([[]] * n, table.schema.field(i).type))
    return table, int(blob.sum())


def stats_blobs(T: np.ndarray, rng: np.random.Generator, bands: int = 4, side: int = 2048) -> list[bytes]:
    """rumi:stats values (rumi.catalog.stats.encode_stats) of rows of T steps: 4 bands of
    Sentinel-2-like uint16 reflectance (2048 x 2048, tiles of 128), steps (B, T) and 4 x 4 cells
    (B, 4, 4), each piece drawn independently: 5 % with missing samples, means 200-3000, stds
    50-800 (float32 m2), integer sums, minima 0-200, maxima 3000-20000."""
    from rumi.catalog.stats import Pieces, encode_stats

    out = []
    for t in T.tolist():
        levels = []
        for shape, px in (((bands, t), side * side), ((bands, 4, 4), (side // 4) ** 2 * t)):
            n = np.full(shape, px, np.int64)
            holes = rng.random(shape) < 0.05
            n[holes] -= rng.integers(1, px, holes.sum())
            mean = rng.uniform(200, 3000, shape)
            std = rng.uniform(50, 800, shape)
            levels.append(Pieces(n, np.round(mean * n), (std**2 * n).astype(np.float32).astype(np.float64),
                                 rng.integers(0, 200, shape).astype(np.float64), rng.integers(3000, 20000, shape).astype(np.float64)))
        out.append(encode_stats((t, bands, side, side), (side // 16, side // 16), 4, 4, levels[0], levels[1]))
    return out


def with_stats(table, blobs):
    """table with its rumi:stats column set to blobs."""
    import pyarrow as pa

    i = table.schema.get_field_index("rumi:stats")
    return table.set_column(i, table.schema.field(i), pa.array(blobs, pa.binary()))


class StatsPool:
    """stats_blobs' values drawn once, `per` for each T of 20-76, then taken at random for each
    row of that T: catalogues of millions of rows without encoding each row's (0.3 ms a row).
    With 2,000 a T a value recurs within a Parquet page rarely, so zstd gains little from it."""

    def __init__(self, per: int = 2000, seed: int = 11) -> None:
        rng = np.random.default_rng(seed)
        self.pool = {t: stats_blobs(np.full(per, t), rng) for t in range(20, 77)}
        self.per = per

    def take(self, T: np.ndarray, rng: np.random.Generator) -> list[bytes]:
        pick = rng.integers(0, self.per, len(T))
        return [self.pool[t][j] for t, j in zip(T.tolist(), pick.tolist())]


def part_rows(tiles: Tiles, idx: np.ndarray, *, year: int, hrefs, times, start: np.ndarray, end: np.ndarray,
              codes: np.ndarray, transforms: np.ndarray, shapes: np.ndarray, tile: int, file_sizes: np.ndarray,
              valid: np.ndarray, header_offsets: np.ndarray, header_sizes: np.ndarray):
    """Catalogue rows (part schema) of the tiles idx in one year around their per-row values
    (hrefs, times and start/end in microseconds, CRS codes, flat transforms and (T, B, Y, X)
    shapes, file sizes, validity bytes, blob offsets and sizes); the rest is what every scale
    bench shares: footprints, assets, four uint16 bands of instants, nodata 0. Used by this
    bench and bench/scale_loader.py."""
    import pyarrow as pa

    from rumi.catalog.columns import OPTIONAL_COLUMNS
    from rumi.catalog.parts import part_schema

    n = len(idx)
    ts = pa.timestamp("us", tz="UTC")
    geom = pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer((np.arange(n + 1) * 93).astype(np.int32)), pa.py_buffer(tiles.wkb[idx].tobytes())])
    bb = tiles.bbox[idx]
    bbox = pa.StructArray.from_arrays([pa.array(bb[:, k]) for k in range(4)], ["xmin", "ymin", "xmax", "ymax"])
    two = pa.array((np.arange(n + 1) * 2).astype(np.int32))
    four = pa.array((np.arange(n + 1) * 4).astype(np.int32))
    six = pa.array((np.arange(n + 1) * 6).astype(np.int32))
    assets = pa.StructArray.from_arrays(
        [pa.StructArray.from_arrays([hrefs, pa.array(np.full(n, "application/x-rumi", object)),
                                     pa.ListArray.from_arrays(pa.array(np.arange(n + 1, dtype=np.int32)), pa.array(np.full(n, "data", object)))],
                                    ["href", "type", "roles"])], ["data"])
    shapes = np.asarray(shapes, np.int64)
    per_row = len(valid) // n if n else 0  # validity bytes a row
    cols = {
        "id": pa.array([f"T{t:06d}_{year}" for t in idx]),
        "datetime": pa.nulls(n, ts),
        "start_datetime": pa.array(start, ts),
        "end_datetime": pa.array(end, ts),
        "geometry": geom,
        "bbox": bbox,
        "proj:code": pa.array(codes, pa.string()),
        "proj:transform": pa.ListArray.from_arrays(six, pa.array(transforms)),
        "proj:shape": pa.ListArray.from_arrays(two, pa.array(shapes.reshape(n, 4)[:, 2:].ravel())),
        "assets": assets,
        "location": hrefs,
        "rumi:bands": pa.ListArray.from_arrays(four, pa.array(np.tile(np.array(BANDS, object), n), pa.string())),
        "rumi:time_kind": pa.array(np.full(n, "instant", object), pa.string()),
        "rumi:times": times,
        "rumi:time_ends": pa.nulls(n, pa.list_(ts)),
        "rumi:dtype": pa.array(np.full(n, "uint16", object), pa.string()),
        "rumi:shape": pa.ListArray.from_arrays(four, pa.array(shapes)),
        "rumi:frame_unit": pa.array(np.ones(n, np.int32)),
        "rumi:tile_shape": pa.ListArray.from_arrays(two, pa.array(np.full(2 * n, tile, np.int32))),
        "rumi:file_size": pa.array(np.asarray(file_sizes, np.int64)),
        "rumi:crs_type": pa.array(np.full(n, "projected", object), pa.string()),
        "rumi:nodata": pa.ListArray.from_arrays(four, pa.array(np.zeros(4 * n))),
        "rumi:valid": pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer((np.arange(n + 1) * per_row).astype(np.int32)), pa.py_buffer(valid.tobytes())]),
        "rumi:scales": pa.array([[]] * n, pa.list_(pa.float64())),  # recorded: none
        "rumi:offsets": pa.array([[]] * n, pa.list_(pa.float64())),
        "rumi:units": pa.array([[]] * n, pa.list_(pa.string())),
        "rumi:header_offset": pa.array(np.asarray(header_offsets, np.int64)),
        "rumi:header_size": pa.array(np.asarray(header_sizes, np.int64)),
    }
    sch = part_schema()
    # a column of the catalogue's schema this bench has no value for: null where the catalogue
    # allows it (OPTIONAL_COLUMNS: rows written before it), else an error naming it
    missing = [f.name for f in sch if f.name not in cols and f.name not in OPTIONAL_COLUMNS]
    if missing:
        raise KeyError(f"part_rows has no values for the catalogue's columns {missing}")
    return pa.Table.from_arrays([cols[f.name] if f.name in cols else pa.nulls(n, f.type) for f in sch], schema=sch)


def plan(rows: int) -> tuple[int, int]:
    """(tiles, years) for a catalogue of about `rows` rows."""
    land = int(0.29 * 510e6 / CELL_KM**2)
    tiles = min(max(1, rows // 10), land)
    return tiles, math.ceil(rows / tiles)


def sparse_headers(parts: list[str], total: int) -> None:
    """The blobs beside each part: a sparse file of their total size (content zeros)."""
    for p in parts:
        with open(p[: -len(".parquet")] + ".headers", "wb") as f:
            f.truncate(total)


def write_catalogue(folder: Path, rows: int, seed: int = 0, stats: StatsPool | None = None) -> dict:
    from rumi.catalog import write_parts

    tiles_n, years = plan(rows)
    t0 = time.perf_counter()
    tiles = Tiles(tiles_n)
    gen = write = 0.0
    done = 0
    rng = np.random.default_rng(seed)
    cpu0 = os.times()
    for k in range(years):
        n = min(tiles_n, rows - done)
        a = time.perf_counter()
        table, blob_total = year_table(tiles, np.arange(n), FIRST_YEAR + k, rng, stats)
        b = time.perf_counter()
        parts = write_parts(table, str(folder))
        sparse_headers(parts, blob_total)
        write += time.perf_counter() - b
        gen += b - a
        done += n
        del table
    cpu1 = os.times()
    # the catalogue's Parquet: the parts and the .lazy files beside them (rumi:stats, rumi:classes)
    lazy = sum(p.stat().st_size for p in folder.glob("*.lazy"))
    size = sum(p.stat().st_size for p in folder.glob("*.parquet")) + lazy
    blobs = sum(p.stat().st_size for p in folder.glob("*.headers"))
    return {"rows": done, "tiles": tiles_n, "years": years, "gen_s": gen, "write_s": write, "stats": stats is not None,
            "write_cpu_s": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system), "parquet_bytes": size, "lazy_bytes": lazy,
            "blob_bytes_sparse": blobs, "parts": len(list(folder.glob("*.parquet"))), "total_s": time.perf_counter() - t0}


def query_for(rows: int, want: int = 10_000) -> dict:
    """A bbox around the `want` tiles nearest a land tile and one year: ~want rows."""
    tiles_n, years = plan(rows)
    lon, lat, _, _ = land_cells()
    lon, lat = lon[:tiles_n], lat[:tiles_n]
    c = np.argsort(lon * 0.7 + lat)[len(lon) // 3]  # a fixed tile among those kept
    d = ((lon - lon[c]) * np.cos(np.radians(lat[c]))) ** 2 + (lat - lat[c]) ** 2
    near = np.argsort(d)[: min(want, tiles_n)]
    box = (float(lon[near].min()), float(lat[near].min()), float(lon[near].max()), float(lat[near].max()))
    year = FIRST_YEAR + years // 2
    return {"bbox": box, "time": (f"{year}-01-01", f"{year}-12-31")}


# -- measured in a fresh process -------------------------------------------------------------
CHILD = r"""
import json, os, sys, time, resource
sys.path.insert(0, {bench!r})
import psutil, numpy, pyarrow, pyarrow.dataset, pyarrow.parquet, shapely, pyproj
proc = psutil.Process()
def rss(): return proc.memory_info().rss
def cpu():
    t = os.times(); return t.user + t.system
proxy = None
if {s3!r}:
    from delay_proxy import DelayProxy
    proxy = DelayProxy({moto_port!r}, delay={delay!r})
    os.environ.update(AWS_ENDPOINT_URL=f"http://127.0.0.1:{{proxy.port}}", AWS_ACCESS_KEY_ID="test",
                      AWS_SECRET_ACCESS_KEY="test", AWS_REGION="us-east-1", AWS_ALLOW_HTTP="true")
def reqs(): return proxy.requests if proxy else 0
def rchar():  # bytes the process read through system calls (Linux; page cache included)
    try:
        return next(int(l.split()[1]) for l in open("/proc/self/io") if l.startswith("rchar"))
    except OSError:
        return 0
from rumi.catalog import Catalog
import rumi.catalog.parts, rumi.catalog.search, rumi.catalog.stores, rumi.catalog.table
out = {{}}
r0, c0, t0, q0 = rss(), cpu(), time.perf_counter(), reqs()
cat = Catalog.open({url!r})
out["open_s"], out["open_cpu_s"], out["open_rss_mb"], out["open_requests"] = time.perf_counter() - t0, cpu() - c0, (rss() - r0) / 1e6, reqs() - q0
out["rows"], out["groups"] = len(cat), cat.num_groups
q = json.loads({query!r})
for k in ("first", "again"):
    r1, c1, t1, q1, g1, b1 = rss(), cpu(), time.perf_counter(), reqs(), cat.groups_read, rchar()
    sel = cat.search(bbox=q["bbox"], time=tuple(q["time"]))
    n = len(sel)
    out[k] = dict(search_s=time.perf_counter() - t1, search_cpu_s=cpu() - c1, search_rss_mb=(rss() - r1) / 1e6,
                  search_requests=reqs() - q1, groups_read=cat.groups_read - g1, selected=n, read_mb=(rchar() - b1) / 1e6)
    if k == "first":
        del sel
# the process's own peak (VmHWM: ru_maxrss would count the parent's, kept across exec)
out["peak_rss_mb"] = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1e3
out["base_rss_mb"] = r0 / 1e6
if {blob!r}:
    t2 = time.perf_counter()
    row = sel.row(0)  # the first converts the selection's rows to Python (Catalog.ROWS_CACHED)
    t3 = time.perf_counter()
    row = sel.row(1)
    out["first_row_s"], out["row_blob_s"], out["row_blob_bytes"] = t3 - t2, time.perf_counter() - t3, len(row["rumi:header"] or b"")
print("RESULT " + json.dumps(out))
"""


def measure(url: str, query: dict, *, s3: bool = False, moto_port: int = 0, delay: float = 0.0, blob: bool = True) -> dict:
    code = CHILD.format(bench=str(HERE), s3=s3, moto_port=moto_port, delay=delay, url=url,
                        query=json.dumps(query), blob=blob)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=3600)
    if r.returncode:
        raise SystemExit(f"measuring {url} failed:\n{r.stderr[-3000:]}")
    line = [x for x in r.stdout.splitlines() if x.startswith("RESULT ")][-1]
    return json.loads(line[7:])


def snapshot(folder: Path) -> dict:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns, p.stat().st_ino) for p in folder.iterdir()}


def append(folder: Path, rows: int, stats: StatsPool | None = None) -> dict:
    """Appends 10 k rows (10 k tiles, the year after the last) to the catalogue: the time of
    Catalog.open + append, and that no file there changed."""
    from rumi.catalog import Catalog

    tiles_n, years = plan(rows)
    n = min(10_000, tiles_n)
    tiles = Tiles(tiles_n)
    table, total = year_table(tiles, np.arange(n), FIRST_YEAR + years, np.random.default_rng(9), stats)
    before = snapshot(folder)
    t0 = time.perf_counter()
    cat = Catalog.open(str(folder))
    t1 = time.perf_counter()
    cat2 = cat.append(table)
    t2 = time.perf_counter()
    sparse_headers([str(folder / p) for p in set(cat2._parts.names) - set(cat._parts.names)], total)
    after = snapshot(folder)
    unchanged = all(after.get(k) == v for k, v in before.items())
    new = sorted(set(after) - set(before))
    return {"append_rows": n, "append_open_s": t1 - t0, "append_s": t2 - t1, "existing_unchanged": unchanged,
            "new_files": new, "rows_after": len(cat2)}


# -- S3 ---------------------------------------------------------------------------------------
class Moto:
    def __init__(self, workdir: Path) -> None:
        import socket

        exe = shutil.which("moto_server") or str(Path(sys.executable).parent / "moto_server")
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.log = open(workdir / "moto.log", "w")
        self.proc = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(self.port)], stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def upload(self, folder: Path, bucket: str, prefix: str) -> float:
        import boto3

        s3 = boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
        s3.create_bucket(Bucket=bucket)
        t = time.perf_counter()
        for p in sorted(folder.glob("*.parquet")):
            s3.put_object(Bucket=bucket, Key=f"{prefix}/{p.name}", Body=p.read_bytes())
        return time.perf_counter() - t

    def range_ms(self, folder: Path, bucket: str, prefix: str) -> float:
        """The median time of a 1-byte range GET of the largest part, straight to moto (no
        added delay): moto's own cost of a request (it reads the object to serve a range)."""
        import boto3

        s3 = boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
        big = max(folder.glob("*.parquet"), key=lambda p: p.stat().st_size)
        ts = []
        for _ in range(5):
            t = time.perf_counter()
            s3.get_object(Bucket=bucket, Key=f"{prefix}/{big.name}", Range="bytes=0-0")["Body"].read()
            ts.append(time.perf_counter() - t)
        return float(np.median(ts)) * 1e3

    def delete(self, bucket: str, prefix: str) -> None:
        import boto3

        s3 = boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/"):
            for o in page.get("Contents", []):
                s3.delete_object(Bucket=bucket, Key=o["Key"])

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


# -- report -----------------------------------------------------------------------------------
def table_md(results: list[dict]) -> str:
    head = ("| rows | parts | row groups | write (s, CPU s) | parquet MB | open (s, CPU s) | open RSS MB | search (s, CPU s) | "
            "again (s) | search RSS MB | peak RSS MB (base) | selected | groups read / total | first row, next row (ms) | append 10 k (s) | unchanged |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in results:
        L, w, a = r["local"], r["write"], r.get("append", {})
        f = L["first"]
        lines.append(
            f"| {w['rows']:,} | {w['parts']} | {L['groups']:,} | {w['write_s']:.1f}, {w['write_cpu_s']:.1f} | {w['parquet_bytes'] / 1e6:,.0f} | "
            f"{L['open_s']:.2f}, {L['open_cpu_s']:.2f} | {L['open_rss_mb']:.0f} | {f['search_s']:.3f}, {f['search_cpu_s']:.2f} | "
            f"{L['again']['search_s']:.3f} | {f['search_rss_mb']:.0f} | {L['peak_rss_mb']:.0f} ({L['base_rss_mb']:.0f}) | {f['selected']:,} | {f['groups_read']} / {L['groups']:,} | "
            f"{L.get('first_row_s', 0) * 1e3:.0f}, {L.get('row_blob_s', 0) * 1e3:.2f} | {a.get('append_s', float('nan')):.2f} | {a.get('existing_unchanged', '')} |")
    s3 = [r for r in results if "s3" in r]
    if s3:
        lines += ["", "| rows | S3 open (s, CPU s) | open requests | search (s, CPU s) | search requests | again (s) | again requests | search RSS MB | selected | moto's own ms a range |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for r in s3:
            S = r["s3"]
            f, g = S["first"], S["again"]
            lines.append(f"| {S['rows']:,} | {S['open_s']:.2f}, {S['open_cpu_s']:.2f} | {S['open_requests']} | {f['search_s']:.3f}, {f['search_cpu_s']:.2f} | "
                         f"{f['search_requests']} | {g['search_s']:.3f} | {g['search_requests']} | {f['search_rss_mb']:.0f} | {f['selected']:,} | "
                         f"{r.get('moto_range_ms', float('nan')):.1f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="100000,1000000,10000000", help="catalogue sizes, comma-separated")
    ap.add_argument("--quick", action="store_true", help="one catalogue of 20 k rows (CI size)")
    ap.add_argument("--out", default="/tmp/rumi-scale", help="where catalogues and results.json go")
    ap.add_argument("--no-s3", action="store_true", help="skip the S3 (moto) measurements")
    ap.add_argument("--s3-max-rows", type=int, default=10_000_000, help="largest catalogue also measured over S3")
    ap.add_argument("--delay", type=float, default=0.02, help="seconds added per S3 request")
    ap.add_argument("--keep", action="store_true", help="keep the catalogues")
    ap.add_argument("--stats", action="store_true", help="rows with rumi:stats (StatsPool's values) and rumi:classes "
                    "(an empty list), as cataloguing the files records them; else both null")
    ap.add_argument("--loader", action="store_true", help="also the loader half (bench/scale_loader.py; needs torch)")
    ap.add_argument("--only-loader", action="store_true", help="only the loader half")
    ap.add_argument("--loader-rows", type=int, default=1_000_000, help="files the loader half's ChipDataset selects")
    ap.add_argument("--ranks", default="1,2,4", help="world sizes run with torchrun (gloo)")
    ap.add_argument("--build", action="store_true", help="also rumi.build's planning over stac-geoparquet tables "
                    "(bench/build_bench.py --plan)")
    ap.add_argument("--only-build", action="store_true", help="only the build planning")
    ap.add_argument("--build-items", default="10000,50000", help="items of the build tables, comma-separated")
    a = ap.parse_args()
    sizes = [20_000] if a.quick else [int(x) for x in a.rows.split(",")]
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.loader or a.only_loader:
        rows = 20_000 if a.quick else a.loader_rows
        loader_half(out, rows, tuple(int(x) for x in a.ranks.split(",")), keep=a.keep)
        if a.only_loader:
            return
    if a.build or a.only_build:
        build_part(out, "10000" if a.quick else a.build_items)
        if a.only_build:
            return
    results = []
    moto = None if a.no_s3 else Moto(out)
    try:
        for n in sizes:
            folder = out / f"cat-{n}"
            shutil.rmtree(folder, ignore_errors=True)
            print(f"[{n:,} rows] writing ...", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            pool = StatsPool() if a.stats else None
            r: dict = {"stats_pool_s": time.perf_counter() - t0}
            r["write"] = write_catalogue(folder, n, stats=pool)
            q = query_for(n)
            r["query"] = q
            print(f"[{n:,} rows] measuring locally ...", file=sys.stderr, flush=True)
            r["local"] = measure(str(folder), q)
            if moto is not None and n <= a.s3_max_rows:
                print(f"[{n:,} rows] uploading to moto ...", file=sys.stderr, flush=True)
                r["s3_upload_s"] = moto.upload(folder, "scale", f"cat-{n}")
                r["moto_range_ms"] = moto.range_ms(folder, "scale", f"cat-{n}")
                r["s3"] = measure(f"s3://scale/cat-{n}/", q, s3=True, moto_port=moto.port, delay=a.delay, blob=False)
                moto.delete("scale", f"cat-{n}")
            print(f"[{n:,} rows] appending ...", file=sys.stderr, flush=True)
            r["append"] = append(folder, n, pool)
            results.append(r)
            (out / "results.json").write_text(json.dumps(results, indent=1))
            print(json.dumps(r), file=sys.stderr, flush=True)
            if not a.keep:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        if moto is not None:
            moto.stop()
    print(table_md(results))


def build_part(out: Path, items: str) -> None:
    """Issue 40, item 4: rumi.plan_build over generated Sentinel-2 L2A-like stac-geoparquet
    tables of `items` rows, each plan in a fresh process (bench/build_bench.py --plan: wall,
    CPU, peak RSS); build.json and a table."""
    import types

    import build_bench

    print(f"[build] plan_build over tables of {items} items ...", file=sys.stderr, flush=True)
    build_bench.run_plan(types.SimpleNamespace(
        plan_work=str(out / "build"), items=items, period="P1Y", rumi_path=[], skip_this=False, limit=3600.0,
        tracemalloc=False, json=str(out / "build.json")))


def loader_half(out: Path, rows: int, worlds: tuple[int, ...], keep: bool = False) -> None:
    """The loader half (bench/scale_loader.py): a ChipDataset over `rows` files in one process
    (0 and 2 workers), ranks under torchrun, egress and shuffle quality; loader.json and tables."""
    import scale_loader as sl

    py = sl.torch_python()
    work = out / "loader"
    work.mkdir(parents=True, exist_ok=True)
    print(f"[loader] real files, a catalogue of {rows:,} rows ...", file=sys.stderr, flush=True)
    real = sl.write_real(work / "real", sl.EGRESS_FILES)
    folder = work / f"chips-{rows}"
    shutil.rmtree(folder, ignore_errors=True)
    res: dict = {"write": sl.write_chip_catalogue(folder, rows, real[:sl.REAL]), "imports": sl.imports_baseline(py)}
    url = str(folder) + "/"
    runs = [("0 workers", dict(workers=0)), ("0 workers, no streams", dict(workers=0, streams=None)),
            ("2 workers (fork)", dict(workers=2, method="fork")),
            ("2 workers (fork), 64 x 64 chips", dict(workers=2, method="fork", size=64)),
            ("2 workers (spawn), 64 x 64 chips", dict(workers=2, method="spawn", size=64))]
    res["one"] = {}
    for name, kw in runs:
        print(f"[loader] ChipDataset, {name} ...", file=sys.stderr, flush=True)
        res["one"][name] = sl.measure_dataset(py, url, **kw)
    print(f"[loader] torchrun at {worlds} ranks ...", file=sys.stderr, flush=True)
    res["ranks"] = sl.measure_ranks(py, url, work, worlds)
    print("[loader] egress and shuffle quality ...", file=sys.stderr, flush=True)
    res["egress"] = sl.measure_egress(py, work, real)
    (out / "loader.json").write_text(json.dumps(res, indent=1))
    print(loader_md(res))
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)


def loader_md(res: dict) -> str:
    """The loader half's tables (Markdown)."""
    imp = res["imports"]
    w = res["write"]
    lines = [f"ChipDataset over {w['rows']:,} files ({w['parts']} parts, {w['parquet_mb']:.0f} MB of Parquet); "
             f"imports: {imp['imports_rss_mb']:.0f} MB RSS ({imp['imports_uss_mb']:.0f} MB USS), of which torch {imp['torch_rss_mb']:.0f} MB", "",
             "| run | plan (s, CPU s) | groups read | index in a folder | plan RSS MB | first batch (s, CPU s) | batch MB | next batch (s) | RSS MB (added) | peak MB | worker USS MB (after 10 batches) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in res["one"].items():
        uss = ", ".join(f"{a:.0f} ({b:.0f})" for a, b in zip(r.get("worker_uss_mb", []), r.get("worker_uss_after_10_mb", []))) or "-"
        lines.append(f"| {name} | {r['plan_s']:.1f}, {r['plan_cpu_s']:.1f} | {r['groups_read']} / {r['groups']} | {r['spilled']} | "
                     f"{r['plan_rss_mb']:.0f} | {r['first_batch_s']:.1f}, {r['first_cpu_s']:.1f} | {r['batch_mb']:.0f} | {r['next_batch_s']:.2f} | "
                     f"{r['rss_mb']:.0f} ({r['added_rss_mb']:.0f}) | {r['peak_rss_mb']:.0f} | {uss} |")
    lines += ["", "| ranks | rank | files planned | shards / all | row groups read | plan (s) | first batch (s) | RSS MB (added) | CPU s | "
              "batches' files in own shards | same order | resume exact |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for wsz, x in sorted((k, v) for k, v in res["ranks"].items() if k != "checks"):
        c = res["ranks"]["checks"][wsz]
        for q in x["ranks"]:
            lines.append(f"| {wsz} | {q['rank']} | {q['files']:,} | {q['shards']} / {q['num_shards']} | {q['groups_read']} / {q['groups']} | "
                         f"{q['plan_s']:.1f} | {q['first_batch_s']:.1f} | {q['rss_mb']:.0f} ({q['added_rss_mb']:.0f}) | {q['cpu_s']:.1f} | "
                         f"{c['batch_shards_own']} | {c['same_order']} ({c['compared']} keys) | {c.get('resume_exact', '-')} |")
    e = res["egress"]
    lines += ["", f"Egress: {e['epoch']:,} chips of 192 x 192 (stride 160) over 64 files, cache 128 MB a process, "
              f"{e['distinct_frame_bytes'] / 1e6:.0f} MB of distinct frames", "",
              "| order | ranks | bytes fetched (MB) | fetched / distinct | read (s) |", "|---|---|---|---|---|"]
    for k in ("full-1", "full-2", "streams-1", "streams-2"):
        order, ranks = k.split("-")
        lines.append(f"| {'full permutation' if order == 'full' else 'streams=4, blocks of 1 file'} | {ranks} | "
                     f"{e[k]['fetched'] / 1e6:.0f} | {e[k]['egress']:.2f} | {e['read_s'][k]:.1f} |")
    q = e["quality"]
    lines += ["", f"Shuffle quality (windows of 256 global keys, against a full permutation of the same keys): "
              f"{q['files_per_window']:.1f} distinct files a window ({q['files_per_window_full']:.1f} for the full permutation, "
              f"{q['files_ratio']:.2f} of it); mean distance between a window's files {q['spread_ratio']:.2f} of the full permutation's"]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
