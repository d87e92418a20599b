"""The chip index: what a ChipDataset reads, planned once from its catalogue (and labels),
frozen, and the one thing samplers and the dataset share (as TorchGeo's datasets and samplers
share only the dataset's index).

Columnar (rumi.torch.columns): one value or row per dataset file j, in numpy arrays. These are the
catalogue row, the file's global id (`fid`: shard << 32 | position in the shard, the same in every
process), its shard, shape (T, B, Y, X), tile shape, transform, CRS, the indices of the bands read,
the time steps read and their times (ragged), the nodata of the bands read, the catalogue's
packed valid summary (ragged), its id and location (UTF-8, ragged), its size, and where its header
blob lies. The blob is either inline (ragged bytes: a single-file catalogue) or a (part, offset,
size) reference into a partitioned catalogue's .headers files. The accessors (`ids`, `grids`,
`nodata`, `valid_q` ...) give one file's values as the users of the index read them.

Planning reads the catalogue a shard at a time (rumi.Catalog.shards / read_shard: a partitioned
catalogue's row groups, or runs of rows in memory), vectorised over each shard's Arrow columns.
Past columns.SPILL_BYTES, the columns go to a folder of memory-mapped files. A million files
are planned without holding their rows.

Sharded (`streams=C`, rumi.torch.streams): rank r of w plans only the shards of the streams it
reads. These are the shards s = r (mod gcd(w, C)): it reads no other row group. The batch's time
dimension T and the checks that need every rank (an empty stream) are agreed with an all_reduce
when torch.distributed is initialised.

Pickling (DataLoader workers under spawn or forkserver): an index pickles as a reference to its
columns' folder. A folder is written once, on the first pickle of an index held in memory. The
worker maps the columns: it plans nothing, reads no catalogue row, and shares the pages with every
other process on the machine. The folder belongs to the process that wrote it and is removed when
that process's index is collected. An index unpickled after its folder is gone is planned again
from its recipe (the catalogue's pickle, its path and search), with a warning."""

from __future__ import annotations

import functools
import os
import pickle
import warnings
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

import rumi
from rumi import Grid, RequestError, Window
from rumi._internal import TORCH_TYPES, Nodata, Scaling, window_bounds
from rumi._internal import normalize_nodata as normalize
from rumi.catalog import SCALE_COLUMNS, Catalog, describe, norm_time, schema, unpack_valid
from rumi.catalog import columns as K
from rumi.catalog.decode import Rows, binary, one_sample_type

from . import columns as C
from .dtypes import Array, never_sample
from .labels import LabelIndex, dates, plan_labels
from .scaling import ScaleChecks
from .scaling import per_file as scale_per_file
from .streams import Streams

#: the catalogue columns planning reads
PLAN_COLUMNS = (K.ID, K.GEOMETRY, K.PROJ_CODE, K.PROJ_TRANSFORM, K.LOCATION, K.BANDS, K.TIMES, K.TIME_ENDS, K.DTYPE,
                K.SHAPE, K.TILE_SHAPE, K.FILE_SIZE, K.ETAG, K.DIGEST, K.NODATA, K.VALID, K.HEADER, *SCALE_COLUMNS)
#: unpacked valid summaries kept per process (each a few KB)
VALID_CACHE = 4096
#: files whose values a batch reads (FileInfo) kept as Python objects per process
INFO_CACHE = 65536
#: indexes planned in this process (a counter: a DataLoader worker must plan none)
planned = 0


def as_catalog(src: Any, what: str) -> Catalog:
    """A Catalog from a Catalog, a catalogue path (.parquet), a partitioned catalogue's folder (a
    local folder, or a path / URL ending with "/"), a rumi file path/URL or a rumi.Dataset."""
    if isinstance(src, Catalog):
        return src
    if isinstance(src, rumi.Dataset):
        src = src.path
    if isinstance(src, (str, os.PathLike)):
        s = os.fspath(src)
        if s.endswith((".parquet", ".geoparquet", "/")) or os.path.isdir(s):
            return Catalog.open(s)
        import pyarrow as pa

        return Catalog(pa.Table.from_pylist([describe(s)], schema=schema()))
    raise TypeError(f"{what} must be a rumi.Catalog, a catalogue path, a rumi file or a rumi.Dataset, not {type(src).__name__}")


def nodata_override(nodata: Any, names: Sequence[str]) -> Nodata | None:
    """ChipDataset's nodata= as one float (or None) per band of names; None when not given
    (given as None for every band: no band has nodata, whatever the catalogue says)."""
    if nodata is None:
        return None
    if not isinstance(nodata, (str, bytes)) and hasattr(nodata, "__len__") and len(nodata) != len(names):
        raise ValueError(f"nodata gives {len(nodata)} values for the {len(names)} bands {list(names)}")
    vals = normalize(nodata, len(names), f"ChipDataset(nodata=) for the bands {list(names)}")
    return vals if vals is not None else [None] * len(names)


