"""`Catalog`: the rows of a catalogue (a pyarrow Table) and where they came from; building one,
writing and opening the GeoParquet file, selecting rows, pickling as a path and a search."""

from __future__ import annotations

import os
import sys

import numpy as np
from typing import Any, NamedTuple, Sequence

from .._dataset import Dataset
from .._errors import FormatError, RumiIOError
from .._location import Location
from .classes import class_spec
from .rows import describe, open_row
from .stats import Stats, selection_stats
from . import columns as K
from .columns import OPTIONAL_COLUMNS, deps, file_metadata, schema
from .parts import LAZY_COLUMNS, REF_COLUMNS, ROWS_PER_GROUP, Headers, Parts, write_parts
from .search import Query, apply, crs_query, mask, pushdown, query
from .vrt import write_vrt

class ShardRows(NamedTuple):
    """A shard's rows (Catalog.read_shard): `table` (the columns asked for), `pos` (each row's
    position in its shard: its row group's row, or the run's), and the blobs: `header` (the
    rumi:header column of rows in memory, or None) or `refs` ((part, offset, size) arrays of a
    partitioned catalogue's rows: Catalog.headers reads them; size -1: no blob)."""

    table: Any
    pos: Any
    header: Any
    refs: Any


#: what identifies the catalogue file a Catalog was opened from: (size, mtime in ns), the
#: mtime None for a URL; a partitioned catalogue's: ("parts", its part files' names)
Stamp = tuple[Any, Any]


def write_table(table: Any, path: str | os.PathLike[str], *, options: dict[str, Any] | None = None) -> None:
    """Writes table (the catalogue schema) as a catalogue file, with its GeoParquet "geo" and
    "rumi:catalog" metadata, atomically and durably (a local path or an s3:// URL)."""
    pa, pq, *_ = deps()
    table = table.replace_schema_metadata(file_metadata(table))
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", row_group_size=4096)
    Location.parse(path).put(sink.getvalue().to_pybytes(), options)


def read_table(path_or_url: str | os.PathLike[str], options: dict[str, Any] | None = None) -> tuple[Any, Stamp]:
    """The table of a catalogue file (columns added since its version filled with nulls) and
    its stamp; FormatError when it is not a catalogue."""
    pa, pq, *_ = deps()
    loc = Location.parse(path_or_url)
    src = loc.text
    stamp: Stamp
    try:
        if loc.is_remote:
            data = loc.read(options)
            assert data is not None
            table = pq.read_table(pa.BufferReader(data))
            stamp = (len(data), None)
        else:
            try:
                st = os.stat(src)
            except OSError as e:
                raise RumiIOError(f"{src}: {e.strerror}") from None
            table = pq.read_table(src)
            stamp = (st.st_size, st.st_mtime_ns)
    except pa.ArrowInvalid as e:  # truncated, or not Parquet
        raise FormatError(f"{src} is not a readable catalogue (truncated or corrupt?): {e}") from None
    md = table.schema.metadata or {}
    if K.CATALOG_KEY not in md:
        raise FormatError(f"{src} is not a rumi catalogue (no rumi:catalog metadata)")
    sch = schema()
    missing = [n for n in sch.names if n not in table.column_names and n not in OPTIONAL_COLUMNS]
    if missing:
        raise FormatError(f"{src} is not a rumi catalogue: columns {missing} are missing")
    for n in OPTIONAL_COLUMNS:  # a catalogue written before these columns: no nodata
        if n not in table.column_names:
            table = table.append_column(sch.field(n), pa.nulls(table.num_rows, sch.field(n).type))
    return table, stamp


