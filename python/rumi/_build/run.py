"""Running a build's plan: each file to build loaded with odc.stac.load (lazily, on the active
dask scheduler) and written with rumi.to_rumi, the manifest updated as each ends, then the
catalogue; rumi.build is plan_build then run_plan."""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import time as _time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .._errors import RumiError
from .._internal import WriteOptions, fits, tile_counts
from . import items as _items
from .cells import whole_second
from .plan import BuildPlan, LoadOptions, PlannedFile, plan_files

#: odc.stac.load's x chunk when chunks= does not give one (pixels); y chunks default to whole
#: blocks of tile rows of about rumi.to_rumi's BLOCK_BYTES, and when one tile row is larger
#: (many dates), to blocks of tiles: see block_chunks (each file's are in the manifest)
DEFAULT_CHUNKS = {"x": 2048}


@dataclass
class BuildReport:
    """What one rumi.build call did (file names relative to dest)."""

    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # cells (tiles) that no item overlaps
    raw_bytes: int = 0  # uncompressed bytes of the files written
    seconds: float = 0.0


class BuildError(RumiError):
    """Some cells failed. .report (BuildReport) lists them with their errors; .catalog is the
    catalogue of the files that were built (None when there are none)."""

    def __init__(self, message: str, report: BuildReport, catalog: Any) -> None:
        super().__init__(message)
        self.report = report
        self.catalog = catalog


# --- one file ---------------------------------------------------------------------------------


def _cube(xx: Any, bands: Sequence[str]) -> tuple[Any, dict[str, str]]:
    """odc.stac.load's Dataset -> a (time, band, Y, X) DataArray (one sample type) and its dims
    by role: Y and X are odc-geo's names for the CRS (y/x, latitude/longitude for a geographic
    one)."""
    dtypes = {b: xx[b].dtype for b in bands}
    if len(set(dtypes.values())) > 1:
        raise ValueError(f"bands have different sample types {{{', '.join(f'{b}: {d}' for b, d in dtypes.items())}}}: give dtype=")
    ydim, xdim = (str(d) for d in xx.odc.spatial_dims)
    da = xx[list(bands)].to_array("band").transpose("time", "band", ydim, xdim)
    return da, {"time": "time", "band": "band", "y": ydim, "x": xdim}


def _per_band(vals: Sequence[Any]) -> Any:
    """Per-band nodata as rumi.to_rumi takes it: None, one value, or one per band."""
    if all(v is None for v in vals):
        return None
    return list(vals) if len(set(map(repr, vals))) > 1 else vals[0]


