"""A catalogue of rumi files: one GeoParquet 1.1 row per file.

    cat = rumi.Catalog.build(["a.rumi", "https://host/b.rumi"], "catalog.parquet")
    cat = rumi.Catalog.open("catalog.parquet")
    sel = cat.search(bbox=(11.0, 45.0, 12.0, 46.0), time=("2020-01-01", "2020-12-31"), bands=["red"])
    len(sel); sel.dataset(0)  # a rumi.Dataset opened from the catalogued header blob: no request

Columns (stac-geoparquet style, then rumi's own):
  id, datetime | start_datetime/end_datetime (timestamp[us, UTC]), geometry (WKB footprint in
  EPSG:4326; across 180 degrees a MultiPolygon cut there, as GeoJSON writes it), bbox (struct
  xmin/ymin/xmax/ymax, the GeoParquet 1.1 covering; xmin > xmax across 180 degrees), proj:code,
  proj:transform (STAC order a, b, c, d, e, f = xres, row_rot, x0, col_rot, yres, y0 of pixel
  corners), proj:shape ([rows, cols]), assets (struct data: {href, type, roles}), location (the
  href again: GDAL GTI's default location field), rumi:header (the blob), rumi:bands,
  rumi:time_kind, rumi:times / rumi:time_ends (timestamps), rumi:dtype, rumi:shape (T, B, Y, X),
  rumi:frame_unit, rumi:tile_shape, rumi:file_size, rumi:crs_type, rumi:nodata (one float64 per
  band, an element null for a band without nodata; the column null when no band has one),
  rumi:valid (the valid-fraction summary: see valid_summary; null when there is no nodata),
  rumi:stats (per band count, sum, m2, min, max of the valid samples per cell of tiles and per
  step: rumi.catalog.stats; Catalog.stats gives a selection's; null: not recorded),
  rumi:scales, rumi:offsets, rumi:units (per band, a value is raw * scale + offset in unit: each
  a list per band when some band has one, an empty list when none has (scale 1, offset 0, unit
  ''), null when the catalogue did not record them: band_scaling reads a row's),
  rumi:classes (per categorical band: its index, its classes and the count of each per time
  step and tile, nodata not counted, exact within a budget of bytes, else quantised to lower and
  upper bounds: rumi.catalog.classes, ClassCounts, class_counts; an empty list: no categorical
  band; null: not recorded; like rumi:stats, null in a partitioned catalogue's search rows, which
  leave it unread: Catalog.lazy_column).

Nodata: rumi files have no nodata field; `rumi convert`/`stack` keep the sources' nodata in GDAL's
PAM sidecar `<file>.aux.xml` (PAMDataset/PAMRasterBand[@band]/NoDataValue, band t * B + b + 1),
which build reads (local files, or the object beside a URL), or `build(..., nodata=)` gives it
(a number for every band, or one per band; it overrides the sidecar). When a file has nodata, its
pixels are read once, when cataloguing, to record per band and tile an upper bound of the
fraction of samples that are nodata (rumi.catalog.valid): samplers bound a chip's valid fraction
from it without reading pixels (rumi.torch, min_valid=). Catalogues written before these columns
open with them null (no nodata).

Scale, offset and unit: also kept in the PAM sidecar (PAMRasterBand/Scale, Offset, UnitType, as
GDAL writes them), which build reads as Dataset.scales / offsets / units do. A row is a snapshot:
it keeps the values the sidecar had when the file was catalogued (edit a sidecar, then build or
append the catalogue again). A catalogue written before these columns has them null, "not
recorded", which is not "no scale": rumi.torch's apply_scale=True refuses such rows.

The "geo" file metadata is GeoParquet 1.1 (WKB encoding, EPSG:4326 as PROJJSON, bbox covering),
so geopandas.read_parquet and pyarrow read the file as it is. Needs pyarrow, pyproj, shapely
(`pip install ./python[catalog]`). The command line is the `rumi-catalog` script (main()).

Partitioned catalogues (rumi.catalog.parts) scale to millions of rows: a folder (local, s3://,
or http(s):// with its _parts.json) of GeoParquet part files sorted along a Hilbert curve,
searched through pyarrow.dataset's predicate push-down on the row groups' bbox and time
statistics, blobs beside the parts read only for the rows opened, appends as new part files:

    cat = rumi.Catalog.build(srcs, "catalog/")        # or rumi.catalog.write_parts(table, "s3://b/cat/")
    cat = rumi.Catalog.open("s3://bucket/catalog/")     # footers only
    sel = cat.search(bbox=..., time=...)                # the matching row groups only
    cat = cat.append(["new.rumi"])                      # a new part file

Modules: columns (the column names, the schema and metadata), decode (the one reading of rows:
times, bands, nodata, grids, summaries as numpy columns; the one time-window test), rows (one
row of a file, and opening a row again),
scan (the one pixel pass), valid (the valid-fraction summary), stats (numeric
statistics), classes (the class counts), search (filters and times), geometry (footprints and boxes
on the sphere: exact box searches), parts and stores (partitioned
catalogues and where they lie), table (Catalog), vrt (GDAL VRT
mosaics), cli (the console script).
"""

from __future__ import annotations

from typing import Any

from .._internal import pam_nodata
from .cli import main
from .columns import CATALOG_VERSION, OPTIONAL_COLUMNS, SCALE_COLUMNS, band_scaling, scale_columns, schema
from .decode import time_indices, time_seconds
from .rows import describe, open_row
from .search import norm_time
from .parts import ROWS_PER_GROUP, hilbert_key, write_listing, write_parts
from .table import Catalog, read_table, write_table
from .stats import STATS_CELLS, Stats, unpack_stats
from .classes import DETECT_MAX, ClassCounts, class_counts, unpack_classes
from .valid import VALID_STEPS_PER_OCTAVE, encode_valid, nodata_bound, unpack_valid, valid_counts, valid_fractions, valid_summary
from .vrt import write_vrt


def stats(selection: Catalog, bands: Any = None, *, apply_scale: bool = False, exact: bool = True, options: Any = None) -> Stats:
    """Per-band statistics of a catalogue or search result from its rumi:stats: Catalog.stats."""
    return selection.stats(bands, apply_scale=apply_scale, exact=exact, options=options)


__all__ = [
    "CATALOG_VERSION",
    "OPTIONAL_COLUMNS",
    "ROWS_PER_GROUP",
    "SCALE_COLUMNS",
    "STATS_CELLS",
    "Stats",
    "VALID_STEPS_PER_OCTAVE",
    "Catalog",
    "DETECT_MAX",
    "band_scaling",
    "ClassCounts",
    "class_counts",
    "describe",
    "encode_valid",
    "hilbert_key",
    "main",
    "nodata_bound",
    "unpack_classes",
    "norm_time",
    "open_row",
    "pam_nodata",
    "read_table",
    "scale_columns",
    "stats",
    "schema",
    "time_indices",
    "time_seconds",
    "unpack_stats",
    "unpack_valid",
    "valid_counts",
    "valid_fractions",
    "valid_summary",
    "write_listing",
    "write_parts",
    "write_table",
    "write_vrt",
]
