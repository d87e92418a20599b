"""Windows: the package's one home of window arithmetic, as rasterio's `windows.py`. A window is
`Window(col_off, row_off, width, height)` (rasterio's `Window`) everywhere inside the package;
`as_window` makes one of what `window=` accepts, `within` checks it against a raster,
`from_bounds` gives the window of CRS bounds, `covering` the window of a set of pixels,
`window_transform` a window's affine transform, `window_bounds` its bounds and `Window.crop` its
part inside a raster."""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any, Sequence, Union

import numpy as np
from affine import Affine

from ._errors import RequestError


@dataclass(frozen=True)
class Window:
    """A window of pixels: column and row offset of its top-left pixel, width and height, in
    rasterio's order. `Dataset.read(window=...)` also takes a rasterio Window, and a tuple
    `(row_off, col_off, height, width)` (rumi's order before this type, kept)."""

    col_off: int
    row_off: int
    width: int
    height: int

    @classmethod
    def from_slices(cls, rows: tuple[int, int] | slice, cols: tuple[int, int] | slice) -> Window:
        """The window of rows `start:stop` and columns `start:stop` (slices or pairs)."""
        r0, r1 = (rows.start or 0, rows.stop) if isinstance(rows, slice) else rows
        c0, c1 = (cols.start or 0, cols.stop) if isinstance(cols, slice) else cols
        if r1 is None or c1 is None:
            raise ValueError("Window.from_slices needs bounded slices")
        return cls(int(c0), int(r0), int(c1) - int(c0), int(r1) - int(r0))

    def toslices(self) -> tuple[slice, slice]:
        """(rows, cols) slices, to index a numpy array of the whole raster."""
        return (slice(self.row_off, self.row_off + self.height), slice(self.col_off, self.col_off + self.width))

    def crop(self, height: int, width: int) -> Window:
        """The part of the window inside a `height` x `width` raster (rasterio's `windows.crop`):
        offsets clipped to the raster, an empty window (width or height 0) when none is inside."""
        r0, c0 = min(max(self.row_off, 0), height), min(max(self.col_off, 0), width)
        r1 = max(0, min(self.row_off + self.height, height))
        c1 = max(0, min(self.col_off + self.width, width))
        return Window(c0, r0, max(0, c1 - c0), max(0, r1 - r0))


#: what `window=` accepts
WindowLike = Union[Window, tuple[int, int, int, int], Any]


def as_window(window: WindowLike | None) -> Window:
    """`window` as a Window of whole pixels, unchecked against any raster (offsets may be
    negative: boundless reads): a rumi or rasterio Window, or a tuple (row_off, col_off, height,
    width); a TypeError for what is not a window."""
    if window is None:
        raise ValueError("a boundless read needs a window")
    win: Any = window
    try:
        if hasattr(win, "col_off"):  # rumi.Window, rasterio.windows.Window
            r0, c0, h, w = (operator.index(round(v)) if isinstance(v, float) else operator.index(v)
                            for v in (win.row_off, win.col_off, win.height, win.width))
        else:
            r0, c0, h, w = (int(v) for v in win)
    except (TypeError, ValueError):
        raise TypeError(
            "window must be a rumi.Window(col_off, row_off, width, height) or a tuple (row_off, col_off, height, width)"
        ) from None
    if h < 0 or w < 0:
        raise RequestError(f"window height {h} and width {w} must not be negative")
    return Window(c0, r0, w, h)


def within(window: WindowLike | None, height: int, width: int) -> Window:
    """`window` (None: the whole raster) as a Window inside a `height` x `width` raster;
    RequestError when it reaches outside."""
    if window is None:
        return Window(0, 0, width, height)
    if type(window) is Window:
        r0, c0, h, w = window.row_off, window.col_off, window.height, window.width
        if type(r0) is int and type(c0) is int and type(h) is int and type(w) is int \
                and 0 <= r0 and 0 <= c0 and 0 <= h and 0 <= w and r0 + h <= height and c0 + w <= width:
            return window  # the common case, checked without the general path's conversions
    win = as_window(window)
    r0, c0, h, w = win.row_off, win.col_off, win.height, win.width
    if hasattr(window, "col_off"):
        shown = f"Window(col_off={c0}, row_off={r0}, width={w}, height={h})"
    else:
        shown = f"{(r0, c0, h, w)} (row_off, col_off, height, width)"
    if min(r0, c0) < 0 or r0 + h > height or c0 + w > width:
        raise RequestError(
            f"window {shown} is outside the {height}x{width} raster "
            "(Dataset.read(..., boundless=True, fill_value=v) fills what lies outside)"
        )
    return win


def from_bounds(left: float, bottom: float, right: float, top: float, transform: Affine) -> Window:
    """The window of pixels covering the bounds (CRS units) on the grid of `transform` (pixel
    corners): rasterio's `windows.from_bounds` (the bounding box of the four corners' pixel
    coordinates, rotated grids included) rounded outwards to whole pixels, a pixel coordinate
    within 1e-9 of an integer taken as that integer; it may reach outside the raster."""
    if transform.determinant == 0:
        raise RequestError(f"the grid transform {tuple(transform)[:6]} is degenerate")
    xs = np.asarray([left, right, left, right], dtype="float64")
    ys = np.asarray([top, top, bottom, bottom], dtype="float64")
    cs, rs = (~transform) @ (xs, ys)
    c0, r0 = math.floor(np.min(cs) + 1e-9), math.floor(np.min(rs) + 1e-9)
    c1, r1 = math.ceil(np.max(cs) - 1e-9), math.ceil(np.max(rs) - 1e-9)
    return Window(c0, r0, c1 - c0, r1 - r0)


def covering(rows: Any, cols: Any) -> Window:
    """The smallest window that holds the pixels (rows[i], cols[i]) (integer arrays, not empty)."""
    rows, cols = np.asarray(rows), np.asarray(cols)
    r0, r1, c0, c1 = int(rows.min()), int(rows.max()) + 1, int(cols.min()), int(cols.max()) + 1
    return Window(c0, r0, c1 - c0, r1 - r0)


def window_transform(window: Window, transform: Affine) -> Affine:
    """The affine transform of the window's pixel corners on the grid of `transform`
    (rasterio's `windows.transform`)."""
    return transform @ Affine.translation(window.col_off, window.row_off)


def window_bounds(window: Window, transform: Affine | Sequence[float]) -> tuple[float, float, float, float]:
    """(left, bottom, right, top): the bounding box of the window's pixel corners on the grid of
    `transform` (an Affine or its coefficients a..f): the window's transform composed as affine
    composes it, then its four corners, in plain floats (a training batch asks for every chip's)."""
    sa, sb, sc, sd, se, sf = tuple(transform)[:6]
    c0, r0, w, h = window.col_off, window.row_off, window.width, window.height
    # transform @ Affine.translation(c0, r0), as affine composes them
    a, b, c = sa * 1.0 + sb * 0.0, sa * 0.0 + sb * 1.0, sa * c0 + sb * r0 + sc
    d, e, f = sd * 1.0 + se * 0.0, sd * 0.0 + se * 1.0, sd * c0 + se * r0 + sf
    corners = ((0.0, 0.0), (float(w), 0.0), (0.0, float(h)), (float(w), float(h)))
    xs = [vx * a + vy * b + c for vx, vy in corners]
    ys = [vx * d + vy * e + f for vx, vy in corners]
    return (min(xs), min(ys), max(xs), max(ys))
