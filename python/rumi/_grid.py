"""Grids: one home for the pixel grid of a raster, `Grid(crs, transform, shape)`, and what the
package asks of one: bounds, pixel <-> CRS coordinates (affine's `transform @ (col, row)` and
`~transform @ (x, y)`), the outline in another CRS (edges densified, projected with pyproj),
how another grid's pixels align with it, and nearest-neighbour mapping of pixel centres.

Conventions, as rasterio's: `transform` maps (col, row) of pixel corners to (x, y); a window is a
rumi.Window(col_off, row_off, width, height) in whole pixels (window arithmetic: rumi._window); a
pixel centre is at (col + 0.5, row + 0.5).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, NamedTuple, Sequence

import numpy as np
from affine import Affine

from ._crs import epsg_code
from ._errors import FormatError, RequestError
from ._window import Window, window_bounds, window_transform


class BoundingBox(NamedTuple):
    """left, bottom, right, top in CRS units, as rasterio's BoundingBox."""

    left: float
    bottom: float
    right: float
    top: float


class Alignment(NamedTuple):
    """How another grid's pixels sit on this one's: each of its pixels is a block of k = (kr,
    kc) of ours, and our pixel (row, col) lies in its pixel ((row + off[0]) // kr, (col +
    off[1]) // kc)."""

    k: tuple[int, int]
    off: tuple[int, int]


@functools.lru_cache(maxsize=64)
def transformer(src: str, dst: str) -> Any:
    """pyproj's Transformer from src to dst (x/y order), kept per process."""
    import pyproj

    return pyproj.Transformer.from_crs(src, dst, always_xy=True)


def _integer(v: float, tol: float) -> int | None:
    r = round(v)
    return int(r) if abs(v - r) <= tol else None


