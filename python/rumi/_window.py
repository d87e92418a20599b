"""rumi.Window: a rectangle of pixels, as rasterio's `Window(col_off, row_off, width, height)`."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Union

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


#: what `window=` accepts
WindowLike = Union[Window, tuple[int, int, int, int], Any]


def window_offsets(window: WindowLike | None) -> tuple[int, int, int, int]:
    """(row_off, col_off, height, width) of `window`, unchecked against any raster (offsets may
    be negative: boundless reads); a TypeError for what is not a window."""
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
    return r0, c0, h, w


def window_bounds(window: WindowLike | None, length: int, width: int) -> tuple[int, int, int, int]:
    """(row_off, col_off, height, width) of `window` inside a `length` x `width` raster
    (None: all of it). RequestError when it reaches outside."""
    if window is None:
        return 0, 0, length, width
    if type(window) is Window:
        r0, c0, h, w = window.row_off, window.col_off, window.height, window.width
        if type(r0) is int and type(c0) is int and type(h) is int and type(w) is int \
                and 0 <= r0 and 0 <= c0 and 0 <= h and 0 <= w and r0 + h <= length and c0 + w <= width:
            return r0, c0, h, w  # the common case, checked without the general path's conversions
    r0, c0, h, w = window_offsets(window)
    if hasattr(window, "col_off"):
        shown = f"Window(col_off={c0}, row_off={r0}, width={w}, height={h})"
    else:
        shown = f"{(r0, c0, h, w)} (row_off, col_off, height, width)"
    if min(r0, c0) < 0 or r0 + h > length or c0 + w > width:
        raise RequestError(
            f"window {shown} is outside the {length}x{width} raster "
            "(Dataset.read(..., boundless=True, fill_value=v) fills what lies outside)"
        )
    return r0, c0, h, w
