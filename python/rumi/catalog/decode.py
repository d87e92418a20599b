"""The one decoder of catalogue rows: a typed view of a catalogue table, a row group or a shard
(pyarrow columns in, numpy columns out), and the one test of time steps against a time window.
`columns` names the columns and their Arrow types; this module reads them, vectorised (no loop
per row), for every consumer: the search, rumi.torch's ChipIndex, TorchGeo's
RumiRasterDataset, the label index.

    rows = Rows(table)                    # nothing decoded yet: each column on first use, once
    rows.n                                # rows
    rows.times                            # Times: steps as flat arrays with per-row offsets
    rows.times.start, .end, .off          #   seconds since 1970; an instant's end is its start
    rows.times.meets(window)              #   per step: meets (lo, hi) seconds (overlap)
    rows.times.rows_meeting(window)       #   per row: one of its steps meets it
    rows.shapes, rows.tiles               # (n, 4) T, B, Y, X; (n, 2) tile rows, cols
    rows.bands_of(names)                  # BandLookup: (n, len(names)) indices, missing rows
    rows.sample_types                     # (n,) object: each row's rumi:dtype
    rows.band_nodata(keep, bi)            # nodata values / has / known of the bands read
    rows.bbox                             # the bbox covering: xmin, ymin, xmax, ymax
    rows.grid_codes, .transforms          # proj:code (dictionary), proj:transform (n, 6)
    rows.proj_shapes                      # proj:shape (n, 2) float, NaN when not 2 values
    rows.valid                            # rumi:valid, the packed summaries (Ragged bytes)
    rows.classes(i)                       # rumi:classes of row i: {band: ClassCounts (classes, lo, hi (T, ty, tx, K))}
    rows.classes_many(rows)               #   of many rows at once: ClassBatch per layout (rumi.catalog.classes)
    rows.scaling(keep, bi)                # scales, offsets, units of the bands read, recorded
    rows.strings(name)                    # a string / binary column as Ragged bytes (id, location,
                                          # rumi:etag, rumi:digest, rumi:header)
    rows.file_sizes                       # rumi:file_size, -1 where not recorded

Ragged columns (list, string and binary columns) are `Ragged`: `off` (n + 1 offsets: row i's
values are values[off[i]:off[i + 1]]; off[0] may be non-zero for a column sliced by Arrow),
`values` (numpy; a null element filled), `present` (each value not null, list columns) and
`valid` (each row's list not null). A null list has no values.

Optional columns (columns.OPTIONAL_COLUMNS, added after catalogue 0.1.0) that a table lacks read as
null in every row (an old catalogue); `has(name)` tells whether the table has the column (a shard
read with a few columns). A column the decoding needs and the table lacks is a KeyError naming it.

Times are whole seconds since 1970 (`seconds`: the catalogue's timestamp[us] floored). A row's
steps are intervals when rumi:time_ends is not null (then it has one end per start, else a
FormatError), instants otherwise (an instant's end is its start). `overlap` is the one test of
spans against a window (lo, hi) of seconds, both included, None open: a span [start, end] meets
it when end >= lo and start <= hi; end_open=True reads spans [start, end) (end > lo: TorchGeo's
reading, where an instant spans its second, `Times.stop`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence, Union

import numpy as np

from .._errors import FormatError, RequestError
from . import columns as K

if TYPE_CHECKING:
    from .classes import ClassCounts

Array = np.ndarray[Any, Any]
#: a closed window in seconds since 1970 (None: open on that side); floats allowed (TorchGeo's)
Window = tuple[Union[int, float, None], Union[int, float, None]]
#: timestamp[us] values per second
US = 1_000_000


def _arr(col: Any) -> Any:
    """A pyarrow Array of a ChunkedArray (one chunk) or an Array."""
    return col.combine_chunks() if hasattr(col, "combine_chunks") else col


def _np(a: Any, dtype: Any, fill: Any = 0) -> Array:
    """An Arrow array (or chunked array) as numpy, nulls as fill."""
    if a.null_count:
        a = a.fill_null(fill)
    return np.asarray(a.to_numpy(zero_copy_only=False), dtype)


def seconds(values: Any) -> Array:
    """Catalogue times (timestamp[us] values, an Arrow array, nulls as 0) -> int64 whole
    seconds since 1970 (floored: the catalogue holds whole seconds)."""
    pa = K.deps().pa
    return _np(values.cast(pa.int64()), np.int64) // US


def overlap(start: Any, end: Any, window: Window, *, end_open: bool = False) -> Array:
    """Whether each span [start, end] (end_open: [start, end)) meets the window (lo, hi), both
    ends included, None: open; numpy arrays or scalars (broadcast)."""
    lo, hi = window
    ok = np.ones(np.broadcast(np.asarray(start), np.asarray(end)).shape, bool)
    if lo is not None:
        ok &= (np.asarray(end) > lo) if end_open else (np.asarray(end) >= lo)
    if hi is not None:
        ok &= np.asarray(start) <= hi
    return ok


def time_indices(times: Sequence[int], ends: Sequence[int] | None, window: Window) -> list[int]:
    """Indices of the time steps (starts times in seconds, ends: None for instants) that meet
    window (start, end) in seconds (None = open): overlap."""
    s = np.asarray(times, np.int64)
    e = np.asarray(ends, np.int64) if ends else s
    return [int(k) for k in np.flatnonzero(overlap(s, e, window))]


def time_seconds(table: Any, name: str = K.TIMES) -> list[list[int] | None]:
    """Per row of a catalogue table: its rumi:times (name rumi:time_ends: its ends) as int
    seconds, None where the column is null (Rows(table).times.lists)."""
    if name not in (K.TIMES, K.TIME_ENDS):
        raise ValueError(f"time_seconds reads {K.TIMES} or {K.TIME_ENDS}, not {name!r}")
    return Rows(table).times.lists(ends=name == K.TIME_ENDS)


@dataclass(frozen=True)
class Ragged:
    """A list / string / binary column: row i's values are values[off[i]:off[i + 1]]."""

    off: Array  # (n + 1,) int64
    values: Array
    valid: Array  # (n,) bool: the row's list is not null
    present: Array | None = None  # per value: not null (list columns)

    @property
    def lengths(self) -> Array:
        return np.diff(self.off)

    @functools.cached_property
    def row_of(self) -> Array:
        """Each value's row."""
        return np.repeat(np.arange(len(self.valid)), self.lengths)

    def at(self, i: int) -> Array:
        return self.values[int(self.off[i]):int(self.off[i + 1])]

    def text(self, i: int) -> str | None:
        """Row i of a string column (None: null)."""
        return bytes(self.at(i)).decode() if self.valid[i] else None

    def fixed(self, width: int, what: str) -> Array:
        """(n, width): every row has width values, else a RequestError naming the column."""
        if not (self.lengths == width).all():
            raise RequestError(f"{what} of some rows has not {width} values ({sorted(set(self.lengths.tolist()))})")
        return self.values[int(self.off[0]):int(self.off[-1])].reshape(len(self.valid), width)


