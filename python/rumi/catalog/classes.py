"""Class counts (the column rumi:classes): for each categorical band of a file, the number of
samples of each class per time step and tile, recorded in the catalogue's one pixel pass
(rumi.catalog.valid) so that samplers bound a chip's class fractions without reading a pixel
(rumi.torch: min_class=, max_class=, cloud=, balance=).

Which bands are categorical (`classes=` of Catalog.build / append, rumi-catalog build
--classes): None (the default) detects them: a band of an integer (or boolean) sample type whose
valid samples (nodata excluded) take at most DETECT_MAX distinct values over the whole file. The
rule depends on the file's samples alone, and costs one look at the values of each chunk read
(a band is dropped at its first chunk with more). False records none. A band name (or a list of
them) declares those bands categorical, every value a class (at most DECLARED_MAX); a dict
{band: [values]} counts only the values given (others are not counted), {band: None} every value.
A declared band a file does not have is skipped for that file; a declared band that is not of an
integer type is an error.

The column: a list with one struct per categorical band, in band order: `band` (the band's index
in the file), `values` (its classes, int64, increasing) and `counts`: each class's samples per
time step and tile (nodata samples not counted): exact (codec 2) when they fit the band's budget
(counts_budget: 4 KB for a file of one step, a label map; else max(1,280 bytes, 0.5 bit per step
and tile)) or `exact_classes=True`
asks for them, else quantised (codec 4, encode_counts): one code per (class, step, tile), 0
exactly none, the top code exactly all of the tile's samples, a code between them a range of the
fraction (the finest table of CODE_TABLES whose codes fit the budget); a 2-class band whose
classes fill every tile keeps the codes of one class (the other is the rest). decode_bounds
reads them back as lower and upper bounds of each count, never on the wrong side (ClassCounts;
equal for codec 2, which catalogues written before 2026-12-07 hold throughout). An empty list:
no categorical band; null: not recorded (a catalogue written before the column)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, NamedTuple, Sequence

import numpy as np

from .._dataset import Dataset
from .._errors import FormatError
from .._internal import normalize_nodata, tile_counts
from .scan import Tiles, scan, tile_areas, tiles_of

#: the detection rule: an integer band with at most this many distinct valid values is categorical
DETECT_MAX = 32
#: the most classes a band declared categorical may have
DECLARED_MAX = 1024
#: the counts' encoding written (encode_counts): quantised codes, packed, zstd
COUNTS_CODEC = 4
#: codec 3: the first form of COUNTS_CODEC (2026-12-07 11:10-12:00, other edges), refused by name
_DEV_CODEC = 3
#: the exact counts as byte planes, zstd: written when they fit the band's budget (every band's
#: in catalogues written before 2026-12-07)
_EXACT_CODEC = 2
#: COUNTS_CODEC's tables: the edges, in CODE_DENOM-ths of a tile's samples, of the ranges its
#: codes between 0 (none) and len(edges) (all) stand for: code i, more than edges[i - 1] and at
#: most edges[i]. Fine (14 ranges, narrow near none: a fraction under 1/128, 1/64, 1/32, 1/16,
#: then eighths, then 31/32 and 127/128), coarse (6), coarsest (2: at most half, more than half)
CODE_TABLES = ((0, 2, 4, 8, 16, 32, 64, 96, 128, 160, 192, 224, 248, 254, 256), (0, 8, 32, 128, 224, 248, 256),
               (0, 128, 256))
CODE_DENOM = 256
#: a band's counts take at most this many bytes, or CODES_BUDGET_BITS per step and tile when
#: that is more: encode_counts writes the exact counts when they fit, else the finest table
#: that fits (the coarsest when none does)
CODES_BUDGET_FLOOR = 1280
CODES_BUDGET_BITS = 0.5
#: the floor for a file of one time step: a label map, on which class limits are drawn (the
#: LANDFIRE fuel map's 27 classes at tiles of 64, 3.5 KB exact, admit 109 chips with class 165
#: >= 40 % where its quantised codes admit 6); its counts have no step factor to grow with
CODES_BUDGET_ONE_STEP = 4096


def counts_budget(steps: int, tiles: int) -> int:
    """The bytes a band's counts may take exact (encode_counts): CODES_BUDGET_ONE_STEP for a
    file of one step, else CODES_BUDGET_FLOOR, or CODES_BUDGET_BITS per step and tile when that
    is more."""
    floor = CODES_BUDGET_ONE_STEP if steps == 1 else CODES_BUDGET_FLOOR
    return max(floor, int(CODES_BUDGET_BITS * steps * tiles / 8))
#: zstd's level for the counts (small arrays: the level costs little)
ZSTD_LEVEL = 19
#: classes counted by comparing each value (fewer) or by a searchsorted index and bincount (more)
_PER_VALUE = 24


@dataclass(frozen=True)
class ClassSpec:
    """`classes=` normalised: detect (the rule above), or the bands declared (name or index ->
    the values to count, None: every value); exact: the counts kept exact whatever their bytes
    (`exact_classes=True`), else exact within the budget (encode_counts)."""

    detect: bool
    declared: tuple[tuple[str | int, tuple[int, ...] | None], ...] = ()
    exact: bool = False

    def missing_in(self, band_lists: Sequence[Sequence[str]]) -> list[str | int]:
        """The declared bands that no file of band_lists has."""
        have = {n for bs in band_lists for n in bs}
        most = max((len(bs) for bs in band_lists), default=0)
        return [k for k, _ in self.declared if (k not in have if isinstance(k, str) else not 0 <= k < most)]

    def bands_of(self, names: Sequence[str], dtype: np.dtype[Any], where: str) -> dict[int, tuple[int, ...] | None]:
        """The file's categorical candidates: band index -> values (None: every value)."""
        integer = dtype.kind in "iub"
        if self.detect:
            return {b: None for b in range(len(names))} if integer else {}
        out: dict[int, tuple[int, ...] | None] = {}
        for key, vals in self.declared:
            if isinstance(key, int):
                if not 0 <= key < len(names):
                    continue
                b = key
            elif key in names:
                b = names.index(key)
            else:
                continue  # a band this file does not have
            if not integer:
                raise ValueError(f"{where}: band {names[b]!r} is declared categorical (classes=), but its samples are "
                                 f"{dtype}: classes are counted on integer bands only")
            out[b] = vals
        return out


