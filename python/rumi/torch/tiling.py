"""The one walk of chips over a raster's tiles (the per-tile catalogue summaries, rumi:valid
and rumi:classes, bound a chip's contents through it: rumi.torch.constraints, .contents), for
chips and for blocks of chips (tile_overlap_ranges); tile_sums and tile_sum_ranges: the bounds' sums over
that walk for many chips or blocks of one tile grid in one native call (rumi._rumi.tile_sums, the
walk here its reference). The tiles' samples: rumi.catalog.scan.tile_areas."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from rumi._internal import _rumi

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

    def axis(a0: Array, size: int, t: int, n: int, cells: int) -> list[tuple[Array, Array]]:
        """Per step d along the axis: each chip's tile index (clipped into the grid) and its samples
        in that tile (0 outside the grid). Many chips over few distinct offsets: computed once per
        offset and looked up (the same values)."""
        at = None
        if a0.size > 64:
            lo, hi = int(a0.min()), int(a0.max())
            if hi - lo + 1 <= a0.size // 2:
                at, a0 = a0 - lo, np.arange(lo, hi + 1, dtype=a0.dtype)
        first, end = a0 // t, a0 + size
        out = []
        for d in range(-(-size // t) + 1):
            tr = first + d
            edge = tr * t
            ov = np.maximum(np.minimum(end, np.minimum(edge + t, n)) - np.maximum(a0, edge), 0)
            ti, ov = np.minimum(np.maximum(tr, 0), cells - 1), ov * ((tr >= 0) & (tr < cells))  # none outside the grid
            out.append((ti, ov) if at is None else (ti[at], ov.astype(np.float64)[at]))  # (exact: small integers)
        return out

    cols = axis(np.asarray(c0), w, tw, X, nx)  # each column step once, not per row step
    for tri, ovr in axis(np.asarray(r0), h, th, Y, ny):
        for tci, ovc in cols:
            yield tri, tci, np.multiply(ovr, ovc, dtype=np.float64)


def tile_overlap_ranges(tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int], r1: Array, r2: Array,
                        c1: Array, c2: Array, h: int, w: int) -> tuple[Array, Array, Array, Array]:
    """tile_overlaps over blocks of chips: the h x w chips at every (r0, c0) with r1 <= r0 <=
    r2, c1 <= c0 <= c2 (per block): four (steps, blocks) arrays: per step, each block's tile row
    and column indices (clipped into the grid) and the least and the most samples any chip of
    the block has in that tile (float64, 0 outside the grid). A chip's rows in a tile are a trapezoid in r0 (rising, flat, falling):
    the least over [r1, r2] is at an end, the most at the plateau's start clipped into it; the
    columns likewise, and the samples are their product. A block of one chip gives
    tile_overlaps' samples (in another order of the steps), twice."""
    th, tw = tiles
    Y, X = shape
    ny, nx = grid

    def axis(a1: Array, a2: Array, t: int, size: int, n: int, cells: int) -> tuple[Array, Array, Array]:
        """Per tile step k (rows) and block: the tile index (clipped into the grid) and the least
        and most samples of a chip in it along this axis (0 outside the grid)."""
        tr = a1 // t + np.arange(int(((a2 + size - 1) // t - a1 // t).max(initial=0)) + 1)[:, None]
        lo_edge = tr * t
        hi_edge = np.minimum(lo_edge + t, n)

        def f(a: Array) -> Array:
            out: Array = np.maximum(np.minimum(a + size, hi_edge) - np.maximum(a, lo_edge), 0)
            return out

        inside = (tr >= 0) & (tr < cells)  # outside the grid: no samples
        least = np.minimum(f(a1), f(a2)) * inside
        most = f(np.minimum(np.maximum(np.minimum(lo_edge, hi_edge - size), a1), a2)) * inside
        return np.minimum(np.maximum(tr, 0), cells - 1), least, most

    tr, rl, rm = axis(np.asarray(r1), np.asarray(r2), th, h, Y, ny)
    tc, cl, cm = axis(np.asarray(c1), np.asarray(c2), tw, w, X, nx)
    Dr, Dc = len(tr), len(tc)
    shape = (Dr * Dc, tr.shape[1])
    least = np.multiply(rl[:, None], cl[None], dtype=np.float64).reshape(shape)  # (rows, cols, blocks) as (steps, blocks)
    most = np.multiply(rm[:, None], cm[None], dtype=np.float64).reshape(shape)
    tri = np.repeat(tr, Dc, 0)
    tci = np.tile(tc, (Dr, 1))
    return tri, tci, least, most


