"""A partitioned catalogue: a folder (local, s3:// or http(s)://) of GeoParquet part files in
stac-geoparquet's conventions, searched where it lies.

Layout: `part-<UTC time>-<random>.<summary>.parquet` files, each a GeoParquet 1.1 file of the catalogue's
columns but rumi:header, which lies beside it in `part-....headers` (the blobs end to end; the
columns rumi:header_offset / rumi:header_size locate a row's blob there), and but the columns
searches leave unread (LAZY_COLUMNS: rumi:stats, rumi:classes), which lie beside it, a file a
column, in `part-....stats.lazy` and `part-....classes.lazy` (Parquet: the part's rows, in its
order and row groups; read by a row's place in its part) so that the row groups a search reads
lie end to end (one range over S3), and a lazy column's too. Rows are grouped by the
year of their first time (one year per part file), and in a part sorted along a Hilbert curve of
their bbox centre, then by time; row groups of ROWS_PER_GROUP rows carry min/max statistics of
the bbox covering (bbox.xmin ... bbox.ymax), the time columns and proj:code only (a small
footer), so a search's filter skips, through pyarrow.dataset's predicate push-down, every part
and row group whose statistics cannot match, and reads only the columns asked for.

A part's name carries its summary (`summary_token`): its rows, rows per row group and extent
(the bbox covering rounded outward to float32, the times, proj:code), so that opening lists the
folder (http(s): its `_parts.json`) and reads no footer (a part named without a summary, as
rumi wrote them before, has its footer read at open instead); a search reads the footers of
the parts whose extent may match (the last FOOTERS_KEPT stay cached: a footer's statistics
take about 20 KB of memory per row group, 0.5-1 GB per process at 100 M rows if all were kept)
and, through pyarrow's push-down, the row groups that may match; a blob is read (one range)
only when a row is opened. Appending
writes new part files (the blobs first), never rewrites one, under names no two writers share.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import threading
import uuid
from typing import Any, Sequence

import numpy as np

from .._errors import FormatError, RumiIOError
from .._internal import renew_after_fork
from . import columns as K
from .columns import deps, file_metadata, micros, schema
from .decode import overlap
from .geometry import lon_overlap
from .search import POLAR, bbox_columns
from .stores import LISTING, has_listing, list_parts, mkdir, put, store

#: rows per row group: the unit a search skips or reads (statistics per group keep the footer small)
ROWS_PER_GROUP = 4096
#: a part file holds at most this many rows (an append's rows of one year go in one part)
ROWS_PER_PART = 1_000_000
#: the bits per axis of the Hilbert key of a row's bbox centre
HILBERT_BITS = 16
#: the columns whose row-group statistics are written (the ones a search pushes down)
STAT_COLUMNS = (K.DATETIME, K.START_DATETIME, K.END_DATETIME, "bbox.xmin", "bbox.ymin", "bbox.xmax", "bbox.ymax", K.PROJ_CODE)
#: footers read at once when a catalogue opens (object stores: one or two requests each)
FOOTER_THREADS = 16
#: parts whose footers (fragments with statistics) stay in memory after a search used them
FOOTERS_KEPT = 8
REF_COLUMNS = (K.HEADER_OFFSET, K.HEADER_SIZE)
HEADERS = ".headers"


#: columns that searches do not read (null in a search's rows; Catalog.lazy_column reads them for
#: a selection: Catalog.stats rumi:stats, the samplers' class limits rumi:classes). A part file
#: holds none of them: each lies beside it in its own `part-....<name>.lazy` (lazy_suffix: a
#: Parquet file of that column, the part's rows in its order and row groups), so that a search's
#: row groups stay one range (in the part they would lie between them: a range per row group
#: over S3); the part's "rumi:catalog" metadata names the ones there ("lazy": [], all null: no
#: file). Parts written before keep them in the part file, last (no "lazy" key).
LAZY_COLUMNS = (K.STATS, K.CLASSES)
LAZY = ".lazy"


def lazy_suffix(name: str) -> str:
    """The suffix of the file beside a part that holds its lazy column name (a file a column,
    so that a column's row groups lie end to end there too): ".stats.lazy", ".classes.lazy"."""
    return f".{name.rsplit(':', 1)[-1]}{LAZY}"


#: the columns a search's expression reads (search.pushdown: STAT_COLUMNS' top-level columns)
PUSHED = tuple(dict.fromkeys(c.split(".")[0] for c in STAT_COLUMNS))


def part_schema() -> Any:
    """The schema parts are read with: the catalogue's, rumi:header replaced by the blob's place
    beside, LAZY_COLUMNS last (a part file written now lacks them: they lie in its .lazy files;
    one written before holds them, last)."""
    pa = deps().pa
    s = schema()
    s = s.remove(s.get_field_index(K.HEADER))
    for n in REF_COLUMNS:
        s = s.append(pa.field(n, pa.int64()))
    for n in LAZY_COLUMNS:
        f = s.field(n)
        s = s.remove(s.get_field_index(n)).append(f)
    return s


def hilbert_key(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], bits: int = HILBERT_BITS) -> np.ndarray[Any, Any]:
    """The index along a Hilbert curve of order `bits` of points in [0, 1) x [0, 1) (vectorised
    xy2d of Hilbert's curve; NaN counts as 0)."""
    n = 1 << bits
    xi = np.clip(np.nan_to_num(np.asarray(x, float)) * n, 0, n - 1).astype(np.int64)
    yi = np.clip(np.nan_to_num(np.asarray(y, float)) * n, 0, n - 1).astype(np.int64)
    d = np.zeros(xi.shape, np.int64)
    s = n >> 1
    while s > 0:
        rx = (xi & s) > 0
        ry = (yi & s) > 0
        d += s * s * ((3 * rx) ^ ry)
        # rotate the quadrant
        flip = ~ry & rx
        xi = np.where(flip, s - 1 - xi, xi)
        yi = np.where(flip, s - 1 - yi, yi)
        swap = ~ry
        xi, yi = np.where(swap, yi, xi), np.where(swap, xi, yi)
        s >>= 1
    return d


