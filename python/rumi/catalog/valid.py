"""The valid-fraction summary (the column rumi:valid): per band and tile, an upper bound of the
fraction of samples (over all time steps) that are nodata, one byte c per tile: 255 when there is
none, else 2**(-c/16) bounds that fraction from above (c = 0: up to all of them; steps of 4.4 %,
so a tile with one nodata sample in 65,536 still reads as at least 99.998 % valid; never an
understatement of the nodata). Samplers bound a chip's valid fraction from it without reading
pixels (rumi.torch, min_valid=). The nodata test itself is rumi._nodata's."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._internal import normalize_nodata, tile_counts, valid_mask
from .._dataset import Dataset
from .._errors import FormatError
from .scan import Tiles, scan, tiles_of

#: codes per halving of the nodata fraction's bound
VALID_STEPS_PER_OCTAVE = 16


class ValidSink:
    """A sink of the pixel pass (rumi.catalog.scan) counting, per band and tile over all time
    steps, the samples that are not nodata (valid) and all samples (total): int64 (B, ny, nx)."""

    def __init__(self, tiles: Tiles) -> None:
        _, B, _, _ = tiles.shape
        self.tiles = tiles
        self.valid = np.zeros((B, tiles.ny, tiles.nx), np.int64)
        self.total = np.zeros((B, tiles.ny, tiles.nx), np.int64)

    def add(self, ty: int, ts: range, block: np.ndarray[Any, Any], masks: Sequence[np.ndarray[Any, Any] | None]) -> None:
        _, h = self.tiles.rows(ty)
        n = len(ts) * h * self.tiles.widths
        self.total[:, ty, :] += n
        for b, m in enumerate(masks):
            if m is None:
                self.valid[b, ty, :] += n
            else:
                self.valid[b, ty, :] += self.tiles.per_tile(m.sum(axis=(0, 1), dtype=np.int64))

    def value(self) -> bytes:
        """The row's rumi:valid (encode_valid of the counts)."""
        return encode_valid(self.valid, self.total).tobytes()


def valid_counts(dataset: Dataset, nodata: Sequence[float | None]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Per band and tile, the number of samples (over all time steps) that are not nodata, and
    the number of samples: two int64 arrays (B, tiles_y, tiles_x). One pass over the file
    (rumi.catalog.scan), a tile row and a bounded group of time steps at a time."""
    if len(nodata) != dataset.shape[1]:
        raise ValueError(f"nodata gives {len(nodata)} values, the file has {dataset.shape[1]} bands")
    sink = ValidSink(tiles_of(dataset))
    scan(dataset, nodata, [sink])
    return sink.valid, sink.total


def valid_fractions(dataset: Dataset, nodata: Any) -> np.ndarray[Any, Any] | None:
    """The fraction of samples that are not nodata, per band and tile over all time steps: a
    float64 array (B, tiles_y, tiles_x), or None when no band has nodata (every sample valid).
    nodata: a number for every band, or one per band (None: no nodata in that band)."""
    counts = _counts(dataset, nodata)
    if counts is None:
        return None
    out: np.ndarray[Any, Any] = counts[0] / counts[1]
    return out


def _counts(dataset: Dataset, nodata: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]] | None:
    """valid_counts of `nodata=` as users give it; None when no band has nodata."""
    nd = normalize_nodata(nodata, dataset.shape[1], dataset.path)
    return None if nd is None else valid_counts(dataset, nd)


def encode_valid(valid: np.ndarray[Any, Any], total: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Valid and total sample counts -> the uint8 codes of rumi:valid: 255 when every sample is
    valid, else the largest c <= 254 with 2**(-c/16) >= the nodata fraction (an upper bound of
    it: the valid fraction it implies is never more than the true one)."""
    valid = np.asarray(valid, np.int64)
    total = np.asarray(total, np.int64)
    bad = total - valid
    with np.errstate(divide="ignore"):
        f = bad / np.maximum(total, 1)
        c = np.floor(-VALID_STEPS_PER_OCTAVE * np.log2(np.where(bad > 0, f, 1.0)))
    c = np.clip(c, 0, 254)
    # float rounding: step down until the bound holds exactly (2**(-c/16) * total >= bad)
    while True:
        low = (bad > 0) & (np.exp2(-c / VALID_STEPS_PER_OCTAVE) * total < bad) & (c > 0)
        if not low.any():
            break
        c = np.where(low, c - 1, c)
    return np.where(bad > 0, c, 255).astype(np.uint8)


def nodata_bound(codes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """rumi:valid codes -> the upper bound of each tile's nodata fraction (0.0 for code 255)."""
    c = np.asarray(codes, np.float64)
    return np.where(c >= 255, 0.0, np.exp2(-c / VALID_STEPS_PER_OCTAVE))


def valid_summary(dataset: Dataset, nodata: Any) -> bytes | None:
    """The catalogue's rumi:valid value: encode_valid of valid_counts, B x tiles_y x tiles_x
    uint8 in C order; None when no band has nodata."""
    counts = _counts(dataset, nodata)
    return None if counts is None else encode_valid(*counts).tobytes()


def unpack_valid(blob: bytes | None, shape: Sequence[int], tile_shape: Sequence[int]) -> np.ndarray[Any, Any] | None:
    """A rumi:valid value as uint8 codes (B, tiles_y, tiles_x) (255: every sample valid; see
    nodata_bound); None stays None."""
    if blob is None:
        return None
    _, B, Y, X = shape
    th, tw = tile_shape
    want = (B, *tile_counts((Y, X), (th, tw)))
    a = np.frombuffer(blob, np.uint8)
    if a.size != math.prod(want):
        raise FormatError(f"rumi:valid has {a.size} bytes, a {B}-band file of {want[1]}x{want[2]} tiles needs {math.prod(want)}")
    return a.reshape(want)
