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
in the file), `values` (its classes, int64, increasing) and `counts`: the counts per step, tile
and class (T, tiles_y, tiles_x, K; nodata samples not counted), stored as a codec byte
(COUNTS_CODEC), the width of a count (1, 2 or 4 bytes, the fewest that hold the largest), then
zstd of the counts in (K, T, tiles_y, tiles_x) order as byte planes (encode_counts); read back
as uint32 (decode_counts). An empty
list: no categorical band; null: not recorded (a catalogue written before the column)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from .._dataset import Dataset
from .._errors import FormatError
from .._internal import normalize_nodata, tile_counts
from .scan import Tiles, scan, tiles_of

#: the detection rule: an integer band with at most this many distinct valid values is categorical
DETECT_MAX = 32
#: the most classes a band declared categorical may have
DECLARED_MAX = 1024
#: the counts' encoding: (K, T, ny, nx) order, byte planes of the narrowest little-endian width, zstd
COUNTS_CODEC = 2
#: zstd's level for the counts (small arrays: the level costs little)
ZSTD_LEVEL = 19
#: classes counted by comparing each value (fewer) or by a searchsorted index and bincount (more)
_PER_VALUE = 24


@dataclass(frozen=True)
class ClassSpec:
    """`classes=` normalised: detect (the rule above), or the bands declared (name or index ->
    the values to count, None: every value)."""

    detect: bool
    declared: tuple[tuple[str | int, tuple[int, ...] | None], ...] = ()

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


def class_spec(classes: Any) -> ClassSpec:
    """`classes=` as users give it -> ClassSpec (ValueError / TypeError naming what is wrong)."""
    if classes is None or classes is True or classes == "auto":
        return ClassSpec(True)
    if classes is False:
        return ClassSpec(False)
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
    return ClassSpec(False, tuple(out))


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
        return [{"band": b, "values": st.values.tolist(), "counts": encode_counts(st.counts)}
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


def encode_counts(counts: np.ndarray[Any, Any]) -> bytes:
    """(T, ny, nx, K) counts -> the column's bytes: COUNTS_CODEC, the width w of a count (1, 2
    or 4 bytes: the fewest that hold the largest), then zstd of the counts in (K, T, ny, nx)
    order as w byte planes (a class's counts over steps and tiles side by side: runs of zeros
    and of whole tiles)."""
    import pyarrow as pa

    c = np.asarray(counts)
    if c.size and (c.min() < 0 or c.max() >= 2**32):
        raise ValueError("class counts must fit uint32")
    top = int(c.max()) if c.size else 0
    w = 1 if top < 2**8 else 2 if top < 2**16 else 4
    k = np.ascontiguousarray(np.moveaxis(c, -1, 0)).astype(f"<u{w}")
    planes = np.ascontiguousarray(k.reshape(-1).view(np.uint8).reshape(-1, w).T)
    z: bytes = pa.Codec("zstd", compression_level=ZSTD_LEVEL).compress(planes.tobytes(), asbytes=True)
    return bytes([COUNTS_CODEC, w]) + z


def decode_counts(blob: bytes, shape: Sequence[int], tile_shape: Sequence[int], K: int) -> np.ndarray[Any, Any]:
    """The column's bytes of a band with K classes of a file of shape (T, B, Y, X) and tiles
    -> uint32 (T, tiles_y, tiles_x, K) (FormatError when they do not hold that)."""
    import pyarrow as pa

    T, _, Y, X = (int(v) for v in shape)
    th, tw = (int(v) for v in tile_shape)
    want = (T, *tile_counts((Y, X), (th, tw)), int(K))
    n = math.prod(want)
    if len(blob) < 2 or blob[0] != COUNTS_CODEC or blob[1] not in (1, 2, 4):
        raise FormatError(f"rumi:classes: counts of codec {list(blob[:2])}, this version reads [{COUNTS_CODEC}, 1|2|4]")
    w = blob[1]
    try:
        raw = pa.Codec("zstd").decompress(blob[2:], decompressed_size=w * n, asbytes=True)
    except (OSError, ValueError, pa.ArrowException) as e:
        raise FormatError(f"rumi:classes: counts of {want} do not decompress: {e}") from None
    if len(raw) != w * n:
        raise FormatError(f"rumi:classes: counts of {len(raw)} bytes, {want} needs {w * n}")
    planes = np.frombuffer(raw, np.uint8).reshape(w, n)
    k = np.ascontiguousarray(planes.T).view(f"<u{w}").reshape((want[3],) + want[:3])
    out: np.ndarray[Any, Any] = np.ascontiguousarray(np.moveaxis(k, 0, -1)).astype(np.uint32)
    return out


def unpack_classes(value: Sequence[Mapping[str, Any]] | None, shape: Sequence[int],
                   tile_shape: Sequence[int]) -> dict[int, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] | None:
    """A row's rumi:classes -> {band index: (values int64 (K,), counts uint32 (T, ty, tx, K))};
    None stays None (not recorded)."""
    if value is None:
        return None
    out = {}
    B = int(shape[1])
    for e in value:
        b = int(e["band"])
        if not 0 <= b < B:
            raise FormatError(f"rumi:classes names band {b} of a {B}-band file")
        vals = np.asarray(e["values"], np.int64)
        out[b] = (vals, decode_counts(e["counts"], shape, tile_shape, len(vals)))
    return out


def class_counts(dataset: Dataset, nodata: Any = None, classes: Any = None) -> dict[int, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    """A file's class counts as unpack_classes gives them, from one pass over its pixels
    (rumi.catalog.scan). nodata: as Catalog.build's (None: none); classes: see the module's notes."""
    B = dataset.shape[1]
    nd = normalize_nodata(nodata, B, dataset.path) if nodata is not None else None
    sink = class_sink(dataset, classes)
    scan(dataset, nd if nd is not None else [None] * B, [sink] if sink.wants_pixels else [])
    got = unpack_classes(sink.value(), dataset.shape, dataset.tile_shape)
    assert got is not None
    return got