def tile_sums(tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int], table: Array, area: Array,
              rows: Array, r0: Array, c0: Array, h: int, w: int, lower: bool) -> Array:
    """Per h x w chip at (r0, c0) (tiles th x tw of a Y x X raster, ny x nx of them): the sum
    over the tiles it touches of a bound's term of the tile's value n in row rows[i] of table
    (float64 (files, ny x nx); area (ny x nx) the tiles' samples, each value in [0, its
    area]), ov the chip's samples in the tile (tile_overlaps'): lower, the lower bound's
    max(0, n - (area - ov)), else the upper bound's min(ov, n). The sums of the walk's terms,
    exactly (integers), in one native call; a ValueError names a bad input."""
    rows, r0, c0 = (np.ascontiguousarray(v, np.int64) for v in (rows, r0, c0))
    out = np.empty(len(r0))
    _rumi.tile_sums(tiles, shape, grid, np.ascontiguousarray(table, np.float64), np.ascontiguousarray(area, np.float64),
                    rows, r0, r0, c0, c0, (h, w), lower, out)
    return out


def tile_sum_ranges(tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int], table: Array, area: Array,
                    rows: Array, r1: Array, r2: Array, c1: Array, c2: Array, h: int, w: int,
                    lower: bool) -> tuple[Array, Array]:
    """tile_sums over blocks of chips (every (r0, c0) with r1 <= r0 <= r2, c1 <= c0 <= c2, per
    block): the sums at the least and at the most samples any chip of the block has in each
    tile (tile_overlap_ranges'); each term is nondecreasing in the samples, so least <= every
    chip's tile_sums <= most (bounds: no one chip need reach them)."""
    least, most = np.empty(len(r1)), np.empty(len(r1))
    rows, r1, r2, c1, c2 = (np.ascontiguousarray(v, np.int64) for v in (rows, r1, r2, c1, c2))
    _rumi.tile_sums(tiles, shape, grid, np.ascontiguousarray(table, np.float64), np.ascontiguousarray(area, np.float64),
                    rows, r1, r2, c1, c2, (h, w), lower, least, most)
    return least, most


def reject_draw(cells: tuple[Array, ...], inv: Array, step: Array, empty: Array, limits: list[tuple[object, ...]],
                size: tuple[int, int], seed: int, tries: int, min_tries: int, give_up: int) -> tuple[Array, Array, Array]:
    """An offset (in pixels) for each key i of file inv[i] by rejection over the file's cells
    (rumi.torch.cells.Cells.of's tuple; step (files, 2) their offsets' steps, empty: draw nothing
    for the file's keys): candidates uniform over the cells, the first that lies in the file and
    is in a sure cell or meets every class limit (limits: per limit its kind, value, steps
    needed and a FlatGroup's terms: rumi.torch.cells.bank_terms) taken, in one native call
    (rumi._rumi.reject_draw; each key its own random stream from seed). A key is left unmet
    after `tries` candidates, or once its file's keys left would need more than `give_up`
    candidates at its acceptance so far (after min_tries). (rows, columns, met)."""
    n = len(inv)
    r0, c0, met = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, bool)
    step = np.asarray(step, np.int64)
    _rumi.reject_draw(cells, np.ascontiguousarray(inv, np.int64), np.ascontiguousarray(step[:, 0]),
                      np.ascontiguousarray(step[:, 1]), np.ascontiguousarray(empty, bool), limits, size, seed, tries,
                      min_tries, give_up, r0, c0, met)
    return r0, c0, met


def decide_cells(geo: Array, labelled: Array, n: int, limits: list[tuple[object, ...]],
                 size: tuple[int, int]) -> tuple[Array, Array, Array]:
    """rumi.torch.cells.Cells.decide's cells of files whose every class limit's counts lie in one FlatBank group
    each (limits: rumi.torch.cells.bank_terms), in one native call (rumi._rumi.decide_cells): geo (files, 10)
    int64 per file its first offset, end, cell size and cells per axis and steps; labelled: its cells may be sure;
    blocks of n x n cells decided against the limits (Contents.ok_range_many's decisions), each undecided one
    halved until decided or of one cell. (each file's number of cells, every cell's number on its file's grid
    (int32) and whether it is sure), the cells of a file together."""
    count, idx, sure = _rumi.decide_cells(np.ascontiguousarray(geo, np.int64), np.ascontiguousarray(labelled, bool),
                                          int(n), limits, size)
    return np.frombuffer(count, np.int64), np.frombuffer(idx, np.int32), np.frombuffer(sure, bool)
