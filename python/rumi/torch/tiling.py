"""The one walk of chips over a raster's tiles (the per-tile catalogue summaries, rumi:valid
and rumi:classes, bound a chip's contents through it: rumi.torch.constraints, .contents)."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from .dtypes import Array


def tile_overlaps(tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int], r0: Array, c0: Array, h: int,
                  w: int) -> Iterator[tuple[Array, Array, Array]]:
    """The one walk over the tiles h x w chips at (r0, c0) overlap (tiles th x tw of a Y x X
    raster, ny x nx of them): per step, each chip's tile (row, col) indices (clipped into the
    grid) and the samples of the chip in that tile (float64, 0 where the tile lies outside the
    chip or the grid). Every tile a chip touches is visited once (a step may also visit a tile
    past the chip's end, with 0 samples)."""
    th, tw = tiles
    Y, X = shape
    ny, nx = grid
    for di in range(-(-h // th) + 1):
        tr = r0 // th + di
        ovr = np.clip(np.minimum(np.minimum(r0 + h, (tr + 1) * th), Y) - np.maximum(r0, tr * th), 0, None)
        rin = (tr >= 0) & (tr < ny)
        tri = np.clip(tr, 0, ny - 1)
        for dj in range(-(-w // tw) + 1):
            tc = c0 // tw + dj
            ovc = np.clip(np.minimum(np.minimum(c0 + w, (tc + 1) * tw), X) - np.maximum(c0, tc * tw), 0, None)
            inside = rin & (tc >= 0) & (tc < nx)
            yield tri, np.clip(tc, 0, nx - 1), np.where(inside, ovr * ovc, 0).astype(np.float64)


def tile_areas(tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int]) -> Array:
    """The samples of each of the ny x nx tiles th x tw of a Y x X raster (the last row and column
    cut at the raster's edge): an int64 array (ny, nx)."""
    th, tw = tiles
    Y, X = shape
    ny, nx = grid
    out: Array = np.outer(np.minimum(th, Y - np.arange(ny) * th), np.minimum(tw, X - np.arange(nx) * tw))
    return out
