"""Selecting rows: a search is a tuple of filters (bbox, time, bands, crs), each a small tuple,
applied to the table by `apply`; a Catalog keeps the tuple so that a worker replays it on the
catalogue file instead of receiving the rows. Times as STAC searches read them (`norm_time`)."""

from __future__ import annotations

import datetime as _dt
from typing import Any, Sequence, Union

import numpy as np

from .._crs import epsg_code
from .._grid import transformer
from .._times import seconds
from .._errors import FormatError
from .columns import deps

#: one filter: ("bbox", (w, s, e, n) | None, crs), ("time", (start, end) | None),
#: ("bands", (text, ...) | None) or ("crs", "EPSG:n")
Filter = tuple[Any, ...]
Query = tuple[Filter, ...]
#: a closed time window in seconds since 1970 (None: open on that side)
Window = tuple[Union[int, None], Union[int, None]]

_CRS_WHAT = "crs must be 'EPSG:<code>' or an int"


def query(
    bbox: Sequence[float] | None = None, crs: str | int | None = None, time: Any = None, bands: Sequence[str] | None = None
) -> Query:
    """The filters of Catalog.search's arguments (see there)."""
    return (
        ("bbox", tuple(bbox) if bbox is not None else None, crs),
        ("time", norm_time(time)),
        ("bands", tuple(bands) if bands else None),
    )


def crs_query(crs: str | int) -> Query:
    """The filter of Catalog.filter_crs: rows whose proj:code is crs."""
    return (("crs", f"EPSG:{epsg_code(crs, _CRS_WHAT)}"),)


def norm_time(time: Any) -> Window | None:
    """An instant or (start, end) (None: open) -> (start, end) seconds, both included; None ->
    None. A value coarser than a second covers all of it, as STAC searches read dates
    (pystac-client): "2023-05-11" is that whole day, "2023-05" that month, and an end
    "2020-12-31" includes the last day."""
    if time is None:
        return None
    if isinstance(time, (tuple, list)) and len(time) == 2:
        a = time_span(time[0])[0] if time[0] is not None else None
        b = time_span(time[1])[1] if time[1] is not None else None
        return (a, b)
    return time_span(time)


def time_span(v: Any) -> tuple[int, int]:
    """(first, last) second that a time value covers: one second for an instant, the whole
    day / month / year for a date, a year-month or a year."""
    start = seconds(v, "time")
    unit = None
    if isinstance(v, str):
        try:
            unit = np.datetime_data(np.datetime64(v.strip().rstrip("Z")).dtype)[0]
        except ValueError:
            unit = None
    elif isinstance(v, np.datetime64):
        unit = np.datetime_data(v.dtype)[0]
    elif isinstance(v, _dt.date) and not isinstance(v, _dt.datetime):
        unit = "D"
    if unit in ("Y", "M", "W", "D", "h", "m"):
        d = np.datetime64(start, "s").astype(f"datetime64[{unit}]")
        return start, int((d + 1).astype("datetime64[s]").astype("int64")) - 1
    return start, start


def time_indices(times: list[int], ends: list[int] | None, window: Window) -> list[int]:
    """Indices of the time steps that meet window (start, end) in seconds (None = open)."""
    a, b = window
    out = []
    for k, t in enumerate(times):
        s = t
        e = ends[k] if ends else s
        if (a is None or e >= a) and (b is None or s <= b):
            out.append(k)
    return out


def _box4326(box: Sequence[float], crs: str | int | None) -> tuple[float, float, float, float]:
    """(w, s, e, n) in EPSG:4326 of a box given in crs (default EPSG:4326)."""
    w, s, e, n = (float(v) for v in box)
    code = None if crs is None else epsg_code(crs, _CRS_WHAT)
    if code is not None and code != 4326:
        w, s, e, n = transformer(f"EPSG:{code}", "EPSG:4326").transform_bounds(w, s, e, n, densify_pts=21)
    return w, s, e, n


def _bbox_mask(table: Any, mask: np.ndarray[Any, Any], box: Sequence[float], crs: str | int | None) -> None:
    """Clears the rows of mask whose footprint misses box (w, s, e, n in crs, default EPSG:4326):
    the bbox column first, then the footprint polygons of the rows left (shapely, vectorised)."""
    import pyarrow.compute as pc

    w, s, e, n = _box4326(box, crs)
    bb = table.column("bbox")
    lo_x, lo_y, hi_x, hi_y = (
        np.array(pc.struct_field(bb, k).to_numpy(zero_copy_only=False), dtype=float) for k in ("xmin", "ymin", "xmax", "ymax")
    )
    with np.errstate(invalid="ignore"):
        hit = (lo_x <= e) & (hi_x >= w) & (lo_y <= n) & (hi_y >= s)
    mask &= np.nan_to_num(hit, nan=False).astype(bool)
    if mask.any():  # exact test against the footprint polygons
        shapely = deps().shapely
        idx = np.flatnonzero(mask)
        wkb = table.column("geometry").take(deps().pa.array(idx)).to_numpy(zero_copy_only=False)
        geoms = shapely.from_wkb(wkb)
        mask[idx] = np.asarray(shapely.intersects(geoms, shapely.box(w, s, e, n)), bool)