@dataclass(frozen=True)
class IndexSpec:
    """What ChipDataset's arguments ask of the plan (see ChipDataset)."""

    size: tuple[int, int]
    bands: tuple[str, ...] | None = None
    time: Any = None
    max_steps: int | None = None
    time_steps: str = "newest"
    align_time: bool = False
    seed: int = 0
    nodata: Any = None
    label_bands: tuple[str, ...] | None = None
    on_missing: str = "skip"
    apply_scale: bool = False


@dataclass(frozen=True)
class Sharding:
    """A sharded plan: this rank's place and the streams asked for (rumi.torch.streams)."""

    streams: int
    rank: int
    world: int


@dataclass(frozen=True)
class FileInfo:
    """What a batch reads of one file, as Python values (ChipIndex.info; cached)."""

    shape: tuple[int, int, int, int]
    bands: list[int]
    steps: list[int]
    times: Array
    step_s: dict[int, int]
    affine: tuple[float, ...] | None
    code: str | None


class _Pickled:
    """An object carried as its pickle, unpickled when first asked for (a catalogue in a worker:
    replaying its search is needed only to plan again)."""

    def __init__(self, obj: Any) -> None:
        self._obj: Any = obj
        self._data: bytes | None = None

    def get(self) -> Any:
        if self._obj is None and self._data is not None:
            self._obj = pickle.loads(self._data)
        return self._obj

    def __getstate__(self) -> bytes:
        return self._data if self._data is not None else pickle.dumps(self._obj)

    def __setstate__(self, data: bytes) -> None:
        self._obj, self._data = None, data


