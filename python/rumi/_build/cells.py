"""The units of a build: the cells of a tiling (odc-geo GeoBoxes over the items' footprints)
and the time ranges a time step falls in (odc.stac.load's grouping of items into time steps is
plan._Steps). Pure: no source file is read."""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .._internal import rounded_seconds, seconds

_NAME_OK = re.compile(r"[^A-Za-z0-9._+-]")

#: a time step's time -> (range name, range spec), or None when it is in no range
RangeOf = Callable[[np.datetime64], "tuple[str, str] | None"]


# --- grids ------------------------------------------------------------------------------------


def odc_crs(crs: Any) -> Any:
    """odc-geo's CRS of crs=, which must have an EPSG code (rumi files record EPSG codes)."""
    from odc.geo.crs import CRS

    try:
        c = CRS(crs)
    except Exception as e:
        raise ValueError(f"crs {crs!r} is not a CRS PROJ knows: {e}") from None
    if c.epsg is None:
        raise ValueError(f"crs {crs!r} has no EPSG code; rumi files record EPSG codes")
    return c


def grid_given(tiles: Any) -> bool:
    """Whether tiles= gives the grid itself (a GridSpec, GeoboxTiles, GeoBox or {name: GeoBox})."""
    from odc.geo.geobox import GeoBox, GeoboxTiles
    from odc.geo.gridspec import GridSpec

    return isinstance(tiles, (GridSpec, GeoboxTiles, GeoBox, Mapping))


def output_crs(tiles: Any, crs: Any, resolution: Any) -> Any:
    """The build's odc-geo CRS: the tiling's when it gives a grid (crs= must agree), else crs=
    (with resolution= required); resolution= checked when given."""
    from odc.geo.geobox import GeoBox, GeoboxTiles
    from odc.geo.gridspec import GridSpec

    grid_crs: Any
    if grid_given(tiles):
        if isinstance(tiles, GridSpec):
            grid_crs = tiles.crs
        elif isinstance(tiles, GeoboxTiles):
            grid_crs = tiles.base.crs
        elif isinstance(tiles, GeoBox):
            grid_crs = tiles.crs
        else:
            crss = {g.crs for g in tiles.values() if isinstance(g, GeoBox)}
            if len(crss) != 1:
                raise ValueError(f"tiles: the cells must share one CRS, got {len(crss)}")
            grid_crs = crss.pop()
        if crs is not None and odc_crs(crs) != grid_crs:
            raise ValueError(f"crs={crs} differs from the CRS of tiles ({grid_crs})")
        out = odc_crs(grid_crs)
    else:
        if crs is None or resolution is None:
            raise ValueError("crs= and resolution= are required (or tiles= giving the grid)")
        out = odc_crs(crs)
    if resolution is not None:
        try:
            r = res(resolution)
        except (TypeError, ValueError, IndexError):
            raise ValueError(f"resolution {resolution!r} is not a number or (x, y) pair") from None
        if not (math.isfinite(r) and r != 0):
            raise ValueError(f"resolution {resolution!r} must be a finite non-zero number")
    return out


def union_geobox(footprints: Sequence[Any], crs: Any, resolution: Any, anchor: Any) -> Any:
    """The GeoBox odc.stac.load picks for all the items at crs and resolution (its
    output_geobox: the bounding box of the items' footprints in crs, snapped at resolution and
    anchor, the pixel edges by default), from the items' distinct footprints in crs."""
    from odc.geo import AnchorEnum
    from odc.geo.geobox import GeoBox
    from odc.geo.geom import bbox_union

    if not footprints:
        raise ValueError("odc-stac cannot find the items' grid: give crs= and resolution=")
    return GeoBox.from_bbox(bbox_union(g.boundingbox for g in footprints), resolution=resolution,
                            anchor=AnchorEnum.EDGE if anchor is None else anchor)


def cells(tiles: Any, union: Any, crs: Any, resolution: Any, anchor: Any, geoms: Sequence[Any]) -> list[tuple[str, Any]]:
    """[(name, GeoBox)] of the tiling over the items' footprints (geoms in crs: the distinct
    ones are enough)."""
    from odc.geo.geobox import GeoBox, GeoboxTiles
    from odc.geo.gridspec import GridSpec

    if tiles is None:
        return [("all", union)]
    if isinstance(tiles, GridSpec):
        if crs is not None and tiles.crs != crs:
            raise ValueError(f"tiles (a GridSpec in {tiles.crs}) and crs={crs} differ")
        if resolution is not None and abs(abs(tiles.resolution.x) - abs(res(resolution))) > 1e-9:
            raise ValueError(f"tiles (a GridSpec of resolution {tiles.resolution}) and resolution={resolution} differ")
        hull = _union_geom(geoms)
        return [(f"x{ix}_y{iy}", g) for (ix, iy), g in tiles.tiles_from_geopolygon(hull)]
    if isinstance(tiles, GeoboxTiles):
        hull = _union_geom([g.to_crs(tiles.base.crs) for g in geoms])
        return [(f"r{iy}_c{ix}", tiles[iy, ix]) for iy, ix in tiles.tiles(hull)]
    if isinstance(tiles, GeoBox):
        return [("cell", tiles)]
    if isinstance(tiles, Mapping):
        out = []
        for k, g in tiles.items():
            if not isinstance(g, GeoBox):
                raise TypeError(f"tiles[{k!r}] must be an odc.geo GeoBox, got {type(g).__name__}")
            out.append((str(k), g))
        return out
    if hasattr(tiles, "geometry") and hasattr(tiles, "crs") and hasattr(tiles, "index"):  # GeoDataFrame
        from odc.geo.geom import Geometry

        if tiles.crs is None:
            raise ValueError("tiles (a GeoDataFrame) has no CRS")
        col = next((c for c in ("name", "id") if c in tiles.columns), None)
        names = [str(v) for v in (tiles[col] if col else tiles.index)]
        out = []
        for name, geom in zip(names, tiles.geometry):
            if geom is None or geom.is_empty:
                raise ValueError(f"tiles: footprint {name!r} is empty")
            g = Geometry(geom, crs=tiles.crs.to_wkt()).to_crs(crs)
            out.append((name, GeoBox.from_geopolygon(g, resolution=resolution, crs=crs, anchor=anchor or "default")))
        return out
    raise TypeError(
        "tiles must be None, an odc.geo GridSpec, GeoboxTiles or GeoBox, a {name: GeoBox} mapping or a "
        f"GeoDataFrame of footprints, not {type(tiles).__name__}"
    )