class Catalog:
    """Rows of a catalogue (a pyarrow Table) and where they came from. Picklable in a few
    hundred bytes when it was opened from a file or folder: the path, the file's size and mtime
    (a folder's: its part files' names), and the search that selected the rows, replayed in the
    worker.

    A partitioned catalogue (a folder or prefix of part files, rumi.catalog.parts) opens without
    reading its rows: len() comes from the footers, search() reads only the row groups that may
    match, and a row's header blob is read (one range) when the row is opened (row(), dataset());
    `.table` of the whole folder reads every row (all but the blobs)."""

    #: catalogues of at most this many rows convert their rows to Python once, at the first
    #: row() (a reader's open: a slice's to_pylist costs 0.33 ms, a chip loader's workers open
    #: every file they meet); larger ones convert the row asked for
    ROWS_CACHED = 100_000
    #: the same for a partitioned catalogue's selections, which are searches of large ones (converting
    #: 10 k rows at once takes 2 s; a row alone 0.3 ms)
    PART_ROWS_CACHED = 1_000

    def __init__(self, table: Any, path: str | None = None, query: Query = (), _stamp: Stamp | None = None,
                 _parts: Parts | None = None, _refs: Any = None, _at: Any = None) -> None:
        self._table = table
        self.path = path
        self._query = tuple(query)
        self._stamp = _stamp
        self._rows: list[dict[str, Any]] | None = None
        #: a partitioned catalogue's parts (None: a single file); _refs: per row of the table,
        #: (part, blob offset, blob size) arrays; _at: each row's row in its part
        self._parts = _parts
        self._refs = _refs
        self._at = _at
        #: LAZY_COLUMNS read for the rows (lazy_column), by name
        self._lazy: dict[str, Any] = {}

    @property
    def table(self) -> Any:
        """The rows as a pyarrow Table of the catalogue schema (a partitioned catalogue's blobs
        stay beside: its rumi:header column is null; row() and dataset() read them)."""
        if self._table is None:
            assert self._parts is not None
            self._table, self._refs, self._at = _read_parts(self._parts, self._query)
        return self._table

    @property
    def partitioned(self) -> bool:
        """True for a folder of part files (rumi.catalog.parts), False for a single file."""
        return self._parts is not None

    @property
    def groups_read(self) -> int:
        """Row groups a partitioned catalogue's searches read so far (all searches of one open)."""
        return 0 if self._parts is None else self._parts.groups_read

    @property
    def num_groups(self) -> int:
        """Row groups of a partitioned catalogue (0 for a single file)."""
        return 0 if self._parts is None else self._parts.num_groups

    # -- building / opening --------------------------------------------------------------
    @classmethod
    def build(
        cls,
        srcs: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        path: str | os.PathLike[str],
        *,
        options: dict[str, Any] | None = None,
        on_error: str = "raise",
        nodata: Any = None,
        classes: Any = None,
        stats: bool = True,
        exact_classes: bool = False,
    ) -> Catalog:
        """Catalogues srcs (paths or URLs of rumi files, folders (their *.rumi files, sub-folders
        included) or glob patterns such as "tiles/*.rumi") into the GeoParquet file path, or,
        when path is a folder (existing, or ending with "/"), a partitioned catalogue there
        (rumi.catalog.parts: new part files beside any already there).
        on_error: 'raise' (default) or 'skip' (warns and leaves the file out).
        nodata: a number for every band of every file, or one per band (None for a band
        without); default: each file's PAM sidecar <file>.aux.xml (see rumi.catalog's notes).
        classes: the bands whose class counts per step and tile rumi:classes records (None:
        integer bands with at most 32 values; False: none; a band name, a list of them, or
        {band: [values]}: rumi.catalog.classes). exact_classes: keep those counts exact whatever
        their bytes (a label map's: exact bounds), else exact within a budget of bytes a band
        (about 1.3 KB) and quantised past it (lower and upper bounds: docs/scaling.md).
        stats: record each file's numeric statistics (rumi:stats, Catalog.stats): every file's
        pixels are read once (stats=False: headers only, unless nodata or classes need the pixels)."""
        pa = deps().pa
        rows = _describe_all(srcs, options, on_error, nodata, class_spec(classes, exact_classes), stats)
        if not rows:
            raise ValueError("no rumi file to catalogue")
        if _is_folder(path):
            write_parts(pa.Table.from_pylist(rows, schema=schema()), os.fspath(path), options=options)
            return cls.open(path, options=options)
        write_table(pa.Table.from_pylist(rows, schema=schema()), path)
        return cls.open(path)

    @classmethod
    def open(cls, path_or_url: str | os.PathLike[str], *, options: dict[str, Any] | None = None) -> Catalog:
        """Opens a catalogue written by build: a GeoParquet file (a local path or an http(s)/s3
        URL), or a partitioned catalogue's folder (an existing folder, or a URL ending with "/";
        only the part files' footers are read)."""
        if _is_folder(path_or_url):
            parts = Parts(os.fspath(path_or_url), options)
            return cls(None, os.fspath(path_or_url), (), ("parts", tuple(parts.names)), parts)
        table, stamp = read_table(path_or_url, options)
        return cls(table, os.fspath(path_or_url), (), stamp)

    def append(self, srcs: Any, *, options: dict[str, Any] | None = None, on_error: str = "raise", nodata: Any = None,
               classes: Any = None, stats: bool = True, exact_classes: bool = False) -> Catalog:
        """Adds rows to a partitioned catalogue as new part files (never rewriting one; two
        appenders at once both keep their rows) and returns the catalogue opened again (the
        parts known keep their cached footers). srcs: rumi files as build takes them, or a
        pyarrow Table of the catalogue schema; nodata, classes, stats, exact_classes: as build's."""
        if self._parts is None or self._query:
            raise FormatError(
                f"{self.path}: append adds part files to a partitioned catalogue opened whole (a folder: "
                "rumi.Catalog.build(srcs, 'folder/') or rumi.catalog.write_parts(catalog.table, 'folder/'))")
        pa = deps().pa
        if isinstance(srcs, pa.Table):
            table = srcs
        else:
            table = pa.Table.from_pylist(_describe_all(srcs, options, on_error, nodata, class_spec(classes, exact_classes),
                                                       stats), schema=schema())
        write_parts(table, self._parts.url, options=self._parts.options)
        parts = self._parts.refreshed()
        return Catalog(None, self.path, (), ("parts", tuple(parts.names)), parts)

    # -- pickling ------------------------------------------------------------------------
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.path is None:
            return (Catalog, (self.table, None, self._query, None))
        if self._parts is not None:
            deferred = self._table is None and bool(self._query)
            return (_reopen_parts, (self.path, self._parts.options, tuple(self._parts.names), self._query, deferred))
        return (_reopen, (self.path, self._stamp, self._query))

    # -- rows ----------------------------------------------------------------------------
    def __len__(self) -> int:
        if self._table is None and self._parts is not None and not self._query:
            return self._parts.num_rows
        return int(self.table.num_rows)

    def __repr__(self) -> str:
        return f"rumi.Catalog({self.path!r}, {len(self)} files)"

    def column(self, name: str) -> list[Any]:
        """The values of a column, one per row."""
        if self._table is None and self._parts is not None and not self._query and name != K.HEADER:
            return list(self._parts.read_column(name).to_pylist())
        values: list[Any] = self.table.column(name).to_pylist()
        return values

    def row(self, i: int) -> dict[str, Any]:
        """Row i as a dict of column values (a partitioned catalogue's blob read then)."""
        if self._parts is not None:
            return self._part_row(i)
        n = int(self.table.num_rows)
        if n > self.ROWS_CACHED:
            one: dict[str, Any] = self.table.slice(i, 1).to_pylist()[0]
            return one
        if not -n <= i < n:
            raise IndexError(f"row {i} of a catalogue of {n} rows")
        if self._rows is None:
            self._rows = self.table.to_pylist()
        return dict(self._rows[i])

    def _part_row(self, i: int) -> dict[str, Any]:
        parts = self._parts
        assert parts is not None
        if self._table is None and not self._query:  # the whole folder, unread: only row i's row group
            k, rg, j = parts.locate(i)
            g = parts.group(k, rg, parts.schema.names)
            one = g.slice(j, 1).to_pylist()[0]
            one[K.HEADER] = parts.header(k, one.pop(K.HEADER_OFFSET), one.pop(K.HEADER_SIZE))
            return _in_schema_order(one)
        n = int(self.table.num_rows)
        if not -n <= i < n:
            raise IndexError(f"row {i} of a catalogue of {n} rows")
        i %= n
        if n > self.PART_ROWS_CACHED:  # a search's selection: the row asked for only
            one = self._table.slice(i, 1).to_pylist()[0]
        else:
            if self._rows is None:
                self._rows = self._table.to_pylist()
            one = dict(self._rows[i])
        part, off, size = self._refs
        if one.get(K.HEADER) is None:
            one[K.HEADER] = parts.header(int(part[i]), None if off[i] < 0 else int(off[i]), int(size[i]))
        out: dict[str, Any] = one
        return out

    def dataset(self, i: int, *, options: dict[str, Any] | None = None, verify_size: bool = True) -> Dataset:
        """Opens row i as a rumi.Dataset from its catalogued blob: no request but the frames
        (a partitioned catalogue: one range of the blobs beside its part). A file whose size
        differs from the catalogued one raises FormatError (never decoded)."""
        return open_row(self.row(i), options=options, verify_size=verify_size)

    def stats(self, bands: Sequence[str] | None = None, *, apply_scale: bool = False, exact: bool = True,
              options: dict[str, Any] | None = None) -> Stats:
        """Per-band count, mean, std, min and max of the selection's valid samples (not nodata,
        not NaN) inside its search's box and time window, from the catalogue's rumi:stats, equal
        to a pass over the pixels (rumi.catalog.stats). bands: names (default: the search's
        bands=, else the first row's). apply_scale: in raw * scale + offset of each file (the
        catalogued scales), else raw stored values. exact: the cells a box's edge crosses are
        read (True) or counted whole (False: no pixel read; a superset at the edge). Stats has
        .normalize() (torchvision's Normalize) and .tensors()."""
        table = self.table_with([K.STATS])  # searches leave rumi:stats unread: read for the selection's rows
        return selection_stats(table, self._query, bands, apply_scale=apply_scale, exact=exact,
                               open_dataset=lambda i: self.dataset(i, options=options))

    def lazy_column(self, name: str) -> Any:
        """A column that a partitioned catalogue's rows leave unread (LAZY_COLUMNS: rumi:stats,
        rumi:classes; null in `.table` and in row() of a search or of the folder opened whole)
        with its values for these rows, in their order (a pyarrow ChunkedArray): read from the
        row groups that hold them of the files beside their parts (`part-....lazy`; a part
        written before holds them itself), by each row's place in its part, once per Catalog
        (kept). A single file's rows hold it already: their column."""
        if name not in LAZY_COLUMNS:
            raise ValueError(f"{name!r} is not one of the columns searches leave unread {list(LAZY_COLUMNS)}")
        if self._parts is None:
            return self.table.column(name)
        got = self._lazy.get(name)
        if got is None:
            self.table  # the rows and their blobs' places
            got = self._lazy[name] = self._read_lazy(name)
        return got

    def table_with(self, names: Sequence[str]) -> Any:
        """`.table` with the LAZY_COLUMNS among names read (lazy_column)."""
        t = self.table
        for n in names:
            if n in LAZY_COLUMNS and self._parts is not None:
                t = t.set_column(t.schema.get_field_index(n), n, self.lazy_column(n))
        return t

    def _read_lazy(self, name: str) -> Any:
        """lazy_column of a partitioned catalogue: its rows' values at their places in their parts."""
        assert self._parts is not None and self._refs is not None
        return self._parts.lazy_values(name, self._refs[0], self._at)

    # -- shards: the pieces a reader reads alone -------------------------------------------
    def shards(self) -> list[tuple[int, int]]:
        """The pieces of the selection that a process can read alone, in the catalogue's order
        and the same in every process: a partitioned catalogue opened whole or searched with
        defer=True: (part, row group) of the row groups whose statistics may match the search
        (from the footers; no row read); rows in memory (a single file, a search already read):
        (-1, first row) of runs of ROWS_PER_GROUP rows."""
        if self._parts is not None and self._table is None:
            return self._parts.groups(pushdown(self._query), self._query)
        return [(-1, s) for s in range(0, int(self.table.num_rows), ROWS_PER_GROUP)]

    def read_shard(self, shard: tuple[int, int], columns: Sequence[str] | None = None) -> ShardRows:
        """The rows of a shard (see shards) that pass the search: the catalogue columns asked for
        (default all; rumi:header is never read from a partitioned catalogue: its blobs' places
        are in `refs`), each row's position in the shard, and where its blob lies."""
        cols = list(schema().names if columns is None else columns)
        k, first = shard
        if k >= 0:
            parts = self._parts
            assert parts is not None and self._table is None
            active = tuple(f for f in self._query if f[0] == "crs" or f[1] is not None)  # filters that test rows
            need = list(dict.fromkeys([c for c in cols if c != K.HEADER] + list(REF_COLUMNS)
                                      + (list(parts.schema.names) if active else [])))
            t = parts.group(k, first, need)
            pos = np.arange(t.num_rows, dtype=np.int64)
            if active:
                m = mask(t, active)
                t, pos = t.filter(deps().pa.array(m)), pos[m]
            off = np.asarray(t.column(K.HEADER_OFFSET).fill_null(-1).to_numpy(zero_copy_only=False), np.int64)
            size = np.asarray(t.column(K.HEADER_SIZE).fill_null(-1).to_numpy(zero_copy_only=False), np.int64)
            return ShardRows(t.select([c for c in cols if c != K.HEADER]), pos, None,
                             (np.full(len(pos), k, np.int32), off, size))
        t = self.table.slice(first, ROWS_PER_GROUP)
        for c in cols:  # a partitioned catalogue's rows in memory leave LAZY_COLUMNS unread: read them
            if c in LAZY_COLUMNS and self._parts is not None:
                t = t.set_column(t.schema.get_field_index(c), c, self.lazy_column(c).slice(first, t.num_rows))
        pos = np.arange(t.num_rows, dtype=np.int64)
        refs = None
        if self._refs is not None:
            refs = tuple(np.asarray(r[first:first + t.num_rows]) for r in self._refs)
        header = t.column(K.HEADER) if K.HEADER in t.column_names else None
        return ShardRows(t.select([c for c in cols if c != K.HEADER]), pos, header, refs)

    @property
    def headers(self) -> Headers | None:
        """Where a partitioned catalogue's blobs lie (picklable; None for a single file): the
        `refs` of read_shard read through it."""
        return None if self._parts is None else self._parts.headers

    def to_geopandas(self) -> Any:
        """The rows as a GeoDataFrame (geopandas >= 1.0)."""
        import geopandas as gpd

        df = self.table.drop_columns(["geometry"]).to_pandas()
        geom = gpd.GeoSeries.from_wkb(self.table.column("geometry").to_pylist(), crs="EPSG:4326")
        return gpd.GeoDataFrame(df, geometry=geom)

    # -- search --------------------------------------------------------------------------
    def search(
        self,
        bbox: tuple[float, float, float, float] | None = None,
        crs: str | int | None = None,
        time: Any = None,
        bands: Sequence[str] | None = None,
        *,
        defer: bool = False,
    ) -> Catalog:
        """Rows that intersect bbox (west, south, east, north; EPSG:4326 unless crs names
        another CRS), whose time coordinates meet time (an instant or a (start, end) pair,
        inclusive) and that hold every band text in bands. defer=True (a partitioned catalogue
        opened whole): no row is read now; the selection reads its rows when first asked
        (len, table, row), or a shard at a time (shards, read_shard: what each rank of
        rumi.torch's sharded ChipDataset reads). A partitioned catalogue's search leaves
        rumi:stats and rumi:classes unread (parts.LAZY_COLUMNS: null in its rows and `.table`):
        lazy_column / table_with read them for the selection, stats() and the samplers' class
        limits do so themselves."""
        return self._select(query(bbox, crs, time, bands), defer)

    def filter_crs(self, crs: str | int) -> Catalog:
        """Rows whose CRS is crs ('EPSG:n' or n)."""
        return self._select(crs_query(crs))

    def _select(self, q: Query, defer: bool = False) -> Catalog:
        if self._parts is not None:
            if self._table is None:  # push the search down to the part files
                if defer or self._query:  # a deferred selection's searches are deferred too
                    return Catalog(None, self.path, self._query + q, self._stamp, self._parts)
                table, refs, at = _read_parts(self._parts, self._query + q)
                return Catalog(table, self.path, self._query + q, self._stamp, self._parts, refs, at)
            m = mask(self._table, q)
            idx = np.flatnonzero(m)
            refs = tuple(r[idx] for r in self._refs)
            return Catalog(self._table.filter(deps().pa.array(m)), self.path, self._query + q, self._stamp, self._parts, refs,
                           self._at[idx])
        return Catalog(apply(self.table, q), self.path, self._query + q, self._stamp)

    # -- GDAL ----------------------------------------------------------------------------
    def vrt(
        self, path: str | os.PathLike[str], *, time_index: int = 0, bands: Sequence[str] | None = None
    ) -> str | os.PathLike[str]:
        """Writes a GDAL VRT mosaic of the rows (one CRS, one sample type, the same band
        texts): time step time_index of each file, bands by text (default all). The finest
        resolution of the rows is the mosaic's; GDAL opens the sources with the rumi plugin.
        Returns path."""
        write_vrt(self.table.to_pylist(), path, time_index=time_index, bands=bands)
        return path


