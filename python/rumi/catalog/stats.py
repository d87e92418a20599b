"""Numeric statistics: recorded per file when it is catalogued (the column rumi:stats, a sink of
the one pixel pass rumi.catalog.scan), and of a selection from them (`stats`, Catalog.stats).

What a row records, per band, of the VALID samples (not the band's nodata, by rumi._nodata's
test, and not NaN), in raw stored values (before scale and offset), as "pieces" of five numbers:
count, sum, m2 (the sum of squared deviations from the piece's own mean, so that variances
combine without cancellation, Chan et al.), min and max. Two levels:

- cells: per band and cell over all time steps, a cell a block of whole tiles, at most
  STATS_CELLS x STATS_CELLS cells a band (a file of up to 4 x 4 tiles: a cell per tile);
- steps: per band and time step over the whole file (only when the file has several steps; for
  one step it is the sum of the cells).

The value (RST2) is little-endian bytes: b"RST2", uint16 cell height and width in tiles, uint16
flags (1: the steps level follows; 2: m2 is float64; 4: byte planes, always; 8: integer
samples), then uint8 byte widths of the missing counts, the sums, min/max and m2 (the head,
_HEAD2); with flag 8 the row's lowest min (int64); then each level's five arrays, the steps
level (B, T) first, then the cells level (B, cells down, cells across), C order, each as byte
planes (its values' first bytes, then their second bytes...: Parquet's zstd finds the zeros):

- count: the piece's samples less its count (a full piece: 0; all full: width 0, no byte);
- sum: with integer samples (flag 8: every sum, min and max an integer within 2**53), the sum
  less count x min in units of 2**e, e the largest that keeps the unit under 2**-SUM_BITS of
  n x the piece's std (0, the sum exact, while that is under 1; derived from the stored n and
  m2, so not stored): each piece's mean within 2**-23 of its std, so a selection's mean within
  2**-23 (1.2e-7) of its std and its variance within 2**-22 relative; otherwise float64 (exact);
- m2: float32's top 24 bits (2**-16 relative: a selection's std to 8e-6), float64 (flag 2) when a value
  passes float32's range;
- min and max: with flag 8 less the row's lowest min (exact), else float64 (exact for every
  sample type but 64-bit integers beyond 2**53, rounded to the nearest float64 as their sums
  are); an empty piece stores zeros and reads back as min +inf, max -inf.

RST1, the first encoding (count int64, sum float64, m2 float32 or float64, min and max float64,
optionally byte-shuffled; a 10-byte head), is still read; any other value is a FormatError.
A row is null when the file's samples are complex, or when the catalogue was written before
the column (stats() then names those files and says to append them again).

Size: 14 (+ 8) + B x (T + cells) x (count + sum + 3 + 2 x min/max widths) bytes before
compression (T: 0 for one step): a 4-band, 48-step Sentinel-2-like Cube of 16 x 16 tiles
(docs/scaling.md's rows) holds 4 x (48 + 16) pieces, about 3.6 KB raw, 2.5 KB in Parquet
(RST1: 9.2 KB, 3.5 KB); docs/scaling.md gives the measurements. Searches do not read the
column: Catalog.stats reads it for the selection.

A selection's statistics combine the pieces each row's selected steps and cells give:
a row wholly inside the search's box (its footprint within the box's lift; else each cell is
tested in the file's CRS against the box carried there) takes its steps (or cells, all steps
selected); a row cut by the box takes the cells wholly inside, and reads the pixels of the cells the box's edge crosses
(exact=True, the default: a pixel counts when its centre lies inside the box carried into the
file's CRS) or counts those cells whole (exact=False: no pixel read; a superset at the box's
edge); a row cut by both the box and the time window reads its cells in the box for the steps
selected (the catalogue has no per-step, per-cell piece). Stats.read_files says how many files
were read."""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from .._errors import FormatError, RequestError
from .._internal import tile_counts, valid_mask
from .._window import Window
from . import columns as K
from .scan import Tiles

Array = np.ndarray[Any, Any]

#: at most this many cells across and down a band (a cell: a block of whole tiles)
STATS_CELLS = 4
#: the value's first bytes: the encoding written (RST2); MAGIC_V1, the first, is still read
MAGIC = b"RST2"
MAGIC_V1 = b"RST1"
_HEAD = np.dtype([("magic", "S4"), ("cy", "<u2"), ("cx", "<u2"), ("flags", "<u2")])  # RST1's head
#: RST2's head: RST1's, then the byte widths of the missing counts, the sums (less count x min),
#: min and max (less the row's lowest min) and m2 (3: float32's top 24 bits; 8: float64)
_HEAD2 = np.dtype([("magic", "S4"), ("cy", "<u2"), ("cx", "<u2"), ("flags", "<u2"),
                   ("wdef", "u1"), ("wsum", "u1"), ("wmm", "u1"), ("wm2", "u1")])
_STEPS = 1
_M2_WIDE = 2  # m2 as float64 (a value past float32's range)
_SHUFFLED = 4  # each array byte-shuffled (RST2: always)
_INT = 8  # RST2: sums, min and max integers (relative, narrowest width); else float64
#: RST2 stores a piece's sum of integer samples to 2**-SUM_BITS of n x its std (the mean to
#: 2**-(SUM_BITS + 1) of the std: a selection's mean and std then within 1.2e-7 of its std)
SUM_BITS = 22
#: RST1's five arrays of a level, in their order and types (m2: "<f8" with flag _M2_WIDE)
FIELDS = (("count", "<i8"), ("sum", "<f8"), ("m2", "<f4"), ("min", "<f8"), ("max", "<f8"))
_M2_RANGE = float(np.finfo(np.float32).max) / 2