def res(resolution: Any) -> float:
    """The x resolution of resolution= (a number, an (x, y) pair or odc-geo's Resolution)."""
    if isinstance(resolution, (int, float, np.integer, np.floating)):
        return float(resolution)
    x = getattr(resolution, "x", None)
    return float(x if x is not None else resolution[0])


def _union_geom(geoms: Sequence[Any]) -> Any:
    from odc.geo.geom import unary_union

    return unary_union(geoms)


def safe_name(name: str) -> str:
    """A cell's name as a file name (characters other than letters, digits and ._+- become -)."""
    s = _NAME_OK.sub("-", name)
    if not s or s.startswith("."):
        raise ValueError(f"cell name {name!r} cannot be a file name")
    return s


# --- time ranges ------------------------------------------------------------------------------

_PERIOD = re.compile(r"^P?(\d*)([YMWD])$", re.IGNORECASE)
_EPOCH_MONDAY = np.datetime64("1970-01-05", "D")


def time_ranges(time: Any) -> RangeOf | None:
    """time= -> a function from a time step's time to (range name, range spec) or None (not
    built); None for one range."""
    if time is None:
        return None
    if isinstance(time, str) and "/" not in time:
        return _period(time)
    if isinstance(time, (str, tuple)):
        time = [time]
    ranges = []
    for r in time:
        if isinstance(r, str):
            if "/" not in r:
                raise ValueError(f"time range {r!r} must be 'start/end' or a (start, end) pair")
            r = tuple(r.split("/", 1))
        if not isinstance(r, (tuple, list)) or len(r) != 2:
            raise ValueError(f"time range {r!r} must be a (start, end) pair")
        a, b = (_instant(v, "time range") for v in r)
        if b <= a:
            raise ValueError(f"time range {r!r}: end must be after start (end is exclusive)")
        ranges.append((a, b))
    if not ranges:
        raise ValueError("time= gives no range")
    srt = sorted(ranges)
    for (a0, b0), (a1, b1) in zip(srt, srt[1:]):
        if a1 < b0:
            raise ValueError(f"time ranges {_label(a0)}-{_label(b0)} and {_label(a1)}-{_label(b1)} overlap")

    def explicit(t: np.datetime64) -> tuple[str, str] | None:
        s = t.astype("datetime64[s]")
        for a, b in ranges:
            if a <= s < b:
                return f"{_label(a)}-{_label(b)}", f"{a}/{b}"
        return None

    return explicit


def _period(time: str) -> RangeOf:
    """The calendar-anchored periods of a period text ("P1M", "2Y", "W"...), in UTC."""
    m = _PERIOD.match(time.strip())
    if not m:
        raise ValueError(f"time={time!r}: a period is P<n>Y, P<n>M, P<n>W or P<n>D (e.g. 'P1M')")
    n = int(m.group(1) or 1)
    unit = m.group(2).upper()
    if n < 1:
        raise ValueError(f"time={time!r}: the period must be at least 1")
    spec = f"P{n}{unit}"

    def period(t: np.datetime64) -> tuple[str, str]:
        if unit == "Y":
            y = int(str(t.astype("datetime64[Y]"))[:4])
            y -= y % n
            return f"{y:04d}", spec
        if unit == "M":
            k = int(t.astype("datetime64[M]").astype("int64")) + 1970 * 12
            k -= k % n
            return f"{k // 12:04d}-{k % 12 + 1:02d}", spec
        d = t.astype("datetime64[D]")
        if unit == "W":
            days = int((d - _EPOCH_MONDAY).astype("int64"))
            start = _EPOCH_MONDAY + np.timedelta64(days - days % (7 * n), "D")
        else:
            days = int(d.astype("int64"))
            start = np.datetime64(days - days % n, "D")
        return str(start), spec

    return period


def _instant(v: Any, what: str) -> np.datetime64:
    """A range's start or end in whole seconds (rumi._times: ISO 8601 UTC text, datetime64,
    datetime or date)."""
    try:
        return np.datetime64(seconds(v, what), "s")
    except TypeError:
        raise ValueError(f"{what}: {v!r} is not an ISO 8601 UTC time") from None


def _label(t: np.datetime64) -> str:
    s = str(t.astype("datetime64[s]"))
    day, clock = s.split("T")
    return day.replace("-", "") + ("" if clock == "00:00:00" else "T" + clock.replace(":", ""))


def whole_second(t: Any) -> np.datetime64:
    """t rounded to the nearest second as rumi's writers round it (rumi._times), without a
    warning: a build warns once for all its times."""
    return np.datetime64(rounded_seconds(np.datetime64(t, "ns"))[0], "s")
