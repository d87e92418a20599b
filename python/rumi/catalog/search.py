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
from .columns import deps, time_seconds

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


def _bbox_mask(table: Any, mask: np.ndarray[Any, Any], box: Sequence[float], crs: str | int | None) -> None:
    """Clears the rows of mask whose footprint misses box (w, s, e, n in crs, default EPSG:4326):
    the bbox column first, then the footprint polygons of the rows left."""
    import pyarrow.compute as pc

    w, s, e, n = (float(v) for v in box)
    code = None if crs is None else epsg_code(crs, _CRS_WHAT)
    if code is not None and code != 4326:
        w, s, e, n = transformer(f"EPSG:{code}", "EPSG:4326").transform_bounds(w, s, e, n, densify_pts=21)
    bb = table.column("bbox")
    lo_x, lo_y, hi_x, hi_y = (
        np.array(pc.struct_field(bb, k).to_numpy(zero_copy_only=False), dtype=float) for k in ("xmin", "ymin", "xmax", "ymax")
    )
    with np.errstate(invalid="ignore"):
        hit = (lo_x <= e) & (hi_x >= w) & (lo_y <= n) & (hi_y >= s)
    mask &= np.nan_to_num(hit, nan=False).astype(bool)
    if mask.any():  # exact test against the footprint polygons
        shapely = deps().shapely
        rect = shapely.box(w, s, e, n)
        geoms = table.column("geometry").to_pylist()
        for i in np.flatnonzero(mask):
            g = geoms[i]
            if g is None or not shapely.from_wkb(g).intersects(rect):
                mask[i] = False


def apply(table: Any, filters: Query) -> Any:
    """The rows of table (a pyarrow Table of the catalogue schema) that pass every filter."""
    mask = np.ones(table.num_rows, dtype=bool)
    for item in filters:
        kind = item[0]
        if kind == "bbox" and item[1] is not None:
            _bbox_mask(table, mask, item[1], item[2])
        elif kind == "time" and item[1] is not None:
            times = time_seconds(table)
            ends = time_seconds(table, "rumi:time_ends")
            for i in np.flatnonzero(mask):
                t = times[i]
                mask[i] = t is not None and bool(time_indices(t, ends[i], item[1]))
        elif kind == "crs":
            codes = table.column("proj:code").to_pylist()
            for i in np.flatnonzero(mask):
                mask[i] = codes[i] == item[1]
        elif kind == "bands" and item[1] is not None:
            want = set(item[1])
            bl = table.column("rumi:bands").to_pylist()
            for i in np.flatnonzero(mask):
                mask[i] = want.issubset(bl[i])
    return table.filter(deps().pa.array(mask))