def block_chunks(
    T: int, B: int, Y: int, X: int, itemsize: int, tile_rows: int, chunks: Mapping[str, Any] | None,
    tile_cols: int | None = None,
) -> tuple[dict[str, Any], int | None]:
    """odc.stac.load's chunks for a cell and the block_bytes for rumi.to_rumi that make each of
    its blocks exactly one row of load chunks: every chunk feeds one block (never loaded twice,
    whatever the scheduler keeps). Default: blocks of whole tile rows of about to_rumi's
    BLOCK_BYTES raw, x chunks of 2048; when one tile row is larger than BLOCK_BYTES (a year of
    dates: 192 x 4 bands x 256 rows x 2048 columns x 2 bytes = 805 MB), blocks of the most whole
    tiles of one tile row that fit (at least one tile, all T and B: 100 MB at T = 192), each one
    load chunk per band ({"time": T, "y": tile_rows, "x": those columns}), so that a block's
    memory does not grow with the cell's width. tile_cols: the tile width (default tile_rows)."""
    from .._internal import BLOCK_BYTES, block_cols

    row_bytes = T * B * X * itemsize
    if not chunks:
        tw = tile_rows if tile_cols is None else tile_cols
        cols = block_cols((T, B, Y, X), itemsize, (tile_rows, tw), BLOCK_BYTES)
        if cols is not None:
            return {"time": T, "x": cols, "y": tile_rows}, T * B * tile_rows * cols * itemsize
    out = dict(chunks or {})
    out.setdefault("x", DEFAULT_CHUNKS["x"])
    if "y" not in out:
        k = max(1, BLOCK_BYTES // max(1, row_bytes * tile_rows))
        out["y"] = min(k, tile_counts((Y, 1), (tile_rows, 1))[0]) * tile_rows
    cy = out["y"]
    if isinstance(cy, int) and cy > 0 and cy % tile_rows == 0:
        return out, row_bytes * cy
    return out, None  # not whole tile rows: to_rumi's own blocks


def _cell_nodata(plan: BuildPlan, xx: Any, ii: Sequence[int] | np.ndarray[Any, Any]) -> list[Any]:
    """Per band, the cell's nodata: odc-stac's (nodata=, raster:bands), else NaN for a
    floating-point output (odc-stac's fill, onto which it maps the files' nodata), else the
    first of the cell's files' own."""
    out: list[Any] = []
    for b in plan.bands:
        v = xx[b].attrs.get("nodata")
        if v is None and xx[b].dtype.kind == "f":
            v = math.nan
        elif v is None:
            hit = next((plan.source_nodata[(i, b)] for i in ii if (i, b) in plan.source_nodata), None)
            if hit is not None:
                if not fits(hit[0], xx[b].dtype):
                    raise _items.unholdable(b, hit[0], hit[1], xx[b].dtype)
                v = hit[0]
        out.append(None if v is None else float(v))
    return out


def build_file(plan: BuildPlan, f: PlannedFile, say: Callable[[str], None]) -> dict[str, Any]:
    """Loads and writes one file of the plan (atomically, with its sidecars); returns its
    manifest entry, with "raw" (its uncompressed bytes) to take out."""
    from .._to_rumi import to_rumi

    odc_stac, _, _ = _items.deps()
    t1 = _time.perf_counter()
    lo, bands, gbox = plan.load, list(plan.bands), f.geobox
    items = plan.items.take(f.items)  # read again from the source (a table: by row group)

    def load(ch: Mapping[str, Any], bands: Sequence[str] = bands, fill: Any = lo.nodata) -> Any:
        return odc_stac.load(
            items, bands=list(bands), geobox=gbox, groupby=lo.groupby, chunks=dict(ch), resampling=lo.resampling,
            dtype=lo.dtype, nodata=fill, fail_on_error=True, stac_cfg=lo.stac_cfg, patch_url=lo.patch_url,
        )

    tile_rows, tile_cols = plan.write.tile_hw
    first = lo.chunks or {"x": DEFAULT_CHUNKS["x"], "y": tile_rows}
    xx = load(first)  # lazy: the time steps and sample type
    itemsize = max(xx[b].dtype.itemsize for b in bands)
    ch, block_bytes = block_chunks(
        xx.sizes["time"], len(bands), gbox.shape[0], gbox.shape[1], itemsize, tile_rows, lo.chunks, tile_cols
    )
    if dict(ch) != dict(first):
        xx = load(ch)
    nds = _cell_nodata(plan, xx, f.items)
    refill: dict[Any, list[str]] = {}  # the files' nodata -> the integer bands odc-stac fills with it
    for b, v in zip(bands, nds):
        if v is not None and xx[b].attrs.get("nodata") is None and xx[b].dtype.kind != "f":
            refill.setdefault(v, []).append(b)
    for v, bs in refill.items():  # lazy loads again: odc-stac fills with v and maps each file's nodata onto it
        again = load(ch, bs, v)
        xx = xx.assign({b: again[b] for b in bs})
    da, dims = _cube(xx, bands)
    if f.times is None:
        times = [whole_second(v) for v in xx["time"].values]
    else:  # each step's group's time (its earliest item may lie outside the cell: not loaded)
        if xx.sizes["time"] != len(f.times):
            raise RuntimeError(f"{f.name}: odc-stac made {xx.sizes['time']} time steps of the file's items, "
                               f"the plan {len(f.times)}")
        times = [np.datetime64(t, "s") for t in f.times]
    write = dataclasses.replace(plan.write, nodata=_per_band(nds))
    # the items' raster:bands scale, offset and unit (one per band: plan.file_scaling), for the
    # .aux.xml sidecar; odc-stac loads raw samples, and rumi keeps them raw. Always given: none
    # is (1, 0, None), never what to_rumi would find in the loaded array's attributes
    sc = f.scaling or (_items.NO_SCALING,) * len(bands)
    # the one place a file is written: block by block of tile rows, one task per block on the
    # active scheduler, atomically with its sidecars (.header; .aux.xml with nodata)
    blob = to_rumi(
        da, plan.dest.url(f.name), dims=dims, bands=[str(b) for b in da["band"].values], times=times,
        crs=f"EPSG:{gbox.crs.epsg}", transform=gbox.affine, block_bytes=block_bytes, write_options=write,
        scales=[v[0] for v in sc], offsets=[v[1] for v in sc], units=[v[2] or None for v in sc],
    )
    size = plan.dest.size(f.name)
    raw = int(np.prod(da.shape)) * da.dtype.itemsize
    say(f"{f.name}: {da.shape} {da.dtype} {raw / 1e6:.1f} MB -> {(size or 0) / 1e6:.1f} MB in {_time.perf_counter() - t1:.1f} s")
    return {
        "fingerprint": f.fingerprint, "size": size, "header_sha256": hashlib.sha256(blob).hexdigest(),
        "items": [it.id for it in items], "shape": list(da.shape), "chunks": dict(ch), "raw": raw,
        "aux": plan.dest.size(f.name + ".aux.xml") is not None,
    }


def _failure(plan: BuildPlan, f: PlannedFile, e: BaseException) -> str:
    """A failed file's message: the error, and its hrefs that GDAL cannot open."""
    msg = f"{type(e).__name__}: {e}"
    try:
        hs = [h for i in f.items for h in plan.index.hrefs(int(i)) if h]
        patch = plan.load.patch_url
        bad = _items.unreachable([patch(h) for h in hs] if patch else hs)
    except (ImportError, OSError, ValueError, RuntimeError):  # a courtesy: never hide the error itself
        bad = []
    if bad:
        msg += f"; unreachable: {', '.join(bad)}"
    return msg


# --- the plan ---------------------------------------------------------------------------------


def run_plan(plan: BuildPlan, *, cells_in_flight: int = 2, progress: Callable[[str], None] | None = None) -> Any:
    """Builds the plan's files to build (see rumi.build), records each in the destination's
    manifest as it ends, and returns the rumi.Catalog of the plan's files (also saved as
    dest/catalog.parquet; .report is a BuildReport). Raises BuildError at the end when files
    failed, ValueError when the plan has no file."""
    t0 = _time.perf_counter()
    report = BuildReport(empty=list(plan.empty))
    say = progress or (lambda s: None)
    manifest = dict(plan.manifest)
    produced: list[str] = []  # files of this build that exist (written or up to date)
    for f in plan.to_skip:
        report.skipped.append(f.name)
        produced.append(f.name)
        say(f"{f.name}: up to date")
    todo = plan.to_build
    made = plan.dest.prepare() if todo else False

    # cells run concurrently from threads of this process: each one's load and write are tasks
    # on the active dask scheduler, so a cluster is kept busy across cells; the manifest is
    # updated here, as each cell ends
    ex = ThreadPoolExecutor(max(1, int(cells_in_flight)))
    futures = {ex.submit(build_file, plan, f, say): f for f in todo}
    try:
        for fut in as_completed(futures):
            f = futures[fut]
            try:
                entry = fut.result()
            except Exception as e:  # every cell is tried; the failures are raised at the end
                report.failed[f.name] = _failure(plan, f, e)
                say(f"{f.name}: FAILED {report.failed[f.name]}")
                continue
            report.raw_bytes += entry.pop("raw")
            manifest[f.name] = entry
            plan.dest.write_manifest(manifest)
            report.written.append(f.name)
            produced.append(f.name)
    except BaseException:  # Ctrl-C, or a bug here: no new cell starts (those running end)
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown()
    order = {f.name: k for k, f in enumerate(todo)}
    report.written.sort(key=order.__getitem__)
    report.failed = dict(sorted(report.failed.items(), key=lambda kv: order[kv[0]]))
    report.stale = sorted(set(manifest) - set(produced))
    cat = None
    if produced:
        if report.failed:
            plan.dest.write_manifest(manifest)
        produced.sort(key=lambda n: order.get(n, -1))
        sizes = {n: manifest[n]["size"] for n in produced if n in manifest}
        cat = plan.dest.catalogue(produced, sizes, classes=plan.classes)
        cat.report = report
    elif made:
        plan.dest.unprepare()
    report.seconds = plan.seconds + _time.perf_counter() - t0
    if report.failed:
        lines = "\n".join(f"  {n}: {m}" for n, m in report.failed.items())
        raise BuildError(f"rumi.build: {len(report.failed)} of {len(report.failed) + len(produced)} files failed:\n{lines}", report, cat)
    if cat is None:
        raise ValueError("rumi.build: no item overlaps any cell (or time range): nothing to build")
    return cat


def build(
    items: Any,
    dest: str | os.PathLike[str],
    *,
    bands: str | Sequence[str],
    crs: Any = None,
    resolution: Any = None,
    tiles: Any = None,
    time: Any = None,
    groupby: Any = "solar_day",
    chunks: Mapping[str, int] | None = None,
    nodata: float | None = None,
    dtype: Any = None,
    resampling: str | Mapping[str, str] | None = None,
    anchor: Any = None,
    tile: int | tuple[int, int] = 256,
    level: int | None = None,
    frame_unit: int | None = None,
    threads: int | None = None,
    graph: str = "auto",
    cells_in_flight: int = 2,
    stac_cfg: Any = None,
    patch_url: Callable[[str], str] | None = None,
    storage_options: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    write_options: WriteOptions | None = None,
    classes: Any = None,
    exact_classes: bool = False,
) -> Any:
    """Builds rumi cubes (T, B, Y, X) from STAC items into dest (a folder or an s3:// prefix), one per cell of tiles
    and range of time (see the module's text), and returns their rumi.Catalog (also saved as
    dest/catalog.parquet; .report is a BuildReport). Re-running skips what is up to date.
    plan_build (rumi._build) with the same arguments says what it would do without loading a pixel;
    run_plan(plan, cells_in_flight=, progress=) does it.

    items: pystac ItemCollection or Items, or a .json/.ndjson/.parquet (stac-geoparquet) file.
    bands: asset keys (or odc-stac aliases). crs ('EPSG:n'), resolution (metres or degrees):
    the output grid, as odc.stac.load takes them (required unless tiles gives the grid).
    groupby, chunks, nodata, dtype, resampling, anchor, stac_cfg, patch_url: odc.stac.load's
    (chunks: y a multiple of the tile height makes each load chunk one block of the writer;
    default: blocks of about 32 MiB raw, x chunks of 2048; the manifest records each file's;
    without nodata= and raster:bands nodata, an integer output takes the source files' own:
    "Nodata" in the module's text).
    tile, level, frame_unit, threads: the rumi files' tile size, OpenZL level, frame layout and
    encoding threads (rumi.to_rumi's; level=0 leaves OpenZL's numeric graph out of the
    candidates: 2.4x the default 7's encode speed and 1.2 % larger files on a Landsat cube, but
    28 % larger on the LANDFIRE fuel classes, where that graph wins: docs/performance.md).
    graph: how frames are coded, as rumi.write's ("auto", "auto:<percent>", "fast": the fastest
    decode for a few percent more bytes, "image", ...; docs/compression.md); a graph other than
    "auto" is part of the files' fingerprints.
    cells_in_flight: files built at once (threads here; their work runs on the dask scheduler).
    storage_options: object-storage options (as rumi.open's options=) for an s3:// dest.
    write_options: instead of tile, level, frame_unit, threads, graph and storage_options, one
    rumi.WriteOptions (its nodata left None: each file's is its load's).
    classes: the bands whose class counts per step and tile the catalogue records (rumi:classes),
    as Catalog.build's classes= (None: integer bands with at most 32 values; False: none; a band
    name, a list of them, or {band: [values]}: rumi.catalog.classes); a declared band that is
    not among bands is a ValueError (nothing written). exact_classes: those counts exact whatever
    their bytes (Catalog.build's).
    progress: called with one line per file. Raises ValueError (nothing written) on bad
    input; BuildError at the end when cells failed."""
    write = WriteOptions.gather(write_options, "rumi.build", {"options": "storage_options"}, tile=tile, level=level,
                                frame_unit=frame_unit, threads=threads, options=storage_options, graph=graph)
    load = LoadOptions(groupby, chunks, nodata, dtype, resampling, stac_cfg, patch_url)
    plan = plan_files(items, dest, bands=bands, crs=crs, resolution=resolution, tiles=tiles, time=time, anchor=anchor,
                      load=load, write=write, classes=classes, exact_classes=exact_classes)
    return run_plan(plan, cells_in_flight=cells_in_flight, progress=progress)