class Pieces(NamedTuple):
    """Statistics pieces: n (the count), sum, m2 (squared deviations from the piece's mean), min, max,
    arrays of one shape (an empty piece: count 0, min +inf, max -inf)."""

    n: Array
    sum: Array
    m2: Array
    min: Array
    max: Array

    @staticmethod
    def empty(shape: tuple[int, ...]) -> Pieces:
        return Pieces(np.zeros(shape, np.int64), np.zeros(shape), np.zeros(shape), np.full(shape, np.inf), np.full(shape, -np.inf))

    def flat(self) -> Pieces:
        return Pieces(*(np.ravel(a) for a in self))

    def take(self, idx: Any) -> Pieces:
        return Pieces(*(a[idx] for a in self))


def merge(a: Pieces, b: Pieces) -> Pieces:
    """Two pieces (arrays of one shape) combined element by element (Chan et al.'s update)."""
    n = a.n + b.n
    nz = np.maximum(n, 1)
    ma = a.sum / np.maximum(a.n, 1)
    mb = b.sum / np.maximum(b.n, 1)
    m2 = a.m2 + b.m2 + (mb - ma) ** 2 * (a.n * (b.n / nz))
    return Pieces(n, a.sum + b.sum, m2, np.minimum(a.min, b.min), np.maximum(a.max, b.max))


def total(p: Pieces, axis: int | None = None) -> Pieces:
    """The pieces along axis (None: all) combined into one each."""
    p = p if axis is not None else p.flat()
    ax = 0 if axis is None else axis
    n = p.n.sum(axis=ax)
    s = p.sum.sum(axis=ax)
    mean = s / np.maximum(n, 1)
    mi = p.sum / np.maximum(p.n, 1)
    dev = np.where(p.n > 0, mi - np.expand_dims(mean, ax), 0.0)
    m2 = p.m2.sum(axis=ax) + (p.n * dev**2).sum(axis=ax)
    return Pieces(n, s, m2, p.min.min(axis=ax, initial=np.inf), p.max.max(axis=ax, initial=-np.inf))


def pieces_of(x: Array, m: Array | None, axes: tuple[int, ...]) -> Pieces:
    """The pieces of float64 samples x where m (valid; None: every sample), reduced over axes
    (two passes: the mean first, then the squared deviations)."""
    if m is None:  # every sample valid: no masking
        shape = [k for i, k in enumerate(x.shape) if i not in axes]
        n = np.full(shape, int(np.prod([x.shape[i] for i in axes])), np.int64)
        s = x.sum(axis=axes)
        d = x - np.expand_dims(s / np.maximum(n, 1), axes)
        d *= d
        return Pieces(n, s, d.sum(axis=axes), x.min(axis=axes, initial=np.inf), x.max(axis=axes, initial=-np.inf))
    n = m.sum(axis=axes, dtype=np.int64)
    xv = np.where(m, x, 0.0)
    s = xv.sum(axis=axes)
    mean = s / np.maximum(n, 1)
    d = np.where(m, x - np.expand_dims(mean, axes), 0.0)
    d *= d
    xv[~m] = np.inf
    lo = xv.min(axis=axes, initial=np.inf)
    xv[~m] = -np.inf
    return Pieces(n, s, d.sum(axis=axes), lo, xv.max(axis=axes, initial=-np.inf))


def samples(a: Array) -> Array:
    """Samples as float64 (64-bit integers rounded to the nearest float64)."""
    return np.asarray(a, np.float64) if a.dtype.kind in "biuf" else np.asarray(a.astype(np.float32), np.float64)


def valid_samples(a: Array, nodata: float | None, mask: Array | None = None) -> tuple[Array, Array | None]:
    """(float64 samples, valid: not nodata and not NaN; None when every sample is) of a block of
    one band."""
    x = samples(a)
    m = valid_mask(a, nodata) if mask is None and nodata is not None else mask
    if a.dtype.kind in "biu":
        return x, m
    nan = np.isnan(x)
    if not nan.any():
        return x, m
    return x, ~nan if m is None else (m & ~nan)


