"""One catalogue row per rumi file: `describe` parses a file's header (and, when it has nodata,
reads its pixels once for the valid-fraction summary); `open_row` opens a row again from its
header blob, checking the file's size against the catalogued one."""

from __future__ import annotations

import os
from typing import Any

from .. import _nodata
from .._dataset import Dataset
from .._dataset import open as open_dataset
from .._errors import FormatError, RumiIOError
from .._grid import Grid
from .._location import Location
from . import geometry as _geometry
from .columns import deps, micros, scale_columns
from .valid import valid_summary

#: the outline's edges are cut into this many pieces before projecting to EPSG:4326
FOOTPRINT_DENSIFY = 16


def href(src: str) -> str:
    """The row's href of a location: a URL as it is, a local path made absolute."""
    loc = Location.parse(src)
    return loc.text if loc.is_remote else os.path.abspath(loc.text)


def file_size(src: str, options: dict[str, Any] | None = None) -> int:
    """The size of the file or object in bytes (one HEAD for an object); RumiIOError when it
    does not exist."""
    size = Location.parse(src).size(options)
    if size is None:
        raise RumiIOError(f"{src}: no such file or object")
    return size


def footprint(grid: Grid) -> tuple[bytes, tuple[float, float, float, float]]:
    """The grid's footprint in EPSG:4326 (edges densified) as WKB, as GeoJSON and STAC write
    it: cut at the antimeridian into a MultiPolygon, closed through a pole it holds; and its
    bbox (xmin > xmax across 180 degrees): see rumi.catalog.geometry."""
    shapely = deps().shapely
    geom, bb = _geometry.footprint(grid, FOOTPRINT_DENSIFY)
    return shapely.to_wkb(geom), bb


def describe(src: str, *, options: dict[str, Any] | None = None, nodata: Any = None) -> dict[str, Any]:
    """One catalogue row (a dict) for the rumi file at src (parses and validates its header).
    nodata: None (the file's PAM sidecar, if any), a number for every band, or one per band
    (None for a band without): see rumi.catalog's notes."""
    with open_dataset(src, options=options) as ds:
        return describe_dataset(ds, src, options=options, nodata=nodata)


def describe_dataset(ds: Dataset, src: str, *, options: dict[str, Any] | None = None, nodata: Any = None) -> dict[str, Any]:
    """The catalogue row of an open dataset read from src (see describe)."""
    size = file_size(src, options)
    T, B, Y, X = ds.shape
    kind = ds.time_kind
    secs = ds.times.astype("int64")
    ends: list[int] | None
    if kind == "interval":
        starts, ends = [int(v) for v in secs[:, 0]], [int(v) for v in secs[:, 1]]
    else:
        starts, ends = [int(v) for v in secs], None
    lo, hi = min(starts), max(ends if ends else starts)
    one_instant = T == 1 and kind == "instant"
    url = href(src)
    row: dict[str, Any] = {
        "id": os.path.splitext(Location.parse(src).name)[0],
        "datetime": micros(lo) if one_instant else None,
        "start_datetime": None if one_instant else micros(lo),
        "end_datetime": None if one_instant else micros(hi),
        "geometry": None,
        "bbox": None,
        "proj:code": ds.crs,
        "proj:transform": None,
        "proj:shape": [Y, X],
        "assets": {"data": {"href": url, "type": "application/x-rumi", "roles": ["data"]}},
        "location": url,
        "rumi:header": bytes(ds.header),
        "rumi:bands": ds.bands,
        "rumi:time_kind": kind,
        "rumi:times": [micros(s) for s in starts],
        "rumi:time_ends": [micros(s) for s in ends] if ends else None,
        "rumi:dtype": ds.encoding,
        "rumi:shape": [T, B, Y, X],
        "rumi:frame_unit": ds.frame_unit,
        "rumi:tile_shape": list(ds.tile_shape),
        "rumi:file_size": size,
        "rumi:crs_type": ds.crs_type,
    }
    nd = _nodata.normalize(nodata, B, src) if nodata is not None else _nodata.pam_nodata(src, B, options=options)
    row["rumi:nodata"] = nd
    row["rumi:valid"] = valid_summary(ds, nd) if nd is not None else None
    row.update(scale_columns(ds.scales, ds.offsets, ds.units))  # the sidecar's, as now (a snapshot)
    if ds.geotransform is not None and ds.epsg is not None:
        grid = ds.grid
        t = grid.transform
        row["proj:transform"] = [t.a, t.b, t.c, t.d, t.e, t.f]  # STAC's order: affine's
        wkb, bb = footprint(grid)
        row["geometry"] = wkb
        row["bbox"] = dict(zip(("xmin", "ymin", "xmax", "ymax"), bb))
    return row


def open_row(row: dict[str, Any], *, options: dict[str, Any] | None = None, verify_size: bool = True, threads: int = 1) -> Dataset:
    """A rumi.Dataset of a catalogue row, opened from the row's blob (no header request; the
    blob is checked against the file as rumi.open checks any header=). verify_size: first
    compare the file's size with the catalogued one (one HEAD for an object): FormatError when
    they differ (the blob no longer describes the file)."""
    url = row["assets"]["data"]["href"] if row.get("assets") else row["location"]
    want = row["rumi:file_size"]
    if verify_size and want is not None and want >= 0:
        have = file_size(url, options)
        if have != want:
            raise FormatError(
                f"{url} changed since it was catalogued: {have} bytes, the catalogue recorded {want} "
                "(rebuild the catalogue; its header blob no longer describes the file)"
            )
    return open_dataset(url, header=row["rumi:header"], options=options, threads=threads)