def _list_seconds(col: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """A timestamp-list column -> (its values in whole seconds, each value's row, each row's
    list is not null)."""
    import pyarrow.compute as pc

    pa = deps().pa
    col = col.combine_chunks() if hasattr(col, "combine_chunks") else col
    vals = np.asarray(pc.list_flatten(col).cast(pa.int64()).to_numpy(zero_copy_only=False), np.int64) // 1_000_000
    rows = np.asarray(pc.list_parent_indices(col).to_numpy(zero_copy_only=False), np.int64)
    valid = np.asarray(col.is_valid().to_numpy(zero_copy_only=False), bool)
    return vals, rows, valid


def _time_mask(table: Any, mask: np.ndarray[Any, Any], window: Window) -> None:
    """Clears the rows of mask with no time step that meets window (as time_indices), vectorised."""
    a, b = window
    n = table.num_rows
    starts, rows, valid = _list_seconds(table.column("rumi:times"))
    ends_v, ends_rows, ends_valid = _list_seconds(table.column("rumi:time_ends"))
    ends = starts.copy()
    if ends_valid.any():
        # a row with time ends has as many as starts (rumi:time_ends aligned with rumi:times)
        has_end = ends_valid[rows]
        pos = np.flatnonzero(has_end)
        if len(pos) != len(ends_v):
            raise FormatError("rumi:time_ends and rumi:times differ in length")
        ends[pos] = ends_v
    ok = np.ones(len(starts), bool)
    if a is not None:
        ok &= ends >= a
    if b is not None:
        ok &= starts <= b
    hit = np.bincount(rows[ok], minlength=n) > 0 if n else np.zeros(0, bool)
    mask &= hit & valid


def _bands_mask(table: Any, mask: np.ndarray[Any, Any], want: Sequence[str]) -> None:
    """Clears the rows of mask that lack one of the band texts in want."""
    import pyarrow.compute as pc

    n = table.num_rows
    col = table.column("rumi:bands")
    col = col.combine_chunks() if hasattr(col, "combine_chunks") else col
    flat = pc.list_flatten(col)
    rows = np.asarray(pc.list_parent_indices(col).to_numpy(zero_copy_only=False), np.int64)
    for band in set(want):
        eq = np.asarray(pc.equal(flat, band).fill_null(False).to_numpy(zero_copy_only=False), bool)
        mask &= np.bincount(rows[eq], minlength=n) > 0 if n else np.zeros(0, bool)


def mask(table: Any, filters: Query) -> np.ndarray[Any, Any]:
    """The rows of table (the catalogue schema, or a part's) that pass every filter, as a bool
    array (vectorised: pyarrow compute, numpy and shapely's array functions)."""
    import pyarrow.compute as pc

    m = np.ones(table.num_rows, dtype=bool)
    for item in filters:
        kind = item[0]
        if kind == "bbox" and item[1] is not None:
            _bbox_mask(table, m, item[1], item[2])
        elif kind == "time" and item[1] is not None:
            _time_mask(table, m, item[1])
        elif kind == "crs":
            m &= np.asarray(pc.equal(table.column("proj:code"), item[1]).fill_null(False).to_numpy(zero_copy_only=False), bool)
        elif kind == "bands" and item[1] is not None:
            _bands_mask(table, m, item[1])
    return m


def apply(table: Any, filters: Query) -> Any:
    """The rows of table (a pyarrow Table of the catalogue schema) that pass every filter."""
    return table.filter(deps().pa.array(mask(table, filters)))


def pushdown(filters: Query) -> Any:
    """A pyarrow.dataset expression that every row passing filters passes (None: no filter to
    push): the bbox covering against the box, the file's time span against the window, the
    CRS. Row groups whose statistics fail it are never read; the exact test is `mask`'s."""
    import pyarrow.compute as pc

    pa = deps().pa
    ts = pa.timestamp("us", tz="UTC")
    expr = None

    def both(x: Any) -> None:
        nonlocal expr
        expr = x if expr is None else expr & x

    for item in filters:
        kind = item[0]
        if kind == "bbox" and item[1] is not None:
            w, s, e, n = _box4326(item[1], item[2])
            both((pc.field("bbox", "xmin") <= e) & (pc.field("bbox", "xmax") >= w)
                 & (pc.field("bbox", "ymin") <= n) & (pc.field("bbox", "ymax") >= s))
        elif kind == "time" and item[1] is not None:
            a, b = item[1]
            one = None
            span = None
            if a is not None:
                lo = pa.scalar(a * 1_000_000, ts)
                one, span = pc.field("datetime") >= lo, pc.field("end_datetime") >= lo
            if b is not None:
                hi = pa.scalar(b * 1_000_000, ts)
                one = (pc.field("datetime") <= hi) if one is None else one & (pc.field("datetime") <= hi)
                span = (pc.field("start_datetime") <= hi) if span is None else span & (pc.field("start_datetime") <= hi)
            if one is not None:
                both(one | span)
        elif kind == "crs":
            both(pc.field("proj:code") == item[1])
    return expr