def cell_factors(ny: int, nx: int) -> tuple[int, int]:
    """Tiles per cell (down, across) of a file of ny x nx tiles: at most STATS_CELLS cells each way."""
    return max(1, -(-ny // STATS_CELLS)), max(1, -(-nx // STATS_CELLS))


class StatsSink:
    """A sink of the pixel pass (rumi.catalog.scan) accumulating the pieces of both levels;
    value() is the row's rumi:stats (None for complex samples)."""

    def __init__(self, tiles: Tiles, dtype: Any) -> None:
        T, B, _, _ = tiles.shape
        self.tiles = tiles
        self.complex = np.dtype(dtype).kind == "c" if _is_numpy_dtype(dtype) else False
        self.cy, self.cx = cell_factors(tiles.ny, tiles.nx)
        self.ncy, self.ncx = -(-tiles.ny // self.cy), -(-tiles.nx // self.cx)
        self.cxs = tiles.xs[:: self.cx]  # each cell column's first column
        self.steps = Pieces.empty((B, T))
        self.cells = Pieces.empty((B, self.ncy, self.ncx))

    def add(self, ty: int, ts: range, block: Array, masks: Sequence[Array | None]) -> None:
        if self.complex or block.dtype.kind == "c":
            self.complex = True
            return
        cy = ty // self.cy
        sl = slice(ts.start, ts.stop)
        for b, m in enumerate(masks):
            x, ok = valid_samples(block[:, b], None, m)
            st = pieces_of(x, ok, (1, 2))  # (t,)
            cur = self.steps.take((b, sl))
            new = merge(cur, st)
            for a, v in zip(self.steps, new):
                a[b, sl] = v
            cols = pieces_of(x, ok, (0, 1))  # (X,): per column, then per cell
            cell = _reduce_cols(cols, self.cxs)
            cur = self.cells.take((b, cy))
            new = merge(cur, cell)
            for a, v in zip(self.cells, new):
                a[b, cy] = v

    def value(self) -> bytes | None:
        if self.complex:
            return None
        return encode_stats(self.tiles.shape, self.tiles.tile_shape, self.cy, self.cx,
                            self.steps if self.tiles.shape[0] > 1 else None, self.cells)


def encode_stats(shape: Sequence[int], tile_shape: Sequence[int], cy: int, cx: int, steps: Pieces | None, cells: Pieces) -> bytes:
    """A rumi:stats value (module notes, RST2) of a file of shape (T, B, Y, X) and tiles
    tile_shape: cells of cy x cx tiles, the steps level (B, T) (None: one step) and the cells
    level (B, cells down, cells across)."""
    levels = ((steps,) if steps is not None else ()) + (cells,)
    fulls = _full_counts(shape, tile_shape, cy, cx, steps is not None)
    wide = any(not (lv.m2 <= _M2_RANGE).all() for lv in levels)  # past float32 (or NaN: inf samples)
    n = np.concatenate([np.ravel(lv.n) for lv in levels]).astype(np.int64)
    full = np.concatenate([np.broadcast_to(f, lv.n.shape).ravel() for f, lv in zip(fulls, levels)])
    if (n < 0).any() or (n > full).any():
        raise ValueError(f"rumi:stats: counts outside 0..the piece's samples ({int(n.min())}..{int((n - full).max())} past)")
    if wide:
        m2s = np.concatenate([np.ravel(lv.m2) for lv in levels]).astype("<f8").view("<u8")
        m2d = m2s.view("<f8")
    else:  # float32 rounded to its top 24 bits (the mantissa's last 8 off: 2**-16 relative)
        bits = np.concatenate([np.ravel(lv.m2) for lv in levels]).astype("<f4").view("<u4").astype("<u8")
        m2s = (bits + 0x80) >> np.uint64(8)
        m2d = _m2_of(m2s)
    lo_hi = _integers(levels, n, _quantum_bits(n, m2d))
    flags = (_STEPS if steps is not None else 0) | (_M2_WIDE if wide else 0) | _SHUFFLED | (_INT if lo_hi is not None else 0)
    body = []
    wdef = _width(int((full - n).max(initial=0)))
    if lo_hi is not None:
        lo, sums, mins, maxs = lo_hi
        wsum, wmm = _width(int(sums.max(initial=0))), _width(int(maxs.max(initial=0)))
        body.append(np.array([lo], "<i8").tobytes())
    else:
        wsum = wmm = 8
    wm2 = 8 if wide else 3
    pos = 0
    for lv in levels:
        m = lv.n.size
        k = slice(pos, pos + m)
        body.append(_planes_of((full[k] - n[k]).astype("<u8"), wdef))
        if lo_hi is not None:
            body.append(_planes_of(sums[k], wsum))
        else:
            body.append(_planes_of(np.ravel(lv.sum).astype("<f8").view("<u8"), 8))
        body.append(_planes_of(m2s[k], wm2))
        for a in ((mins[k], maxs[k]) if lo_hi is not None else (np.ravel(lv.min), np.ravel(lv.max))):
            body.append(_planes_of(a, wmm) if lo_hi is not None else _planes_of(np.asarray(a, "<f8").view("<u8"), 8))
        pos += m
    raw = b"".join(body)
    head = np.zeros(1, _HEAD2)
    head["magic"], head["cy"], head["cx"], head["flags"] = MAGIC, cy, cx, flags
    head["wdef"], head["wsum"], head["wmm"], head["wm2"] = wdef, wsum, wmm, wm2
    return head.tobytes() + raw


def _quantum_bits(n: Array, m2: Array) -> Array:
    """Per piece, e: its sum is stored in units of 2**e, the largest power of two at most
    2**-SUM_BITS x sqrt(n x m2) (n x its std; 0 when that is under 1: the sum exact). The piece's
    mean is then within 2**-(SUM_BITS + 1) of its std; computed alike from the stored n and m2."""
    _, ex = np.frexp(np.sqrt(np.asarray(n, np.float64) * np.maximum(np.asarray(m2, np.float64), 0.0)))
    out: Array = np.clip(ex.astype(np.int64) - 1 - SUM_BITS, 0, 62).astype(np.uint64)
    return out


def _m2_of(top: Array) -> Array:
    """m2 stored as float32's top 24 bits (uint64) -> float64."""
    out: Array = (np.asarray(top, np.uint64) << np.uint64(8)).astype("<u4").view("<f4").astype(np.float64)
    return out


def _integers(levels: Sequence[Pieces], n: Array, e: Array) -> tuple[int, Array, Array, Array] | None:
    """(lo, (sum - count * min) / 2**e rounded, min - lo, max - lo) as uint64, all pieces flat,
    when every sum, min and max is an integer of at most 2**53 (the samples were integers: the
    sums exact); else None. Empty pieces: zeros."""
    s = np.concatenate([np.ravel(lv.sum) for lv in levels])
    lo_ = np.concatenate([np.ravel(lv.min) for lv in levels])
    hi_ = np.concatenate([np.ravel(lv.max) for lv in levels])
    ne = n > 0
    vals = np.concatenate([s, lo_[ne], hi_[ne]])
    if not (np.isfinite(vals).all() and (np.abs(vals) <= 2.0**53).all() and (vals == np.round(vals)).all()):
        return None
    if not ne.any():
        z = np.zeros(len(n), np.uint64)
        return 0, z, z, z
    lo = int(lo_[ne].min())
    mn = np.where(ne, lo_, lo).astype(np.int64)
    mx = np.where(ne, hi_, lo).astype(np.int64)
    if not (np.abs(n.astype(np.float64) * mn) < 2.0**62).all():
        return None
    sp = s.astype(np.int64) - n * mn
    if (sp < 0).any() or (mn < lo).any() or (mx < mn).any():
        return None
    q = sp.astype(np.uint64)
    half = np.where(e > 0, np.uint64(1) << (e - np.uint64(1)), np.uint64(0))
    return lo, (q + half) >> e, (mn - lo).astype(np.uint64), (mx - lo).astype(np.uint64)


def _width(v: int) -> int:
    """The bytes that hold the unsigned v (0 for 0)."""
    return (v.bit_length() + 7) // 8


def _planes_of(a: Array, w: int) -> bytes:
    """The w low bytes of the uint64 values a as byte planes (every value's first byte, then every
    value's second...)."""
    b = np.ascontiguousarray(a, "<u8").reshape(-1).view(np.uint8).reshape(-1, 8)[:, :w]
    return np.ascontiguousarray(b.T).tobytes()


def _from_planes(raw: Array, w: int, m: int) -> Array:
    """Byte planes (k, w * m) -> (k, m) uint64."""
    k = raw.shape[0]
    out = np.zeros((k, m, 8), np.uint8)
    if w:
        out[:, :, :w] = raw.reshape(k, w, m).transpose(0, 2, 1)
    return out.view("<u8").reshape(k, m)


def _full_counts(shape: Sequence[int], tile_shape: Sequence[int], cy: int, cx: int, has_steps: bool) -> list[Array]:
    """The samples of each piece when all are valid: the steps level's (a scalar: Y x X), then the
    cells level's (cells down, cells across: each cell's pixels x T)."""
    T, _, Y, X = (int(v) for v in shape)
    ch, cw = cy * int(tile_shape[0]), cx * int(tile_shape[1])
    hs = np.minimum(ch, Y - np.arange(0, Y, ch))
    ws = np.minimum(cw, X - np.arange(0, X, cw))
    cells = (hs[:, None] * ws[None, :] * T).astype(np.int64)
    return ([np.asarray(Y * X, np.int64)] if has_steps else []) + [cells]


def _decode(mat: Array, shape: Sequence[int], tile_shape: Sequence[int]) -> tuple[int, int, list[Pieces]]:
    """Rows of rumi:stats values (k, L) uint8 of one layout (the first
    row's head; the caller groups by it) and of files of one shape and tiling -> (cy, cx, levels:
    the steps level (k, B, T) when recorded, then the cells level (k, B, cells down, across)).
    A FormatError when the bytes do not fit the shape."""
    T, B, Y, X = (int(v) for v in shape)
    ny, nx = tile_counts((Y, X), (int(tile_shape[0]), int(tile_shape[1])))
    k, L = mat.shape
    magic = bytes(mat[0, :4])
    if magic == MAGIC_V1:
        return _decode_v1(mat, T, B, ny, nx)
    if magic != MAGIC or L < _HEAD2.itemsize:
        raise FormatError(f"rumi:stats begins with {magic!r}, not {MAGIC!r} or {MAGIC_V1!r} (written by a later rumi?)")
    head = np.frombuffer(mat[0, : _HEAD2.itemsize].tobytes(), _HEAD2)[0]
    cy, cx, flags = int(head["cy"]), int(head["cx"]), int(head["flags"])
    wdef, wsum, wmm, wm2 = (int(head[f]) for f in ("wdef", "wsum", "wmm", "wm2"))
    known = _STEPS | _M2_WIDE | _SHUFFLED | _INT
    integer = bool(flags & _INT)
    if (cy < 1 or cx < 1 or flags & ~known or not flags & _SHUFFLED or max(wdef, wsum, wmm) > 8
            or wm2 != (8 if flags & _M2_WIDE else 3) or (not integer and (wsum, wmm) != (8, 8))):
        raise FormatError(f"rumi:stats (RST2) has cells of {cy} x {cx} tiles, flags {flags}, widths {wdef}/{wsum}/{wmm}/{wm2}")
    ncy, ncx = -(-ny // cy), -(-nx // cx)
    has_steps = bool(flags & _STEPS)
    shapes = ([(B, T)] if has_steps else []) + [(B, ncy, ncx)]
    width = wdef + wsum + wm2 + 2 * wmm
    want = _HEAD2.itemsize + (8 if integer else 0) + sum(width * math.prod(s) for s in shapes)
    if L != want:
        raise FormatError(f"rumi:stats has {L} bytes, a {B}-band file of {T} steps and {ncy} x {ncx} cells "
                          f"with these widths needs {want}")
    pos = _HEAD2.itemsize
    lo = np.zeros(k, np.int64)
    if integer:
        lo = np.ascontiguousarray(mat[:, pos:pos + 8]).view("<i8")[:, 0]
        pos += 8
    levels = []
    for s, full in zip(shapes, _full_counts(shape, tile_shape, cy, cx, has_steps)):
        m = math.prod(s)
        ws = [wdef, wsum, wm2, wmm if integer else 8, wmm if integer else 8]
        d, sp, bits, a_lo, a_hi = (_from_planes(mat[:, q - w * m:q], w, m) for w, q in zip(ws, pos + np.cumsum(ws) * m))
        pos += sum(ws) * m
        fl = np.broadcast_to(full, s).reshape(1, m)
        if (d > fl.astype(np.uint64)).any():
            raise FormatError("rumi:stats: a piece's missing samples exceed its samples")
        n = fl - d.astype(np.int64)
        m2 = bits.view("<f8") if wm2 == 8 else _m2_of(bits)
        if integer:
            mn = a_lo.astype(np.int64) + lo[:, None]
            mx = a_hi.astype(np.int64) + lo[:, None]
            unit = (np.uint64(1) << _quantum_bits(n, m2)).astype(np.float64)
            sm = ((sp << _quantum_bits(n, m2)).astype(np.int64) + n * mn).astype(np.float64)
            lo_f, hi_f = mn.astype(np.float64), mx.astype(np.float64)
            span = (hi_f - lo_f) * n
            if ((n > 0) & ((mx < mn) | (sm - lo_f * n > span + unit) | (m2 > span * (hi_f - lo_f) / 4 * (1 + 2.0**-14) + 1))).any():
                raise FormatError("rumi:stats: a piece's mean or spread lies outside its min and max (a corrupt value?)")
        else:
            sm, lo_f, hi_f = sp.view("<f8"), a_lo.view("<f8"), a_hi.view("<f8")
        empty = n == 0
        p = Pieces(n, np.where(empty, 0.0, sm), np.where(empty, 0.0, m2.astype(np.float64)),
                   np.where(empty, np.inf, lo_f), np.where(empty, -np.inf, hi_f))
        levels.append(Pieces(*(a.reshape((k,) + s) for a in p)))
    return cy, cx, levels


def _decode_v1(mat: Array, T: int, B: int, ny: int, nx: int) -> tuple[int, int, list[Pieces]]:
    """RST1, the first encoding (count int64, sum float64, m2 float32 or float64, min and max
    float64, plain or byte-shuffled): written by catalogues of 2026-12-07 before 10:00."""
    k, L = mat.shape
    head = np.frombuffer(mat[0, : _HEAD.itemsize].tobytes(), _HEAD)[0]
    cy, cx, flags = int(head["cy"]), int(head["cx"]), int(head["flags"])
    if cy < 1 or cx < 1 or flags & ~(_STEPS | _M2_WIDE | _SHUFFLED):
        raise FormatError(f"rumi:stats has cells of {cy} x {cx} tiles and flags {flags}")
    ncy, ncx = -(-ny // cy), -(-nx // cx)
    shapes = ([(B, T)] if flags & _STEPS else []) + [(B, ncy, ncx)]
    types = _types(bool(flags & _M2_WIDE))
    width = sum(np.dtype(dt).itemsize for dt in types)
    want = _HEAD.itemsize + sum(width * math.prod(s) for s in shapes)
    if L != want:
        raise FormatError(f"rumi:stats has {L} bytes, a {B}-band file of {T} steps and {ncy} x {ncx} cells needs {want}")
    pos = _HEAD.itemsize
    levels = []
    for s in shapes:
        arrs = []
        for dt in types:
            size = math.prod(s) * np.dtype(dt).itemsize
            arrs.append(_unshuffle(mat[:, pos:pos + size], dt, bool(flags & _SHUFFLED)).reshape((k,) + s))
            pos += size
        levels.append(Pieces(*arrs))
    return cy, cx, levels


def _unshuffle(raw: Array, dt: str, shuffled: bool) -> Array:
    """Byte rows (k, count * itemsize) of one array -> its values (k, count), as float64 or int64."""
    size = np.dtype(dt).itemsize
    k = raw.shape[0]
    if shuffled:
        raw = raw.reshape(k, size, -1).transpose(0, 2, 1)
    out: Array = np.ascontiguousarray(raw).view(dt).reshape(k, -1).astype(np.int64 if dt == "<i8" else np.float64)
    return out


def _types(wide: bool) -> list[str]:
    """The five arrays' types (m2 float64 when wide)."""
    return [dt if name != "m2" or not wide else "<f8" for name, dt in FIELDS]


def _is_numpy_dtype(dtype: Any) -> bool:
    try:
        np.dtype(dtype)
        return True
    except TypeError:
        return False


def _reduce_cols(cols: Pieces, starts: Array) -> Pieces:
    """Per-column pieces -> per-cell pieces (columns starts[k]:starts[k + 1])."""
    n = np.add.reduceat(cols.n, starts)
    s = np.add.reduceat(cols.sum, starts)
    mean = s / np.maximum(n, 1)
    widths = np.diff(np.append(starts, len(cols.n)))
    mc = cols.sum / np.maximum(cols.n, 1)
    dev = np.where(cols.n > 0, mc - np.repeat(mean, widths), 0.0)
    m2 = np.add.reduceat(cols.m2 + cols.n * dev**2, starts)
    return Pieces(n, s, m2, np.minimum.reduceat(cols.min, starts), np.maximum.reduceat(cols.max, starts))


class FileStats(NamedTuple):
    """A row's rumi:stats decoded: tiles per cell (cy, cx), the steps level (B, T) (None: one
    step) and the cells level (B, cells down, cells across)."""

    cy: int
    cx: int
    steps: Pieces | None
    cells: Pieces

    def whole(self, b: int, steps: Sequence[int] | None = None) -> Pieces:
        """Band b's piece of the whole file, over the given steps (None: all)."""
        if steps is None or self.steps is None:
            return total(self.cells.take(b))
        return total(self.steps.take((b, list(steps))))


def unpack_stats(blob: bytes | memoryview | Array | None, shape: Sequence[int], tile_shape: Sequence[int]) -> FileStats | None:
    """A rumi:stats value (RST2, or the first encoding RST1) as FileStats (None stays None); a
    FormatError when its bytes or cells do not fit the row's shape and tiles."""
    if blob is None:
        return None
    raw = np.frombuffer(blob, np.uint8)
    if len(raw) < _HEAD.itemsize:
        raise FormatError(f"rumi:stats has {len(raw)} bytes: not a value")
    cy, cx, levels = _decode(raw[None, :], shape, tile_shape)
    one = [Pieces(*(a[0] for a in lv)) for lv in levels]
    return FileStats(cy, cx, one[0] if len(one) == 2 else None, one[-1])


# -- statistics of a selection ---------------------------------------------------------------


@dataclass(frozen=True)
class Stats:
    """Per-band statistics of a selection's valid samples (not nodata, not NaN): bands (names),
    count, mean, std (population: ddof 0, as numpy's and torchvision's recipes), min, max
    (float64 arrays, one value a band; NaN where a band has no valid sample), in raw stored
    values or (scaled) raw * scale + offset of each file. read_files: how many files' pixels
    were read (cells the box's edge crosses; rows cut in both space and time)."""

    bands: list[str]
    count: Array
    mean: Array
    std: Array
    min: Array
    max: Array
    scaled: bool
    read_files: int = 0
    _extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def var(self) -> Array:
        return self.std**2

    def tensors(self) -> tuple[Any, Any]:
        """(mean, std) as float32 torch tensors of shape (B,)."""
        torch = _optional("torch", "pip install 'rumi[torch]'")
        return torch.tensor(self.mean, dtype=torch.float32), torch.tensor(self.std, dtype=torch.float32)

    def normalize(self, backend: str = "torchvision", inplace: bool = False) -> Any:
        """A Normalize transform (channels: the bands in this order) of these statistics: what
        TorchGeo's and torchvision's recipes compute with a pass over every pixel. backend:
        "torchvision" (torchvision.transforms.v2.Normalize) or "kornia" (kornia.augmentation.Normalize,
        as TorchGeo's AugmentationSequential takes it). A band with no valid sample or a zero std
        is a ValueError naming it."""
        for name, n, s in zip(self.bands, self.count, self.std):
            if n == 0 or not s > 0:
                raise ValueError(f"band {name!r}: {int(n)} valid samples, std {s}: no Normalize can divide by it")
        mean, std = [float(v) for v in self.mean], [float(v) for v in self.std]
        if backend == "torchvision":
            v2 = _optional("torchvision.transforms.v2", "pip install torchvision (or .tensors(): mean and std alone)")
            return v2.Normalize(mean=mean, std=std, inplace=inplace)
        if backend == "kornia":
            aug = _optional("kornia.augmentation", "pip install kornia (or .tensors(): mean and std alone)")
            torch = _optional("torch", "pip install 'rumi[torch]'")
            return aug.Normalize(mean=torch.tensor(mean), std=torch.tensor(std))
        raise ValueError(f"backend must be 'torchvision' or 'kornia', not {backend!r}")


def _optional(module: str, how: str) -> Any:
    """An optional package's module, or an ImportError saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"Stats needs {module.split('.')[0]} for this ({e}): {how}") from e


def _finish(bands: list[str], p: Pieces, scaled: bool, read_files: int) -> Stats:
    n = p.n
    has = n > 0
    mean = np.where(has, p.sum / np.maximum(n, 1), np.nan)
    std = np.where(has, np.sqrt(np.maximum(p.m2, 0.0) / np.maximum(n, 1)), np.nan)
    return Stats(bands, n.astype(np.int64), mean, std, np.where(has, p.min, np.nan), np.where(has, p.max, np.nan), scaled, read_files)


def _scale(p: Pieces, scale: Array, offset: Array) -> Pieces:
    """Pieces of raw values -> pieces of raw * scale + offset (per element)."""
    lo, hi = p.min * scale + offset, p.max * scale + offset
    neg = scale < 0
    empty = p.n == 0
    return Pieces(p.n, p.sum * scale + p.n * offset, p.m2 * scale**2,
                  np.where(empty, np.inf, np.where(neg, hi, lo)), np.where(empty, -np.inf, np.where(neg, lo, hi)))


def selection_stats(table: Any, query: Sequence[tuple[Any, ...]], bands: Sequence[str] | None, *, apply_scale: bool,
                    exact: bool, open_dataset: Callable[[int], Any]) -> Stats:
    """The statistics of a selection (table: its rows; query: its search's filters; open_dataset:
    row index -> rumi.Dataset): see the module's notes and Catalog.stats. Rows wholly inside the
    box are combined a group of rows of one layout at a time (vectorised); rows the box cuts one
    by one."""
    from .decode import Rows, overlap
    from .search import box_of

    rows = Rows(table)
    if rows.n == 0:
        raise RequestError("the selection has no row: no statistics")
    boxes = [box_of(f[1], f[2]) for f in query if f[0] == "bbox" and f[1] is not None]
    windows = [f[1] for f in query if f[0] == "time" and f[1] is not None]
    if bands is None:
        given = [f[1] for f in query if f[0] == "bands" and f[1] is not None]
        bands = list(given[-1]) if given else rows.first_bands()
    bands = list(bands)
    look = rows.bands_of(bands)
    look.require(np.arange(rows.n), rows.id)
    bi = np.asarray(look.idx, np.int64)  # (n, nb)
    keep = np.arange(rows.n)
    if apply_scale:
        sc, of, _, rec = rows.scaling(keep, bi)
        if not rec.all():
            ids = [rows.id(int(i)) for i in np.flatnonzero(~rec)[:3]]
            raise RequestError(f"apply_scale=True: {int((~rec).sum())} files have no recorded scales ({', '.join(ids)} ...): "
                               "append them to the catalogue again")
    else:
        sc, of = np.ones(bi.shape), np.zeros(bi.shape)
    blobs = rows.stats
    if not blobs.valid.all():
        lack = np.flatnonzero(~blobs.valid)
        cplx = np.array([str(t).startswith("complex") for t in rows.sample_types[lack]], bool)
        if cplx.any():
            raise RequestError(f"{int(cplx.sum())} of the {rows.n} files have complex samples ({rows.id(int(lack[cplx][0]))}, "
                               f"{rows.sample_types[lack[cplx][0]]}): they have no statistics; leave them out of the selection")
        names = ", ".join(rows.id(int(i)) for i in lack[:3])
        raise RequestError(f"{len(lack)} of the {rows.n} files have no statistics (rumi:stats: {names}{' ...' if len(lack) > 3 else ''}): "
                           "catalogued before the column, or with stats=False: build the catalogue again to record them "
                           "(or append them to a partitioned one: Catalog.append)")
    shapes, tiles = rows.shapes, rows.tiles
    times = rows.times
    nb = len(bands)
    # each step: meets every time window
    step_ok = np.ones(len(times.start), bool)
    for w in windows:
        step_ok &= overlap(times.start, times.end, w)
    whole = np.ones(rows.n, bool) if not boxes else _footprints_within(rows, boxes)
    acc: list[Pieces] = []  # each (nb, m)
    read_files = 0
    # rows wholly inside the boxes: a group of one layout (head, expanded length, shape, tiles) at a time
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i in np.flatnonzero(whole).tolist():
        v = blobs.at(i)
        head = bytes(v[: _HEAD2.itemsize if bytes(v[:4]) == MAGIC else _HEAD.itemsize])
        groups.setdefault((head, len(v), tuple(shapes[i]), tuple(tiles[i])), []).append(i)
    for (_, L, shp, tl), members in groups.items():
        grp = np.asarray(members, np.int64)
        vals = blobs.values
        mat = np.concatenate([vals[int(a):int(a) + L] for a in blobs.off[grp]]).reshape(len(grp), L)
        acc += _group_pieces(mat, grp, shp, tl, bi[grp], times.off, step_ok, sc[grp], of[grp])
    # rows the boxes cut: one by one
    polys: dict[str, list[Any]] = {}
    codes, code_of = rows.grid_codes if boxes else ([], np.zeros(0, np.int64))
    for i in np.flatnonzero(~whole).tolist():
        fs = unpack_stats(blobs.at(i), shapes[i], tiles[i])
        assert fs is not None
        ok = step_ok[int(times.off[i]):int(times.off[i + 1])]
        if not ok.any():
            continue
        steps = None if ok.all() else [int(t) for t in np.flatnonzero(ok)]
        crs = codes[int(code_of[i])] if code_of[i] >= 0 else None
        if crs is None or not np.isfinite(rows.transforms[i]).all():
            raise RequestError(f"row {i} ({rows.id(i)}) has no grid: its pixels cannot be tested against the box")
        if crs not in polys:
            polys[crs] = [_in_crs(bx, crs) for bx in boxes]
        inside, partial, qs = _cells_in(polys[crs], rows.transforms[i], shapes[i], tiles[i], fs)
        if not inside.any() and not partial.any():
            continue
        sc_i, of_i = sc[i][:, None], of[i][:, None]
        if inside.all():
            per = [fs.whole(int(bi[i, k]), steps) for k in range(nb)]
            acc.append(_scale(_stack(per), sc_i[:, 0], of_i[:, 0]).take((slice(None), None)))
            continue
        if steps is None:
            take = inside | (partial & (not exact))
            acc.append(_scale(Pieces(*(a[bi[i]][:, take] for a in fs.cells)), sc_i, of_i))
            to_read = partial if exact else np.zeros_like(partial)
        else:
            to_read = inside | partial
        if to_read.any():
            read_files += 1
            p = _read_cells(open_dataset(i), fs, to_read, steps, [int(b) for b in bi[i]], _nodata_of(rows, i, bi), qs)
            acc.append(_scale(p, sc_i[:, 0], of_i[:, 0]).take((slice(None), None)))
    if not acc:  # no cell meets the box: no sample
        acc.append(Pieces.empty((nb, 1)))
    allp = Pieces(*(np.concatenate([a[k] for a in acc], axis=1) for k in range(5)))
    return _finish(bands, total(allp, axis=1), apply_scale, read_files)


def _group_pieces(mat: Array, grp: Array, shape: Sequence[int], tile: Sequence[int], bi: Array, off: Array, step_ok: Array,
                  sc: Array, of: Array) -> list[Pieces]:
    """The pieces (nb, m) of rows grp, wholly inside the selection's boxes, whose rumi:stats
    (mat: (k, L)) have one layout and whose files one shape and tiling: their cells
    (every step selected) or their steps (the steps selected), scaled."""
    _, _, decoded = _decode(mat, shape, tile)
    k = len(grp)
    T = int(shape[0])
    levels = []
    for lv in decoded:
        flat = [a.reshape(k, a.shape[1], -1) for a in lv]  # (k, B, m)
        levels.append(Pieces(*(np.take_along_axis(a, bi[:, :, None], axis=1) for a in flat)))  # (k, nb, m)
    ok = step_ok[off[grp][:, None] + np.arange(T)[None, :]]  # (k, T)
    all_steps = ok.all(axis=1)
    out = []
    if all_steps.any():
        out.append(_flat(_scale(levels[-1].take(all_steps), sc[all_steps][:, :, None], of[all_steps][:, :, None])))
    some = ~all_steps & ok.any(axis=1)
    if some.any():
        st = levels[0].take(some)  # T > 1 here (one step: all or none)
        m = np.broadcast_to(ok[some][:, None, :], st.n.shape)
        st = Pieces(np.where(m, st.n, 0), np.where(m, st.sum, 0.0), np.where(m, st.m2, 0.0), np.where(m, st.min, np.inf),
                    np.where(m, st.max, -np.inf))
        out.append(_flat(_scale(st, sc[some][:, :, None], of[some][:, :, None])))
    return out


def _flat(p: Pieces) -> Pieces:
    """(k, nb, m) pieces -> (nb, k * m)."""
    return Pieces(*(np.moveaxis(a, 1, 0).reshape(a.shape[1], -1) for a in p))


def _stack(per: list[Pieces]) -> Pieces:
    return Pieces(*(np.asarray([getattr(p, f) for p in per]) for f in Pieces._fields))


def _meets(start: Array, end: Array, w: Any) -> Array:
    lo, hi = w
    ok = np.ones(len(start), bool)
    if lo is not None:
        ok &= end >= lo
    if hi is not None:
        ok &= start <= hi
    return ok


def _footprints_within(rows: Any, boxes: list[Any]) -> Array:
    """Per row: its footprint (the geometry column, EPSG:4326, the grid's outline densified)
    lies within every box's lift (its pixels then need no test: the file is wholly inside).
    Rows without a footprint: False."""
    import shapely

    col = rows.column(K.GEOMETRY)
    geoms = shapely.from_wkb(np.asarray(col.to_numpy(zero_copy_only=False), object))
    out: Array = np.asarray(~shapely.is_missing(geoms), bool)
    for bx in boxes:
        lifted = bx.lifted
        shapely.prepare(lifted)
        have = np.flatnonzero(out)
        out[have] = shapely.covers(lifted, geoms[have])
    return out


def _in_crs(box: Any, crs: str) -> Any:
    p = box.in_crs(crs)
    if p is None:
        raise RequestError(f"the box {box.bounds} in {box.crs} cannot be carried into {crs}: give the box in {crs}")
    return p


def _cells_in(polys: list[Any], tr: Array, shape: Array, tile: Array, fs: FileStats) -> tuple[Array, Array, list[Any]]:
    """Per cell (down, across): wholly inside every box (each pixel centre), and crossed by a
    box's edge; and the boxes in the file's pixel coordinates (col, row)."""
    import shapely
    from affine import Affine

    a, b, c, d, e, f = (float(v) for v in tr)
    inv = ~Affine(a, b, c, d, e, f)
    qs = [shapely.affinity.affine_transform(p, [inv.a, inv.b, inv.d, inv.e, inv.c, inv.f]) for p in polys]
    Y, X = int(shape[2]), int(shape[3])
    ch, cw = fs.cy * int(tile[0]), fs.cx * int(tile[1])
    r0 = np.arange(0, Y, ch)
    c0 = np.arange(0, X, cw)
    R0, C0 = np.meshgrid(r0, c0, indexing="ij")
    R1, C1 = np.minimum(R0 + ch, Y), np.minimum(C0 + cw, X)
    eps = 1e-6
    rects = shapely.box(C0 + 0.5 - eps, R0 + 0.5 - eps, C1 - 0.5 + eps, R1 - 0.5 + eps)
    inside = np.ones(R0.shape, bool)
    meets = np.ones(R0.shape, bool)
    for q in qs:
        shapely.prepare(q)
        inside &= shapely.covers(q, rects)
        meets &= shapely.intersects(q, rects)
    return inside, meets & ~inside, qs


def _nodata_of(rows: Any, i: int, bi: Array) -> list[float | None]:
    """Row i's nodata of the bands read (bi: every row's band indices, (n, nb))."""
    val, has, _ = rows.band_nodata(np.array([i]), bi)
    return [float(v) if h else None for v, h in zip(val[0], has[0])]


def _read_cells(ds: Any, fs: FileStats, which: Array, steps: list[int] | None, bands: list[int],
                nodata: list[float | None], qs: list[Any]) -> Pieces:
    """The pieces (per band) of the cells which, steps (None: all), of the samples whose centres
    lie inside every box (qs in pixel coordinates)."""
    import shapely

    with ds:
        T, _, Y, X = ds.shape
        th, tw = ds.tile_shape
        ch, cw = fs.cy * th, fs.cx * tw
        out = Pieces.empty((len(bands),))
        for cyi, cxi in zip(*np.nonzero(which)):
            r0, c0 = int(cyi) * ch, int(cxi) * cw
            h, w = min(ch, Y - r0), min(cw, X - c0)
            a = np.asarray(ds.read(t=list(range(T)) if steps is None else steps, b=bands, window=Window(c0, r0, w, h)))
            rr, cc = np.meshgrid(np.arange(r0, r0 + h) + 0.5, np.arange(c0, c0 + w) + 0.5, indexing="ij")
            inbox = np.ones((h, w), bool)
            for q in qs:
                inbox &= shapely.intersects_xy(q, cc, rr)
            for k, nd in enumerate(nodata):
                x, ok = valid_samples(a[:, k], nd)
                inb = np.broadcast_to(inbox[None], x.shape)
                p = pieces_of(x, inb if ok is None else ok & inb, (0, 1, 2))
                cur = out.take(k)
                new = merge(cur, p)
                for arr, v in zip(out, new):
                    arr[k] = v
        return out
