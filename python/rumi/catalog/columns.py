"""The catalogue's columns: their names, the Arrow schema, the GeoParquet 1.1 "geo" metadata, and
whole seconds as timestamp[us] values (`micros`; the other way, and every other reading of the
columns: rumi.catalog.decode)."""

from __future__ import annotations

import json
from typing import Any, Mapping, NamedTuple, Sequence

from .._errors import FormatError

#: the version recorded in the file metadata "rumi:catalog"
CATALOG_VERSION = "0.1.0"
#: the file metadata key (bytes, as Arrow's schema metadata) of the catalogue's version (and a part's extent)
CATALOG_KEY = b"rumi:catalog"

# the column names (schema() gives their Arrow types; rumi.catalog.decode reads them)
ID = "id"
DATETIME = "datetime"  # a Cube's or an interval's: start_datetime, end_datetime
START_DATETIME = "start_datetime"
END_DATETIME = "end_datetime"
GEOMETRY = "geometry"
BBOX = "bbox"
PROJ_CODE = "proj:code"
PROJ_TRANSFORM = "proj:transform"
PROJ_SHAPE = "proj:shape"
ASSETS = "assets"
LOCATION = "location"
HEADER = "rumi:header"
BANDS = "rumi:bands"
TIME_KIND = "rumi:time_kind"
TIMES = "rumi:times"
TIME_ENDS = "rumi:time_ends"
DTYPE = "rumi:dtype"
SHAPE = "rumi:shape"
FRAME_UNIT = "rumi:frame_unit"
TILE_SHAPE = "rumi:tile_shape"
FILE_SIZE = "rumi:file_size"
ETAG = "rumi:etag"
DIGEST = "rumi:digest"
CRS_TYPE = "rumi:crs_type"
NODATA = "rumi:nodata"
VALID = "rumi:valid"
STATS = "rumi:stats"
SCALES = "rumi:scales"
OFFSETS = "rumi:offsets"
UNITS = "rumi:units"
#: a partitioned catalogue's part files: where each row's header blob lies in the part's .headers
#: file, in place of rumi:header (rumi.catalog.parts)
HEADER_OFFSET = "rumi:header_offset"
HEADER_SIZE = "rumi:header_size"
CLASSES = "rumi:classes"

#: columns added after catalogue 0.1.0: an older catalogue opens with them null (no nodata; scales,
#: offsets and units not recorded)
OPTIONAL_COLUMNS = (NODATA, VALID, SCALES, OFFSETS, UNITS, ETAG, DIGEST, STATS, CLASSES)

#: a file's scale, offset and unit per band (a value is raw * scale + offset, in unit), as its PAM
#: sidecar gave them when it was catalogued: each column a list per band when some band has one,
#: an empty list when no band has one (scale 1, offset 0, unit ''), null when the catalogue did
#: not record them (a row written before these columns): scale_columns, band_scaling
SCALE_COLUMNS = (SCALES, OFFSETS, UNITS)
#: what a band without a scale, offset or unit has (rasterio's defaults)
SCALE_DEFAULTS = (1.0, 0.0, "")


def scale_columns(scales: Sequence[float], offsets: Sequence[float], units: Sequence[str | None]) -> dict[str, list[Any]]:
    """The SCALE_COLUMNS of a file's per-band scales, offsets and units (rasterio's tuples; a
    unit None is ''): a column's list is empty when every band has the default."""
    out: dict[str, list[Any]] = {}
    given: tuple[Sequence[Any], ...] = (scales, offsets, units)
    for name, vals, dflt in zip(SCALE_COLUMNS, given, SCALE_DEFAULTS):
        v = [("" if x is None else str(x)) if isinstance(dflt, str) else float(x) for x in vals]
        out[name] = v if any(x != dflt for x in v) else []
    return out


def band_scaling(row: Mapping[str, Any], bands: int) -> tuple[list[float], list[float], list[str]] | None:
    """A row's per-band (scales, offsets, units) from its SCALE_COLUMNS (an empty list: the
    defaults), or None when the catalogue did not record them."""
    out: list[list[Any]] = []
    for c, dflt in zip(SCALE_COLUMNS, SCALE_DEFAULTS):
        v = row.get(c)
        if v is None:
            return None
        if len(v) not in (0, bands):
            raise FormatError(f"the catalogue's {c} has {len(v)} values for {bands} bands")
        out.append(list(v) if len(v) else [dflt] * bands)
    return out[0], out[1], out[2]


class Deps(NamedTuple):
    """The optional packages a catalogue needs (`pip install 'rumi[catalog]'`)."""

    pa: Any  # pyarrow
    pq: Any  # pyarrow.parquet
    pyproj: Any
    shapely: Any