def class_spec(classes: Any, exact: bool = False) -> ClassSpec:
    """`classes=` as users give it -> ClassSpec (ValueError / TypeError naming what is wrong);
    exact: `exact_classes=` (the counts exact whatever their bytes)."""
    if not isinstance(exact, bool):
        raise TypeError(f"exact_classes must be True or False, not {exact!r}")
    if isinstance(classes, ClassSpec):
        return ClassSpec(classes.detect, classes.declared, exact or classes.exact)
    if classes is None or classes is True or classes == "auto":
        return ClassSpec(True, (), exact)
    if classes is False:
        return ClassSpec(False, (), exact)
    if isinstance(classes, (str, int)) and not isinstance(classes, bool):
        classes = [classes]
    items: list[tuple[Any, Any]]
    if isinstance(classes, Mapping):
        items = list(classes.items())
    else:
        try:
            items = [(k, None) for k in classes]
        except TypeError:
            raise TypeError(f"classes must be None (detect), False, a band name, a list of band names or a dict "
                            f"{{band: [values] or None}}, not {classes!r}") from None
    out: list[tuple[str | int, tuple[int, ...] | None]] = []
    for key, vals in items:
        if isinstance(key, bool) or not isinstance(key, (str, int, np.integer)):
            raise TypeError(f"classes: a band is a name or an index, not {key!r}")
        k: str | int = key if isinstance(key, str) else int(key)
        if vals is None:
            out.append((k, None))
            continue
        try:
            v = sorted({int(x) for x in vals})
        except (TypeError, ValueError):
            raise TypeError(f"classes: the values of band {key!r} must be integers, not {vals!r}") from None
        if any(int(x) != x for x in vals):
            raise ValueError(f"classes: the values of band {key!r} must be integers, not {list(vals)!r}")
        if not v or len(v) > DECLARED_MAX:
            raise ValueError(f"classes: band {key!r} needs 1 to {DECLARED_MAX} values, not {len(v)}")
        out.append((k, tuple(v)))
    return ClassSpec(False, tuple(out), exact)


class _Band:
    """One candidate band's counts while the pass runs."""

    def __init__(self, values: tuple[int, ...] | None, shape: tuple[int, int, int]) -> None:
        self.fixed = values is not None
        self.values = np.asarray(values if values is not None else (), np.int64)
        self.shape = shape  # (T, ny, nx)
        self.counts = np.zeros(shape + (len(self.values),), np.int64)

    def grow(self, new: np.ndarray[Any, Any]) -> None:
        """Adds classes `new` (values not yet seen), keeping the counts of the others."""
        union = np.union1d(self.values, new)
        counts = np.zeros(self.shape + (len(union),), np.int64)
        counts[..., np.searchsorted(union, self.values)] = self.counts
        self.values, self.counts = union, counts


