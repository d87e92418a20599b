"""The catalogue's one pixel pass: every per-tile summary a row records (rumi:valid, the
numeric statistics rumi:stats, the class counts) is computed from ONE read of the file.

`scan(dataset, nodata, sinks)` reads the file a tile row (all columns) and a bounded group of
time steps at a time (at most SCAN_BYTES decoded) and hands each block to every sink:

    sink.add(ty, ts, block, masks)

- ty: the tile row index (0 <= ty < tiles.ny); the block's rows are tiles.rows(ty);
- ts: the time step indices of the block (a range; consecutive, ascending);
- block: the samples, a (len(ts), B, h, X) numpy array of the file's exact sample type (h the
  tile row's height, X the full width; tiles.xs / tiles.widths cut it into tiles);
- masks: per band, a (len(ts), h, X) bool array, True where the sample is not the band's nodata
  (rumi._nodata's test, GDAL's rule), or None for a band without nodata (every sample valid).
  NaN samples of a band whose nodata is not NaN are valid here, as GDAL and rumi:valid have it;
  a sink that must skip them (sums) tests for them itself.

A sink is any object with that method; it is built beforehand from the file's `Tiles`
(tiles_of(dataset)) and holds its own result. A sink must not modify block or masks (they are
shared by the sinks of one pass). `tiles.per_tile(a, ufunc)` reduces a (..., X) array over each
tile's columns (np.add, np.minimum, np.maximum). With no sink, nothing is read.

Sinks today: valid.ValidSink (rumi:valid), stats.StatsSink (rumi:stats)."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol, Sequence

import numpy as np

from .._dataset import Dataset
from .._internal import tile_counts, valid_mask
from .._window import Window

#: the most decoded bytes one block of the pass holds (a tile row x a group of time steps)
SCAN_BYTES = 64 << 20


class Sink(Protocol):
    """What the pass hands each block to (see the module's notes)."""

    def add(self, ty: int, ts: range, block: np.ndarray[Any, Any], masks: Sequence[np.ndarray[Any, Any] | None]) -> None: ...


class Tiles(NamedTuple):
    """The tiling of a file as the pass walks it: shape (T, B, Y, X), tile_shape (th, tw), tile
    counts ny, nx, and each tile column's first column xs and width widths ((nx,) int64)."""

    shape: tuple[int, int, int, int]
    tile_shape: tuple[int, int]
    ny: int
    nx: int
    xs: np.ndarray[Any, Any]
    widths: np.ndarray[Any, Any]

    def rows(self, ty: int) -> tuple[int, int]:
        """(first row, height) of tile row ty."""
        th = self.tile_shape[0]
        return ty * th, min(th, self.shape[2] - ty * th)

    def per_tile(self, a: np.ndarray[Any, Any], ufunc: Any = np.add) -> np.ndarray[Any, Any]:
        """a (..., X) reduced over each tile's columns with ufunc: (..., nx)."""
        out: np.ndarray[Any, Any] = ufunc.reduceat(a, self.xs, axis=-1)
        return out


def tile_areas(tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int]) -> np.ndarray[Any, Any]:
    """The samples of each of the ny x nx tiles th x tw of a Y x X raster (the last row and column
    cut at the raster's edge): an int64 array (ny, nx)."""
    th, tw = tiles
    Y, X = shape
    ny, nx = grid
    out: np.ndarray[Any, Any] = np.outer(np.minimum(th, Y - np.arange(ny) * th), np.minimum(tw, X - np.arange(nx) * tw))
    return out


def tiles_of(dataset: Dataset) -> Tiles:
    """The Tiles of an open dataset."""
    T, B, Y, X = dataset.shape
    th, tw = dataset.tile_shape
    ny, nx = tile_counts((Y, X), (th, tw))
    xs = np.arange(nx, dtype=np.int64) * tw
    return Tiles((T, B, Y, X), (th, tw), ny, nx, xs, np.minimum(xs + tw, X) - xs)


def scan(dataset: Dataset, nodata: Sequence[float | None], sinks: Sequence[Sink]) -> None:
    """Read the file once, a tile row and a bounded group of time steps at a time, and hand
    every block with its per-band valid masks to every sink (module notes). nodata: one value
    per band (None: no nodata in that band)."""
    T, B, Y, X = dataset.shape
    if len(nodata) != B:
        raise ValueError(f"nodata gives {len(nodata)} values, the file has {B} bands")
    if not sinks:
        return
    tiles = tiles_of(dataset)
    per_t = B * tiles.tile_shape[0] * X * dataset.sample_bytes
    step = max(1, SCAN_BYTES // max(1, per_t))
    for ty in range(tiles.ny):
        r0, h = tiles.rows(ty)
        for t0 in range(0, T, step):
            ts = range(t0, min(T, t0 + step))
            block = np.asarray(dataset.read(t=list(ts), window=Window(0, r0, X, h)))
            masks = [None if nd is None else valid_mask(block[:, b], nd) for b, nd in enumerate(nodata)]
            for s in sinks:
                s.add(ty, ts, block, masks)