def lists(col: Any, dtype: Any, fill: Any = 0, arrow_type: Any = None, present: bool = False) -> Ragged:
    """A list column as Ragged (values as dtype, a null element as fill; arrow_type: the values
    cast to it first; present: keep which values are not null)."""
    import pyarrow.compute as pc

    arr = _arr(col)
    lengths = _np(pc.list_value_length(arr), np.int64)
    off = np.zeros(len(arr) + 1, np.int64)
    np.cumsum(lengths, out=off[1:])
    flat = pc.list_flatten(arr)
    if arrow_type is not None:
        flat = flat.cast(arrow_type)
    keep = (_np(flat.is_valid(), bool) if len(flat) else np.zeros(0, bool)) if present else None
    return Ragged(off, _np(flat, dtype, fill), _np(arr.is_valid(), bool), keep)


def binary(col: Any) -> Ragged:
    """A string or binary column as Ragged uint8 (its Arrow buffers, no copy)."""
    pa = K.deps().pa
    arr = _arr(col)
    n = len(arr)
    if pa.types.is_null(arr.type):
        return Ragged(np.zeros(n + 1, np.int64), np.zeros(0, np.uint8), np.zeros(n, bool))
    odt: Any = np.int64 if pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type) else np.int32
    bufs = arr.buffers()
    off = (np.frombuffer(bufs[1], odt, count=n + 1, offset=arr.offset * np.dtype(odt).itemsize).astype(np.int64)
           if n else np.zeros(1, np.int64))
    data = np.frombuffer(bufs[2], np.uint8) if len(bufs) > 2 and bufs[2] is not None else np.zeros(0, np.uint8)
    return Ragged(off, data, _np(arr.is_valid(), bool))


