"""Selecting rows: a search is a tuple of filters (bbox, time, bands, crs), each a small tuple,
applied to the table by `apply`; a Catalog keeps the tuple so that a worker replays it on the
catalogue file instead of receiving the rows. Times as STAC searches read them (`norm_time`)."""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from .._errors import RequestError
from .._internal import epsg_code, time_span
from . import columns as K
from . import geometry as _geometry
from .columns import deps, micros
from .decode import Rows

#: one filter: ("bbox", (w, s, e, n) | None, crs), ("time", (start, end) | None),
#: ("bands", (text, ...) | None) or ("crs", "EPSG:n")
Filter = tuple[Any, ...]
Query = tuple[Filter, ...]
#: a closed time window in seconds since 1970 (None: open on that side)
Window = tuple[Union[int, None], Union[int, None]]

_CRS_WHAT = "crs must be 'EPSG:<code>' or an int"
#: degrees of latitude beyond which a box may meet a footprint around the pole that a catalogue
#: written before footprints were closed through the poles bounds short of it (pushdown)
POLAR = 45.0


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
    "2020-12-31" includes the last day. A start after the end is a RequestError (a ValueError):
    an empty answer to a swapped window would pass for "no such files"."""
    if time is None:
        return None
    if isinstance(time, (tuple, list)) and len(time) == 2:
        a = time_span(time[0])[0] if time[0] is not None else None
        b = time_span(time[1])[1] if time[1] is not None else None
        if a is not None and b is not None and a > b:
            raise RequestError(f"time window ({time[0]!r}, {time[1]!r}): its start is after its end "
                               "(a window is (start, end), both included)")
        return (a, b)
    return time_span(time)


def box_of(box: Sequence[float], crs: str | int | None) -> _geometry.Box:
    """The search box (w, s, e, n) in crs (default EPSG:4326; there w > e crosses 180 degrees)."""
    code = 4326 if crs is None else epsg_code(crs, _CRS_WHAT)
    return _geometry.Box.of(box, f"EPSG:{code}")


def box4326(box: Sequence[float], crs: str | int | None) -> tuple[float, float, float, float]:
    """(w, s, e, n) in EPSG:4326 that hold the box given in crs (default EPSG:4326): its lift's
    envelope, padded (w > e: across 180 degrees; -180, 180 around a pole)."""
    return box_of(box, crs).env


def bbox_columns(table: Any) -> tuple[np.ndarray[Any, Any], ...]:
    """The bbox covering's xmin, ymin, xmax, ymax as float arrays (NaN: null)."""
    return Rows(table).bbox