class ChipIndex:
    """The planned chip index (see the module's notes): columns per dataset file j."""

    def __init__(self, cols: dict[str, Array], meta: dict[str, Any], catalog: _Pickled, labels: Catalog | None,
                 folder: C.Folder | None = None, where: tuple[str, str] | None = None) -> None:
        self.cols = cols
        self.meta = meta
        self.spec: IndexSpec = meta["spec"]
        self.encoding: str = meta["encoding"]
        self.T: int = meta["T"]
        self.band_names: list[str] = meta["band_names"]
        self.label: LabelIndex | None = meta["label"]
        self.streams: Streams | None = meta["streams"]
        self.sharding: Sharding | None = meta["sharding"]
        self.headers = meta["headers"]
        self._catalog = catalog
        self.labels = labels
        self._folder = folder
        self._where = where if folder is None else (folder.path, folder.token)
        n = len(cols["rows"])
        self.num_files = n
        self._valid_cache: dict[int, Array | None] = {}
        self._info: dict[int, FileInfo] = {}
        cn = meta["code_names"]
        code, tr = cols["code"], cols["transform"]
        self.ids = C.Strings(cols["id.off"], cols["id"])
        self.hrefs = C.Strings(cols["href.off"], cols["href"])
        self.codes = C.PerFile(n, lambda j: cn[code[j]] if code[j] >= 0 else None)
        self.transforms = C.PerFile(n, lambda j: None if np.isnan(tr[j, 0]) else [float(v) for v in tr[j]])
        self.grids = C.PerFile(n, self.grid)
        self.band_idx = C.PerFile(n, lambda j: [int(v) for v in cols["band_idx"][j]])
        self.time_idx = C.Ragged(cols["steps.off"], cols["steps"], lambda v: [int(x) for x in v])
        self.file_times = C.Ragged(cols["steps.off"], cols["step_s"], np.asarray)
        self.times = C.Ragged(cols["steps.off"], cols["step_s"], lambda v: np.asarray(v).astype("datetime64[s]"))
        self.step_times = C.PerFile(n, lambda j: dict(zip(self.time_idx[j], (int(x) for x in self.file_times[j]))))
        self.nodata = C.PerFile(n, lambda j: self._bands_nodata(j, "nd"))
        self.units: tuple[str, ...] = tuple(meta.get("units") or ("",) * len(self.band_names))
        self.scaling = C.PerFile(n, lambda j: Scaling(tuple(float(v) for v in cols["sc_val"][j]),
                                                      tuple(float(v) for v in cols["of_val"][j]), self.units))
        self.summary_of = C.PerFile(n, lambda j: self._bands_nodata(j, "sm"))
        self.valid_q = C.PerFile(n, self._valid)

    # -- planning and pickling ---------------------------------------------------------------
    @staticmethod
    def plan(catalog: Catalog, labels: Catalog | None, spec: IndexSpec, sharding: Sharding | None = None) -> ChipIndex:
        """The index of the files of `catalog` that hold a chip of spec.size and a time step in
        spec.time, and of the label files `labels` (RequestError when none does); sharded: only
        the shards of this rank's streams."""
        return _plan(catalog, labels, spec, sharding)

    @property
    def catalog(self) -> Catalog:
        """The catalogue planned from (in a worker, unpickled when first asked for)."""
        cat: Catalog = self._catalog.get()
        return cat

    def share(self) -> tuple[str, str]:
        """(folder, token) of the columns on disk, written now if they are held in memory."""
        if self._where is None:
            self._folder = C.save(self.cols)
            self._where = (self._folder.path, self._folder.token)
            self.cols = C.load(*self._where)  # the mapped pages, shared with the workers
            self.__init__(self.cols, self.meta, self._catalog, self.labels, self._folder)  # type: ignore[misc]
        return self._where

    def __reduce__(self) -> tuple[Any, ...]:
        path, token = self.share()
        return (_attach, (path, token, self.meta, self._catalog, self.labels))

    # -- per file ---------------------------------------------------------------------------
    @property
    def rows(self) -> Array:
        """Per file, its catalogue row (its position in the catalogue selection planned; sharded:
        in this rank's shards)."""
        return self.cols["rows"]

    @property
    def fid(self) -> Array:
        """Per file, its id in the selection, the same in every process: shard << 32 | position."""
        return self.cols["fid"]

    @property
    def shard(self) -> Array:
        """Per file, its shard (rumi.Catalog.shards, numbered in catalogue order)."""
        return self.cols["shard"]

    @property
    def shapes(self) -> Array:
        """(n, 4) int64: each file's (T, B, Y, X)."""
        return self.cols["shape"]

    @property
    def tiles(self) -> Array:
        """(n, 2) int64: each file's tile shape."""
        return self.cols["tile"]

    @property
    def sizes(self) -> Array:
        """Per file, its catalogued size in bytes (-1: not recorded)."""
        return self.cols["size"]

    @property
    def num_shards(self) -> int:
        """The shards of the selection (all of them, planned here or not)."""
        return int(self.meta["num_shards"])

    @property
    def size(self) -> tuple[int, int]:
        return self.spec.size

    @property
    def B(self) -> int:
        return len(self.band_names)

    def info(self, j: int) -> FileInfo:
        """File j's values that a batch reads, as Python values (cached: INFO_CACHE files)."""
        f = self._info.get(j)
        if f is None:
            c = self.cols
            a, b = int(c["steps.off"][j]), int(c["steps.off"][j + 1])
            steps = [int(v) for v in c["steps"][a:b]]
            times = np.asarray(c["step_s"][a:b])
            tr = c["transform"][j]
            code = int(c["code"][j])
            f = FileInfo(tuple(int(v) for v in c["shape"][j]), [int(v) for v in c["band_idx"][j]],  # type: ignore[arg-type]
                         steps, times, dict(zip(steps, (int(v) for v in times))),
                         None if np.isnan(tr[0]) else tuple(float(v) for v in tr),
                         self.meta["code_names"][code] if code >= 0 else None)
            if len(self._info) >= INFO_CACHE:
                self._info = {}  # a new dict, not a walk of one that read-ahead threads may be filling
            self._info[j] = f
        return f

    def grid(self, j: int) -> Grid | None:
        """File j's Grid (None without georeferencing)."""
        t = self.transforms[j]
        return _grid(self.codes[j], None if t is None else tuple(t), (int(self.shapes[j][2]), int(self.shapes[j][3])))

    def _bands_nodata(self, j: int, kind: str) -> Nodata | None:
        if not self.cols[kind + "_known"][j]:
            return None
        return [float(v) if h else None for v, h in zip(self.cols[kind + "_val"][j], self.cols[kind + "_has"][j])]

    def _valid(self, j: int) -> Array | None:
        """File j's valid summary, unpacked (rumi.catalog.unpack_valid), cached."""
        if j in self._valid_cache:
            return self._valid_cache[j]
        a, b = int(self.cols["valid.off"][j]), int(self.cols["valid.off"][j + 1])
        q = None
        if self.cols["valid_has"][j]:
            q = unpack_valid(bytes(self.cols["valid"][a:b]), [int(v) for v in self.shapes[j]],
                             [int(v) for v in self.tiles[j]])
        if len(self._valid_cache) >= VALID_CACHE:
            self._valid_cache = {}
        self._valid_cache[j] = q
        return q

    def row(self, j: int) -> dict[str, Any]:
        """What rumi.catalog.open_row needs of file j: its location, size and header blob (read
        from beside a partitioned catalogue's part: one range)."""
        href = self.hrefs[j]
        size = int(self.sizes[j])
        if "blob_ref" in self.cols:
            k, off, n = (int(v) for v in self.cols["blob_ref"][j])
            blob = self.headers.read(k, off if n >= 0 else None, n if n >= 0 else None)
        elif self.cols["blob_has"][j]:
            blob = bytes(self.cols["blob"][int(self.cols["blob.off"][j]):int(self.cols["blob.off"][j + 1])])
        else:
            blob = None
        known = "etag_has" in self.cols and bool(self.cols["etag_has"][j])
        return {K.ASSETS: {"data": {"href": href}}, K.LOCATION: href, K.FILE_SIZE: None if size < 0 else size,
                K.ETAG: C.Strings(self.cols["etag.off"], self.cols["etag"])[j] if known else None,
                K.DIGEST: C.Strings(self.cols["digest.off"], self.cols["digest"])[j] if known else None,
                K.HEADER: blob}

    def steps_of(self, j: int, r0: int, c0: int) -> list[int]:
        """The file's time step indices chip (j, r0, c0) reads (max_steps, time_steps)."""
        f = self.info(j)
        steps = f.steps
        k = self.spec.max_steps
        if k is None or len(steps) <= k:
            return steps
        ft = f.times
        if self.spec.time_steps == "newest":
            order = np.argsort(ft, kind="stable")[-k:]
        else:  # seeded by the file's id, the same in every process and at any world size
            rng = np.random.default_rng([self.spec.seed, int(self.fid[j]), r0, c0])
            order = rng.choice(len(steps), size=k, replace=False)
        return [steps[p] for p in sorted(order, key=lambda p: (ft[p], p))]

    def steps_count(self, j: int) -> int:
        """The number of time steps each chip of file j reads."""
        off = self.cols["steps.off"]
        n = int(off[j + 1] - off[j])
        return n if self.spec.max_steps is None else min(n, self.spec.max_steps)

    def times_of(self, j: int, steps: Sequence[int]) -> Array:
        """datetime64[s] times of file j's steps."""
        t_of = self.info(j).step_s
        return np.array([t_of[t] for t in steps], dtype="int64").astype("datetime64[s]")

    @property
    def affines(self) -> C.PerFile:
        """Per file, its grid's transform as 6 floats (None: no georeferencing)."""
        tr = self.cols["transform"]
        return C.PerFile(self.num_files, lambda j: None if np.isnan(tr[j, 0]) else tuple(float(v) for v in tr[j]))

    def bounds(self, j: int, r0: int, c0: int) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the chip at (r0, c0) of file j, in its CRS (as
        Grid.window_bounds: rumi._window's window_bounds)."""
        t = self.info(j).affine
        if t is None:
            raise RequestError(f"file {self.ids[j]} has no georeferencing: its chips have no bounds")
        h, w = self.spec.size
        return window_bounds(Window(c0, r0, w, h), t)

    def nodata_unknown(self, what: str, fix: str) -> RequestError | None:
        """The error of `what` (which needs nodata) when some file's nodata is not known, or None."""
        count, total, shown = self.meta["nodata_unknown"]  # the whole selection's (not this rank's files only)
        if not count:
            return None
        files = f"{count} of the {total} files ({', '.join(shown)}{' ...' if count > len(shown) else ''})"
        return RequestError(
            f"{what} needs the nodata of the bands read, and none is known for {files}: the "
            f"catalogue has no rumi:nodata for {self.band_names} there (the files had no .aux.xml sidecar with a "
            f"NoDataValue when it was built). {fix}")

    def files_text(self, js: Any) -> str:
        """"n of the N files (a, b, c ...)" for messages."""
        shown = ", ".join(self.ids[j] for j in js[:3]) + (" ..." if len(js) > 3 else "")
        return f"{len(js)} of the {self.num_files} files ({shown})"


@functools.lru_cache(maxsize=4096)
def _grid(code: str | None, transform: tuple[float, ...] | None, shape: tuple[int, int]) -> Grid | None:
    """A file's Grid from its CRS, transform and (Y, X) (None without georeferencing); cached."""
    if code is None or transform is None:
        return None
    return Grid.from_affine(code, transform, shape)


def _attach(path: str, token: str, meta: dict[str, Any], catalog: _Pickled, labels: Catalog | None) -> ChipIndex:
    """An index unpickled: its columns mapped from the folder (planned again from the recipe,
    with a warning, when the folder is gone)."""
    try:
        cols = C.load(path, token)
    except (OSError, ValueError) as e:
        warnings.warn(f"rumi.torch: the chip index's columns at {path} are gone ({e}): planning it again from its "
                      "catalogue", RuntimeWarning, stacklevel=2)
        return _plan(catalog.get(), labels, meta["spec"], meta["sharding"])
    return ChipIndex(cols, meta, catalog, labels, None, (path, token))


# -- planning ---------------------------------------------------------------------------------
def _first_bands(catalog: Catalog, shards: list[tuple[int, int]]) -> list[str]:
    """Every band of the selection's first file (the default `bands`)."""
    for s in shards:
        t = catalog.read_shard(s, [K.BANDS]).table
        if t.num_rows:
            return Rows(t).first_bands()
    raise RequestError("the catalogue selection is empty: no chips")


class _Planner:
    """The plan's state across shards: the columns built, the rows seen, what the checks need."""

    def __init__(self, spec: IndexSpec, names: list[str] | None, labels: bool, checks: bool) -> None:
        self.spec = spec
        self.names: list[str] = []
        self.named = False
        self.over: Nodata | None = None
        self.own_checks = checks  # every shard is planned here: the plan checks the selection as it goes
        self.checks: _Checks | None = None
        if names is not None:
            self._names(names)
        self.window = norm_time(spec.time)
        self.b = C.Builder()
        self.seen = 0  # rows seen (catalogue rows, before this plan's own filters)
        self.small = 0
        self.kept = 0
        self.code_names: list[str] = []
        self.code_of: dict[str, int] = {}
        self.band_of: dict[tuple[str, ...], list[int] | None] = {}
        self.geoms: list[Any] | None = [] if labels else None
        self.blob_kind: str | None = None

    def _names(self, names: list[str]) -> None:
        self.names, self.named = names, True
        self.over = nodata_override(self.spec.nodata, names)
        if self.own_checks:
            self.checks = _Checks(self.spec, names, self.over)

    def add(self, shard_no: int, sr: Any) -> None:
        """Plans the rows of one shard (Catalog.read_shard's ShardRows)."""
        import pyarrow as pa

        t = sr.table
        n = t.num_rows
        first = self.seen
        self.seen += n
        if n == 0:
            return
        if not self.named:  # the default bands: every band of the selection's first file
            self._names(Rows(t).first_bands())
        sel = _select(t, self.spec, self.names, self.band_of, self.window, first)
        if self.checks is not None:
            self.checks.add(shard_no, t, sel)
        self.small += sel.small
        keep, kc = sel.keep, sel.kc
        if not len(keep):
            return
        shapes, bi, steps, step_s = sel.shapes, sel.bi, sel.steps, sel.step_s
        r = sel.rows
        ids_off, ids_data = r.ids.off, r.ids.values
        # tiles, transforms, CRS, sizes (rumi.catalog.decode)
        tiles = r.tiles
        tr = r.transforms[keep]
        names, which = r.grid_codes
        kw = which[keep]
        used, first_at = np.unique(kw[kw >= 0], return_index=True)
        glob = np.full(len(names) + 1, -1, np.int32)  # the kept rows' codes, numbered as they first appear
        for k in used[np.argsort(first_at)]:
            glob[k] = self._code(names[k])
        code = glob[kw]
        size = r.file_sizes[keep]
        # nodata of the bands read and the valid summary
        B = len(self.names)
        cat_val, cat_has, nd_row_known, nd_val, nd_has, nd_known = _nodata_of(r, keep, bi, self.over)
        voff, vdata, vvalid = r.valid.off, r.valid.values, r.valid.valid
        v_has = vvalid[keep]
        sm_known = v_has & nd_row_known
        # the columns
        b = self.b
        b.add("rows", first + keep)
        b.add("shard", np.full(len(keep), shard_no, np.int32))
        b.add("fid", (np.int64(shard_no) << 32) + np.asarray(sr.pos, np.int64)[keep])
        b.add("shape", shapes[keep])
        b.add("tile", tiles[keep])
        b.add("transform", tr)
        b.add("code", code)
        b.add("size", size)
        b.add("band_idx", bi[keep].reshape(len(keep), B))
        b.add_ragged("steps", kc, steps)
        b.add("step_s", step_s)
        b.add("nd_val", nd_val.reshape(len(keep), B))
        b.add("nd_has", nd_has.reshape(len(keep), B))
        b.add("nd_known", np.broadcast_to(nd_known, (len(keep),)))
        sc, of, _, _ = scale_per_file(r, keep, bi, shapes)  # the scales and offsets of the bands read (rumi.torch.scaling)
        b.add("sc_val", sc.reshape(len(keep), B))
        b.add("of_val", of.reshape(len(keep), B))
        b.add("sm_val", cat_val.reshape(len(keep), B))
        b.add("sm_has", cat_has.reshape(len(keep), B))
        b.add("sm_known", sm_known)
        b.add_ragged("valid", *C.take_ragged(voff, vdata, keep))
        b.add("valid_has", v_has)
        b.add_ragged("id", *C.take_ragged(ids_off, ids_data, keep))
        href = r.strings(K.LOCATION)
        b.add_ragged("href", *C.take_ragged(href.off, href.values, keep))
        etag, digest = r.strings(K.ETAG), r.strings(K.DIGEST)  # what open_row checks a file by (rumi.catalog.rows)
        b.add_ragged("etag", *C.take_ragged(etag.off, etag.values, keep))
        b.add_ragged("digest", *C.take_ragged(digest.off, digest.values, keep))
        b.add("etag_has", etag.valid[keep] & digest.valid[keep])
        if sr.refs is not None:
            self._blob_kind("refs")
            part, off, sz = sr.refs
            b.add("blob_ref", np.stack([np.asarray(part, np.int64)[keep], np.asarray(off, np.int64)[keep],
                                        np.asarray(sz, np.int64)[keep]], 1))
        else:
            self._blob_kind("inline")
            if sr.header is not None:
                blob = binary(sr.header)
                boff, bdata, bvalid = blob.off, blob.values, blob.valid
            else:
                boff, bdata, bvalid = np.zeros(n + 1, np.int64), np.zeros(0, np.uint8), np.zeros(n, bool)
            b.add_ragged("blob", *C.take_ragged(boff, bdata, keep))
            b.add("blob_has", bvalid[keep])
        if self.geoms is not None:
            self.geoms += t.column(K.GEOMETRY).take(pa.array(keep)).to_pylist()
        self.kept += len(keep)

    def _blob_kind(self, kind: str) -> None:
        if self.blob_kind not in (None, kind):
            raise RequestError("the catalogue's shards keep their header blobs in two ways")  # pragma: no cover
        self.blob_kind = kind

    def _code(self, c: str | None) -> int:
        if c is None:
            return -1
        k = self.code_of.get(c)
        if k is None:
            k = self.code_of[c] = len(self.code_names)
            self.code_names.append(c)
        return k


def _nodata_of(r: Rows, keep: Array, bi: Array, over: Nodata | None) -> tuple[Array, ...]:
    """The nodata of the bands read of the rows keep: (catalogue values, catalogue has, row has
    rumi:nodata, values in use, in use has, known) (in use: ChipDataset's nodata= over the
    catalogue's)."""
    cat_val, cat_has, nd_row_known = r.band_nodata(keep, bi)
    if over is not None:
        nd_val = np.tile(np.array([np.nan if v is None else v for v in over], float), (len(keep), 1))
        nd_has = np.tile(np.array([v is not None for v in over]), (len(keep), 1))
    else:
        nd_val, nd_has = cat_val, cat_has
    nd_known = np.broadcast_to(nd_has.any(axis=1) & (nd_row_known if over is None else True), (len(keep),))
    return cat_val, cat_has, nd_row_known, nd_val, nd_has, nd_known


@dataclass
class Selected:
    """The rows of one shard that a plan keeps (`_select`): those that hold a chip and a time
    step in the window, with their bands and steps."""

    small: int  # rows smaller than the chip
    keep: Array  # the rows kept
    kc: Array  # their steps in the window
    shapes: Array  # (n, 4) every row's (T, B, Y, X)
    bi: Array  # (n, B) every row's indices of the bands read
    steps: Array  # the kept rows' steps in the window (ragged by kc)
    step_s: Array  # and their times in seconds
    rows: Rows  # the shard's rows, decoded (rumi.catalog.decode)

    def id(self, i: int) -> str:
        return self.rows.id(i)


def _select(t: Any, spec: IndexSpec, names: list[str], band_of: dict[tuple[str, ...], list[int] | None],
            window: Any, first: int) -> Selected:
    """The rows of a shard's table `t` (its first row is row `first` of the selection) that hold
    a chip of spec.size and a step in the window; RequestError when one that holds a chip lacks
    a band of `names`. Vectorised over the table's columns (rumi.catalog.decode; band lists:
    each distinct one once, cached in band_of)."""
    r = Rows(t)
    n = r.n
    h, w = spec.size
    shapes = r.shapes
    fits = (shapes[:, 2] >= h) & (shapes[:, 3] >= w)
    look = r.bands_of(names, band_of)
    look.require(np.flatnonzero(fits), lambda i: f"row {first + i} ({r.id(i)})")
    bi = look.idx
    # time steps in the window (rumi.catalog.decode.overlap)
    tm = r.times
    ok = tm.meets(window)
    counts = tm.count(ok)
    keep = np.flatnonzero(fits & (counts > 0))
    kset = np.zeros(n, bool)
    kset[keep] = True
    sel = ok & np.repeat(kset, np.diff(tm.off))
    steps = tm.step_numbers(sel).astype(np.int32)
    return Selected(int((~fits).sum()), keep, counts[keep], shapes, bi, steps, tm.start[sel], r)


#: the catalogue columns the selection's checks read (`_Checks`: cheap, no header blob, summary or geometry)
CHECK_COLUMNS = (K.ID, K.BANDS, K.TIMES, K.TIME_ENDS, K.DTYPE, K.SHAPE, K.NODATA, *SCALE_COLUMNS)


class _Checks:
    """What every rank must decide alike, decided over the whole selection's columns (never a
    rank's shards alone: a sharded rank reads CHECK_COLUMNS of every shard for it): the files'
    sample types, the bands (`_select`), align_time's time axes, the longest selection (T), the
    files kept per stream, and the files whose nodata is not known."""

    def __init__(self, spec: IndexSpec, names: list[str], over: Nodata | None) -> None:
        self.spec, self.names, self.over = spec, names, over
        self.window = norm_time(spec.time)
        self.band_of: dict[tuple[str, ...], list[int] | None] = {}
        self.seen = self.small = self.kept = self.most = 0
        self.encodings: dict[str, str] = {}  # sample type -> the first file with it
        self.per_shard: dict[int, int] = {}
        self.ref_times: list[int] | None = None
        self.ref_id = ""
        self.unknown = 0  # files whose nodata is not known
        self.unknown_ids: list[str] = []
        self.stale = 0  # files whose valid summary was not recorded for the nodata in use
        self.stale_first: tuple[str, list[float | None] | None, list[float | None]] | None = None
        self.scales = ScaleChecks(names, spec.apply_scale)  # rumi.torch.scaling
        self.units: tuple[str, ...] = ()

    def add(self, shard_no: int, t: Any, sel: Selected | None = None) -> Selected:
        """Checks one shard's rows (sel: _select's result when the caller has it)."""
        first = self.seen
        self.seen += t.num_rows
        if sel is None:
            sel = _select(t, self.spec, self.names, self.band_of, self.window, first)
        self.small += sel.small
        keep, kc = sel.keep, sel.kc
        self.per_shard[shard_no] = self.per_shard.get(shard_no, 0) + len(keep)
        if not len(keep):
            return sel
        self.kept += len(keep)
        self.most = max(self.most, int(kc.max()))
        if self.spec.align_time:
            self._check_aligned(sel)
        r = sel.rows
        for e, i in r.first_of_types(keep).items():
            self.encodings.setdefault(e, sel.id(i))
        cat_val, cat_has, row_known, nd_val, nd_has, known = _nodata_of(r, keep, sel.bi, self.over)
        miss = np.flatnonzero(~known)
        self.unknown += len(miss)
        self.unknown_ids += [sel.id(int(keep[i])) for i in miss[:max(0, 3 - len(self.unknown_ids))]]
        self._check_summaries(keep, sel, cat_val, cat_has, row_known, nd_val, nd_has, known)
        self.scales.add(r, keep, sel.bi, sel.shapes, lambda i: sel.id(int(keep[i])))
        return sel

    def _check_summaries(self, keep: Array, sel: Selected, cat_val: Array, cat_has: Array,
                         row_known: Array, nd_val: Array, nd_has: Array, known: Array) -> None:
        """The files whose valid summary (rumi:valid) was not recorded for the nodata in use
        (what min_valid refuses: constraints.summaries_cover, for the whole selection). A row
        has a summary exactly when it records nodata (rows.describe), so a shard read without
        rumi:valid (another rank's) needs only rumi:nodata."""
        r = sel.rows
        v_has = r.valid.valid[keep] if r.has(K.VALID) else row_known
        enc = r.sample_types[keep]
        never = np.zeros(nd_val.shape, bool)  # nodata that no sample of the row's type can take
        for e in set(enc.tolist()):
            rows = enc == e
            vals = nd_val[rows]
            nev = np.isnan(vals) & never_sample(float("nan"), e)
            for v in np.unique(vals[nd_has[rows] & ~np.isnan(vals)]):
                if never_sample(float(v), e):
                    nev |= vals == v
            never[rows] = nev
        need = nd_has & ~never
        sm_known = v_has & row_known
        same = sm_known[:, None] & cat_has & ((cat_val == nd_val) | (np.isnan(cat_val) & np.isnan(nd_val)))
        bad = np.flatnonzero((need & ~same).any(axis=1) & known)
        if len(bad) and self.stale_first is None:
            i = int(bad[0])
            had = None if not sm_known[i] else [float(v) if h else None for v, h in zip(cat_val[i], cat_has[i])]
            self.stale_first = (sel.id(int(keep[i])), had, [float(v) if h else None for v, h in zip(nd_val[i], nd_has[i])])
        self.stale += len(bad)

    def _check_aligned(self, sel: Selected) -> None:
        off = np.zeros(len(sel.kc) + 1, np.int64)
        np.cumsum(sel.kc, out=off[1:])
        for r, i in enumerate(sel.keep):
            ft = [int(v) for v in sel.step_s[off[r]:off[r + 1]]]
            if self.ref_times is None:
                self.ref_times, self.ref_id = ft, sel.id(int(i))
            elif ft != self.ref_times:
                raise RequestError(
                    f"align_time: the files' time axes differ in the time selection: {self.ref_id} has "
                    f"{dates(self.ref_times)}, {sel.id(int(i))} has {dates(ft)}")

    def finish(self, streams: Streams | None, sharding: Sharding | None) -> str:
        """The selection's sample type, after the checks of the whole selection (RequestError
        naming what is wrong: the same at every rank and world size)."""
        h, w = self.spec.size
        if self.kept == 0:
            if self.seen == 0:
                raise RequestError("the catalogue selection is empty: no chips")
            if self.small and self.small == self.seen:
                raise RequestError(f"no file of the selection holds a {h}x{w} chip")
            if self.spec.time is not None:
                raise RequestError(f"no file of the selection has a time step in {self.spec.time}")
            raise RequestError("the catalogue selection is empty: no chips")  # pragma: no cover
        if streams is not None and sharding is not None:
            per = np.zeros(streams.count, np.int64)
            for s, k in self.per_shard.items():
                per[streams.stream_of(s)] += k
            empty = [int(c) for c in np.flatnonzero(per == 0)]
            if empty:
                raise RequestError(
                    f"streams={sharding.streams}: some of the {streams.count} streams have no file with a chip (stream c "
                    f"is shards c, c + {streams.count}, ... of the selection's {streams.shards}; streams {empty}): use "
                    "fewer streams")
        encoding = one_sample_type(self.encodings, ": one ChipDataset per type")
        if encoding not in TORCH_TYPES:
            raise RequestError(f"{encoding} samples have no torch dtype")
        self.units = self.scales.finish()
        return encoding


def _plan(catalog: Catalog, labels: Catalog | None, spec: IndexSpec, sharding: Sharding | None = None) -> ChipIndex:
    global planned
    planned += 1
    shards = catalog.shards()
    streams = None if sharding is None else Streams.of(sharding.streams, len(shards))
    mine = range(len(shards)) if streams is None or sharding is None else streams.shards_of(sharding.rank, sharding.world)
    # the default bands are the selection's first file's: a sharded rank reads the first shards for them
    names = list(spec.bands) if spec.bands is not None else None if sharding is None else _first_bands(catalog, shards)
    p = _Planner(spec, names, labels is not None, checks=sharding is None)
    cols = [c for c in PLAN_COLUMNS if labels is not None or c != "geometry"]
    if sharding is None:
        for s in mine:
            p.add(int(s), catalog.read_shard(shards[int(s)], cols))
        checks = p.checks  # the plan checked every shard as it went (None: no row)
    else:  # the checks read every shard's CHECK_COLUMNS (its own shards': all it plans): the same answer at any world size
        assert names is not None
        checks = _Checks(spec, names, p.over)
        own = {int(s) for s in mine}
        for k, sh in enumerate(shards):
            if k in own:
                sr = catalog.read_shard(sh, cols)
                checks.add(k, sr.table)
                p.add(k, sr)
            else:
                checks.add(k, catalog.read_shard(sh, list(CHECK_COLUMNS)).table)
    if checks is None:  # every shard planned, none with a row
        raise RequestError("the catalogue selection is empty: no chips")
    h, w = spec.size
    if checks.small:
        warnings.warn(f"rumi.torch: {checks.small} files smaller than {h}x{w} pixels are left out", RuntimeWarning,
                      stacklevel=4)
    encoding = checks.finish(streams, sharding)
    most = checks.most
    out, folder = p.b.finish() if p.kept else ({}, None)
    if p.kept == 0:  # pragma: no cover - the checks found a file with a chip in each of this rank's streams
        raise RequestError(f"no file of the selection read by rank {sharding.rank if sharding else 0} holds a chip")
    T = most if spec.max_steps is None else min(most, spec.max_steps)
    headers = catalog.headers if p.blob_kind == "refs" else None
    meta: dict[str, Any] = dict(spec=spec, encoding=encoding, T=T, band_names=list(p.names), label=None, streams=streams,
                sharding=sharding, headers=headers, code_names=p.code_names, num_shards=len(shards),
                nodata_unknown=(checks.unknown, checks.kept, checks.unknown_ids),
                summary_stale=(checks.stale, checks.kept, checks.stale_first), units=checks.units)
    index = ChipIndex(out, meta, _Pickled(catalog), labels, folder)
    if labels is not None:
        assert p.geoms is not None
        meta["label"] = plan_labels(labels, spec.label_bands, p.geoms, list(index.ids), index.shapes.tolist(),
                                    list(index.grids), list(index.file_times), T)
        index.label = meta["label"]
    if folder is not None:  # a large plan: its temporaries' heap pages back to the system
        del p
        C.trim()
    return index