@dataclass(frozen=True)
class Times:
    """A table's time steps, flat: step k of row i is off[i] + k."""

    off: Array  # (n + 1,) int64
    start: Array  # per step: seconds since 1970
    end: Array  # per step: an interval's end, an instant's start
    interval: Array  # (n,) bool: the row's steps are intervals (rumi:time_ends)
    listed: Array  # (n,) bool: the row has rumi:times (not null)

    @functools.cached_property
    def row_of(self) -> Array:
        """Each step's row."""
        return np.repeat(np.arange(len(self.listed)), np.diff(self.off))

    @property
    def step_no(self) -> Array:
        """Each step's index in its row."""
        return np.arange(len(self.start)) - self.off[self.row_of]

    def step_numbers(self, steps: Array) -> Array:
        """The index in its row of each step set in `steps` (a bool per step), in order."""
        rows = np.repeat(np.arange(len(self.listed)), self.count(steps))
        return np.flatnonzero(steps) - self.off[rows]

    @property
    def stop(self) -> Array:
        """Each step's end as a half-open span [start, stop): an interval's end, an instant's
        next second (TorchGeo's reading of a time)."""
        return np.where(self.interval[self.row_of], self.end, self.start + 1)

    def meets(self, window: Window | None, end_open: bool = False) -> Array:
        """Per step: it meets window (overlap; None: every step)."""
        if window is None:
            return np.ones(len(self.start), bool)
        return overlap(self.start, self.stop if end_open else self.end, window, end_open=end_open)

    def count(self, steps: Array) -> Array:
        """(n,) int64: per row, how many of its steps are set in `steps` (a bool per step)."""
        at = np.flatnonzero(steps)  # sorted: each row's count is the positions between its offsets
        return np.searchsorted(at, self.off[1:]) - np.searchsorted(at, self.off[:-1])

    def rows_meeting(self, window: Window | None) -> Array:
        """(n,) bool: the rows with a step that meets window (a row without times meets none)."""
        return (self.count(self.meets(window)) > 0) & self.listed

    def lists(self, ends: bool = False) -> list[list[int] | None]:
        """Per row, its starts (ends=True: its ends; None for instants) as Python ints, None
        where the row has no rumi:times."""
        vals = (self.end if ends else self.start).tolist()
        on = self.interval if ends else self.listed
        o = self.off.tolist()
        return [vals[o[i]:o[i + 1]] if on[i] else None for i in range(len(self.listed))]


@dataclass(frozen=True)
class BandLookup:
    """Where each of `names` is in each row's rumi:bands."""

    names: list[str]
    idx: Array  # (n, len(names)) int32: the band's index in the row (0 where missing)
    missing: Array  # (n,) bool: the row lacks one of the names

    def require(self, rows: Array, name_of: Callable[[int], str], what: str = "bands") -> None:
        """RequestError naming the first of `rows` (indices) that lacks one of the names
        (name_of(i): how the message names row i, e.g. "row 7 (id)"; what: the names' kind)."""
        bad = np.flatnonzero(self.missing[rows]) if len(rows) else np.zeros(0, np.int64)
        if len(bad):
            i = int(np.asarray(rows)[int(bad[0])])
            raise RequestError(f"{name_of(i)} lacks some of the {what} {self.names}")


def one_sample_type(firsts: dict[str, str], hint: str = "", files: str = "files") -> str:
    """The one sample type of a selection from {type: the first file (id) with it}, else a
    RequestError naming the types and their first files (files: what the files are; hint
    appended)."""
    if len(firsts) != 1:
        shown = ", ".join(f"{e} ({f})" for e, f in sorted(firsts.items()))
        raise RequestError(f"the {files} have different sample types {sorted(firsts)} (first files: {shown}){hint}")
    return next(iter(firsts))