def deps() -> Deps:
    """pyarrow, pyarrow.parquet, pyproj and shapely, or an ImportError saying how to install them."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
        import pyproj
        import shapely
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"rumi catalogues need pyarrow, pyproj and shapely (pip install 'rumi[catalog]'): {e}") from None
    return Deps(pa, pq, pyproj, shapely)


def schema() -> Any:
    """The catalogue's Arrow schema (the CLI produces the same table through this module)."""
    pa = deps().pa
    ts = pa.timestamp("us", tz="UTC")
    return pa.schema(
        [
            (ID, pa.string()),
            (DATETIME, ts),
            (START_DATETIME, ts),
            (END_DATETIME, ts),
            (GEOMETRY, pa.binary()),
            (BBOX, pa.struct([("xmin", pa.float64()), ("ymin", pa.float64()), ("xmax", pa.float64()), ("ymax", pa.float64())])),
            (PROJ_CODE, pa.string()),
            (PROJ_TRANSFORM, pa.list_(pa.float64())),
            (PROJ_SHAPE, pa.list_(pa.int64())),
            (ASSETS, pa.struct([("data", pa.struct([("href", pa.string()), ("type", pa.string()), ("roles", pa.list_(pa.string()))]))])),
            (LOCATION, pa.string()),
            (HEADER, pa.binary()),
            (BANDS, pa.list_(pa.string())),
            (TIME_KIND, pa.string()),
            (TIMES, pa.list_(ts)),
            (TIME_ENDS, pa.list_(ts)),
            (DTYPE, pa.string()),
            (SHAPE, pa.list_(pa.int64())),
            (FRAME_UNIT, pa.int32()),
            (TILE_SHAPE, pa.list_(pa.int32())),
            (FILE_SIZE, pa.int64()),
            (ETAG, pa.string()),  # the store's identity of the file described and its sidecar's (rows.open_row)
            (DIGEST, pa.string()),  # a digest of the file's metadata the row holds (rows.metadata_digest)
            (CRS_TYPE, pa.string()),
            (NODATA, pa.list_(pa.float64())),
            (VALID, pa.binary()),
            (STATS, pa.binary()),  # per band: cells and steps of numeric statistics (rumi.catalog.stats)
            (SCALES, pa.list_(pa.float64())),
            (OFFSETS, pa.list_(pa.float64())),
            (UNITS, pa.list_(pa.string())),
            # per categorical band: its index, classes and counts per step and tile (rumi.catalog.classes)
            (CLASSES, pa.list_(pa.struct([("band", pa.int32()), ("values", pa.list_(pa.int64())),
                                          ("counts", pa.binary())]))),
        ]
    )


def geo_metadata(bbox: tuple[float, float, float, float]) -> dict[str, Any]:
    """The GeoParquet 1.1 "geo" file metadata: WKB footprints in EPSG:4326 (as PROJJSON) whose
    bounding box is `bbox`, with the bbox column as the covering."""
    pyproj = deps().pyproj
    return {
        "version": "1.1.0",
        "primary_column": "geometry",
        "columns": {
            "geometry": {
                "encoding": "WKB",
                "geometry_types": ["Polygon", "MultiPolygon"],  # MultiPolygon: cut at 180 degrees
                "crs": json.loads(pyproj.CRS.from_epsg(4326).to_json()),
                "edges": "planar",
                "bbox": list(bbox),
                "covering": {
                    "bbox": {
                        "xmin": ["bbox", "xmin"],
                        "ymin": ["bbox", "ymin"],
                        "xmax": ["bbox", "xmax"],
                        "ymax": ["bbox", "ymax"],
                    }
                },
            }
        },
    }


def file_metadata(table: Any) -> dict[bytes, bytes]:
    """The table's schema metadata with "geo" (over the rows' bboxes) and "rumi:catalog" set."""
    import pyarrow.compute as pc

    bb = table.column("bbox")
    ext = [pc.struct_field(bb, k) for k in ("xmin", "ymin", "xmax", "ymax")]
    lo = [pc.min(ext[0]).as_py(), pc.min(ext[1]).as_py()]
    hi = [pc.max(ext[2]).as_py(), pc.max(ext[3]).as_py()]
    total = (lo[0], lo[1], hi[0], hi[1]) if None not in lo + hi else (0.0, 0.0, 0.0, 0.0)
    if pc.any(pc.greater(ext[0], ext[2])).as_py():  # a row across 180 degrees (xmin > xmax): all longitudes
        total = (-180.0, total[1], 180.0, total[3])
    md: dict[bytes, bytes] = dict(table.schema.metadata or {})
    md[b"geo"] = json.dumps(geo_metadata(total)).encode()
    md[CATALOG_KEY] = json.dumps({"version": CATALOG_VERSION}).encode()
    return md


def micros(seconds: int) -> int:
    """A timestamp[us] value of whole seconds (pyarrow takes ints for timestamp[us])."""
    return int(seconds) * 1_000_000
