"""Numeric statistics: recorded per file when it is catalogued (the column rumi:stats, a sink of
the one pixel pass rumi.catalog.scan), and of a selection from them (`stats`, Catalog.stats).

What a row records, per band, of the VALID samples (not the band's nodata, by rumi._nodata's
test, and not NaN), in raw stored values (before scale and offset), as "pieces" of five numbers:
count (int64), sum (float64: a mean to 1e-16), m2 (float32, float64 when a value passes float32's
range: the sum of squared deviations from the piece's own mean, so that variances combine
without cancellation, Chan et al.; float32's 6e-8 gives the std to 3e-8), min and max (float64;
exact for every sample type but 64-bit integers beyond 2**53, rounded to the nearest float64 as
their sums are). Two levels:

- cells: per band and cell over all time steps, a cell a block of whole tiles, at most
  STATS_CELLS x STATS_CELLS cells a band (a file of up to 4 x 4 tiles: a cell per tile);
- steps: per band and time step over the whole file (only when the file has several steps; for
  one step it is the sum of the cells).

The value is little-endian bytes: b"RST1", then uint16 cell height and width in tiles and uint16
flags (1: the steps level follows; 2: m2 is float64; 4: each array byte-shuffled, its values'
first bytes, then their second bytes..., which Parquet's zstd packs 12 % smaller), then each
level's five arrays (count, sum, m2, min, max), the steps level (B, T) first, then the cells
level (B, cells down, cells across), C order.
A row is null when the file's samples are complex, or when the catalogue was written before
the column (stats() then names those files and says to append them again).

Size: 10 + B x (T + cells) x 36 bytes before compression (T: 0 for one step): a 4-band,
48-step Sentinel-2-like Cube of 16 x 16 tiles (docs/scaling.md's rows) holds 4 x (48 + 16)
pieces, 9.2 KB raw; docs/scaling.md gives the compressed size in a catalogue. Searches do not
read the column: Catalog.stats reads it for the selection.

A selection's statistics combine the pieces each row's selected steps and cells give, exactly:
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
#: the value's first bytes
MAGIC = b"RST1"
_HEAD = np.dtype([("magic", "S4"), ("cy", "<u2"), ("cx", "<u2"), ("flags", "<u2")])
_STEPS = 1
_M2_WIDE = 2  # m2 as float64 (a value past float32's range)
_SHUFFLED = 4  # each array byte-shuffled
#: the five arrays of a level, in their order and types (m2: "<f8" with flag _M2_WIDE)
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
        return encode_stats(self.cy, self.cx, self.steps if self.tiles.shape[0] > 1 else None, self.cells)


def encode_stats(cy: int, cx: int, steps: Pieces | None, cells: Pieces) -> bytes:
    """A rumi:stats value (module notes): cells of cy x cx tiles, the steps level (B, T) (None:
    one step) and the cells level (B, cells down, cells across); each array byte-shuffled (its
    values' first bytes, then their second bytes...: Parquet's zstd finds the zero bytes)."""
    head = np.zeros(1, _HEAD)
    levels = ((steps,) if steps is not None else ()) + (cells,)
    wide = any(not (lv.m2 <= _M2_RANGE).all() for lv in levels)  # past float32 (or NaN: inf samples)
    head["magic"], head["cy"], head["cx"] = MAGIC, cy, cx
    head["flags"] = (_STEPS if steps is not None else 0) | (_M2_WIDE if wide else 0) | _SHUFFLED
    parts = [head.tobytes()]
    for level in levels:
        for a, dt in zip(level, _types(wide)):
            b = np.ascontiguousarray(a, dt).reshape(-1).view(np.uint8).reshape(-1, np.dtype(dt).itemsize)
            parts.append(np.ascontiguousarray(b.T).tobytes())
    return b"".join(parts)


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
    """A rumi:stats value as FileStats (None stays None); a FormatError when its size or cells
    do not fit the row's shape and tiles."""
    if blob is None:
        return None
    raw = np.frombuffer(blob, np.uint8)
    T, B, Y, X = (int(v) for v in shape)
    th, tw = (int(v) for v in tile_shape)
    ny, nx = tile_counts((Y, X), (th, tw))
    if raw.size < _HEAD.itemsize or bytes(raw[:4]) != MAGIC:
        raise FormatError(f"rumi:stats does not begin with {MAGIC!r} (written by a later rumi?)")
    head = np.frombuffer(raw[: _HEAD.itemsize].tobytes(), _HEAD)[0]
    cy, cx, flags = int(head["cy"]), int(head["cx"]), int(head["flags"])
    if cy < 1 or cx < 1 or flags & ~(_STEPS | _M2_WIDE | _SHUFFLED):
        raise FormatError(f"rumi:stats has cells of {cy} x {cx} tiles and flags {flags}")
    ncy, ncx = -(-ny // cy), -(-nx // cx)
    shapes = ([(B, T)] if flags & _STEPS else []) + [(B, ncy, ncx)]
    types = _types(bool(flags & _M2_WIDE))
    width = sum(np.dtype(dt).itemsize for dt in types)
    want = _HEAD.itemsize + sum(width * math.prod(s) for s in shapes)
    if raw.size != want:
        raise FormatError(f"rumi:stats has {raw.size} bytes, a {B}-band file of {T} steps and {ncy} x {ncx} cells needs {want}")
    pos = _HEAD.itemsize
    levels = []
    for s in shapes:
        arrs = []
        for dt in types:
            k = math.prod(s) * np.dtype(dt).itemsize
            arrs.append(_unshuffle(raw[None, pos:pos + k], dt, bool(flags & _SHUFFLED)).reshape(s))
            pos += k
        levels.append(Pieces(*arrs))
    return FileStats(cy, cx, levels[0] if len(levels) == 2 else None, levels[-1])


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
    # rows wholly inside the boxes: a group of one layout (blob length, T) at a time
    lengths = blobs.lengths
    w_rows = np.flatnonzero(whole)
    key = lengths[w_rows] * 4096 + shapes[w_rows, 0]
    for k in np.unique(key):
        grp = w_rows[key == k]
        acc += _group_pieces(blobs, grp, shapes, tiles, bi[grp], times.off, step_ok, sc[grp], of[grp])
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


def _group_pieces(blobs: Any, grp: Array, shapes: Array, tiles: Array, bi: Array, off: Array, step_ok: Array,
                  sc: Array, of: Array) -> list[Pieces]:
    """The pieces (nb, m) of rows grp, wholly inside the selection's boxes, whose rumi:stats
    have one length and one T: their cells (every step selected) or their steps (the steps
    selected), scaled."""
    i0 = int(grp[0])
    first = unpack_stats(blobs.at(i0), shapes[i0], tiles[i0])  # checks the layout once
    assert first is not None
    raw = np.frombuffer(bytes(blobs.at(i0)), np.uint8)
    flags = int(np.frombuffer(raw[: _HEAD.itemsize].tobytes(), _HEAD)[0]["flags"])
    starts = blobs.off[grp]
    L = int(blobs.lengths[i0])
    vals = blobs.values
    mat = np.concatenate([vals[int(a):int(a) + L] for a in starts]).reshape(len(grp), L)  # (k, L)
    heads = mat[:, : _HEAD.itemsize].copy().view(_HEAD)[:, 0]
    same = (heads["magic"] == MAGIC) & (heads["flags"] == flags) & (heads["cy"] == first.cy) & (heads["cx"] == first.cx)
    if not same.all() or not (shapes[grp] == shapes[i0]).all() or not (tiles[grp] == tiles[i0]).all():
        return [_single(blobs, int(i), shapes, tiles, bi[k], off, step_ok, sc[k], of[k]) for k, i in enumerate(grp)]
    T = int(shapes[i0, 0])
    B = int(shapes[i0, 1])
    types = _types(bool(flags & _M2_WIDE))
    level_shapes = ([(B, T)] if flags & _STEPS else []) + [(B, first.cells.n.shape[1] * first.cells.n.shape[2])]
    pos = _HEAD.itemsize
    levels = []
    k = len(grp)
    for shp in level_shapes:
        arrs = []
        for dt in types:
            size = int(np.prod(shp)) * np.dtype(dt).itemsize
            a = _unshuffle(mat[:, pos:pos + size], dt, bool(flags & _SHUFFLED)).reshape((k,) + shp)
            arrs.append(np.take_along_axis(a, bi[:, :, None], axis=1))  # (k, nb, m)
            pos += size
        levels.append(Pieces(*arrs))
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


def _single(blobs: Any, i: int, shapes: Array, tiles: Array, bi: Array, off: Array, step_ok: Array, sc: Array, of: Array) -> Pieces:
    """The pieces (nb, 1) of one row wholly inside the selection's boxes."""
    fs = unpack_stats(blobs.at(i), shapes[i], tiles[i])
    assert fs is not None
    ok = step_ok[int(off[i]):int(off[i + 1])]
    if not ok.any():
        return Pieces.empty((len(bi), 1))
    steps = None if ok.all() else [int(t) for t in np.flatnonzero(ok)]
    per = _stack([fs.whole(int(b), steps) for b in bi])
    return _scale(per, sc, of).take((slice(None), None))


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
