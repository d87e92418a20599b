"""Footprints and search boxes on the sphere: the one home of the catalogue's geometry.

A region (a file's grid outline, or a search box) has straight edges in its own CRS. It is
carried to longitude/latitude as a *lift*: a shapely polygon whose longitudes run on without
the jump at 180 degrees (they may leave [-180, 180]) and, when the region holds a pole, closed
through that pole (its longitudes then span exactly 360 degrees). Two lifts meet on the sphere
when one meets the other moved by a whole number of turns (`meets`).

What a row stores (`footprint`) follows GeoJSON (RFC 7946) and STAC: the geometry in
EPSG:4326 cut at the antimeridian into a MultiPolygon, and a bbox with xmin > xmax when it
crosses 180 degrees (a footprint around a pole: xmin -180, xmax 180, up to latitude +-90).

A search decides on a row's own grid (proj:code, proj:transform, proj:shape), so catalogues
written before these footprints (a band around the globe) answer right too (`grid_hits`): in
the box's CRS when the row shares it (exact to the last bit: a box touching a tile's edge
meets it), else the box's outline (densified) carried into the row's CRS, else (a box the
row's CRS cannot hold) both as lifts.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, Sequence

import numpy as np

from .._errors import FormatError
from .._grid import Grid
from .._internal import transformer

#: the search box's edges are cut into this many pieces before leaving its CRS
BOX_DENSIFY = 1024
#: a row outline's edges, cut into this many pieces when the exact test needs its lift
LIFT_DENSIFY = 64
#: the edges cut into this many pieces for a stored bbox (the geometry: rows.FOOTPRINT_DENSIFY)
BBOX_DENSIFY = 256
#: degrees the search box's lon/lat envelope is widened by before the coarse (bbox) test, so
#: that the curved edges between an outline's densified points stay inside it
ENVELOPE_PAD = 1e-4
#: an outline point that goes to lon/lat and back further than this (in units of the outline's
#: size) is outside the CRS's domain (pyproj returns finite nonsense there)
ROUND_TRIP_TOL = 1e-6
_GEOGRAPHIC = "EPSG:4326"


def _shapely() -> Any:
    import shapely

    return shapely


def closed_ring(corners: np.ndarray[Any, Any], densify: int) -> np.ndarray[Any, Any]:
    """The closed ring (N*densify + 1, 2) through corners (N, 2), each edge cut into `densify` pieces."""
    c = np.asarray(corners, float)
    nxt = np.roll(c, -1, axis=0)
    t = np.arange(densify)[None, :, None] / densify
    pts = (c[:, None, :] + (nxt - c)[:, None, :] * t).reshape(-1, 2)
    return np.concatenate([pts, pts[:1]])


def _poles_in(crs: str) -> list[tuple[float, np.ndarray[Any, Any]]]:
    """[(latitude, (x, y) in crs)] of the poles that crs holds (a finite point that projects back)."""
    out = []
    for lat in (90.0, -90.0):
        with np.errstate(all="ignore"):
            x, y = transformer(_GEOGRAPHIC, crs).transform(0.0, lat)
            if not (math.isfinite(x) and math.isfinite(y)):
                continue
            _, lat2 = transformer(crs, _GEOGRAPHIC).transform(x, y)
        if math.isfinite(lat2) and abs(lat2 - lat) < 1e-6:
            out.append((lat, np.array([x, y])))
    return out


def _insert_on_ring(pts: list[tuple[float, float]], p: Any) -> int:
    """Inserts point p (on or next to the ring pts, not closed) into its nearest edge; returns its index."""
    shapely = _shapely()
    arr = np.asarray(pts + [pts[0]])
    d = np.hypot(*(arr[:-1] - np.asarray(p)).T)
    k = int(np.argmin(d))
    if d[k] <= 1e-12 * (float(np.ptp(arr[:, 0]) + np.ptp(arr[:, 1])) or 1.0):
        return k
    along = float(shapely.line_locate_point(shapely.LineString(arr), shapely.Point(p)))
    cum = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(arr, axis=0).T))])
    k = min(int(np.searchsorted(cum, along, side="right")), len(pts))
    pts.insert(k, (float(p[0]), float(p[1])))
    return k


def lift(ring: np.ndarray[Any, Any], crs: str) -> Any:
    """The lift (see the module's notes) of the region inside the closed ring (N, 2) of
    points in crs (edges already densified). FormatError when the ring does not project."""
    shapely = _shapely()
    ring = np.asarray(ring, float)
    if crs == _GEOGRAPHIC:  # its own lift: longitudes as the ring has them
        return _valid(shapely.Polygon(ring))
    poly = shapely.Polygon(ring)
    size = float(np.ptp(ring[:, 0]) + np.ptp(ring[:, 1])) or 1.0
    pts = [(float(x), float(y)) for x, y in ring[:-1]]
    inside = None  # the latitude of a pole inside
    on = None  # (latitude, vertex) of a pole on the outline
    for plat, p in _poles_in(crs):
        pt = shapely.Point(p)
        dist = float(poly.boundary.distance(pt))
        if dist <= 1e-9 * size:
            on = (plat, p)
        elif poly.contains(pt):
            inside = plat
        if dist < 0.1 * size and on is None:  # the outline's point nearest the pole: its latitude extreme
            _insert_on_ring(pts, np.asarray(shapely.shortest_line(poly.boundary, pt).coords[0]))
    k_pole = _insert_on_ring(pts, on[1]) if on is not None else None
    xy = np.asarray(pts)
    with np.errstate(all="ignore"):
        lon, lat = transformer(crs, _GEOGRAPHIC).transform(xy[:, 0], xy[:, 1])
    lon, lat = np.asarray(lon, float), np.asarray(lat, float)
    n = len(lon)
    if k_pole is not None:  # start just after the pole, end just before it
        order = [(k_pole + 1 + i) % n for i in range(n - 1)]
        lon, lat = lon[order], lat[order]
    if not (np.isfinite(lon).all() and np.isfinite(lat).all()):
        raise FormatError(f"an outline in {crs} does not project to longitude/latitude")
    if k_pole is not None:
        if inside is not None:
            raise FormatError(f"an outline in {crs} holds one pole and passes through the other")
        steps = (np.diff(lon) + 180.0) % 360.0 - 180.0
        path = lon[0] + np.concatenate([[0.0], np.cumsum(steps)])
        # the pole is the segment along it from the meridian of arrival to the one of departure
        ll = np.concatenate([np.stack([path, lat], 1), [[path[-1], on[0]], [path[0], on[0]]]])  # type: ignore[index]
        return _valid(shapely.Polygon(ll))
    steps = (np.diff(np.append(lon, lon[0])) + 180.0) % 360.0 - 180.0
    total = float(steps.sum())
    if (abs(total) > 180.0) != (inside is not None):
        # a step of nearly half a turn (an edge passing close by a pole) went the wrong way
        k = int(np.argmax(np.abs(steps)))
        steps[k] -= math.copysign(360.0, steps[k]) if inside is not None else math.copysign(360.0, total)
        total = float(steps.sum())
    want = 0.0 if inside is None else math.copysign(360.0, total)  # a turn around the pole inside
    if abs(total - want) > 1.0:
        raise FormatError(f"an outline in {crs} winds {total:.1f} degrees around the poles")
    path = lon[0] + np.concatenate([[0.0], np.cumsum(steps[:-1])])
    ll = np.stack([path, lat], 1)
    if inside is not None:  # around a pole: closed through it
        ll = np.concatenate([ll, [[path[0] + want, lat[0]], [path[0] + want, inside], [path[0], inside]]])
    return _valid(shapely.Polygon(ll))


def _valid(poly: Any) -> Any:
    shapely = _shapely()
    if poly.is_valid:
        return poly
    fixed = shapely.make_valid(poly)
    parts = [g for g in shapely.get_parts(fixed) if g.geom_type == "Polygon" and g.area > 0]
    return shapely.union_all(parts) if parts else poly


def normalized(g: Any) -> Any:
    """The lift moved by whole turns so that its west edge lies in [-180, 180)."""
    shapely = _shapely()
    w = g.bounds[0]
    k = math.floor((w + 180.0) / 360.0)
    return shapely.transform(g, lambda c: c - [k * 360.0, 0.0]) if k else g


def envelope(g: Any) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of a lift as STAC writes it: longitudes in [-180, 180],
    xmin > xmax when it crosses 180 degrees, (-180, 180) when it spans all longitudes."""
    x0, y0, x1, y1 = (float(v) for v in g.bounds)
    if x1 - x0 >= 360.0 - 1e-9:
        return -180.0, y0, 180.0, y1
    k = math.floor((x0 + 180.0) / 360.0)
    x0, x1 = x0 - 360.0 * k, x1 - 360.0 * k
    if x1 > 180.0:
        x1 -= 360.0
    return x0, y0, x1, y1


def split(g: Any) -> Any:
    """A lift as GeoJSON writes it: cut at the antimeridian, each piece moved into
    [-180, 180] (a Polygon, or a MultiPolygon of the pieces)."""
    shapely = _shapely()
    g = normalized(g)
    x0, _, x1, _ = g.bounds
    if x1 <= 180.0:
        return g
    pieces = []
    for k in range(0, int(math.ceil((x1 - 180.0) / 360.0)) + 1):
        part = shapely.intersection(g, shapely.box(-180.0 + 360.0 * k, -90.0, 180.0 + 360.0 * k, 90.0))
        part = shapely.transform(part, lambda c, k=k: c - [360.0 * k, 0.0])
        pieces += [p for p in shapely.get_parts(part) if p.geom_type == "Polygon" and p.area > 0]
    if len(pieces) > 1 and x1 - x0 >= 360.0 - 1e-9:  # around a pole: one polygon over all longitudes
        whole = shapely.union_all(pieces)
        if whole.geom_type == "Polygon":
            return whole
    return pieces[0] if len(pieces) == 1 else shapely.MultiPolygon(pieces)


def grid_lift(grid: Grid, densify: int) -> Any:
    """The lift of a georeferenced grid's outline (its edges cut into `densify` pieces)."""
    assert grid.crs is not None
    corners = np.stack(grid.xy([0, grid.width, grid.width, 0], [0, 0, grid.height, grid.height]), 1)
    return lift(closed_ring(corners, densify), grid.crs)


def footprint(grid: Grid, densify: int) -> tuple[Any, tuple[float, float, float, float]]:
    """A grid's footprint in EPSG:4326 as a row stores it (GeoJSON's cut at 180 degrees; edges
    cut into `densify` pieces) and its bbox (xmin > xmax across 180 degrees; computed on edges
    cut finer, BBOX_DENSIFY, and the point nearest a pole the CRS holds)."""
    g = grid_lift(grid, densify)
    fine = grid_lift(grid, max(densify, BBOX_DENSIFY))
    return split(g), envelope(normalized(fine))


def lon_overlap(x0: Any, x1: Any, w: float, e: float) -> np.ndarray[Any, Any]:
    """Whether longitude intervals [x0, x1] (arrays; x0 > x1: across 180 degrees) meet [w, e]
    (w > e: across 180 degrees) on the circle."""
    x0, x1 = np.asarray(x0, float), np.asarray(x1, float)
    x1 = np.where(x0 > x1, x1 + 360.0, x1)
    if w > e:
        e += 360.0
    hit = np.zeros(x0.shape, bool)
    with np.errstate(invalid="ignore"):
        for k in (-360.0, 0.0, 360.0):
            hit |= (x0 <= e + k) & (x1 >= w + k)
    return hit


def lon_within(x0: Any, x1: Any, w: float, e: float) -> np.ndarray[Any, Any]:
    """Whether longitude intervals [x0, x1] (arrays; x0 > x1: across 180 degrees) lie inside
    [w, e] (e may exceed 180: across it) on the circle."""
    x0, x1 = np.asarray(x0, float), np.asarray(x1, float)
    x1 = np.where(x0 > x1, x1 + 360.0, x1)
    if e - w >= 360.0:
        return np.asarray(np.isfinite(x0) & np.isfinite(x1), bool)
    inside = np.zeros(x0.shape, bool)
    with np.errstate(invalid="ignore"):
        for k in (-360.0, 0.0, 360.0):
            inside |= (x0 >= w + k) & (x1 <= e + k)
    return inside


class Box(NamedTuple):
    """A search box: its CRS ("EPSG:n"), its corners there (w, s, e, n), its lift, and its
    lon/lat envelope as STAC writes a bbox (xmin > xmax across 180 degrees), padded."""

    crs: str
    bounds: tuple[float, float, float, float]
    lifted: Any
    env: tuple[float, float, float, float]

    @property
    def whole(self) -> bool:
        """The box holds the whole sphere (EPSG:4326, all longitudes, -90 to 90)."""
        w, s, e, n = self.bounds
        return self.crs == _GEOGRAPHIC and e - w >= 360.0 and s <= -90.0 and n >= 90.0

    @staticmethod
    def of(box: Sequence[float], crs: str) -> Box:
        w, s, e, n = (float(v) for v in box)
        if not all(math.isfinite(v) for v in (w, s, e, n)):
            raise ValueError(f"bbox {tuple(box)} must be finite numbers")
        if s > n:
            raise ValueError(f"bbox {tuple(box)}: south {s} is above north {n}")
        if crs == _GEOGRAPHIC:
            if not (-90.0 <= s and n <= 90.0):
                raise ValueError(f"bbox {tuple(box)}: latitudes must lie in [-90, 90]")
            if w > e:  # across the antimeridian (GeoJSON, STAC)
                e += 360.0
        elif w > e:
            raise ValueError(f"bbox {tuple(box)}: west {w} is east of east {e} in {crs}")
        corners = np.array([[w, s], [e, s], [e, n], [w, n]])
        shapely = _shapely()
        if crs == _GEOGRAPHIC:
            g = shapely.box(w, s, e, n)
        else:
            g = lift(closed_ring(corners, BOX_DENSIFY), crs)
        g = normalized(g)
        x0, y0, x1, y1 = envelope(g)
        y0, y1 = max(-90.0, y0 - ENVELOPE_PAD), min(90.0, y1 + ENVELOPE_PAD)
        if not (x0 == -180.0 and x1 == 180.0):
            lat = max(abs(y0), abs(y1))
            pad_x = ENVELOPE_PAD / max(math.cos(math.radians(lat)), 1e-12)
            span = x1 - x0 if x0 <= x1 else x1 + 360.0 - x0
            if span + 2 * pad_x >= 360.0:
                x0, x1 = -180.0, 180.0
            else:
                x0, x1 = _wrap(x0 - pad_x), _wrap(x1 + pad_x)
        return Box(crs, (w, s, e, n), g, (x0, y0, x1, y1))

    def in_crs(self, crs: str) -> Any:
        """The box as a polygon in crs (its outline densified), or None when crs cannot hold it
        (a point outside the CRS's domain, or the outline cut by the CRS's edges)."""
        shapely = _shapely()
        w, s, e, n = self.bounds
        ring = closed_ring(np.array([[w, s], [e, s], [e, n], [w, n]]), BOX_DENSIFY)
        with np.errstate(all="ignore"):
            x, y = transformer(self.crs, crs).transform(ring[:, 0], ring[:, 1])
            x, y = np.asarray(x, float), np.asarray(y, float)
            if not (np.isfinite(x).all() and np.isfinite(y).all()):
                return None
            # back: a point outside the domain comes back elsewhere
            bx, by = transformer(crs, self.crs).transform(x, y)
            if self.crs == _GEOGRAPHIC:
                dx = (np.asarray(bx) - ring[:, 0] + 180.0) % 360.0 - 180.0
                scale = 1.0
            else:
                dx = np.asarray(bx) - ring[:, 0]
                scale = float(np.ptp(ring[:, 0]) + np.ptp(ring[:, 1])) or 1.0
            dy = np.asarray(by) - ring[:, 1]
            if not np.all(np.hypot(dx, dy) <= ROUND_TRIP_TOL * max(scale, 1.0) + 1e-7):
                return None
            # continuous: each step's midpoint in crs comes back between the step's ends
            mx, my = (x[1:] + x[:-1]) / 2, (y[1:] + y[:-1]) / 2
            cx, cy = transformer(crs, self.crs).transform(mx, my)
            if self.crs == _GEOGRAPHIC:
                ddx = (np.asarray(cx) - (ring[1:, 0] + ring[:-1, 0]) / 2 + 180.0) % 360.0 - 180.0
            else:
                ddx = np.asarray(cx) - (ring[1:, 0] + ring[:-1, 0]) / 2
            ddy = np.asarray(cy) - (ring[1:, 1] + ring[:-1, 1]) / 2
            step = np.hypot(*np.diff(ring, axis=0).T)
            if not np.all(np.isfinite(ddx) & (np.hypot(ddx, ddy) <= step + 1e-9)):
                return None
        poly = shapely.Polygon(np.stack([x, y], 1))
        return poly if poly.is_valid else None


def _wrap(x: float) -> float:
    return x if -180.0 <= x <= 180.0 else (x + 180.0) % 360.0 - 180.0


def meets(lifts: Any, box: Any) -> np.ndarray[Any, Any]:
    """Whether each lift (an array of normalized lifts) meets the normalized lift box on the sphere."""
    shapely = _shapely()
    hit = np.zeros(len(lifts), bool)
    for k in (-2, -1, 0, 1, 2):
        moved = shapely.transform(box, lambda c, k=k: c + [360.0 * k, 0.0]) if k else box
        hit |= np.asarray(shapely.intersects(lifts, moved), bool)
    return hit


def grid_hits(crs: str, transforms: np.ndarray[Any, Any], shapes: np.ndarray[Any, Any], box: Box) -> np.ndarray[Any, Any]:
    """Whether the grids of one CRS (transforms (n, 6) in affine's order, shapes (n, 2) as
    (height, width)) meet the box (see the module's notes)."""
    shapely = _shapely()
    t = np.asarray(transforms, float)
    h, w = np.asarray(shapes, float).T
    if box.whole:
        return np.ones(len(t), bool)
    cols = np.stack([np.zeros_like(w), w, w, np.zeros_like(w)], 1)
    rows = np.stack([np.zeros_like(h), np.zeros_like(h), h, h], 1)
    a, b, c, d, e, f = (t[:, i : i + 1] for i in range(6))
    corners = np.stack([a * cols + b * rows + c, d * cols + e * rows + f], 2)  # (n, 4, 2)
    if crs == box.crs and crs != _GEOGRAPHIC:
        polys = shapely.polygons(corners)
        return np.asarray(shapely.intersects(polys, shapely.box(*box.bounds)), bool)
    if crs == _GEOGRAPHIC:  # the grids are their own lifts (normalized: whole turns off)
        turns = np.floor((corners[..., 0].min(axis=1) + 180.0) / 360.0)
        corners = corners - np.stack([360.0 * turns[:, None] * np.ones((1, 4)), np.zeros((len(t), 4))], 2)
        return meets(shapely.polygons(corners), box.lifted)
    there = box.in_crs(crs)
    if there is not None:
        return np.asarray(shapely.intersects(shapely.polygons(corners), there), bool)
    return meets(lifts(crs, corners), box.lifted)


def lifts(crs: str, corners: np.ndarray[Any, Any], densify: int = LIFT_DENSIFY) -> np.ndarray[Any, Any]:
    """The normalized lifts of outlines (corners (n, 4, 2) in crs), vectorised: one projection
    of every point, then `lift` one by one for the outlines near a pole."""
    shapely = _shapely()
    n = len(corners)
    t = np.arange(densify) / densify
    nxt = np.roll(corners, -1, axis=1)
    pts = (corners[:, :, None, :] + (nxt - corners)[:, :, None, :] * t[None, None, :, None]).reshape(n, -1, 2)
    pts = np.concatenate([pts, pts[:, :1]], axis=1)
    with np.errstate(all="ignore"):
        lon, lat = transformer(crs, _GEOGRAPHIC).transform(pts[..., 0].ravel(), pts[..., 1].ravel())
    lon, lat = np.asarray(lon, float).reshape(n, -1), np.asarray(lat, float).reshape(n, -1)
    steps = (np.diff(lon, axis=1) + 180.0) % 360.0 - 180.0
    simple = np.isfinite(lon).all(axis=1) & np.isfinite(lat).all(axis=1) & (np.abs(steps.sum(axis=1)) < 1.0)
    polys = shapely.polygons(corners)
    size = np.ptp(corners[..., 0], axis=1) + np.ptp(corners[..., 1], axis=1)
    for _, p in _poles_in(crs):  # near a pole: lift's care
        simple &= np.asarray(shapely.distance(polys, shapely.Point(p))) > 0.1 * size
    path = lon[:, :1] + np.concatenate([np.zeros((n, 1)), np.cumsum(steps, axis=1)], axis=1)
    path -= 360.0 * np.floor((path.min(axis=1, keepdims=True) + 180.0) / 360.0)
    path[:, -1] = path[:, 0]
    out = np.empty(n, dtype=object)
    if simple.any():
        out[simple] = shapely.polygons(np.stack([path, lat], -1)[simple])
    for i in np.flatnonzero(~simple):
        out[i] = normalized(lift(closed_ring(corners[i], densify), crs))
    return out


def geometry_hits(wkb: Sequence[bytes | None], box: Box) -> np.ndarray[Any, Any]:
    """Whether stored footprints (WKB in EPSG:4326, GeoJSON's cut at 180 degrees) meet the box:
    rows without a grid of their own."""
    shapely = _shapely()
    geoms = shapely.from_wkb(np.asarray(wkb, dtype=object))
    ok = ~shapely.is_missing(geoms)
    if box.whole:
        return np.asarray(ok, bool)
    out = np.zeros(len(geoms), bool)
    if ok.any():
        out[ok] = meets(geoms[ok], box.lifted)
    return out