class ClassSink:
    """The class-count sink of the catalogue's pixel pass (rumi.catalog.scan) for one file:
    add() takes each block the pass reads, value() gives the rumi:classes value."""

    def __init__(self, tiles: Tiles, names: Sequence[str], dtype: np.dtype[Any], classes: Any = None,
                 where: str = "") -> None:
        spec = classes if isinstance(classes, ClassSpec) else class_spec(classes)
        T = tiles.shape[0]
        th, tw = tiles.tile_shape
        self.tiles = tiles
        self.where = where
        if th * tw >= 2**32:
            raise FormatError(f"{where}: tiles of {th}x{tw} samples are too large for rumi:classes' uint32 counts")
        self.detect = spec.detect
        self.exact = spec.exact
        self.bands = {b: _Band(v, (T, tiles.ny, tiles.nx)) for b, v in spec.bands_of(names, np.dtype(dtype), where).items()}

    @property
    def wants_pixels(self) -> bool:
        """Whether some band may be categorical (False: the pass need not run for this sink)."""
        return bool(self.bands)

    def add(self, ty: int, ts: range, block: np.ndarray[Any, Any], masks: Sequence[np.ndarray[Any, Any] | None]) -> None:
        """The samples block (len(ts), B, h, X) of tile row ty at time steps ts, with each band's
        valid mask (None: no nodata)."""
        nx, X = self.tiles.nx, self.tiles.shape[3]
        t_idx = np.asarray(ts, np.int64)
        for b in list(self.bands):
            st = self.bands[b]
            x = block[:, b]
            if x.dtype.kind == "b":
                x = x.view(np.uint8)
            valid = masks[b]
            if not st.fixed:
                seen = _distinct(x, valid)
                new = np.setdiff1d(seen, st.values, assume_unique=True)
                if len(new):
                    if len(st.values) + len(new) > (DETECT_MAX if self.detect else DECLARED_MAX):
                        if self.detect:
                            del self.bands[b]  # not categorical by the rule: dropped at once
                            continue
                        raise ValueError(f"{self.where}: band {b} is declared categorical (classes=) but has more than "
                                         f"{DECLARED_MAX} distinct values: give the values to count "
                                         "(classes={band: [values]})")
                    st.grow(new)
            K = len(st.values)
            if K == 0:
                continue
            if K <= _PER_VALUE:
                for k, v in enumerate(st.values.tolist()):
                    m = x == v
                    if valid is not None:
                        m &= valid
                    st.counts[t_idx, ty, :, k] += self.tiles.per_tile(m.sum(axis=1, dtype=np.int64))
            else:
                cls = np.searchsorted(st.values, x)
                hit = np.take(st.values, np.minimum(cls, K - 1)) == x
                if valid is not None:
                    hit &= valid
                col_tile = np.arange(X) // self.tiles.tile_shape[1]
                for i, t in enumerate(t_idx.tolist()):
                    idx = (col_tile[None, :] * K + cls[i])[hit[i]]
                    st.counts[t, ty] += np.bincount(idx, minlength=nx * K).reshape(nx, K)

    def value(self) -> list[dict[str, Any]]:
        """The rumi:classes value: one struct per categorical band, in band order."""
        T, _, Y, X = self.tiles.shape
        area = tile_areas(self.tiles.tile_shape, (Y, X), (self.tiles.ny, self.tiles.nx))
        return [{"band": b, "values": st.values.tolist(), "counts": encode_counts(st.counts, area, exact=self.exact)}
                for b, st in sorted(self.bands.items())]


def class_sink(dataset: Dataset, classes: Any = None) -> ClassSink:
    """The ClassSink of an open dataset (classes=: see the module's notes)."""
    return ClassSink(tiles_of(dataset), dataset.bands, dataset.dtype, classes, dataset.path)


def _distinct(x: np.ndarray[Any, Any], valid: np.ndarray[Any, Any] | None) -> np.ndarray[Any, Any]:
    """The distinct values (int64, increasing) among the valid samples of x."""
    v = x if valid is None else x[valid]
    if v.dtype.itemsize <= 2 and v.dtype.kind in "iu":  # a histogram: no sort
        lo = int(np.iinfo(v.dtype).min)
        h = np.bincount((v.ravel().astype(np.int64) - lo), minlength=1)
        return np.flatnonzero(h).astype(np.int64) + lo
    u = np.unique(v)
    if u.dtype.kind == "u" and len(u) and int(u[-1]) >= 2**63:
        raise ValueError("rumi:classes holds int64 class values: a uint64 value past 2**63 - 1 cannot be one")
    return u.astype(np.int64)


class ClassCounts(NamedTuple):
    """A band's class counts as the catalogue gives them: `values` (its classes, int64 (K,)) and,
    per time step, tile and class, a lower and an upper bound of the class's samples (`lo`,
    `hi`: uint32 (T, tiles_y, tiles_x, K); equal where the count is known exactly: a code of 0
    or all, and every count of codec 2 and of class_counts)."""

    values: np.ndarray[Any, Any]
    lo: np.ndarray[Any, Any]
    hi: np.ndarray[Any, Any]

    @property
    def exact(self) -> bool:
        """Whether every count is known exactly (lo == hi)."""
        return self.lo is self.hi or bool(np.array_equal(self.lo, self.hi))

    def estimate(self) -> np.ndarray[Any, Any]:
        """float64 (T, tiles_y, tiles_x, K): the middle of each count's bounds (an estimate, not a
        bound: the balance's weights use it)."""
        out: np.ndarray[Any, Any] = (self.lo.astype(np.float64) + self.hi) / 2
        return out


