"""The `rumi-build` console script: STAC items -> rumi cubes and their catalogue (rumi.build)."""

from __future__ import annotations

import sys
from typing import Any, Sequence

from .._errors import RumiError
from .._internal import WriteOptions
from .cells import odc_crs
from .run import BuildError, build


def main(argv: Sequence[str] | None = None) -> int:
    """`rumi-build ITEMS DEST --bands ... --crs ... --resolution ... [--tile-size N] [--time P1M]`."""
    import argparse

    p = argparse.ArgumentParser(
        prog="rumi-build",
        description="STAC items -> rumi cubes (one per grid cell and time range) and their catalogue (DEST/catalog.parquet)",
    )
    p.add_argument("items", help="STAC ItemCollection (.json), items one per line (.ndjson) or stac-geoparquet (.parquet)")
    p.add_argument("dest", help="output folder or s3://bucket/prefix")
    p.add_argument("--bands", nargs="+", required=True, help="asset keys (or aliases) to load, in band order")
    p.add_argument("--crs", required=True, help="output CRS, e.g. EPSG:32633")
    p.add_argument("--resolution", type=float, required=True, help="pixel size in CRS units")
    p.add_argument("--tile-size", type=int, metavar="PIXELS",
                   help="cells of a grid of PIXELS x PIXELS anchored at the CRS origin (default: one cell over the items)")
    p.add_argument("--anchor", choices=["edge", "center"], default="edge",
                   help="pixel edges (default) or pixel centres on multiples of the resolution: centre suits grids "
                        "whose edges sit half a pixel off (Landsat's 15 m), so that no pixel is resampled")
    p.add_argument("--time", help="time ranges: a period P1Y, P1M, P1W, P1D... or START/END (repeat with commas)")
    p.add_argument("--groupby", default="solar_day", help="odc-stac grouping: solar_day (default), time, id or a property")
    p.add_argument("--resampling", help="odc-stac resampling, e.g. nearest (default), bilinear")
    p.add_argument("--dtype", help="output sample type (default: the bands')")
    p.add_argument("--nodata", type=float, help="output nodata (default: the bands')")
    p.add_argument("--chunk", type=int, help="odc-stac load chunks of N x N pixels (default: blocks of tile rows of about 32 MiB)")
    p.add_argument("--tile", type=int, help="rumi tile size (default 256; 128 with --for-training)")
    p.add_argument("--level", type=int, help="OpenZL level of the numeric candidate (default 7; 0: without it, "
                   "the fastest to encode and decode, larger on categorical rasters)")
    p.add_argument("--frame-unit", type=int, help="rumi frame_unit 0..9 (default by shape)")
    p.add_argument("--graph", help="compression graph, as rumi convert's: auto (default), "
                   "auto:<percent>, fast (the fastest decode), image (the smallest), numeric, generic, best")
    p.add_argument("--for-training", action="store_true",
                   help="the layout for a store read by random chips: --graph fast --tile 128 unless given "
                        "(rumi.WriteOptions.training(); docs/compression.md)")  # fmt: skip
    p.add_argument("--classes", nargs="+", metavar="BAND",
                   help="bands whose class counts per step and tile the catalogue records (default: integer bands with "
                        "at most 32 values; 'none': no band), as rumi-catalog build's")  # fmt: skip
    p.add_argument("--exact-classes", action="store_true",
                   help="keep the class counts exact whatever their bytes (default: quantised past 4 KB a band for a "
                        "file of one step, 1,280 bytes for a Cube)")  # fmt: skip
    p.add_argument("--workers", type=int, help="run on a dask LocalCluster of this many worker processes")
    p.add_argument("-q", "--quiet", action="store_true")
    a = p.parse_args(argv)
    preset = WriteOptions.training() if a.for_training else WriteOptions()
    tile = preset.tile if a.tile is None else a.tile
    graph = preset.graph if a.graph is None else a.graph
    tiles = None
    if a.tile_size is not None:
        if a.tile_size < 1:
            p.error("--tile-size must be positive")
        from odc.geo.gridspec import GridSpec

        from odc.geo import XY

        half = a.resolution / 2 if a.anchor == "center" else 0.0
        try:
            tiles = GridSpec(odc_crs(a.crs), (a.tile_size, a.tile_size), a.resolution, origin=XY(half, half))
        except ValueError as e:
            print(f"rumi-build: {e}", file=sys.stderr)
            return 2
    time: Any = None
    if a.time:
        time = a.time if "/" not in a.time else a.time.split(",")
    if a.workers is not None and a.workers < 1:
        p.error("--workers must be positive")
    client = None
    try:
        if a.workers:
            try:
                from dask.distributed import Client, LocalCluster
            except ImportError as e:
                print(f"rumi-build: {_distributed_problem(e)}", file=sys.stderr)
                return 2
            client = Client(LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True))
        say = None if a.quiet else (lambda s: print(s, file=sys.stderr))
        import warnings

        warnings.showwarning = lambda m, *_a, **_k: print(f"rumi-build: warning: {str(m).removeprefix('rumi.build: ')}",
                                                           file=sys.stderr)
        cat = build(
            a.items, a.dest, bands=a.bands, crs=a.crs, resolution=a.resolution, tiles=tiles, time=time,
            groupby=a.groupby, chunks=None if a.chunk is None else {"x": a.chunk, "y": a.chunk}, nodata=a.nodata, dtype=a.dtype,
            resampling=a.resampling, tile=tile, level=a.level, frame_unit=a.frame_unit, graph=graph, progress=say,
            anchor=None if a.anchor == "edge" else a.anchor,
            classes=None if not a.classes else (False if a.classes == ["none"] else a.classes), exact_classes=a.exact_classes,
        )
        r = cat.report
        print(f"{a.dest}: {len(r.written)} written, {len(r.skipped)} up to date, {len(cat)} in {cat.path}")
        return 0
    except BuildError as e:
        print(str(e), file=sys.stderr)
        return 1
    except (ValueError, TypeError, OSError, RumiError) as e:
        print(f"rumi-build: {e}", file=sys.stderr)
        return 2
    finally:
        if client is not None:
            client.close()


def _distributed_problem(e: ImportError) -> str:
    """Why dask.distributed did not import: not installed, or installed and broken (typically a
    distributed release that does not match dask's, which pip once resolved for a bare
    `distributed` requirement)."""
    import importlib.metadata
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        return (f"--workers runs the build on a dask.distributed LocalCluster, and the distributed package is not "
                f"installed ({e}): pip install 'rumi[stac]' (or pip install 'dask[distributed]'), or leave --workers "
                "out to build on dask's threads in this process")

    def version(name: str) -> str:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    return (f"--workers needs dask.distributed, which is installed but broken: import failed with "
            f"{type(e).__name__}: {e} (distributed {version('distributed')}, dask {version('dask')}; the two must be "
            "releases made together): pip install -U 'dask[distributed]', or leave --workers out")