@dataclass(frozen=True)
class Grid:
    """A raster's pixel grid: its CRS ("EPSG:n", or None when undefined), the affine.Affine of
    pixel corners and (height, width)."""

    crs: str | None
    transform: Affine
    shape: tuple[int, int]

    @staticmethod
    def from_gdal(crs: str | int | None, gt: Sequence[float], shape: Sequence[int]) -> Grid:
        """From a GDAL geotransform (x0, xres, row_rot, y0, col_rot, yres)."""
        return Grid(_crs_text(crs), Affine.from_gdal(*[float(v) for v in gt[:6]]), _shape(shape))

    @staticmethod
    def from_affine(crs: str | int | None, t: Sequence[float], shape: Sequence[int]) -> Grid:
        """From affine coefficients (a, b, c, d, e, f) as STAC's proj:transform and rasterio give them."""
        return Grid(_crs_text(crs), Affine(*[float(v) for v in t[:6]]), _shape(shape))

    @property
    def height(self) -> int:
        return self.shape[0]

    @property
    def width(self) -> int:
        return self.shape[1]

    @property
    def is_rectilinear(self) -> bool:
        """No rotation or shear: rows along y, columns along x."""
        t = self.transform
        return t.b == 0 and t.d == 0

    @property
    def res(self) -> tuple[float, float]:
        """(x, y) size of a pixel in CRS units, positive."""
        t = self.transform
        if self.is_rectilinear:
            return (abs(t.a), abs(t.e))
        # rasterio's arithmetic, to the last bit (math.hypot rounds differently)
        return (math.sqrt(t.a * t.a + t.d * t.d), math.sqrt(t.b * t.b + t.e * t.e))

    @property
    def rasterio_bounds(self) -> BoundingBox:
        """rasterio's `bounds`, to the last bit: (c, f + e * height, c + a * width, f) for a
        grid without rotation (bottom above top for a south-up grid, as rasterio gives it),
        the corners' bounding box otherwise."""
        t = self.transform
        if self.is_rectilinear:
            return BoundingBox(t.c, t.f + t.e * self.height, t.c + t.a * self.width, t.f)
        return self.bounds

    @property
    def bounds(self) -> BoundingBox:
        """The pixel corners' bounding box in the grid's CRS (left <= right, bottom <= top)."""
        xs, ys = self.xy([0, self.width, 0, self.width], [0, 0, self.height, self.height])
        return BoundingBox(float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))

    def xy(self, cols: Any, rows: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """(x, y) of pixel coordinates (cols, rows) (corners at integers, centres at + 0.5)."""
        x, y = self.transform @ (np.asarray(cols, dtype="float64"), np.asarray(rows, dtype="float64"))  # type: ignore[operator]
        return np.asarray(x), np.asarray(y)

    def colrow(self, x: Any, y: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Fractional pixel coordinates (cols, rows) of points (x, y) in the grid's CRS."""
        if self.transform.determinant == 0:
            raise RequestError(f"the grid transform {tuple(self.transform)[:6]} is degenerate")
        c, r = (~self.transform) @ (np.asarray(x, dtype="float64"), np.asarray(y, dtype="float64"))
        return np.asarray(c), np.asarray(r)

    def window_transform(self, window: Window | int | None = None, *legacy: int, **named: int) -> Affine:
        """The transform of a rumi.Window's pixel corners (also taken: row_off, col_off as
        numbers or keywords, the form before rumi.Window)."""
        return window_transform(_window_of(window, legacy, named, ("row_off", "col_off")), self.transform)

    def window_bounds(self, window: Window | int | None = None, *legacy: int, **named: int) -> BoundingBox:
        """The bounding box of a rumi.Window's pixel corners (also taken: row_off, col_off,
        height, width as numbers or keywords, the form before rumi.Window)."""
        win = _window_of(window, legacy, named, ("row_off", "col_off", "height", "width"))
        return BoundingBox(*window_bounds(win, self.transform))

    def outline(self, crs: str | int | None = None, densify: int = 16) -> np.ndarray[Any, Any]:
        """The grid's outline as an (N, 2) ring of (x, y) in `crs` (default: its own), each edge
        cut into `densify` pieces before projecting (pyproj), so that curved edges stay close.
        FormatError when it does not project (a grid outside the target CRS's domain)."""
        ts = np.linspace(0.0, 1.0, densify + 1)
        H, W = self.shape
        cols = np.concatenate([ts * W, np.full_like(ts, W), (1 - ts) * W, np.zeros_like(ts)])
        rows = np.concatenate([np.zeros_like(ts), ts * H, np.full_like(ts, H), (1 - ts) * H])
        x, y = self.xy(cols, rows)
        dst = _crs_text(crs) if crs is not None else self.crs
        if dst != self.crs:
            if self.crs is None or dst is None:
                raise RequestError("a grid with undefined georeferencing has no outline in another CRS")
            x, y = transformer(self.crs, dst).transform(x, y)
        if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
            raise FormatError(f"the outline of the {H}x{W} grid in {self.crs} does not project to {dst}")
        return np.stack([np.asarray(x), np.asarray(y)], 1)

    def aligned(self, other: Grid, tol: float = 1e-6) -> Alignment | None:
        """How `other`'s pixels align with this grid's (same CRS, no rotation, other's pixels a
        whole number k >= 1 of ours, origins an integer number of our pixels apart), or None."""
        t, o = self.transform, other.transform
        if self.crs != other.crs or not (self.is_rectilinear and other.is_rectilinear):
            return None
        kc, kr = o.a / t.a, o.e / t.e
        kci, kri = _integer(kc, 1e-9 * abs(kc)), _integer(kr, 1e-9 * abs(kr))
        oc, orr = _integer((t.c - o.c) / t.a, tol), _integer((t.f - o.f) / t.e, tol)
        if kci is None or kri is None or kci < 1 or kri < 1 or oc is None or orr is None:
            return None
        return Alignment((kri, kci), (orr, oc))

    def nearest(self, other: Grid, rows: Any, cols: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """For this grid's pixels (rows, cols) (arrays of one shape), the pixel of `other` that
        holds each one's centre (GDAL's nearest neighbour), projected through pyproj when the CRSs
        differ: (R, C, outside) where `outside` marks centres `other` does not cover (R, C are 0
        there)."""
        x, y = self.xy(np.asarray(cols) + 0.5, np.asarray(rows) + 0.5)
        if self.crs != other.crs:
            if self.crs is None or other.crs is None:
                raise RequestError("grids with undefined georeferencing cannot be matched to another CRS")
            x, y = transformer(self.crs, other.crs).transform(x, y)
        c, r = other.colrow(x, y)
        with np.errstate(invalid="ignore"):
            C, R = np.floor(c + 1e-10), np.floor(r + 1e-10)
        H, W = other.shape
        outside = ~(np.isfinite(C) & np.isfinite(R) & (C >= 0) & (C < W) & (R >= 0) & (R < H))
        return np.where(outside, 0, R).astype(np.int64), np.where(outside, 0, C).astype(np.int64), outside


#: how the two forms are named in every error about a transform
_FORMS = (
    "an affine.Affine(a, b, c, d, e, f) as transform= (rasterio's transform, STAC proj:transform and "
    "odc-geo's order), or a GDAL 6-tuple (x0, xres, row_rot, y0, col_rot, yres) as geotransform="
)


def affine_of(transform: Any = None, geotransform: Any = None) -> Affine | None:
    """The one entry point for what writers accept as a grid's transform (pixel corners):
    `transform=` an affine.Affine (or a rumi.Grid, whose transform it takes), or
    `geotransform=` six numbers in GDAL's order. The order of six bare numbers is never guessed:
    a tuple, list or array given as `transform=` is a ValueError naming both forms (as
    rasterio's guard_transform refuses GDAL-looking tuples). None when neither is given."""
    if transform is not None and geotransform is not None:
        raise ValueError(f"give transform= or geotransform=, not both: {_FORMS}")
    if geotransform is not None:
        if isinstance(geotransform, Affine):
            raise ValueError(f"geotransform= takes GDAL's 6-tuple; an affine.Affine goes to transform= ({_FORMS})")
        vals = _six(geotransform, "geotransform")
        t = Affine.from_gdal(*vals)
    elif transform is None:
        return None
    elif isinstance(transform, Grid):
        t = transform.transform
    elif isinstance(transform, Affine):
        t = transform
    elif isinstance(transform, (str, bytes)) or not hasattr(transform, "__len__"):
        raise ValueError(f"transform={transform!r} is not a transform: {_FORMS}")
    else:
        shown = tuple(transform)
        raise ValueError(
            f"transform={shown!r} is bare numbers, whose order rumi never guesses: pass {_FORMS}"
        )
    coeffs = tuple(t)[:6]
    if not all(math.isfinite(v) for v in coeffs):
        raise ValueError(f"the transform's coefficients must be finite, got {coeffs}")
    if t.determinant == 0:
        raise ValueError(f"the transform {coeffs} is degenerate (a zero pixel size or collinear axes)")
    return t


def _six(v: Any, name: str) -> tuple[float, ...]:
    try:
        vals = tuple(float(x) for x in v)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={v!r} is not six numbers: {_FORMS}") from None
    if len(vals) != 6:
        raise ValueError(f"{name}= takes six numbers, got {len(vals)}: {_FORMS}")
    return vals


def _window_of(window: Window | int | None, legacy: tuple[int, ...], named: dict[str, int],
               names: tuple[str, ...]) -> Window:
    """A Window, or the Window of the numbers `names` (row_off, col_off[, height, width]) given
    as `window`, *legacy and **named, the Grid methods' form before rumi.Window."""
    wrong = TypeError(f"give a rumi.Window, or {len(names)} numbers ({', '.join(names)})")
    if isinstance(window, Window):
        if legacy or named:
            raise wrong
        return window
    given = ((window,) if window is not None else ()) + legacy
    vals = dict(zip(names, given))
    if len(given) > len(names) or set(vals) & set(named) or set(vals) | set(named) != set(names):
        raise wrong
    vals.update(named)
    return Window(vals["col_off"], vals["row_off"], vals.get("width", 0), vals.get("height", 0))


def _crs_text(crs: str | int | None) -> str | None:
    """"EPSG:n" of an int or an "EPSG:n" string (any case); None stays None."""
    return None if crs is None else f"EPSG:{epsg_code(crs)}"


def _shape(shape: Sequence[int]) -> tuple[int, int]:
    h, w = (int(v) for v in shape[-2:])
    return (h, w)