def _grids(table: Any, idx: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """For rows idx: their proj:code (upper case; "" when none), proj:transform (n, 6) and
    proj:shape (height, width), and whether each has a whole grid in an EPSG CRS (a transform
    of STAC's 6 or 9 numbers)."""
    r = Rows(table.select([K.PROJ_CODE, K.PROJ_TRANSFORM, K.PROJ_SHAPE]).take(deps().pa.array(idx)))
    names, which = r.grid_codes
    codes = np.char.upper(np.array([*names, ""], dtype=str)[which])  # -1 (null): ""
    t, sh, lens = r.transforms, r.proj_shapes, r.transform_lengths
    has = ((lens == 6) | (lens == 9)) & np.isfinite(sh).all(axis=1) & np.isfinite(t).all(axis=1) & (sh > 0).all(axis=1)
    return codes, t, sh, has & np.char.startswith(codes, "EPSG:")


def _bbox_mask(table: Any, mask: np.ndarray[Any, Any], box: Sequence[float], crs: str | int | None) -> None:
    """Clears the rows of mask whose footprint misses box (w, s, e, n in crs, default EPSG:4326;
    rumi.catalog.geometry): the bbox covering against the box's padded lon/lat envelope first
    (across 180 degrees where xmin > xmax), then the exact test of the rows left on their own
    grids (proj:code, proj:transform, proj:shape; vectorised per CRS), or on the stored
    footprint for a row without one."""
    q = box_of(box, crs)
    w, s, e, n = q.env
    lo_x, lo_y, hi_x, hi_y = bbox_columns(table)
    # a footprint over more than half the longitudes as written before rumi cut footprints at
    # 180 degrees (a band around the globe) may hide a pole: its latitudes reach that pole here
    old = (lo_x <= hi_x) & (hi_x - lo_x > 180.0)
    lo_y = np.where(old & (lo_y < 0), -90.0, lo_y)
    hi_y = np.where(old & (hi_y > 0), 90.0, hi_y)
    with np.errstate(invalid="ignore"):
        hit = _geometry.lon_overlap(lo_x, hi_x, w, e) & (lo_y <= n) & (hi_y >= s)
    mask &= np.nan_to_num(hit, nan=False).astype(bool)
    if q.crs == "EPSG:4326":  # a row whose bbox lies inside a lon/lat box meets it: no exact test
        bw, bs, be, bn = q.bounds
        p = _geometry.ENVELOPE_PAD
        with np.errstate(invalid="ignore"):
            inside = mask & _geometry.lon_within(lo_x, hi_x, bw + p, be - p) & (lo_y >= bs + p) & (hi_y <= bn - p)
    else:
        inside = np.zeros_like(mask)
    if not (mask & ~inside).any():
        return
    idx = np.flatnonzero(mask & ~inside)
    codes, t, sh, ok = _grids(table, idx)
    keep = np.zeros(len(idx), bool)
    uniq, which = np.unique(codes, return_inverse=True)
    for k, code in enumerate(uniq):
        sel = np.flatnonzero(ok & (which == k))
        if not code[5:].isdigit():
            ok[sel] = False  # not an EPSG code: the stored footprint decides
        elif len(sel):
            keep[sel] = _geometry.grid_hits(f"EPSG:{epsg_code(code)}", t[sel], sh[sel], q)
    rest = np.flatnonzero(~ok)
    if len(rest):
        wkb = table.column(K.GEOMETRY).take(deps().pa.array(idx[rest])).to_numpy(zero_copy_only=False)
        keep[rest] = _geometry.geometry_hits(wkb, q)
    mask[idx] = keep


def mask(table: Any, filters: Query) -> np.ndarray[Any, Any]:
    """The rows of table (the catalogue schema, or a part's) that pass every filter, as a bool
    array (vectorised: pyarrow compute, numpy and shapely's array functions)."""
    import pyarrow.compute as pc

    m = np.ones(table.num_rows, dtype=bool)
    rows = Rows(table)
    for item in filters:
        kind = item[0]
        if kind == "bbox" and item[1] is not None:
            _bbox_mask(table, m, item[1], item[2])
        elif kind == "time" and item[1] is not None:
            m &= rows.times.rows_meeting(item[1])  # a row meets it with one step (rumi.catalog.decode.overlap)
        elif kind == "crs":
            m &= np.asarray(pc.equal(table.column(K.PROJ_CODE), item[1]).fill_null(False).to_numpy(zero_copy_only=False), bool)
        elif kind == "bands" and item[1] is not None:
            m &= ~rows.bands_of(sorted(set(item[1]))).missing
    return m


def apply(table: Any, filters: Query) -> Any:
    """The rows of table (a pyarrow Table of the catalogue schema) that pass every filter."""
    return table.filter(deps().pa.array(mask(table, filters)))


def pushdown(filters: Query, lon: bool = True, pole_safe: bool = False) -> Any:
    """A pyarrow.dataset expression that every row passing filters passes (None: no filter to
    push): the bbox covering against the box's lon/lat envelope, the file's time span against
    the window, the CRS. Row groups whose statistics fail it are never read; the exact test is
    `mask`'s. lon=False: the longitudes are left out (rows across 180 degrees, xmin > xmax,
    which statistics cannot tell apart: parts.py pushes lon=False for a part that has any).
    pole_safe=True: a box beyond POLAR degrees of latitude gets no latitude bound on the pole's
    side (parts written before footprints were closed through the poles: parts.cut)."""
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
            w, s, e, n = box4326(item[1], item[2])
            if not (pole_safe and n < -POLAR):
                both(pc.field(K.BBOX, "ymin") <= n)
            if not (pole_safe and s > POLAR):
                both(pc.field(K.BBOX, "ymax") >= s)
            if lon and not (w == -180.0 and e == 180.0):
                if w <= e:
                    both((pc.field(K.BBOX, "xmin") <= e) & (pc.field(K.BBOX, "xmax") >= w))
                else:  # the box crosses 180 degrees
                    both((pc.field(K.BBOX, "xmin") <= e) | (pc.field(K.BBOX, "xmax") >= w))
        elif kind == "time" and item[1] is not None:
            a, b = item[1]
            one = None
            span = None
            if a is not None:
                lo = pa.scalar(micros(a), ts)
                one, span = pc.field(K.DATETIME) >= lo, pc.field(K.END_DATETIME) >= lo
            if b is not None:
                hi = pa.scalar(micros(b), ts)
                one = (pc.field(K.DATETIME) <= hi) if one is None else one & (pc.field(K.DATETIME) <= hi)
                span = (pc.field(K.START_DATETIME) <= hi) if span is None else span & (pc.field(K.START_DATETIME) <= hi)
            if one is not None:
                both(one | span)
        elif kind == "crs":
            both(pc.field(K.PROJ_CODE) == item[1])
    return expr