def _reopen(path: str, stamp: Stamp | None, query: Query) -> Catalog:
    """A pickled Catalog in the worker: the file opened again (FormatError when it changed
    since), the search replayed."""
    cat = Catalog.open(path)
    if stamp is not None and stamp[1] is not None and cat._stamp != stamp:
        raise FormatError(f"catalogue {path} changed since it was opened (size/mtime {stamp} -> {cat._stamp})")
    if query:
        cat = Catalog(apply(cat.table, query), cat.path, query, cat._stamp)
    return cat


def _reopen_parts(path: str, options: dict[str, Any] | None, names: tuple[str, ...], query: Query,
                  deferred: bool = False) -> Catalog:
    """A pickled partitioned Catalog in the worker: the same part files (FormatError when one is
    gone; parts appended since are not part of it), the search replayed (deferred: again deferred)."""
    parts = Parts(path, options, names)
    cat = Catalog(None, path, (), ("parts", names), parts)
    return cat._select(query, deferred) if query else cat


def _read_parts(parts: Parts, q: Query, lazy: bool = True) -> tuple[Any, tuple[Any, Any, Any], Any]:
    """The rows of parts that pass q (catalogue schema, rumi:header null), their blobs' refs and
    their rows in their parts: the row groups whose statistics may match are read (push-down),
    then the exact filters. lazy: LAZY_COLUMNS are not read (null)."""
    pa = deps().pa
    sch = schema()
    cols = [n for n in parts.schema.names if not (lazy and n in LAZY_COLUMNS)]
    t, part, at = parts.read(pushdown(q), cols, q)
    for n in LAZY_COLUMNS if lazy else ():
        if n in parts.schema.names:
            t = t.append_column(parts.schema.field(n), pa.nulls(t.num_rows, parts.schema.field(n).type))
    t = t.select([n for n in parts.schema.names if n in t.column_names])  # the part schema's order
    if q:
        m = mask(t, q)
        t = t.filter(pa.array(m))
        part, at = part[m], at[m]
    off = np.asarray(t.column(K.HEADER_OFFSET).fill_null(-1).to_numpy(zero_copy_only=False), np.int64)
    size = np.asarray(t.column(K.HEADER_SIZE).fill_null(-1).to_numpy(zero_copy_only=False), np.int64)
    t = t.drop_columns(list(REF_COLUMNS))
    t = t.add_column(sch.get_field_index(K.HEADER), sch.field(K.HEADER), pa.nulls(t.num_rows, pa.binary()))
    t = t.select(sch.names).cast(sch).replace_schema_metadata(None)
    return t, (part, off, size), at