def _codes(counts: np.ndarray[Any, Any], area: np.ndarray[Any, Any], edges: Sequence[int]) -> np.ndarray[Any, Any]:
    """Codes (uint8, the shape of counts (..., ny, nx)) of counts of tiles of `area` samples
    (ny, nx): 0 none, len(edges) all, else the least i >= 1 with counts * CODE_DENOM <=
    edges[i] * area."""
    n = np.asarray(counts, np.int64) * CODE_DENOM
    a = np.asarray(area, np.int64)
    L = len(edges) - 1
    q = np.full(n.shape, L, np.uint8)
    for i in range(L - 1, 0, -1):
        q[n <= edges[i] * a] = i
    q[n == 0] = 0
    q[n == CODE_DENOM * a] = L + 1
    return q


def code_bounds(codes: np.ndarray[Any, Any], area: np.ndarray[Any, Any], table: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Codes of CODE_TABLES[table] of tiles of `area` samples (broadcast over the codes' last
    two axes) -> int64 (lower, upper) bounds of the counts: 0 / all exactly, code i between: more
    than edges[i - 1] / CODE_DENOM and at most edges[i] / CODE_DENOM of the area."""
    e = np.asarray(CODE_TABLES[table], np.int64)
    L = len(e) - 1
    q = np.asarray(codes, np.int64)
    a = np.broadcast_to(np.asarray(area, np.int64), q.shape)
    mid = np.clip(q, 1, L)
    lo = np.maximum(1, e[mid - 1] * a // CODE_DENOM + 1)
    hi = np.minimum(a - 1, e[mid] * a // CODE_DENOM)
    lo = np.where(q == 0, 0, np.where(q == L + 1, a, lo))
    hi = np.where(q == 0, 0, np.where(q == L + 1, a, hi))
    return lo, hi


def encode_counts(counts: np.ndarray[Any, Any], area: np.ndarray[Any, Any], table: int | None = None,
                  exact: bool = False) -> bytes:
    """(T, ny, nx, K) counts of tiles of `area` samples (ny, nx) -> the column's bytes: the exact
    counts (codec 2, _encode_exact) when they fit the band's budget (counts_budget), else codec 4: COUNTS_CODEC, the table (an index of
    CODE_TABLES), flags (1: the codes are zstd-compressed; 2: the counts of every step and tile
    sum to its samples) and the class whose codes are left out + 1 (0: none; a 2-class band with
    flag 2: the other class's codes say it), then the codes in (K, T, ny, nx) order, packed
    (_pack: 4 bits a code, 2 for the coarsest table). The table: the finest whose bytes fit the
    budget, else the coarsest (table=: codec 4 with that table, whatever the budget; exact=True:
    the exact counts, whatever their bytes)."""
    import pyarrow as pa

    c = np.asarray(counts, np.int64)
    a = np.asarray(area, np.int64)
    T, ny, nx, K = c.shape
    if table is not None and not 0 <= table < len(CODE_TABLES):
        raise ValueError(f"table must be one of 0-{len(CODE_TABLES) - 1} (CODE_TABLES), not {table!r}")
    if a.shape != (ny, nx):
        raise ValueError(f"class counts of {ny}x{nx} tiles, areas of {a.shape}")
    if c.size and (c.min() < 0 or (c > a[None, :, :, None]).any()):
        raise ValueError("class counts must be >= 0 and at most their tile's samples")
    full = bool(c.size) and bool((c.sum(-1) == a[None]).all())
    drop = int(np.argmax(c.sum((0, 1, 2)))) if full and K == 2 else -1
    keep = np.moveaxis(c, -1, 0)
    if drop >= 0:
        keep = np.delete(keep, drop, 0)
    budget = counts_budget(T, ny * nx)
    out = _encode_exact(c)
    if table is None and (exact or len(out) <= budget):
        return out
    for t, edges in enumerate(CODE_TABLES):
        if table is not None and t != table:
            continue
        packed = _pack(_codes(keep, a, edges).ravel(), _bits(t))
        z: bytes = pa.Codec("zstd", compression_level=ZSTD_LEVEL).compress(packed, asbytes=True)
        flags = (1 if len(z) < len(packed) else 0) | (2 if full else 0)
        out = bytes([COUNTS_CODEC, t, flags, drop + 1]) + (z if flags & 1 else packed)
        if len(out) <= budget or table is not None:
            break
    return out


def decode_bounds(blob: bytes, shape: Sequence[int], tile_shape: Sequence[int], K: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The column's bytes of a band with K classes of a file of shape (T, B, Y, X) and tiles ->
    uint32 (lower, upper) bounds of the counts (T, tiles_y, tiles_x, K): codec 4's codes, or
    codec 2's exact counts (both bounds the same array). FormatError when they do not hold that,
    naming an unknown codec. decode_bounds_many of one blob."""
    lo, hi = decode_bounds_many(np.frombuffer(blob, np.uint8), np.zeros(1, np.int64), np.array([len(blob)], np.int64),
                                shape, tile_shape, K)
    one = lo[0]
    return one, (one if hi is lo else hi[0])


def decode_bounds_many(data: np.ndarray[Any, Any], start: np.ndarray[Any, Any], end: np.ndarray[Any, Any],
                       shape: Sequence[int], tile_shape: Sequence[int], K: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The column's one decoder: the counts of G bands of one layout (files of shape (T, B, Y, X)
    and these tiles, K classes), blob g data[start[g]:end[g]] (data uint8, start and end (G,)) ->
    uint32 (lower, upper) bounds (G, T, tiles_y, tiles_x, K), the upper the lower array itself
    when every blob is exact (codec 2). The headers are checked at once; the blobs of one header
    (codec, width or table, flags, class left out) are decoded together: their zstd frames
    decompressed in one call where each is one frame of one block of the size the layout needs
    (_one_frame; zstd reads concatenated frames as their contents concatenated), the others
    (contents past a block of 128 KiB, or damaged) one by one, then one numpy pass over the
    payloads. FormatError naming the fault of the first bad blob."""
    import pyarrow as pa

    data = np.asarray(data, np.uint8)
    s, e = np.asarray(start, np.int64), np.asarray(end, np.int64)
    T, _, Y, X = (int(v) for v in shape)
    th, tw = (int(v) for v in tile_shape)
    ny, nx = tile_counts((Y, X), (th, tw))
    K = int(K)
    want, n = (T, ny, nx, K), T * ny * nx
    idx = s[:, None] + np.arange(4)
    head = np.where(idx < e[:, None], data[np.minimum(idx, len(data) - 1)] if len(data) else 0, -1).astype(np.int64)  # -1: past it
    codec, table, flags, left = head.T  # codec 2: the width of a count at table's place; left: the class left out + 1
    bad = np.zeros(len(s), bool)  # blobs found bad, left out of what follows
    faults: list[tuple[int, str]] = []  # the first blob of each fault found, and its message

    def fault(hit: np.ndarray[Any, Any], why: Callable[[int], str]) -> None:
        hit = hit[~bad[hit]]
        if len(hit):
            bad[hit] = True
            faults.append((int(hit[0]), why(int(hit[0]))))

    def payloads(g: np.ndarray[Any, Any], at: int, size: int, zstd: bool) -> np.ndarray[Any, Any]:
        """Blobs g's bytes from `at` on, `size` bytes as they are or zstd's contents: (len(g), size) uint8."""
        a, b = s[g] + at, e[g]
        out = np.zeros((len(g), size), np.uint8)
        if not zstd:  # the packed codes as they are
            one = b - a == size
            fault(g[~one], lambda i: f"rumi:classes: counts of {e[i] - s[i] - at} bytes, {want} needs {size}")
            out[one] = _gather(data, a[one], b[one]).reshape(int(one.sum()), size)
            return out
        one = _one_frame(data, a, b, size) if len(g) > 1 else np.zeros(len(g), bool)
        if one.any():  # one frame of one block of `size` each: one call
            try:
                z = pa.Codec("zstd").decompress(_gather(data, a[one], b[one]).tobytes(), decompressed_size=size * int(one.sum()),
                                                asbytes=True)
                out[one] = np.frombuffer(z, np.uint8).reshape(int(one.sum()), size)
            except (OSError, ValueError, pa.ArrowException):
                one[:] = False  # one of them is damaged: each alone names its fault
        for j in np.flatnonzero(~one).tolist():  # alone: several blocks, not one frame, or damaged
            try:
                z = pa.Codec("zstd").decompress(data[a[j]:b[j]].tobytes(), decompressed_size=size, asbytes=True)
            except (OSError, ValueError, pa.ArrowException) as x:
                fault(g[j:j + 1], lambda i: f"rumi:classes: counts of {want} do not decompress: {x}")
                continue
            if len(z) != size:
                fault(g[j:j + 1], lambda i: f"rumi:classes: counts of {len(z)} bytes, {want} needs {size}")
                continue
            out[j] = np.frombuffer(z, np.uint8)
        return out

    exact = (codec == _EXACT_CODEC) & ((table == 1) | (table == 2) | (table == 4))
    quant = (codec == COUNTS_CODEC) & (e - s >= 4) & (table < len(CODE_TABLES)) & (flags <= 3) & (left <= K)
    stray = quant & (left > 0) & ((flags & 2 == 0) | (K != 2))  # a class left out: only of 2 filling the tiles
    if not (exact | (quant & ~stray)).all():  # the headers' faults, each its message
        fault(np.flatnonzero((codec == _EXACT_CODEC) & ~exact),
              lambda i: f"rumi:classes: counts of codec {data[s[i]:e[i]][:2].tolist()}, codec {_EXACT_CODEC} has widths 1, 2 or 4")
        fault(np.flatnonzero(codec == _DEV_CODEC), lambda i: f"rumi:classes: counts of codec {_DEV_CODEC}, a development form "
              f"of 2026-12-07 that this version does not read: build the catalogue again")
        fault(np.flatnonzero((codec != _EXACT_CODEC) & ~quant), lambda i: f"rumi:classes: counts of codec "
              f"{data[s[i]:e[i]][:4].tolist()}, this version reads codecs {_EXACT_CODEC} and {COUNTS_CODEC} (tables 0-"
              f"{len(CODE_TABLES) - 1}): a catalogue written by a newer rumi, or damaged")
        fault(np.flatnonzero(stray), lambda i: f"rumi:classes: counts leave class {int(left[i]) - 1} out of a band of {K} "
              "classes that do not fill its tiles")
    lo = hi = np.empty((len(s),) + want, np.uint32)  # (each good blob's written below; a bad one raises)
    if quant.any():
        hi = np.empty_like(lo)
    key = np.where(codec == COUNTS_CODEC, head @ [1 << 24, 1 << 16, 1 << 8, 1], (codec << 24) + (table << 16))
    for k in np.unique(key[~bad]).tolist():  # the blobs of one header (codec 2's: codec and width)
        g = np.flatnonzero((key == k) & ~bad)
        c, t, f, d = k >> 24, k >> 16 & 255, k >> 8 & 255, k & 255
        if c == _EXACT_CODEC:  # the counts in (K, T, ny, nx) order as t byte planes
            planes = payloads(g, 2, t * n * K, True).reshape(len(g), t, n * K)
            cnt = planes[:, 0].astype(np.uint32)  # each count its bytes, the lowest first
            for b in range(1, t):
                cnt |= planes[:, b].astype(np.uint32) << (8 * b)
            l = u = cnt.reshape(len(g), K, T, ny, nx)
        else:  # the codes of table t of the classes kept (all but d - 1), packed, zstd'd with flag 1
            kept, bits = K - (d > 0), _bits(t)
            q = _unpack(payloads(g, 4, -(-kept * n * bits // 8), f & 1 > 0), bits)[:, :kept * n].reshape(len(g), kept, T, ny, nx)
            L = len(CODE_TABLES[t])
            fault(g[(q > L).reshape(len(g), -1).any(1)], lambda i: f"rumi:classes: a count's code past table {t}'s {L}")
            area = tile_areas((th, tw), (Y, X), (ny, nx))
            l, u = code_bounds(q, area, t)  # (G, kept, T, ny, nx): a class's counts side by side
            if d > 0:  # the rest of every tile
                l = np.insert(l, d - 1, 0, axis=1)
                u = np.insert(u, d - 1, np.broadcast_to(area, (T, ny, nx)), axis=1)
            if f & 2:  # the counts fill each tile: each is the area less the others
                sl, su = l.sum(1, keepdims=True), u.sum(1, keepdims=True)
                l, u = np.maximum(l, area - (su - u)), np.minimum(u, area - (sl - l))
            fault(g[(l > u).reshape(len(g), -1).any(1)], lambda i: "rumi:classes: counts whose bounds contradict each other (damaged)")
        if bad[g].any():
            g, l, u = g[~bad[g]], l[~bad[g]], u[~bad[g]]
        to: Any = slice(None) if len(g) == len(s) else g  # (every blob: no scatter)
        lo[to] = l.transpose(0, 2, 3, 4, 1)
        if hi is not lo:
            hi[to] = u.transpose(0, 2, 3, 4, 1)
    if faults:
        raise FormatError(min(faults)[1])
    return lo, hi


#: a zstd frame's magic number (little-endian) and the sizes of its header's fields by flag
_ZSTD_MAGIC = (0x28, 0xB5, 0x2F, 0xFD)
_ZSTD_FCS = np.array([0, 2, 4, 8], np.int64)
#: the most bytes of a frame's header and first block header (magic 4, descriptor 1, window 1,
#: dictionary id 4, content size 8, block header 3)
_ZSTD_HEAD = 21


def _one_frame(data: np.ndarray[Any, Any], s: np.ndarray[Any, Any], e: np.ndarray[Any, Any], size: int) -> np.ndarray[Any, Any]:
    """Per blob data[s:e]: it is exactly one zstd frame (RFC 8878: magic, header without a
    dictionary, its content size stated and equal to `size`) of one block (the last, raw, RLE or
    compressed), ending where the blob ends: such frames decompressed concatenated give each its
    own bytes, in place (decode_bounds_many's one call; it decides only that: a blob it rejects is
    decompressed alone)."""
    top = max(len(data) - 1, 0)
    pos = s[:, None] + np.arange(_ZSTD_HEAD)  # the bytes a header can span, 0 past the blob: one gather
    win = np.where(pos < e[:, None], data[np.clip(pos, 0, top)] if len(data) else 0, 0).astype(np.int64)
    ok = (e - s >= 9) & (win[:, :4] == _ZSTD_MAGIC).all(1)  # magic, descriptor, a content size, a block header
    out = np.zeros(len(s), bool)
    for fhd in np.unique(win[ok, 4]).tolist():  # the frame header descriptors (blobs of one writer and size: one)
        single = (fhd >> 5) & 1
        fcs_size = 1 if fhd >> 6 == 0 and single else int(_ZSTD_FCS[fhd >> 6])
        stated = size - (256 if fcs_size == 2 else 0)  # the content size field's value
        if fhd & 3 or fhd & 8 or not fcs_size or not 0 <= stated < 1 << (8 * fcs_size):
            continue  # a dictionary, the reserved bit, no size stated, or another size than `size`
        g = np.flatnonzero(ok & (win[:, 4] == fhd))
        w = win[g]
        p = 5 + (1 - single)  # (offsets from the blob's start; no dictionary id)
        good = (w[:, p:p + fcs_size] == list(stated.to_bytes(fcs_size, "little"))).all(1)
        b = p + fcs_size
        bh = w[:, b] | w[:, b + 1] << 8 | w[:, b + 2] << 16
        btype = (bh >> 1) & 3
        content = np.where(btype == 1, 1, bh >> 3)
        out[g] = good & (bh & 1 == 1) & (btype != 3) & (s[g] + b + 3 + content + 4 * ((fhd >> 2) & 1) == e[g])
    return out


def _gather(data: np.ndarray[Any, Any], s: np.ndarray[Any, Any], e: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """data[s[0]:e[0]], data[s[1]:e[1]], ... concatenated (one gather)."""
    ln = e - s
    start = np.repeat(s - np.concatenate([[0], np.cumsum(ln)[:-1]]), ln)
    out: np.ndarray[Any, Any] = data[start + np.arange(int(ln.sum()))]
    return out


def _bits(table: int) -> int:
    """The bits of a code of CODE_TABLES[table]: 2 for codes 0-3, else 4."""
    return 2 if len(CODE_TABLES[table]) <= 3 else 4


def _pack(q: np.ndarray[Any, Any], bits: int) -> bytes:
    """Codes (uint8 < 2**bits) packed 8 // bits a byte, the first in the lowest bits."""
    per = 8 // bits
    q = np.concatenate([q.astype(np.uint8), np.zeros(-len(q) % per, np.uint8)]).reshape(-1, per)
    out = np.zeros(len(q), np.uint8)
    for i in range(per):
        out |= q[:, i] << np.uint8(bits * i)
    return out.tobytes()


def _unpack(body: np.ndarray[Any, Any], bits: int) -> np.ndarray[Any, Any]:
    """_pack's bytes (uint8 (G, nbytes)) -> the codes (uint8 (G, nbytes * 8 // bits)), 8 // bits a byte."""
    per = 8 // bits
    out: np.ndarray[Any, Any] = np.stack([(body >> np.uint8(bits * i)) & np.uint8((1 << bits) - 1) for i in range(per)], -1)
    return out.reshape(len(body), body.shape[1] * per)


def _encode_exact(c: np.ndarray[Any, Any]) -> bytes:
    """Codec 2: the exact counts (T, ny, nx, K): the width w of a count (1, 2 or 4 bytes: the
    fewest that hold the largest), then zstd of the counts in (K, T, ny, nx) order as w byte
    planes (a class's counts over steps and tiles side by side: runs of zeros and of whole tiles)."""
    import pyarrow as pa

    top = int(c.max()) if c.size else 0
    if top >= 2**32:
        raise ValueError("class counts must fit uint32")
    w = 1 if top < 2**8 else 2 if top < 2**16 else 4
    k = np.ascontiguousarray(np.moveaxis(c, -1, 0)).astype(f"<u{w}")
    planes = np.ascontiguousarray(k.reshape(-1).view(np.uint8).reshape(-1, w).T)
    z: bytes = pa.Codec("zstd", compression_level=ZSTD_LEVEL).compress(planes.tobytes(), asbytes=True)
    return bytes([_EXACT_CODEC, w]) + z


def unpack_classes(value: Sequence[Mapping[str, Any]] | None, shape: Sequence[int],
                   tile_shape: Sequence[int]) -> dict[int, ClassCounts] | None:
    """A row's rumi:classes -> {band index: ClassCounts (values, lower and upper bounds of the
    counts (T, ty, tx, K))}; None stays None (not recorded)."""
    if value is None:
        return None
    out = {}
    B = int(shape[1])
    for e in value:
        b = int(e["band"])
        if not 0 <= b < B:
            raise FormatError(f"rumi:classes names band {b} of a {B}-band file")
        vals = np.asarray(e["values"], np.int64)
        out[b] = ClassCounts(vals, *decode_bounds(e["counts"], shape, tile_shape, len(vals)))
    return out


class ClassBatch(NamedTuple):
    """Class counts of many bands of one layout (unpack_classes_many): entry g is band band[g]
    of the row at position row[g] of the rows asked for, its classes values[g] (int64 (K,)) and
    the lower and upper bounds of their counts lo[g], hi[g] (uint32 (T, tiles_y, tiles_x, K):
    ClassCounts' of the row; hi is lo when every one is exact)."""

    row: np.ndarray[Any, Any]
    band: np.ndarray[Any, Any]
    values: np.ndarray[Any, Any]
    lo: np.ndarray[Any, Any]
    hi: np.ndarray[Any, Any]


#: the counts (steps x tiles x classes, all bands) unpack_classes_many decodes in one call of
#: decode_bounds_many (its temporaries: some 40 bytes a count)
MANY_AT_ONCE = 1 << 18
#: a band with this many counts or more is decoded in a call of its own (a Cube's: the temporaries of
#: several past the caches, ten at once cost 3x each alone)
ALONE_COUNTS = 8192


def unpack_classes_many(entry_row: np.ndarray[Any, Any], band: np.ndarray[Any, Any], vals: Any, counts: Any,
                        shp: np.ndarray[Any, Any], til: np.ndarray[Any, Any]) -> list[ClassBatch]:
    """unpack_classes of many rows' entries at once, as rumi.catalog.decode's Rows.classes_many
    hands them out of the rumi:classes column: per entry (one band of one row) its row's position,
    its band (-1: null), its class values and counts blob (vals, counts: Ragged int64 and uint8,
    rumi.catalog.decode), its row's shape (n, 4) and tiles (n, 2) -> ClassBatches: the bands of
    one layout (shape, tiles, classes) decoded together, decode_bounds_many, MANY_AT_ONCE counts
    at a time. The same values and errors as unpack_classes row by row, with no Python work per
    row."""
    bad = np.flatnonzero((band < 0) | (band >= shp[:, 1]))
    if len(bad):
        raise FormatError(f"rumi:classes names band {int(band[bad[0]])} of a {int(shp[bad[0], 1])}-band file")
    K = vals.lengths
    layout = np.concatenate([shp[:, [0, 2, 3]], til, K[:, None]], 1)
    order = np.lexsort(layout.T[::-1])  # the layouts in np.unique(layout, axis=0)'s order, each's rows in theirs
    srt = layout[order]
    start = np.flatnonzero(np.concatenate([[True], (srt[1:] != srt[:-1]).any(1), [True]]))
    out = []
    for u, (T, Y, X, th, tw, k) in enumerate(srt[start[:-1]].tolist()):
        every = order[start[u]:start[u + 1]]
        ny, nx = tile_counts((Y, X), (th, tw))
        size = T * ny * nx * k
        per = 1 if size >= ALONE_COUNTS else max(1, MANY_AT_ONCE // max(1, size))
        for at in range(0, len(every), per):  # the temporaries bounded: MANY_AT_ONCE counts a call
            g = every[at:at + per]
            lo, hi = decode_bounds_many(counts.values, counts.off[g], counts.off[g + 1], (T, 1, Y, X), (th, tw), k)
            v = vals.values[vals.off[g][:, None] + np.arange(k)] if k else np.zeros((len(g), 0), np.int64)
            out.append(ClassBatch(entry_row[g], band[g], v, lo, hi))
    return out


def class_counts(dataset: Dataset, nodata: Any = None, classes: Any = None) -> dict[int, ClassCounts]:
    """A file's exact class counts (ClassCounts whose bounds are the counts), from one pass over
    its pixels (rumi.catalog.scan). nodata: as Catalog.build's (None: none); classes: see the
    module's notes."""
    B = dataset.shape[1]
    nd = normalize_nodata(nodata, B, dataset.path) if nodata is not None else None
    sink = class_sink(dataset, classes)
    scan(dataset, nd if nd is not None else [None] * B, [sink] if sink.wants_pixels else [])
    out = {}
    for b, st in sorted(sink.bands.items()):
        c = st.counts.astype(np.uint32)
        out[b] = ClassCounts(st.values, c, c)
    return out