class Rows:
    """A typed view of a catalogue table (a pyarrow Table of columns.schema's columns, or some
    of them): each decoded column computed on first use, then kept (see the module's notes)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.n: int = table.num_rows

    def has(self, name: str) -> bool:
        """Whether the table has the column (a shard may be read with a few columns)."""
        return name in self.table.column_names

    def column(self, name: str) -> Any:
        """The Arrow column; an optional column the table lacks is null in every row."""
        if self.has(name):
            return self.table.column(name)
        if name in K.OPTIONAL_COLUMNS:
            pa = K.deps().pa
            return pa.nulls(self.n, K.schema().field(name).type)
        raise KeyError(f"the catalogue table has no column {name!r}")

    # -- times -------------------------------------------------------------------------------
    @functools.cached_property
    def times(self) -> Times:
        """rumi:times and rumi:time_ends as Times (FormatError when a row's ends are not one
        per start)."""
        i64 = K.deps().pa.int64()
        st = lists(self.column(K.TIMES), np.int64, arrow_type=i64)
        start = st.values // US
        en = lists(self.column(K.TIME_ENDS), np.int64, arrow_type=i64)
        interval = en.valid
        end = start  # instants (never written to: the arrays of a Times are read only)
        if interval.any():
            end = start.copy()
            if not (en.lengths[interval] == st.lengths[interval]).all():
                raise FormatError(f"{K.TIME_ENDS} and {K.TIMES} differ in length")
            end[np.repeat(interval, st.lengths)] = en.values // US  # the ends' rows are the intervals'
        return Times(st.off, start, end, interval, st.valid)

    # -- shapes ------------------------------------------------------------------------------
    @functools.cached_property
    def shapes(self) -> Array:
        """(n, 4) int64: each row's rumi:shape (T, B, Y, X); RequestError when a row has not 4."""
        return lists(self.column(K.SHAPE), np.int64).fixed(4, K.SHAPE)

    @functools.cached_property
    def tiles(self) -> Array:
        """(n, 2) int64: each row's rumi:tile_shape; RequestError when a row has not 2."""
        return lists(self.column(K.TILE_SHAPE), np.int64).fixed(2, K.TILE_SHAPE)

    @functools.cached_property
    def file_sizes(self) -> Array:
        """(n,) int64: rumi:file_size, -1 where not recorded."""
        return _np(self.column(K.FILE_SIZE), np.int64, -1)

    # -- bands and sample types ----------------------------------------------------------------
    def bands_of(self, names: Sequence[str], memo: dict[tuple[str, ...], list[int] | None] | None = None) -> BandLookup:
        """Each of names' index in each row's rumi:bands (each distinct band list decoded once;
        memo: a dict kept across tables, band list -> indices or None when one is missing)."""
        import pyarrow.compute as pc

        names = list(names)
        memo = {} if memo is None else memo
        joined = _arr(pc.dictionary_encode(pc.binary_join(self.column(K.BANDS), "\x1f").fill_null("")))
        which = _np(joined.indices, np.int64)
        table = np.zeros((len(joined.dictionary), len(names)), np.int32)
        missing = np.zeros(len(joined.dictionary), bool)
        for k, text in enumerate(joined.dictionary.to_pylist()):
            key = tuple(text.split("\x1f")) if text else ()
            got = memo.get(key, ())
            if got == ():
                try:
                    got = [key.index(b) for b in names]
                except ValueError:
                    got = None
                memo[key] = got
            if got is None:
                missing[k] = True
            else:
                table[k] = got
        return BandLookup(names, table[which], missing[which])

    def first_bands(self) -> list[str]:
        """Every band of the first row (the default band selection)."""
        return list(self.column(K.BANDS)[0].as_py())

    @functools.cached_property
    def sample_type_codes(self) -> tuple[list[str | None], Array]:
        """rumi:dtype as (the distinct sample types, each row's index in them)."""
        import pyarrow.compute as pc

        cd = _arr(pc.dictionary_encode(self.column(K.DTYPE), null_encoding="encode"))
        return list(cd.dictionary.to_pylist()), _np(cd.indices, np.int64)

    @functools.cached_property
    def sample_types(self) -> Array:
        """(n,) object: each row's rumi:dtype."""
        names, idx = self.sample_type_codes
        return np.asarray(names + [None], object)[idx]

    def first_of_types(self, rows: Array) -> dict[str, int]:
        """{sample type: the first of rows (indices, in their order) with it}."""
        rows = np.asarray(rows, np.int64)
        names, idx = self.sample_type_codes
        uniq, first = np.unique(idx[rows], return_index=True)
        order = np.argsort(first, kind="stable")
        return {str(names[int(uniq[k])]): int(rows[first[k]]) for k in order}

    # -- nodata, valid summaries, scaling ------------------------------------------------------
    def classes(self, i: int) -> dict[int, ClassCounts] | None:
        """Row i's class counts (rumi:classes): {band index: ClassCounts (class values (K,) int64,
        lower and upper bounds of the counts lo, hi (T, tiles_y, tiles_x, K) uint32: equal where
        exact)}, rumi.catalog.classes.unpack_classes; None: not recorded (a catalogue written
        before the column)."""
        from .classes import unpack_classes

        return unpack_classes(self.column(K.CLASSES)[i].as_py(), self.shapes[i].tolist(), self.tiles[i].tolist())

    def classes_many(self, rows: Array) -> tuple[Array, list[Any]]:
        """classes of many rows at once (rows: indices): (which recorded the column, their bands'
        counts as rumi.catalog.classes.ClassBatch per layout, each band's row its position in
        rows), rumi.catalog.classes.unpack_classes_many: no Python work per row."""
        from .classes import unpack_classes_many

        import pyarrow.compute as pc

        pa = K.deps().pa
        rows = np.asarray(rows, np.int64).ravel()
        col = self.column(K.CLASSES)
        if len(rows) and 0 <= rows[0] and rows[-1] < len(col) and (np.diff(rows) == 1).all():
            arr = _arr(col.slice(int(rows[0]), len(rows)))  # a run of rows (a shard's files in order): no copy
        else:
            arr = _arr(col.take(pa.array(rows, pa.int64())))
        recorded = _np(arr.is_valid(), bool)
        flat = _arr(pc.list_flatten(arr))
        if not len(flat):
            return recorded, []
        entry_row = np.repeat(np.arange(len(rows)), _np(pc.list_value_length(arr), np.int64))
        band = _np(flat.field("band"), np.int64, -1)
        at = rows[entry_row]
        shp = np.asarray(self.shapes, np.int64)[at].reshape(-1, 4)
        til = np.asarray(self.tiles, np.int64)[at].reshape(-1, 2)
        return recorded, unpack_classes_many(entry_row, band, lists(flat.field("values"), np.int64),
                                             binary(flat.field("counts")), shp, til)

    @functools.cached_property
    def nodata(self) -> Ragged:
        """rumi:nodata per row and band (NaN where an element is null: see present)."""
        return lists(self.column(K.NODATA), np.float64, np.nan, present=True)

    def band_nodata(self, keep: Array, bi: Array) -> tuple[Array, Array, Array]:
        """The catalogue's nodata of the bands read (bi: every row's band indices, (n, B)) of
        the rows keep: (values (k, B) float, NaN where none; has (k, B); known (k,): the row
        has rumi:nodata)."""
        nd = self.nodata
        known = nd.valid[keep]
        nl = nd.lengths
        bk = bi[keep]
        inside = bk < nl[keep][:, None]
        pos = np.where(inside, nd.off[:-1][keep][:, None] + bk, 0)
        val = np.where(inside, nd.values[pos] if len(nd.values) else np.nan, np.nan)
        has = inside & (nd.present[pos] if nd.present is not None and len(nd.present) else False) & known[:, None]
        return val, has, known

    @functools.cached_property
    def valid(self) -> Ragged:
        """rumi:valid, each row's packed valid summary (rumi.catalog.valid), as Ragged bytes."""
        return binary(self.column(K.VALID))

    @functools.cached_property
    def stats(self) -> Ragged:
        """rumi:stats, each row's packed numeric statistics (rumi.catalog.stats.unpack_stats), as
        Ragged bytes (null: not recorded)."""
        return binary(self.column(K.STATS))

    def scaling(self, keep: Array, bi: Array) -> tuple[Array, Array, Array, Array]:
        """Of the rows keep, the bands read (bi: every row's band indices): (scales (k, B)
        float64, offsets (k, B) float64, units (k, B) object, recorded (k,): the row has the
        three SCALE_COLUMNS). An empty list is the defaults; a list of another length than the
        row's bands is a RequestError."""
        nb = self.shapes[:, 1]
        out = []
        rec = np.ones(len(keep), bool)
        for name, dflt in zip(K.SCALE_COLUMNS, K.SCALE_DEFAULTS):
            v, r = self._per_band(name, keep, bi, nb, dflt)
            out.append(v)
            rec &= r
        return out[0], out[1], out[2], rec

    def _per_band(self, name: str, keep: Array, bi: Array, nbands: Array, default: Any) -> tuple[Array, Array]:
        text = isinstance(default, str)
        col = lists(self.column(name), object if text else np.float64, default)
        lk, bk = col.lengths[keep], bi[keep]
        bad = np.flatnonzero((lk != 0) & (lk != nbands[keep]))
        if len(bad):
            i = int(bad[0])
            raise RequestError(f"the catalogue's {name} of row {int(keep[i])} has {int(lk[i])} values for its "
                               f"{int(nbands[keep][i])} bands")
        inside = lk[:, None] > bk
        pos = np.where(inside, col.off[:-1][keep][:, None] + bk, 0)
        out = np.full(bk.shape, default, object if text else np.float64)
        if len(col.values):
            out[inside] = col.values[pos[inside]]
        return out, col.valid[keep]

    # -- grids -------------------------------------------------------------------------------
    @functools.cached_property
    def bbox(self) -> tuple[Array, Array, Array, Array]:
        """The bbox covering's xmin, ymin, xmax, ymax as float arrays (NaN: null; xmin > xmax
        across 180 degrees)."""
        import pyarrow.compute as pc

        bb = self.column(K.BBOX)
        x0, y0, x1, y1 = (np.array(pc.struct_field(bb, k).to_numpy(zero_copy_only=False), dtype=float)
                          for k in ("xmin", "ymin", "xmax", "ymax"))
        return x0, y0, x1, y1

    @functools.cached_property
    def grid_codes(self) -> tuple[list[str], Array]:
        """proj:code as (the distinct codes, each row's index in them, -1 where null)."""
        import pyarrow.compute as pc

        cd = _arr(pc.dictionary_encode(self.column(K.PROJ_CODE)))
        names = [str(c) for c in cd.dictionary.to_pylist()]
        return names, _np(cd.indices, np.int64, -1)

    @functools.cached_property
    def transform_lengths(self) -> Array:
        """(n,) int64: how many numbers each row's proj:transform has (0: null)."""
        return lists(self.column(K.PROJ_TRANSFORM), np.float64, np.nan).lengths

    @functools.cached_property
    def transforms(self) -> Array:
        """(n, 6) float64: the affine a..f of each row's proj:transform (its first six of 6 or
        9, STAC's order; 9: the last row 0 0 1), NaN where it has fewer than 6."""
        tr = lists(self.column(K.PROJ_TRANSFORM), np.float64, np.nan)
        out = np.full((self.n, 6), np.nan)
        six = tr.lengths >= 6
        if six.any():
            out[six] = tr.values[tr.off[:-1][six][:, None] + np.arange(6)]
        return out

    @functools.cached_property
    def proj_shapes(self) -> Array:
        """(n, 2) float64: proj:shape (height, width), NaN where a row has not 2 values or more
        (its last 2 taken)."""
        sh = lists(self.column(K.PROJ_SHAPE), np.float64, np.nan)
        out = np.full((self.n, 2), np.nan)
        ok = sh.lengths >= 2
        if ok.any():
            out[ok] = sh.values[sh.off[1:][ok][:, None] - 2 + np.arange(2)]
        return out

    # -- strings -----------------------------------------------------------------------------
    def strings(self, name: str) -> Ragged:
        """A string or binary column (id, location, rumi:etag, rumi:digest, rumi:header) as
        Ragged bytes."""
        return binary(self.column(name))

    @functools.cached_property
    def ids(self) -> Ragged:
        return self.strings(K.ID)

    def id(self, i: int) -> str:
        """Row i's id."""
        return bytes(self.ids.at(i)).decode()
