"""rumi.build: STAC items -> rumi cubes, one per cell of a tiling and time range, and their
catalogue. The `rumi-build` console script is main() (cli.py).

    cat = rumi.build(items, "out/", bands=["red", "nir"], crs="EPSG:32633", resolution=10,
                     tiles=GridSpec("EPSG:32633", (2048, 2048), 10), time="P1M")

odc-stac (`odc.stac.load`) does every reprojection, resampling and mosaic: a cell is exactly what
`odc.stac.load(items, bands=..., geobox=<the cell's GeoBox>, groupby=...)` gives for its time
steps. Needs `pip install 'rumi[stac]'` (odc-stac, odc-geo, pystac; stac-geoparquet for .parquet
item files; geopandas for footprint tilings; pyarrow, shapely for the catalogue).

Plan, then run
    plan_build(items, dest, ...) decides every file from the items and the destination's manifest
    without loading a pixel (plan.py: a BuildPlan, printable); run_plan(plan) loads and writes
    them (run.py); build(...) is both. The modules by job: items.py (the STAC items and what
    odc-stac makes of them), index.py (one compact row per item, what planning reads of them: a
    stac-geoparquet table read by record batches; the items read again by index when a file is
    built), cells.py (cells, time ranges), destination.py (the destination, its manifest, the
    catalogue), plan.py (the plan; odc-stac's grouping into time steps), run.py, cli.py.
    Planning grows with the items and the files, not their product: 10 k Sentinel-2 items over
    a year plan in about 5 s and 0.4 GB, 50 k in 15 s and 0.55 GB (docs/scaling.md).

Cells
    tiles=None: one cell, the GeoBox odc.stac.load picks for all items at crs/resolution (anchor=).
    tiles=GridSpec: the grid's tiles that the items' footprints overlap, named "x{ix}_y{iy}".
    tiles=GeoboxTiles: its tiles that the footprints overlap, named "r{row}_c{col}".
    tiles=GeoBox: one cell with exactly that grid, named "cell".
    tiles=GeoDataFrame: one cell per footprint, the GeoBox over the footprint at crs/resolution
        (anchor=), named after a "name" or "id" column if there is one, else the index.
    tiles={name: GeoBox}: the given cells.
    A cell gets the items whose footprint overlaps it (area > 0); a cell with none is not built.
    A file holds those of its time steps' items (odc.stac.load over all the items loads no
    other there); each time step keeps its group's time (the group's earliest item, which may
    lie outside the cell), as that load gives it.

Time ranges (time=)
    None: one range (every time step). A period: "P1Y", "P3M", "P1M", "P2W", "P1D" (ISO 8601;
    "1Y", "M" etc. too), calendar-anchored in UTC: years, months counted from January of year 0
    (P3M: quarters), ISO weeks (Monday), days counted from 1970-01-01; named "2020", "2020-05",
    "2020-05-18". Or explicit ranges [(start, end), ...] (also "start/end" strings), start
    inclusive, end exclusive (as `rumi convert --interval`), named "20200101-20210101".
    Grouping (groupby=, as odc.stac.load: "solar_day", "time", "id", a property name or a
    callable) happens first, per cell, exactly as odc.stac.load does it for that cell; a time step
    goes to the range holding its time coordinate (the earliest item of its group, odc-stac's
    convention), so a group is never split between ranges. Time steps outside every explicit range
    are not built. rumi files record whole seconds: a time with a fraction of a second is
    rounded to the nearest second (halves up, as every rumi writer rounds), with one warning
    naming the times changed; its range is the rounded time's.

Grid
    Any CRS with an EPSG code that odc-stac loads, projected or geographic (EPSG:4326 with
    resolution= in degrees): a file's pixels, CRS and transform are odc.stac.load's on its GeoBox.

Nodata
    A band's nodata is odc.stac.load's (nodata=, else raster:bands nodata). When neither gives
    one, it comes from the source files themselves (each file's own nodata, read from its header
    as odc-stac reads it): an integer output takes the first one found among a cell's items and
    odc-stac fills with it (odc-stac maps every file's own nodata onto it), and a value that the
    output sample type (dtype=) cannot hold is refused by name before anything is written; a
    floating-point output keeps odc-stac's NaN. Nodata goes to the .aux.xml sidecar (beside an
    s3:// object too) and the catalogue's rumi:nodata.

Scale, offset and unit
    A file's samples are odc.stac.load's raw ones (odc-stac ignores scale and offset in the
    pixels); its bands' scale, offset and unit are the items' raster:bands ones (items.band_scaling),
    in the .aux.xml sidecar (Dataset.scales / offsets / units) and the catalogue's rumi:scales /
    rumi:offsets / rumi:units. Items of one file that give a band two of them (a Sentinel-2 L2A
    item before processing baseline 04.00 and one after) are refused by name when planning
    (plan.file_scaling): split them by time=.

Files
    dest/{cell}.rumi (time=None) or dest/{cell}_{range}.rumi, with their .header sidecars (and
    .aux.xml for nodata); dest/rumi-build.json (the manifest: per file, a fingerprint of what it
    was built from -- the ids, collections, datetimes, "updated" properties and band hrefs of its
    items, its time steps' times when one comes from an item outside the cell, and every
    parameter that changes pixels -- with the file's size and the SHA-256 of its header blob);
    dest/catalog.parquet (rumi.Catalog of the files of this build).

Re-running
    A file whose fingerprint, size and header blob match the manifest is skipped (not read, not
    rewritten); any other is built again. A file is written atomically: a cell that fails leaves
    nothing behind (an earlier file of that name is left, but dropped from the manifest and the
    catalogue). Every cell is tried; at the end a failure raises BuildError naming each failed
    file with its error (its .catalog holds what was built). Files of earlier builds that this one
    does not produce are left as they are (listed in report.stale).
"""

from __future__ import annotations

from .cells import time_ranges
from .cli import main
from .destination import BUILD_FORMAT, CATALOG, MANIFEST
from .items import load_items
from .plan import BuildPlan, LoadOptions, PlannedFile, plan_build
from .run import DEFAULT_CHUNKS, BuildError, BuildReport, build, run_plan

#: the name tests and older callers import (cells.time_ranges)
_time_ranges = time_ranges

__all__ = [
    "build",
    "plan_build",
    "run_plan",
    "BuildPlan",
    "PlannedFile",
    "LoadOptions",
    "BuildReport",
    "BuildError",
    "load_items",
    "main",
    "time_ranges",
    "BUILD_FORMAT",
    "MANIFEST",
    "CATALOG",
    "DEFAULT_CHUNKS",
]