def _first_time_us(table: Any) -> np.ndarray[Any, Any]:
    """Each row's first time in microseconds (datetime, else start_datetime; 0 when neither)."""
    pa = deps().pa
    import pyarrow.compute as pc

    a = pc.coalesce(table.column(K.DATETIME), table.column(K.START_DATETIME)).cast(pa.int64())
    return np.asarray(a.fill_null(0).to_numpy(zero_copy_only=False), np.int64)


def order(table: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """(year of each row, the permutation that sorts rows by year, crossing 180 degrees or
    not, Hilbert key of the bbox centre, then time)."""
    t = _first_time_us(table)
    year = t.astype("datetime64[us]").astype("datetime64[Y]").astype(np.int64) + 1970
    lo_x, lo_y, hi_x, hi_y = bbox_columns(table)
    cx = (lo_x + np.where(lo_x > hi_x, hi_x + 360.0, hi_x)) / 2  # across 180 degrees: xmin > xmax
    cx = np.where(cx > 180.0, cx - 360.0, cx)
    key = hilbert_key((cx + 180.0) / 360.0, ((lo_y + hi_y) / 2 + 90.0) / 180.0)
    # rows across 180 degrees go to parts of their own (write_parts): their statistics cannot
    # tell them from the others, so a search pushes only their latitudes down
    return year, np.lexsort((t, key, crossing(table), year))


def crossing(table: Any) -> np.ndarray[Any, Any]:
    """Which rows' bbox crosses 180 degrees (xmin > xmax)."""
    lo_x, _, hi_x, _ = bbox_columns(table)
    with np.errstate(invalid="ignore"):
        return np.asarray(lo_x > hi_x, bool)


def crosses(ext: dict[str, Any] | None) -> bool:
    """Whether a part of extent ext may hold rows across 180 degrees (extent records their
    longitudes as all of them)."""
    if not ext:
        return False
    xmin, xmax = ext.get("bbox.xmin"), ext.get("bbox.xmax")
    return bool(xmin and xmax and xmin[0] is not None and xmax[1] is not None and xmin[0] <= -180.0 and xmax[1] >= 180.0)


def extent(table: Any) -> dict[str, Any]:
    """A part's extent, kept in its "rumi:catalog" metadata: per pushed-down column, [min, max]
    of its values (None when all are null): the bbox covering's fields, the times (in
    microseconds) and proj:code. A search skips a part whose extent cannot match (may_match)
    before asking pyarrow about its row groups."""
    import pyarrow.compute as pc

    pa = deps().pa
    out: dict[str, Any] = {}
    for name in STAT_COLUMNS:
        col = table.column(name) if "." not in name else pc.struct_field(table.column("bbox"), name.split(".")[1])
        if pa.types.is_timestamp(col.type):
            col = col.cast(pa.int64())
        mm: dict[str, Any] = pc.min_max(col).as_py() if len(col) else {"min": None, "max": None}
        out[name] = None if mm["min"] is None else [mm["min"], mm["max"]]
    if crossing(table).any():  # rows across 180 degrees: all longitudes (see crosses)
        for k in ("bbox.xmin", "bbox.xmax"):
            if out[k] is not None:
                out[k] = [-180.0, 180.0]
    # footprints cut at 180 degrees and closed through the poles (see cut): unless a row spans more
    # than half the longitudes short of both poles, as one around a pole written before did
    lo_x, lo_y, hi_x, hi_y = bbox_columns(table)
    with np.errstate(invalid="ignore"):
        band = (lo_x <= hi_x) & (hi_x - lo_x > 180.0) & (lo_y > -90.0) & (hi_y < 90.0)
    out["cut"] = not bool(band.any())
    return out


def cut(ext: dict[str, Any] | None) -> bool:
    """Whether a part of extent ext was written with footprints cut at 180 degrees and closed
    through the poles. A part written before (or without an extent) may hold a footprint around a
    pole whose bbox stops short of it: a search drops the latitude bound on the pole's side
    (search.pushdown's pole_safe)."""
    return bool(ext and ext.get("cut"))


def may_match(ext: dict[str, Any] | None, filters: Any) -> bool:
    """False when no row of a part of extent ext (see extent) can pass filters; True when one
    may (or the part has no extent: written before rumi recorded it)."""
    from .search import box4326

    if not ext:
        return True
    for item in filters:
        kind = item[0]
        if kind == "bbox" and item[1] is not None:
            w, s, e, n = box4326(item[1], item[2])
            xmin, ymin, xmax, ymax = (ext.get(f"bbox.{k}") or [None, None] for k in ("xmin", "ymin", "xmax", "ymax"))
            if None in (xmin[0], ymin[0], xmax[1], ymax[1]):
                return False  # no row has a bbox
            if (ymin[0] > n and (cut(ext) or n >= -POLAR)) or (ymax[1] < s and (cut(ext) or s <= POLAR)):
                return False
            if not crosses(ext) and not lon_overlap(np.array([xmin[0]]), np.array([xmax[1]]), w, e)[0]:
                return False
        elif kind == "time" and item[1] is not None:
            win = tuple(None if v is None else micros(v) for v in item[1])  # the extent's values: timestamp[us]
            dt, st, en = ext.get(K.DATETIME), ext.get(K.START_DATETIME), ext.get(K.END_DATETIME)
            one = dt is not None and bool(overlap(dt[0], dt[1], (win[0], win[1])))
            span = st is not None and en is not None and bool(overlap(st[0], en[1], (win[0], win[1])))
            if not (one or span):
                return False
        elif kind == "crs":
            c = ext.get(K.PROJ_CODE)
            if c is None or not c[0] <= item[1] <= c[1]:
                return False
    return True


def _part_name(summary: str = "") -> str:
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return f"part-{now}-{uuid.uuid4().hex}" + (f".{summary}" if summary else "")


#: a part name's summary: version, rows, rows per group, the bbox covering (float32, rounded
#: outward), then per time column min and max (int64 us; INT64_MIN: none), then proj:code's
#: min and max (length-prefixed; length 255: none)
_SUMMARY = "<BII4f6q"
_NONE_TIME = -(2**63)
#: a summary longer than this is not put in the name (names stay under 255 bytes)
SUMMARY_MAX = 160


def summary_token(rows: int, rows_per_group: int, ext: dict[str, Any]) -> str:
    """A part's summary for its name (see the module's docstring): "" when it cannot be one."""
    import base64
    import struct

    box = []
    for k, side in (("xmin", 0), ("ymin", 0), ("xmax", 1), ("ymax", 1)):
        v = ext.get(f"bbox.{k}")
        if v is None:
            box.append(float("nan"))
            continue
        f = np.float32(v[side])
        if side == 0 and float(f) > v[0]:
            f = np.nextafter(f, np.float32(-np.inf))
        if side == 1 and float(f) < v[1]:
            f = np.nextafter(f, np.float32(np.inf))
        box.append(float(f))
    times = []
    for k in (K.DATETIME, K.START_DATETIME, K.END_DATETIME):
        v = ext.get(k)
        times += [_NONE_TIME, _NONE_TIME] if v is None else [int(v[0]), int(v[1])]
    code = b""
    for v in (ext.get("proj:code") or [None, None]):
        b = b"" if v is None else str(v).encode()
        if len(b) >= 255:
            return ""
        code += bytes([255 if v is None else len(b)]) + b
    raw = struct.pack(_SUMMARY, 2 if ext.get("cut") else 1, rows, rows_per_group, *box, *times) + code
    tok = "s" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return tok if len(tok) <= SUMMARY_MAX else ""


def parse_summary(name: str) -> tuple[np.ndarray[Any, Any], dict[str, Any]] | None:
    """(rows per row group, extent) from a part's name (see summary_token); None when its name
    carries no summary."""
    import base64
    import struct

    stem = name.rsplit("/", 1)[-1][: -len(".parquet")]
    tok = stem.rsplit(".", 1)[-1] if "." in stem else ""
    if not tok.startswith("s"):
        return None
    try:
        raw = base64.urlsafe_b64decode(tok[1:] + "=" * (-len(tok[1:]) % 4))
        n = struct.calcsize(_SUMMARY)
        version, rows, per, *vals = struct.unpack(_SUMMARY, raw[:n])
        if version not in (1, 2) or per <= 0:
            return None
        ext: dict[str, Any] = {}
        # each bbox field's range as one that holds it: [least xmin, greatest xmax] for xmin and
        # xmax (what may_match reads is exact: xmin's min, xmax's max), the same for y
        for k, lo, hi in (("xmin", 0, 2), ("xmax", 0, 2), ("ymin", 1, 3), ("ymax", 1, 3)):
            ext[f"bbox.{k}"] = None if np.isnan(vals[lo]) or np.isnan(vals[hi]) else [vals[lo], vals[hi]]
        for i, k in enumerate(("datetime", "start_datetime", "end_datetime")):
            a, b = vals[4 + 2 * i], vals[5 + 2 * i]
            ext[k] = None if a == _NONE_TIME else [a, b]
        pos, codes = n, []
        for _ in range(2):
            ln = raw[pos]
            codes.append(None if ln == 255 else raw[pos + 1 : pos + 1 + ln].decode())
            pos += 1 + (0 if ln == 255 else ln)
        if pos != len(raw):
            return None
    except (ValueError, struct.error, IndexError, UnicodeDecodeError):
        return None
    ext["proj:code"] = None if codes[0] is None else codes
    if version == 2:
        ext["cut"] = True
    groups = np.full(-(-rows // per), per, np.int64)
    if rows % per:
        groups[-1] = rows % per
    return groups, ext


def write_part(fs: Any, root: str, table: Any, blobs: Sequence[bytes | None] | None, *, rows_per_group: int = ROWS_PER_GROUP,
               options: dict[str, Any] | None = None) -> str:
    """Writes one part file of table (the catalogue schema, rows in the order to keep) and, when
    blobs (one per row, or None) has any, its .headers file first; each of LAZY_COLUMNS with a
    value goes to its .lazy file (lazy_suffix), first too. A table that has the columns
    rumi:header_offset / rumi:header_size instead keeps them (its blobs written beside by the
    caller, under the returned name with .headers for .parquet). Returns its path."""
    pa, pq, *_ = deps()
    n = table.num_rows
    offs = np.zeros(n, np.int64)
    sizes = np.full(n, -1, np.int64)
    chunks = []
    if blobs is not None and any(b is not None for b in blobs):
        pos = 0
        for i, b in enumerate(blobs):
            if b is not None:
                offs[i], sizes[i] = pos, len(b)
                chunks.append(b)
                pos += len(b)
    if K.HEADER in table.column_names:
        table = table.drop_columns([K.HEADER])
    if K.HEADER_OFFSET not in table.column_names:  # else: blobs already beside, as given
        mask = sizes < 0
        table = table.append_column(K.HEADER_OFFSET, pa.array(offs, pa.int64(), mask=mask))
        table = table.append_column(K.HEADER_SIZE, pa.array(sizes, pa.int64(), mask=mask))
    table = table.select(part_schema().names).cast(part_schema())
    lazy = [c for c in LAZY_COLUMNS if table.column(c).null_count < n]  # the ones with a value
    side = table.select(lazy)
    table = table.drop_columns(list(LAZY_COLUMNS))
    ext = extent(table)
    name = _part_name(summary_token(n, rows_per_group, ext))
    for c in lazy:  # beside the part, in its row groups, a file a column, before it as its blobs
        sink = pa.BufferOutputStream()
        pq.write_table(side.select([c]), sink, compression="zstd", row_group_size=rows_per_group, write_statistics=False)
        put(fs, f"{root}/{name}{lazy_suffix(c)}", sink.getvalue(), options)
    if chunks:  # the blobs first: a part is never listed before its blobs exist
        put(fs, f"{root}/{name}{HEADERS}", b"".join(chunks), options)
    md = file_metadata(table)
    md[K.CATALOG_KEY] = json.dumps({**json.loads(md[K.CATALOG_KEY]), "extent": ext, "lazy": lazy}).encode()
    table = table.replace_schema_metadata(md)
    sink = pa.BufferOutputStream()
    pq.write_table(
        table, sink, compression="zstd", row_group_size=rows_per_group, write_statistics=list(STAT_COLUMNS),
        sorting_columns=None,
    )
    path = f"{root}/{name}.parquet"
    put(fs, path, sink.getvalue(), options)
    return path


def write_parts(
    table: Any,
    url: str,
    *,
    options: dict[str, Any] | None = None,
    rows_per_group: int = ROWS_PER_GROUP,
    rows_per_part: int = ROWS_PER_PART,
) -> list[str]:
    """Adds table's rows (the catalogue schema, rumi:header included or not) to the partitioned
    catalogue at url (a folder or an s3:// prefix; created when missing) as new part files: one
    or more per year of the rows' first times, sorted along the Hilbert curve of their bbox
    centres then by time. Existing parts are never touched; a folder published with a listing
    for http(s) readers (write_listing) gets its listing written again, naming the new parts
    too (two writers at once: the one that lists last names both's parts only if the other's
    were written by then; run write_listing after both). Returns the new parts' paths."""
    fs, root = store(url, options)
    mkdir(fs, root)
    if table.num_rows == 0:
        return []
    year, perm = order(table)
    blobs = table.column(K.HEADER).to_pylist() if K.HEADER in table.column_names else None
    out = []
    ys = year[perm]
    cross = crossing(table)[perm]
    cuts = np.flatnonzero((np.diff(ys) != 0) | (np.diff(cross) != 0)) + 1  # a part per year, and rows across 180 degrees apart
    for grp in np.split(perm, cuts):
        for k in range(0, len(grp), rows_per_part):
            idx = grp[k : k + rows_per_part]
            sub = table.take(deps().pa.array(idx))
            out.append(write_part(fs, root, sub, None if blobs is None else [blobs[i] for i in idx], rows_per_group=rows_per_group, options=options))
    if has_listing(fs, root):
        write_listing(url, options)
    return out


def write_listing(url: str, options: dict[str, Any] | None = None) -> str:
    """Writes the folder's `_parts.json` (its part files' names and sizes, and those of the
    files beside each: "beside", {".headers": size, ".stats.lazy": size, ...}), which readers over
    http(s) use instead of a listing: publish it after copying the folder to a web server (or
    after appending to a folder a web server serves). Returns its path."""
    fs, root = store(url, options)
    parts = list_parts(fs, root)
    near = {p: n for suffix in (HEADERS, LAZY) for p, n in list_parts(fs, root, suffix)}
    entries = []
    for p, s in parts:
        e: dict[str, Any] = {"name": p.rsplit("/", 1)[-1], "size": s}
        # the sizes of the files beside it (a reader then opens them without a HEAD request)
        beside = {x: near[f] for x in [HEADERS, *map(lazy_suffix, LAZY_COLUMNS)] if (f := p[: -len(".parquet")] + x) in near}
        if beside:
            e["beside"] = beside
        entries.append(e)
    body = json.dumps(entries).encode()
    path = f"{root}/{LISTING}"
    put(fs, path, body, options)
    return path


class Parts:
    """The part files of a partitioned catalogue: their rows per row group and extents, read
    from the footers at open and shared by every Catalog searched from it; the footers
    themselves (fragments with statistics) of the last FOOTERS_KEPT parts a search used; the
    open .headers files."""

    def __init__(self, url: str, options: dict[str, Any] | None = None, names: Sequence[str] | None = None) -> None:
        import pyarrow.dataset as ds

        self.url, self.options = url, options
        self.fs, self.root = store(url, options)
        listed = list_parts(self.fs, self.root)
        if names is not None:  # a pickled selection: exactly the parts it was made from
            have = {p.rsplit("/", 1)[-1]: (p, s) for p, s in listed}
            missing = [n for n in names if n not in have]
            if missing:
                raise FormatError(f"catalogue {url} lost the part files {missing[:3]} since it was opened")
            listed = [have[n] for n in names]
        self.format = ds.ParquetFileFormat(default_fragment_scan_options=ds.ParquetFragmentScanOptions(pre_buffer=True))
        self.schema = part_schema()
        self.paths = [p for p, _ in listed]
        self.sizes = [s for _, s in listed]
        self._kept: dict[str, Any] = {}
        self._kept_lock = threading.Lock()
        renew_after_fork(self, "_kept_lock")
        #: per part path, the columns in its .lazy files (none for a part written before), from
        #: its footer; the .lazy files' footers last read (FOOTERS_KEPT)
        self._lazy_of: dict[str, list[str]] = {}
        self._side_md: dict[str, Any] = {}
        self.group_rows, self.extents = self._summaries(listed)
        self.rows = np.array([int(g.sum()) for g in self.group_rows], np.int64)
        self.headers = Headers(url, options, self.names, self.fs, self.root)
        #: row groups read by the searches so far (a counter for tests and benchmarks)
        self.groups_read = 0

    def _summaries(self, listed: Sequence[tuple[str, int]]) -> tuple[list[Any], list[Any]]:
        """Each part's rows per row group and extent, its footer read (FOOTER_THREADS at once)
        and let go (but the last FOOTERS_KEPT)."""

        def one(ps: tuple[str, int]) -> tuple[Any, Any]:
            named = parse_summary(ps[0])
            if named is not None:
                return named
            frag = self._fragment(*ps)
            self._keep(ps[0], frag)
            return np.array([rg.num_rows for rg in frag.row_groups], np.int64), _extent_of(frag)

        if len(listed) <= 1:
            out = [one(ps) for ps in listed]
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(min(FOOTER_THREADS, len(listed))) as ex:
                out = list(ex.map(one, listed))
        return [g for g, _ in out], [e for _, e in out]

    def _keep(self, path: str, frag: Any) -> None:
        with self._kept_lock:
            self._kept.pop(path, None)
            self._kept[path] = frag
            while len(self._kept) > FOOTERS_KEPT:
                del self._kept[next(iter(self._kept))]

    def frag(self, k: int) -> Any:
        """Part k's fragment with its footer (statistics): kept, else read again."""
        path = self.paths[k]
        with self._kept_lock:
            frag = self._kept.get(path)
        if frag is None:
            frag = self._fragment(path, self.sizes[k])
        self._keep(path, frag)
        return frag

    def _fragment(self, path: str, size: int) -> Any:
        frag = self.format.make_fragment(path, self.fs, file_size=size)
        try:
            frag.ensure_complete_metadata()
        except deps().pa.ArrowInvalid as e:  # truncated or not Parquet (before OSError: pyarrow's errors are both)
            raise FormatError(f"{path} is not a readable catalogue part (truncated or corrupt?): {e}") from None
        except OSError as e:
            raise RumiIOError(f"{path}: {e}") from None
        md = frag.metadata.metadata or {}
        if K.CATALOG_KEY not in md:
            raise FormatError(f"{path} is not a rumi catalogue part (no rumi:catalog metadata)")
        try:
            lazy = json.loads(md[K.CATALOG_KEY]).get("lazy", [])
        except (ValueError, AttributeError):
            raise FormatError(f"{path}: its rumi:catalog metadata is not a JSON object") from None
        if not isinstance(lazy, list) or not set(lazy) <= set(self.schema.names) - set(frag.physical_schema.names):
            raise FormatError(f"{path}: its rumi:catalog metadata places {lazy!r} in .lazy files (columns of the "
                              "catalogue that the part lacks)")
        self._lazy_of[path] = lazy
        return frag

    @property
    def names(self) -> list[str]:
        return [p.rsplit("/", 1)[-1] for p in self.paths]

    @property
    def num_rows(self) -> int:
        return int(self.rows.sum())

    @property
    def num_groups(self) -> int:
        return sum(len(g) for g in self.group_rows)

    def refreshed(self) -> Parts:
        """The same folder listed again: the parts known keep their cached fragments."""
        new = Parts.__new__(Parts)
        new.__dict__.update(self.__dict__)
        new._kept, new._kept_lock = dict(self._kept), threading.Lock()
        renew_after_fork(new, "_kept_lock")
        new._lazy_of, new._side_md = dict(self._lazy_of), dict(self._side_md)
        listed = list_parts(self.fs, self.root)
        known = {p: (g, e) for p, g, e in zip(self.paths, self.group_rows, self.extents)}
        added = [(p, s) for p, s in listed if p not in known]
        known.update(zip([p for p, _ in added], zip(*new._summaries(added))))
        new.paths = [p for p, _ in listed]
        new.sizes = [s for _, s in listed]
        new.group_rows = [known[p][0] for p in new.paths]
        new.extents = [known[p][1] for p in new.paths]
        new.rows = np.array([int(g.sum()) for g in new.group_rows], np.int64)
        new.headers = Headers(self.url, self.options, new.names, self.fs, self.root)
        new.groups_read = 0
        return new

    def read(self, expr: Any, columns: Sequence[str], filters: Any = ()) -> tuple[Any, np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The rows that pass expr (a pyarrow.dataset expression, None: all), with columns (the
        part schema's), each row's part index and its row in the part. The parts whose extents
        cannot match filters (the search expr comes from) are skipped, then only the row groups
        whose statistics may match are read (pyarrow.dataset's push-down; LAZY_COLUMNS asked for
        from the .lazy files); their count is added to groups_read."""
        pa = deps().pa
        cols = list(columns)
        tables, part, at = [], [], []
        for k in range(len(self.paths)):
            if filters and not may_match(self.extents[k], filters):
                continue
            frag = self.frag(k)
            e = self._expr(k, expr, filters)
            sub = frag.subset(e) if e is not None else frag
            if sub is None or not sub.row_groups:
                continue
            self.groups_read += len(sub.row_groups)
            here, beside = self._split(k, cols)
            # the row groups whole, each row's place in the part kept through the filter
            t = _read(self.paths[k], sub.to_table, schema=self.schema, use_threads=True,
                      columns=list(dict.fromkeys(here + (list(PUSHED) if e is not None else []))))
            starts = self._starts(k)
            rows = np.concatenate([np.arange(starts[rg.id], starts[rg.id + 1]) for rg in sub.row_groups])
            if len(rows) != t.num_rows:
                raise FormatError(f"{self.paths[k]}: its row groups hold {t.num_rows} rows, its footer says {len(rows)}")
            if e is not None:
                t = t.append_column("rumi:row", pa.array(rows)).filter(e)
                rows = np.asarray(t.column("rumi:row").to_numpy(), np.int64)
            t = self._with_lazy(k, t.select(here), rows, beside).select(cols)
            if t.num_rows:
                tables.append(t)
                part.append(np.full(t.num_rows, k, np.int32))
                at.append(rows)
        if not tables:
            return self.schema.empty_table().select(cols), np.zeros(0, np.int32), np.zeros(0, np.int64)
        return pa.concat_tables(tables), np.concatenate(part), np.concatenate(at)

    def _split(self, k: int, columns: Sequence[str]) -> tuple[list[str], list[str]]:
        """columns as (those read from part k, those from its .lazy files)."""
        beside = self.lazy_of(k)
        return [c for c in columns if c not in beside], [c for c in columns if c in beside]

    def _with_lazy(self, k: int, t: Any, rows: np.ndarray[Any, Any], names: Sequence[str]) -> Any:
        """t (rows of part k) with the LAZY_COLUMNS names appended, read for its rows."""
        for n in names:
            t = t.append_column(self.schema.field(n), self.lazy_rows(k, n, rows))
        return t

    def _starts(self, k: int) -> np.ndarray[Any, Any]:
        """The first row of each row group of part k, then its rows."""
        return np.concatenate([[0], np.cumsum(self.group_rows[k])]).astype(np.int64)

    def lazy_of(self, k: int) -> list[str]:
        """The columns that lie in part k's .lazy files (LAZY_COLUMNS with a value; none in a part
        written before, which holds them itself), as its footer says (read if not yet)."""
        path = self.paths[k]
        if path not in self._lazy_of:
            self.frag(k)
        return self._lazy_of[path]

    def lazy_rows(self, k: int, name: str, rows: np.ndarray[Any, Any]) -> Any:
        """Column name (one of LAZY_COLUMNS) of rows (rows of part k, any order): the row groups
        that hold them read from the column's .lazy file (a part written before: from the part;
        null without I/O when neither holds it)."""
        pa = deps().pa
        rows = np.asarray(rows, np.int64)
        beside = name in self.lazy_of(k)
        if not beside and name not in self.frag(k).physical_schema.names:  # null in every row
            return pa.nulls(len(rows), self.schema.field(name).type)
        starts = self._starts(k)
        if len(rows) and (rows.min() < 0 or rows.max() >= starts[-1]):
            raise IndexError(f"rows {rows.min()}..{rows.max()} of {self.paths[k]}, a part of {starts[-1]} rows")
        g = np.searchsorted(starts, rows, side="right") - 1
        ids = np.unique(g)
        if beside:
            t = self._side(k, ids.tolist(), name)
        else:  # a part written before: in the part
            t = _read(self.paths[k], self.frag(k).subset(row_group_ids=ids.tolist()).to_table, schema=self.schema, columns=[name])
        first = np.concatenate([[0], np.cumsum(np.diff(starts)[ids])])[:-1]  # each group's first row in t
        return t.column(name).take(pa.array(first[np.searchsorted(ids, g)] + rows - starts[g]))

    def lazy_values(self, name: str, part: np.ndarray[Any, Any], rows: np.ndarray[Any, Any]) -> Any:
        """Column name (one of LAZY_COLUMNS) of the rows at (part, row in the part), in their
        order (a ChunkedArray): lazy_rows of each part (FOOTER_THREADS at once)."""
        pa = deps().pa
        part, rows = np.asarray(part), np.asarray(rows, np.int64)
        typ = self.schema.field(name).type
        ks = np.unique(part).tolist()
        picks = [np.flatnonzero(part == k) for k in ks]

        def one(j: int) -> Any:
            return self.lazy_rows(ks[j], name, rows[picks[j]])

        if len(ks) <= 1:
            got = [one(j) for j in range(len(ks))]
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(min(FOOTER_THREADS, len(ks))) as ex:
                got = list(ex.map(one, range(len(ks))))
        if not got:
            return pa.chunked_array([], type=typ)
        cat = pa.chunked_array([c for a in got for c in (a.chunks if hasattr(a, "chunks") else [a])], type=typ)
        back = np.empty(len(part), np.int64)
        back[np.concatenate(picks)] = np.arange(len(part))
        return cat.take(pa.array(back))

    def _side(self, k: int, ids: Sequence[int], name: str) -> Any:
        """Row groups ids of part k's .lazy file of column name (its row groups are the part's)."""
        pa, pq, *_ = deps()
        path = f"{self.paths[k][: -len('.parquet')]}{lazy_suffix(name)}"
        try:
            f = self.fs.open_input_file(path)
        except FileNotFoundError:
            raise FormatError(f"{path} is missing: the lazy column {name} of the part {self.paths[k]} "
                              "lies there (copy the folder whole)") from None
        except OSError as e:
            raise RumiIOError(f"{path}: {e}") from None
        try:
            with self._kept_lock:
                md = self._side_md.get(path)
            pf = pq.ParquetFile(f, metadata=md, pre_buffer=True)
            groups = [pf.metadata.row_group(i).num_rows for i in range(pf.metadata.num_row_groups)]
            if groups != self.group_rows[k].tolist():
                raise FormatError(f"{path}: its row groups ({sum(groups)} rows) are not those of its part {self.paths[k]} "
                                  f"({int(self.rows[k])} rows)")
            if name not in pf.schema_arrow.names:
                raise FormatError(f"{path} lacks the column {name} that its part's metadata places there")
            t = pf.read_row_groups(list(ids), columns=[name])
        except pa.ArrowInvalid as e:
            raise FormatError(f"{path} is not a readable file of a part's lazy column (truncated or corrupt?): {e}") from None
        finally:
            f.close()
        with self._kept_lock:
            self._side_md.pop(path, None)
            self._side_md[path] = pf.metadata
            while len(self._side_md) > FOOTERS_KEPT:
                del self._side_md[next(iter(self._side_md))]
        return t.cast(pa.schema([self.schema.field(name)]))

    def groups(self, expr: Any, filters: Any = ()) -> list[tuple[int, int]]:
        """(part, row group id) of the row groups a search's expr (None: all) may match, in
        the parts' order: what `read` would read, from the footers alone."""
        out = []
        for k in range(len(self.paths)):
            if filters and not may_match(self.extents[k], filters):
                continue
            frag = self.frag(k)
            e = self._expr(k, expr, filters)
            sub = frag.subset(e) if e is not None else frag
            if sub is not None:
                out += [(k, rg.id) for rg in sub.row_groups]
        return out

    def _expr(self, k: int, expr: Any, filters: Any) -> Any:
        """The expression pushed down to part k: expr, or filters' expression without the
        longitudes for a part with rows across 180 degrees (crosses), without the latitude
        bound on a pole's side for a part written before footprints were cut (cut)."""
        ext = self.extents[k]
        if filters and (crosses(ext) or not cut(ext)):
            from .search import pushdown

            return pushdown(filters, lon=not crosses(ext), pole_safe=not cut(ext))
        return expr

    def read_column(self, name: str) -> Any:
        """One column of every row, part by part (LAZY_COLUMNS from the .lazy files)."""
        pa = deps().pa
        cols = []
        for k in range(len(self.paths)):
            if self._split(k, [name])[1]:
                cols.append(self.lazy_rows(k, name, np.arange(self.rows[k])))
            else:
                cols.append(_read(self.paths[k], self.frag(k).to_table, schema=self.schema, columns=[name]).column(0))
        return pa.chunked_array([c for col in cols for c in (col.chunks if hasattr(col, "chunks") else [col])],
                                type=self.schema.field(name).type)

    def locate(self, i: int) -> tuple[int, int, int]:
        """Row i of the whole catalogue -> (part, row group, row in the group)."""
        n = self.num_rows
        if not -n <= i < n:
            raise IndexError(f"row {i} of a catalogue of {n} rows")
        i %= n
        k = int(np.searchsorted(np.cumsum(self.rows), i, side="right"))
        i -= int(self.rows[:k].sum())
        g = int(np.searchsorted(np.cumsum(self.group_rows[k]), i, side="right"))
        return k, g, i - int(self.group_rows[k][:g].sum())

    def group(self, k: int, rg: int, columns: Sequence[str]) -> Any:
        """Row group rg of part k (columns of the part schema; LAZY_COLUMNS from its .lazy files)."""
        self.groups_read += 1
        here, beside = self._split(k, columns)
        t = _read(self.paths[k], self.frag(k).subset(row_group_ids=[rg]).to_table, schema=self.schema, columns=here)
        start = int(self._starts(k)[rg])
        return self._with_lazy(k, t, np.arange(start, start + t.num_rows), beside).select(list(columns))

    def header(self, k: int, offset: int | None, size: int | None) -> bytes | None:
        """The blob of a row of part k (one range read of its .headers file)."""
        return self.headers.read(k, offset, size)


class Headers:
    """The .headers files beside a partitioned catalogue's parts (part k: names[k]), each opened
    when a blob of it is first read. Pickles as the folder, its options and the part names:
    what a process needs to open the files of a catalogue's rows without its footers."""

    def __init__(self, url: str, options: dict[str, Any] | None, names: Sequence[str], fs: Any = None,
                 root: str | None = None) -> None:
        self.url, self.options, self.names = url, options, list(names)
        self._fs, self._root = fs, root
        self._files: dict[int, Any] = {}
        self._lock = threading.Lock()
        renew_after_fork(self, "_lock")
        self._pid = os.getpid()

    def __getstate__(self) -> dict[str, Any]:
        return {"url": self.url, "options": self.options, "names": self.names}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["url"], state["options"], state["names"])  # type: ignore[misc]

    def read(self, k: int, offset: int | None, size: int | None) -> bytes | None:
        """The blob at offset, size bytes, of part k's .headers file (None without one)."""
        if offset is None or size is None or size < 0:
            return None
        with self._lock:
            if self._pid != os.getpid():  # a forked child: its own files
                self._files, self._pid = {}, os.getpid()
            f = self._files.get(k)
            if f is None:
                if self._fs is None:
                    self._fs, self._root = store(self.url, self.options)
                f = self._fs.open_input_file(f"{self._root}/{self.names[k][: -len('.parquet')]}{HEADERS}")
                self._files[k] = f
        data = bytes(f.read_at(size, offset))
        if len(data) != size:
            raise FormatError(f"{self.url}/{self.names[k]}: the blob at {offset} holds {len(data)} of its {size} bytes")
        return data


def _read(path: str, fn: Any, **kw: Any) -> Any:
    """fn(**kw), a read of the part at path: pyarrow's error on a corrupt part as FormatError
    naming it."""
    try:
        return fn(**kw)
    except deps().pa.ArrowInvalid as e:
        raise FormatError(f"{path} is not a readable catalogue part (truncated or corrupt?): {e}") from None


def _extent_of(frag: Any) -> dict[str, Any] | None:
    """The extent recorded in a part's "rumi:catalog" metadata (None: none recorded)."""
    md = frag.metadata.metadata or {}
    try:
        ext: dict[str, Any] | None = json.loads(md[K.CATALOG_KEY]).get("extent")
    except (KeyError, ValueError, AttributeError):
        return None
    return ext