def _in_schema_order(row: dict[str, Any]) -> dict[str, Any]:
    return {n: row.get(n) for n in schema().names}


def _is_folder(path: str | os.PathLike[str]) -> bool:
    """A partitioned catalogue's place: an existing local folder, or a path or URL ending with "/"."""
    s = os.fspath(path)
    if s.endswith("/"):
        return True
    return Location.parse(s).scheme == "file" and os.path.isdir(s)


def _describe_all(srcs: Any, options: dict[str, Any] | None, on_error: str, nodata: Any,
                  classes: Any = None, stats: bool = True) -> list[dict[str, Any]]:
    """The catalogue rows of srcs (paths, URLs, folders, glob patterns: _expand): a file that
    fails is an error naming it, or with on_error='skip' a warning and left out. A band declared
    categorical (classes=) that no file has is an error naming it."""
    spec = class_spec(classes)  # checked before any file is read
    rows = []
    for s in _expand([srcs] if isinstance(srcs, (str, os.PathLike)) else list(srcs)):
        try:
            rows.append(describe(s, options=options, nodata=nodata, classes=spec, stats=stats))
        except Exception as e:
            if on_error != "skip":
                raise type(e)(f"{s}: {e}") if isinstance(e, (FormatError, RumiIOError)) else e
            print(f"rumi-catalog: skipping {s}: {e}", file=sys.stderr)
    missing = spec.missing_in([r[K.BANDS] for r in rows])
    if rows and missing:
        raise ValueError(f"classes= declares the bands {missing} categorical, but none of the {len(rows)} files has them "
                         f"(their bands: {rows[0]['rumi:bands']}{' ...' if len(rows) > 1 else ''})")
    return rows


def _expand(items: Sequence[str | os.PathLike[str]]) -> list[str]:
    """Paths and URLs as given; a local folder -> its *.rumi files (sub-folders included,
    sorted); a glob pattern (*, ?, [) that is not an existing file -> its matches (sorted). A
    folder or pattern without a rumi file is a ValueError naming it."""
    import glob

    out: list[str] = []
    for item in items:
        s = os.fspath(item)
        if Location.parse(s).scheme != "file":
            out.append(s)
        elif os.path.isdir(s):
            found = sorted(glob.glob(os.path.join(glob.escape(s), "**", "*.rumi"), recursive=True))
            if not found:
                raise ValueError(f"the folder {s} holds no .rumi file")
            out += found
        elif not os.path.exists(s) and glob.has_magic(s):
            found = sorted(p for p in glob.glob(s, recursive=True) if os.path.isfile(p))
            if not found:
                raise ValueError(f"the pattern {s!r} matches no file")
            out += found
        else:
            out.append(s)
    return out
