"""The items as planning needs them, in bounded memory: one compact row per item (its id, its
times, its footprint in the output CRS, the record its files' fingerprints hash, its group key),
made without keeping a STAC item per row, and the items themselves read again by index when a
file is built (ItemSource).

A stac-geoparquet table is read by record batches and its columns are used as they are: the
fields odc-stac parses an item's grids from (the projection extension, item- and asset-level)
are compared row against row, and odc-stac parses one item for each distinct grid (a hundred for
a year of Sentinel-2 over a hundred tiles, against ten thousand items); the record, the times and
the group keys come from the columns. This holds when every row gives the same band metadata
(asset types, roles, eo/raster bands, extensions: what odc-stac's collection metadata is made of)
and absolute hrefs; otherwise, and for other sources (pystac Items, JSON files), each item is
parsed by odc-stac as it streams past (the same compact rows, more slowly). The parsed items
are checked against the columns' rows they stand for (record and footprint), so the two paths
give the same rows; test_build_scale.py compares them."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from . import items as _items

#: rows a record batch of a stac-geoparquet table holds while it is indexed
BATCH_ROWS = 1024

#: asset fields odc-stac does not parse (the href is read per row; the rest never)
_NOT_PARSED = {"href", "title", "description", "created", "updated", "expires", "alternate"}

_NULL = np.iinfo(np.int64).min


class _Unsupported(Exception):
    """The table is outside what its columns can give exactly: the items are parsed one by one."""


# --- the items themselves, by index ------------------------------------------------------------


class ItemSource(Sequence[Any]):
    """The STAC items of a build by index (pystac Items, made when asked for): len(), src[i],
    src.take(indices) (one pass), iter_items() (all of them, streamed)."""

    def take(self, indices: Sequence[int] | np.ndarray[Any, Any]) -> list[Any]:
        return [self[int(i)] for i in indices]

    def iter_items(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]


class ListSource(ItemSource):
    """Items held in memory (a list of pystac Items)."""

    def __init__(self, items: Sequence[Any]) -> None:
        self._items = list(items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return self._items[i]
        return self._items[int(i)]

    def iter_items(self) -> Iterator[Any]:
        return iter(self._items)


def _pystac_item(d: Mapping[str, Any], where: str) -> Any:
    import pystac

    try:
        return pystac.Item.from_dict(dict(d), preserve_dict=False)
    except Exception as e:
        raise ValueError(f"{where} is not a STAC Item: {type(e).__name__}: {e}") from None


class TableSource(ItemSource):
    """A stac-geoparquet file's items, read from it when asked for (never all at once): take()
    streams each row group that holds a wanted row once, by record batches, up to its last
    wanted row."""

    def __init__(self, path: str) -> None:
        import pyarrow.parquet as pq

        self.path = path
        md = pq.ParquetFile(path).metadata
        counts = [md.row_group(k).num_rows for k in range(md.num_row_groups)]
        self._starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])

    def __len__(self) -> int:
        return int(self._starts[-1])

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return self.take(range(len(self))[i])
        return self.take([i])[0]

    def take(self, indices: Sequence[int] | np.ndarray[Any, Any]) -> list[Any]:
        import pyarrow as pa
        import pyarrow.parquet as pq
        import stac_geoparquet.arrow

        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        n = len(self)
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise IndexError(f"{self.path}: item index out of range ({n} items)")
        idx = np.where(idx < 0, idx + n, idx)
        groups = np.searchsorted(self._starts, idx, side="right") - 1
        out: list[Any] = [None] * len(idx)
        pf = pq.ParquetFile(self.path)
        for g in np.unique(groups):
            # the row group streamed by record batches (a row group may hold 65,536 items)
            at = np.flatnonzero(groups == g)
            local = idx[at] - self._starts[g]
            first = 0
            for batch in pf.iter_batches(batch_size=BATCH_ROWS, row_groups=[int(g)]):
                inside = np.flatnonzero((local >= first) & (local < first + batch.num_rows))
                if inside.size:
                    table = pa.Table.from_batches([batch]).take(local[inside] - first)
                    for k, d in zip(at[inside], stac_geoparquet.arrow.stac_table_to_items(table)):
                        out[k] = _pystac_item(d, f"{self.path} row {int(idx[k])}")
                first += batch.num_rows
                if first > local.max():
                    break
        return out

    def iter_items(self) -> Iterator[Any]:
        import pyarrow as pa
        import pyarrow.parquet as pq
        import stac_geoparquet.arrow

        k = 0
        for batch in pq.ParquetFile(self.path).iter_batches(batch_size=BATCH_ROWS):
            for d in stac_geoparquet.arrow.stac_table_to_items(pa.Table.from_batches([batch])):
                yield _pystac_item(d, f"{self.path} row {k}")
                k += 1


def source_of(items: Any) -> ItemSource:
    """The items of rumi.build's items= as an ItemSource: a stac-geoparquet file is read by row
    group when needed, anything else is read whole (rumi._build.items.load_items)."""
    if isinstance(items, (str, os.PathLike)):
        path = os.fspath(items)
        if path.lower().endswith((".parquet", ".geoparquet")):
            if not os.path.exists(path):
                raise FileNotFoundError(f"STAC items file {path} does not exist")
            try:
                import pyarrow.parquet  # noqa: F401
                import stac_geoparquet.arrow  # noqa: F401
            except ImportError as e:  # pragma: no cover
                raise ImportError(f"reading {path} needs stac-geoparquet (pip install 'rumi[stac]'): {e}") from None
            src = TableSource(path)
            if len(src) == 0:
                raise ValueError("no STAC items to build from (the item list is empty)")
            return src
    return ListSource(_items.load_items(items))


# --- the compact rows ------------------------------------------------------------------------


@dataclass
class ItemIndex:
    """One compact row per item (index i of the ItemSource): what planning reads of the items."""

    ids: list[str]
    collections: list[str | None]
    wall: np.ndarray[Any, Any]  #: datetime64[us]: the nominal time as the item gives it, its offset dropped (odc-stac's time coordinate)
    utc: np.ndarray[Any, Any]  #: datetime64[us]: the same instant in UTC (odc-stac orders by it)
    fp: np.ndarray[Any, Any]  #: int64: the item's footprint, an index into footprints
    footprints: list[Any]  #: distinct footprints in the output CRS (odc-geo Geometry): items on one grid share one
    records: list[str]  #: each item's fingerprint record (items.item_record) as JSON text
    rank: np.ndarray[Any, Any]  #: int64: the item's place in the order of its record's repr (the fingerprint's order)
    keys: list[Any] | None  #: group keys for a property or callable groupby (None: computed from the times)
    first: dict[str, Any]  #: the first parsed item (odc-stac ParsedItem) of each collection
    untyped: list[str]  #: bands no item gives a sample type for (items.untyped_bands)
    itemsize: int  #: items.output_itemsize
    nodata_todo: dict[tuple[int, str], tuple[str, int]]  #: (item, band) -> (href, band index) whose nodata is the file's own
    no_footprint: str | None  #: the id of the first item without a footprint (refused after the other checks)
    fast: bool  #: made from a table's columns (False: every item parsed)
    scaling: np.ndarray[Any, Any] = field(default_factory=lambda: np.zeros(0, np.int64))  #: int64: the item's bands' scaling, an index into scalings
    scalings: list[tuple[_items.Scaling, ...]] = field(default_factory=list)  #: distinct (scale, offset, unit) per band (items.band_scaling)

    def __len__(self) -> int:
        return len(self.ids)

    def hrefs(self, i: int) -> list[str | None]:
        """The bands' hrefs of item i (odc-stac's RasterSource.uri, as its record has them)."""
        return list(json.loads(self.records[i])[4])


class _Rows:
    """Accumulates the compact rows (both paths)."""

    def __init__(self, bands: Sequence[str], crs: Any, dtype: Any, groupby: Any, nodata_given: bool,
                 patch_url: Callable[[str], str] | None) -> None:
        self.bands, self.crs, self.dtype, self.groupby = list(bands), crs, dtype, groupby
        self.nodata_given, self.patch_url = nodata_given, patch_url
        self.ids: list[str] = []
        self.collections: list[str | None] = []
        self.wall: list[int] = []
        self.utc: list[int] = []
        self.fp: list[int] = []
        self.footprints: list[Any] = []
        self._fp_of: dict[Any, int] = {}
        self.records: list[str] = []
        self.reprs: list[str] = []
        self.keys: list[Any] | None = [] if _keyed(groupby) else None
        self.first: dict[str, Any] = {}
        self.first_item: Any = None
        self.typed: set[str] = set()
        self.kinds: dict[str, Any] = {}
        self.nodata_todo: dict[tuple[int, str], tuple[str, int]] = {}
        self.no_footprint: str | None = None
        self.scaling: list[int] = []
        self.scalings: list[tuple[_items.Scaling, ...]] = []
        self._scaling_of: dict[tuple[_items.Scaling, ...], int] = {}

    # what odc-stac makes of one parsed item: shared by both paths
    def footprint(self, p: Any, item_id: str) -> int:
        """ParsedItem.safe_geometry(crs) (its first grid with a CRS: that grid's extent or
        footprint; else the item's geometry), one Geometry per distinct grid."""
        for g in p.geoboxes():
            if g.crs is not None:
                k = self._fp_of.get(g)
                if k is None:
                    geom = g.extent if self.crs == g.crs else g.footprint(self.crs, wrapdateline=True)
                    k = self._fp_of[g] = self._footprint(geom, item_id)
                return k
        return self._footprint(p.safe_geometry(self.crs), item_id)

    def _footprint(self, geom: Any, item_id: str) -> int:
        if (geom is None or geom.is_empty) and self.no_footprint is None:
            self.no_footprint = item_id
        self.footprints.append(geom)
        return len(self.footprints) - 1

    def scaling_of(self, item: Any, p: Any) -> int:
        """The index in scalings of an item's bands' (scale, offset, unit) (items.band_scaling)."""
        sc = tuple(_items.band_scaling(item, p, b) for b in self.bands)
        k = self._scaling_of.get(sc)
        if k is None:
            k = self._scaling_of[sc] = len(self.scalings)
            self.scalings.append(sc)
        return k

    def meta(self, i: int, item: Any, p: Any) -> None:
        """Sample types and nodata of item i (untyped_bands, output_itemsize, source_nodata's
        list of files to read), and the first parsed item of its collection."""
        self.first.setdefault(p.collection.name, p)
        if self.first_item is None:
            self.first_item = (item, p)
        for b in self.bands:
            if b not in self.typed and _items.untyped_bands([item], [p], [b]) == []:
                self.typed.add(b)
            if b not in self.kinds:
                try:
                    kind = getattr(getattr(p.resolve_bands([b])[b], "meta", None), "data_type", None)
                except Exception:  # noqa: BLE001 (this item lacks the band)
                    kind = None
                if kind:
                    self.kinds[b] = kind
        if not self.nodata_given:
            for (_, b), v in _items.nodata_files([p], self.bands, self.dtype, self.patch_url).items():
                self.nodata_todo[(i, b)] = v

    def add_parsed(self, i: int, item: Any, p: Any) -> None:
        """Item i as odc-stac parsed it (the reference path)."""
        self.ids.append(str(item.id))
        self.collections.append(item.collection_id)
        wall, utc = _nominal(p, item.id)
        self.wall.append(wall)
        self.utc.append(utc)
        self.fp.append(self.footprint(p, item.id))
        self.scaling.append(self.scaling_of(item, p))
        rec = _items.item_record(item, self.bands, p)
        self.records.append(json.dumps(rec, sort_keys=True, default=repr))
        self.reprs.append(repr(rec))
        if self.keys is not None:
            self.keys.append(_key_of(self.groupby)(item, p, i))
        self.meta(i, item, p)

    def index(self, fast: bool) -> ItemIndex:
        order = np.argsort(np.array(self.reprs, dtype=object), kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        itemsize = _items.itemsize_of([self.kinds.get(b) for b in self.bands], self.dtype)
        return ItemIndex(
            ids=self.ids, collections=self.collections, wall=np.array(self.wall, dtype="datetime64[us]"),
            utc=np.array(self.utc, dtype="datetime64[us]"), fp=np.array(self.fp, dtype=np.int64),
            footprints=self.footprints, records=self.records, rank=rank, keys=self.keys, first=self.first,
            untyped=[b for b in self.bands if b not in self.typed], itemsize=itemsize, nodata_todo=self.nodata_todo,
            no_footprint=self.no_footprint, fast=fast, scaling=np.array(self.scaling, dtype=np.int64),
            scalings=self.scalings,
        )


def _keyed(groupby: Any) -> bool:
    """Whether groupby's keys are per item (a property or a callable), not from the times."""
    return callable(groupby) or groupby not in ("time", "solar_day", "id", None)


def _key_of(groupby: Any) -> Callable[[Any, Any, int], Any]:
    if callable(groupby):
        return groupby  # type: ignore[no-any-return]
    return lambda item, p, i: item.properties.get(groupby, None)


def _nominal(p: Any, item_id: Any) -> tuple[int, int]:
    """(wall, utc) microseconds since 1970 of odc-stac's nominal time of a parsed item."""
    import datetime as dt

    try:
        t = p.nominal_datetime
    except ValueError:
        raise ValueError(f"item {item_id!r} has no datetime, start_datetime or end_datetime") from None
    wall = t.replace(tzinfo=None)
    utc = t.astimezone(dt.timezone.utc).replace(tzinfo=None) if t.tzinfo is not None else wall
    return _us(wall), _us(utc)


def _us(t: Any) -> int:
    return int(np.datetime64(t, "us").astype(np.int64))


def _parse_stream(items: Iterable[Any], stac_cfg: Any) -> Iterator[tuple[Any, Any]]:
    """(item, ParsedItem) of each item, odc-stac's parser run once over the whole stream (its
    collection metadata builds up item after item, as odc.stac.load's does)."""
    feed = _Feed()
    for item in items:
        try:
            p = feed.parse(item, stac_cfg)
        except Exception as e:
            raise ValueError(f"odc-stac cannot read the items: {e}") from None
        yield item, p


class _Feed:
    """odc-stac's parse_items over items pushed one at a time: parse(item) returns its
    ParsedItem, the parser's state (the collection metadata) carried from item to item."""

    def __init__(self) -> None:
        self.pending: list[Any] = []
        self.parser: Iterator[Any] | None = None

    def __iter__(self) -> "_Feed":
        return self

    def __next__(self) -> Any:
        if not self.pending:
            raise StopIteration
        return self.pending.pop(0)

    def parse(self, item: Any, stac_cfg: Any = None) -> Any:
        self.pending.append(item)
        if self.parser is None:
            odc_stac, _, _ = _items.deps()
            self.parser = odc_stac.parse_items(self, cfg=stac_cfg)
        return next(self.parser)


def index_items(
    source: ItemSource, bands: Sequence[str], crs: Any, *, dtype: Any = None, groupby: Any = "solar_day",
    stac_cfg: Any = None, nodata_given: bool = False, patch_url: Callable[[str], str] | None = None,
    fast: bool = True,
) -> ItemIndex:
    """The compact rows of source's items for a build of bands in crs (see the module's text):
    from a stac-geoparquet table's columns when it allows (fast=False: never), else each item
    parsed by odc-stac."""
    if fast and isinstance(source, TableSource) and stac_cfg is None and not callable(groupby):
        try:
            return _index_table(source, bands, crs, dtype=dtype, groupby=groupby, nodata_given=nodata_given,
                                patch_url=patch_url)
        except _Unsupported:
            pass
    rows = _Rows(bands, crs, dtype, groupby, nodata_given, patch_url)
    for i, (item, p) in enumerate(_parse_stream(source.iter_items(), stac_cfg)):
        rows.add_parsed(i, item, p)
    _check_unique(rows.ids, rows.collections)
    return rows.index(fast=False)


def _check_unique(ids: Sequence[str], collections: Sequence[str | None]) -> None:
    if not ids:
        raise ValueError("no STAC items to build from (the item list is empty)")
    if len(set(zip(ids, collections))) != len(ids):
        seen: set[Any] = set()
        dup = sorted({i for i, c in zip(ids, collections) if (i, c) in seen or seen.add((i, c))})  # type: ignore[func-returns-value]
        raise ValueError(f"STAC items repeat ids {dup[:5]}: each item must appear once")


# --- a stac-geoparquet table's columns ---------------------------------------------------------


def _codes(a: Any) -> np.ndarray[Any, Any]:
    """An (n, k) int64 matrix whose rows are equal exactly when a's values are (nulls, lists of
    any length, structs, numbers by their bits, strings by their dictionary codes in a)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(a)
    t = a.type
    if pa.types.is_dictionary(t):
        a = a.dictionary_decode()
        t = a.type
    valid = a.is_valid().to_numpy(zero_copy_only=False).astype(np.int64) if n else np.zeros(0, np.int64)
    if pa.types.is_struct(t):
        parts = [valid[:, None]] + [_codes(c) for c in a.flatten()]
        out = np.hstack(parts) if parts else np.zeros((n, 0), np.int64)
    elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        lengths = pc.fill_null(pc.list_value_length(a), 0).to_numpy(zero_copy_only=False).astype(np.int64)
        flat = _codes(pc.list_flatten(a))
        k, width = flat.shape[1], int(lengths.max(initial=0))
        body = np.full((n, width, k), _NULL, dtype=np.int64)
        if len(flat):
            rows = np.repeat(np.arange(n), lengths)
            starts = np.cumsum(lengths) - lengths
            body[rows, np.arange(len(flat)) - np.repeat(starts, lengths)] = flat
        out = np.hstack([valid[:, None], lengths[:, None], body.reshape(n, width * k)])
    elif pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t):
        enc = pc.dictionary_encode(a)
        idx = pc.fill_null(enc.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64)
        out = np.column_stack([valid, idx])
    elif pa.types.is_null(t):
        out = np.zeros((n, 1), np.int64)
    elif pa.types.is_floating(t):
        v = pc.fill_null(a.cast(pa.float64()), 0.0).to_numpy(zero_copy_only=False).view(np.int64)
        out = np.column_stack([valid, v])
    elif pa.types.is_integer(t) or pa.types.is_boolean(t) or pa.types.is_temporal(t):
        if pa.types.is_temporal(t):
            try:
                a = a.cast(pa.int64())
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                try:
                    a = a.cast(pa.int32())
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    raise _Unsupported(f"column type {t}") from None
        v = pc.fill_null(a.cast(pa.int64()), 0).to_numpy(zero_copy_only=False).astype(np.int64)
        out = np.column_stack([valid, v])
    else:
        raise _Unsupported(f"column type {t}")
    if n:
        out = np.where(valid[:, None].astype(bool), out, _NULL)
        out[:, 0] = valid
    return out


def _distinct(m: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """(the first row of each distinct row of m, in order; each row's distinct row)."""
    m = np.ascontiguousarray(m)
    seen: dict[bytes, int] = {}
    inverse = np.empty(len(m), dtype=np.int64)
    first: list[int] = []
    for r in range(len(m)):
        k = seen.setdefault(m[r].tobytes(), len(first))
        if k == len(first):
            first.append(r)
        inverse[r] = k
    return np.array(first, dtype=np.int64), inverse


def _fields(assets: Any, keep: Callable[[str], bool]) -> Any:
    """The assets struct with only the asset fields keep() takes (each asset's nulls kept)."""
    import pyarrow as pa

    arrays, names = [], []
    for f, child in zip(assets.type, assets.flatten()):
        if not pa.types.is_struct(f.type):
            raise _Unsupported(f"asset {f.name} is not a struct")
        sub = [(g.name, c) for g, c in zip(f.type, child.flatten()) if keep(g.name)]
        mask = child.is_null()
        if sub:
            arrays.append(pa.StructArray.from_arrays([c for _, c in sub], [nm for nm, _ in sub], mask=mask))
        else:
            arrays.append(pa.StructArray.from_arrays([pa.array(np.zeros(len(child), bool))], ["present"], mask=mask))
        names.append(f.name)
    return pa.StructArray.from_arrays(arrays, names)


def _parsed_field(name: str) -> bool:
    return name not in _NOT_PARSED and not name.startswith("file:") and not name.startswith("proj:")


def _grid_field(name: str) -> bool:
    return name.startswith("proj:")


def _row_struct(batch: Any, names: Sequence[str]) -> Any:
    import pyarrow as pa

    cols = [batch.column(nm) for nm in names]
    if not cols:
        return pa.StructArray.from_arrays([pa.array(np.zeros(batch.num_rows, bool))], ["none"])
    return pa.StructArray.from_arrays(cols, list(names))


def _iso_column(col: Any, what: str) -> list[str | None]:
    """A time column as items._iso gives each value (ISO 8601 in UTC, no offset, microseconds
    when there are any)."""
    import pyarrow as pa

    t = col.type
    if pa.types.is_timestamp(t):
        if t.tz is None or t.unit == "ns":  # (pystac keeps microseconds: nanoseconds are its parser's to round)
            raise _Unsupported(f"{what} of type {t}")
        v = col.cast(pa.timestamp("us", tz=t.tz)).cast(pa.int64()).to_numpy(zero_copy_only=False)
        valid = col.is_valid().to_numpy(zero_copy_only=False)
        text = np.datetime_as_string(v.astype("datetime64[us]"), unit="us")
        return [None if not ok else (s[:-7] if s.endswith(".000000") else str(s)) for s, ok in zip(text, valid)]
    if pa.types.is_null(t):
        return [None] * len(col)
    raise _Unsupported(f"{what} of type {t}")


def _absolute_all(column: Any, hrefs: list[Any]) -> list[str]:
    """pystac's Asset.get_absolute_href of each href of a string column (its Python list given):
    an href with a scheme other than file: is absolute whatever the item's self link, and given
    back as it is; any other (a relative href, a local path) depends on that link, and one with a
    backslash is changed by pystac: refused (the items are then parsed one by one)."""
    import pyarrow.compute as pc

    url = pc.fill_null(pc.match_substring_regex(column, r"^[A-Za-z][A-Za-z0-9+.\-]+://"), False)
    url = pc.and_(url, pc.invert(pc.match_substring_regex(column, "^file:", ignore_case=True)))
    url = pc.and_(url, pc.invert(pc.match_substring(column, "\\")))  # pystac makes \ into / (make_posix_style)
    if not url.to_numpy(zero_copy_only=False).all():
        raise _Unsupported("an href that is not a URL")
    return hrefs


def _times_us(col: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    import pyarrow as pa

    if col is None:
        raise _Unsupported("no time column")
    t = col.type
    if pa.types.is_null(t):
        return np.zeros(len(col), np.int64), np.zeros(len(col), bool)
    if not pa.types.is_timestamp(t) or t.tz is None or t.unit == "ns":
        raise _Unsupported(f"time column of type {t}")
    v = col.cast(pa.timestamp("us", tz=t.tz)).cast(pa.int64())
    valid = v.is_valid().to_numpy(zero_copy_only=False)
    return v.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64), valid


def _index_table(source: TableSource, bands: Sequence[str], crs: Any, *, dtype: Any, groupby: Any, nodata_given: bool,
                 patch_url: Callable[[str], str] | None) -> ItemIndex:
    """index_items of a stac-geoparquet table from its columns, record batch by record batch
    (see the module's text); raises _Unsupported where the table is outside that."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import stac_geoparquet.arrow

    pf = pq.ParquetFile(source.path)
    schema = pf.schema_arrow
    names = set(schema.names)
    if "id" not in names or "assets" not in names or not pa.types.is_struct(schema.field("assets").type):
        raise _Unsupported("no id or assets column")
    if groupby is not None and _keyed(groupby) and groupby in names:
        kt = schema.field(groupby).type
        if not (pa.types.is_string(kt) or pa.types.is_large_string(kt) or pa.types.is_integer(kt)
                or pa.types.is_boolean(kt) or pa.types.is_floating(kt) or pa.types.is_null(kt)):
            raise _Unsupported(f"groupby column {groupby} of type {kt}")
    if names & {"raster:scale", "raster:offset", "unit"}:  # per-item scaling (items.band_scaling): parsed one by one
        raise _Unsupported("scale, offset or unit in the item properties")
    item_grid = sorted(n for n in names if n.startswith("proj:"))
    item_parsed = [n for n in ("stac_extensions", "odc:product") if n in names]
    rows = _Rows(bands, crs, dtype, groupby, nodata_given, patch_url)
    sig_fp: dict[str, int] = {}
    shared: str | None = None  # the parsed fields every row shares (repr)
    feed = _Feed()
    # what a band's record takes from its asset, and the bands whose files' nodata is read: from
    # the first parsed item (every row gives the same band metadata)
    band_assets: list[tuple[str, int] | None] | None = None
    pairs_keys: list[str] = []
    nodata_bands: dict[str, int] = {}
    scaling = -1  # the rows' bands' scaling (every row gives the same band metadata)
    start = 0
    for batch in pf.iter_batches(batch_size=BATCH_ROWS):
        n = batch.num_rows
        if n == 0:
            continue
        ids = batch.column("id")
        if ids.null_count:
            raise _Unsupported("an id is null")
        id_list = [str(v) for v in ids.to_pylist()]
        coll = batch.column("collection").to_pylist() if "collection" in names else [None] * n
        assets = batch.column("assets")
        if assets.null_count:
            raise _Unsupported("assets is null in a row")
        parsed_part = pa.StructArray.from_arrays(
            [_fields(assets, _parsed_field), _row_struct(batch, item_parsed), pa.array(coll, pa.string())],
            ["assets", "item", "collection"])
        grid_part = pa.StructArray.from_arrays([_fields(assets, _grid_field), _row_struct(batch, item_grid)], ["assets", "item"])
        # every row shares the fields odc-stac builds its collection metadata from (one collection)
        for part in parsed_part.flatten()[0].flatten() + parsed_part.flatten()[1:]:
            c = _codes(part)
            if not (c == c[0]).all():
                raise _Unsupported("rows differ in their collection or band metadata")
        v = repr(parsed_part[0].as_py())
        if shared is not None and v != shared:
            raise _Unsupported("rows differ in their collection or band metadata")
        shared = v
        # distinct grids: odc-stac parses the first row of each
        first_at, inverse = _distinct(_codes(grid_part))
        local_fp = np.empty(len(first_at), dtype=np.int64)
        reps: list[tuple[int, int, Any, Any]] = []
        for u, r in enumerate(first_at):
            key = repr(grid_part[int(r)].as_py())  # (the parsed fields are every row's)
            k = sig_fp.get(key)
            if k is None:
                d = next(iter(stac_geoparquet.arrow.stac_table_to_items(pa.Table.from_batches([batch.slice(int(r), 1)]))))
                item = _pystac_item(d, f"{source.path} row {start + int(r)}")
                try:
                    p = feed.parse(item)
                except Exception as e:
                    raise ValueError(f"odc-stac cannot read the items: {e}") from None
                if p.image_geometry(crs) is None:
                    raise _Unsupported("an item without the projection extension's grid")
                k = sig_fp[key] = rows.footprint(p, item.id)
                reps.append((start + int(r), int(r), item, p))
            local_fp[u] = k
        fps = local_fp[inverse]
        if band_assets is None:
            _, _, item0, p0 = reps[0]
            band_assets = []
            for b in bands:
                try:
                    asset, bidx = p0.collection.band_key(b)
                    band_assets.append((str(asset), int(bidx)) if p0.resolve_bands([b])[b] is not None else None)
                except Exception:  # noqa: BLE001 (items.hrefs: None where the band is missing)
                    band_assets.append(None)
            pairs_keys = sorted(k for k in item0.assets if k in bands)
            scaling = rows.scaling_of(item0, p0)
            if not nodata_given:
                nodata_bands = {b: bidx for (_, b), (_, bidx) in _items.nodata_files([p0], bands, dtype, None).items()}
        # the rows' own values: times, hrefs, records
        dt_us, dt_ok = _times_us(batch.column("datetime") if "datetime" in names else pa.nulls(n, pa.timestamp("us", "UTC")))
        st_us, st_ok = _times_us(batch.column("start_datetime")) if "start_datetime" in names else (np.zeros(n, np.int64), np.zeros(n, bool))
        en_us, en_ok = _times_us(batch.column("end_datetime")) if "end_datetime" in names else (np.zeros(n, np.int64), np.zeros(n, bool))
        nominal = np.where(dt_ok, dt_us, np.where(st_ok, st_us, en_us))
        if not (dt_ok | st_ok | en_ok).all():
            raise _Unsupported("a row without times")
        iso = [_iso_column(batch.column(c), c) if c in names else [None] * n for c in ("datetime", "start_datetime", "end_datetime")]
        updated = _iso_column(batch.column("updated"), "updated") if "updated" in names else [None] * n
        asset_cols = {f.name: c for f, c in zip(assets.type, assets.flatten())}

        def leaf(asset: str, name: str) -> Any:
            a = asset_cols[asset]
            j = a.type.get_field_index(name)
            return a.flatten()[j] if j >= 0 else pa.nulls(n, pa.string())

        # URLs: the href as pystac gives it, absolute whatever the item's self link
        hrefs_of = {a: _absolute_all(leaf(a, "href"), leaf(a, "href").to_pylist())
                    for a in {x[0] for x in band_assets if x is not None} | set(pairs_keys)}
        sums = {a: leaf(a, "file:checksum").to_pylist() for a in pairs_keys}
        uris = [hrefs_of[x[0]] if x is not None else [None] * n for x in band_assets]
        keys = None
        if rows.keys is not None:
            keys = batch.column(groupby).to_pylist() if groupby in names else [None] * n
        for r in range(n):
            rec = [
                id_list[r], coll[r], [iso[0][r], iso[1][r], iso[2][r]], updated[r], [u[r] for u in uris],
                [(hrefs_of[a][r], sums[a][r]) for a in pairs_keys],
            ]
            rows.records.append(json.dumps(rec, sort_keys=True, default=repr))
            rows.reprs.append(repr(rec))
        rows.ids.extend(id_list)
        rows.collections.extend(coll)
        rows.wall.extend(nominal.tolist())
        rows.utc.extend(nominal.tolist())
        rows.fp.extend(fps.tolist())
        rows.scaling.extend([scaling] * n)
        if keys is not None and rows.keys is not None:
            rows.keys.extend(keys)
        # what odc-stac parsed of the rows that stand for the others: their rows must agree
        for g, r, item, p in reps:
            rec = _items.item_record(item, bands, p)
            if json.dumps(rec, sort_keys=True, default=repr) != rows.records[g] or rows.ids[g] != str(item.id):
                raise _Unsupported(f"row {g}: the columns' record differs from odc-stac's")
            if (rows.wall[g], rows.utc[g]) != _nominal(p, item.id):
                raise _Unsupported(f"row {g}: the columns' time differs from odc-stac's")
            if rows.keys is not None and rows.keys[g] != item.properties.get(groupby, None):
                raise _Unsupported(f"row {g}: the groupby column differs from the item's property")
            if _items.hrefs(p, bands) != [u[r] for u in uris]:
                raise _Unsupported(f"row {g}: hrefs differ from odc-stac's")
            if rows.scaling_of(item, p) != scaling:
                raise _Unsupported(f"row {g}: the bands' scale, offset or unit differ from the first row's")
            rows.meta(g, item, p)
        # the files' own nodata: the same bands for every row (one band metadata), each row's href
        for b, bidx in nodata_bands.items():
            x = band_assets[list(bands).index(b)]
            if x is not None:
                for r in range(n):
                    uri = hrefs_of[x[0]][r]
                    rows.nodata_todo[(start + r, b)] = (patch_url(uri) if patch_url else uri, bidx)
        start += n
        pa.default_memory_pool().release_unused()  # the batch is gone: hand its pages back
    if start == 0:
        raise ValueError("no STAC items to build from (the item list is empty)")
    _check_unique(rows.ids, rows.collections)
    return rows.index(fast=True)

