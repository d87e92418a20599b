"""A catalogue of rumi files: one GeoParquet 1.1 row per file (issue 16).

    cat = rumi.Catalog.build(["a.rumi", "https://host/b.rumi"], "catalog.parquet")
    cat = rumi.Catalog.open("catalog.parquet")
    sel = cat.search(bbox=(11.0, 45.0, 12.0, 46.0), time=("2020-01-01", "2020-12-31"), bands=["red"])
    len(sel); sel.dataset(0)  # a rumi.Dataset opened from the catalogued header blob: no request

Columns (stac-geoparquet style, then rumi's own):
  id, datetime | start_datetime/end_datetime (timestamp[us, UTC]), geometry (WKB footprint in
  EPSG:4326), bbox (struct xmin/ymin/xmax/ymax, the GeoParquet 1.1 covering), proj:code,
  proj:transform (STAC order a, b, c, d, e, f = xres, row_rot, x0, col_rot, yres, y0 of pixel
  corners), proj:shape ([rows, cols]), assets (struct data: {href, type, roles}), location (the
  href again: GDAL GTI's default location field), rumi:header (the blob), rumi:bands,
  rumi:time_kind, rumi:times / rumi:time_ends (timestamps), rumi:dtype, rumi:shape (T, B, Y, X),
  rumi:frame_unit, rumi:tile_shape, rumi:file_size, rumi:crs_type, rumi:nodata (one float64 per
  band, an element null for a band without nodata; the column null when no band has one),
  rumi:valid (the valid-fraction summary: see valid_summary; null when there is no nodata).

Nodata: rumi files have no nodata field; `rumi convert`/`stack` keep the sources' nodata in GDAL's
PAM sidecar `<file>.aux.xml` (PAMDataset/PAMRasterBand[@band]/NoDataValue, band t * B + b + 1),
which build reads (local files, or the object beside a URL), or `build(..., nodata=)` gives it
(a number for every band, or one per band; it overrides the sidecar). When a file has nodata, its
pixels are read once, when cataloguing, to record per band and tile the fraction of samples (over
all time steps) that are nodata, as one byte c per tile: 255 when there is none, else an upper
bound 2**(-c/16) of that fraction (c = 0: up to all of them; steps of 4.4 %, so a tile with one
nodata sample in 65,536 still reads as at least 99.998 % valid; never an understatement of the
nodata), as B x tiles_y x tiles_x uint8 bytes in row-major tile order: samplers bound a chip's valid fraction from it
without reading pixels (rumi.torch, min_valid=). Catalogues written before these columns open
with them null (no nodata).

The "geo" file metadata is GeoParquet 1.1 (WKB encoding, EPSG:4326 as PROJJSON, bbox covering),
so geopandas.read_parquet and pyarrow read the file as it is. Needs pyarrow, pyproj, shapely
(`pip install ./python[catalog]`). The command line is the `rumi-catalog` script (main()).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import sys

from typing import Any, Sequence

import numpy as np

import rumi

from . import _nodata
from ._dataset import fetch
from ._errors import FormatError, RequestError, RumiIOError
from ._times import seconds

CATALOG_VERSION = "0.1.0"
_UTC = _dt.timezone.utc


def _deps() -> tuple[Any, Any, Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
        import pyproj
        import shapely
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"rumi catalogues need pyarrow, pyproj and shapely (pip install 'rumi[catalog]'): {e}") from None
    return pa, pq, pyproj, shapely


def _href(src: str) -> str:
    if src.startswith(("http://", "https://", "s3://")):
        return src
    return os.path.abspath(src)


def schema() -> Any:
    """The catalogue's Arrow schema (the CLI produces the same table through this module)."""
    pa, *_ = _deps()
    ts = pa.timestamp("us", tz="UTC")
    return pa.schema(
        [
            ("id", pa.string()),
            ("datetime", ts),
            ("start_datetime", ts),
            ("end_datetime", ts),
            ("geometry", pa.binary()),
            ("bbox", pa.struct([("xmin", pa.float64()), ("ymin", pa.float64()), ("xmax", pa.float64()), ("ymax", pa.float64())])),
            ("proj:code", pa.string()),
            ("proj:transform", pa.list_(pa.float64())),
            ("proj:shape", pa.list_(pa.int64())),
            ("assets", pa.struct([("data", pa.struct([("href", pa.string()), ("type", pa.string()), ("roles", pa.list_(pa.string()))]))])),
            ("location", pa.string()),
            ("rumi:header", pa.binary()),
            ("rumi:bands", pa.list_(pa.string())),
            ("rumi:time_kind", pa.string()),
            ("rumi:times", pa.list_(ts)),
            ("rumi:time_ends", pa.list_(ts)),
            ("rumi:dtype", pa.string()),
            ("rumi:shape", pa.list_(pa.int64())),
            ("rumi:frame_unit", pa.int32()),
            ("rumi:tile_shape", pa.list_(pa.int32())),
            ("rumi:file_size", pa.int64()),
            ("rumi:crs_type", pa.string()),
            ("rumi:nodata", pa.list_(pa.float64())),
            ("rumi:valid", pa.binary()),
        ]
    )


#: columns added after catalogue 0.1.0 (issue 24): an older catalogue opens with them null
OPTIONAL_COLUMNS = ("rumi:nodata", "rumi:valid")


def _geo_metadata(bbox):
    pyproj = _deps()[2]
    return {
        "version": "1.1.0",
        "primary_column": "geometry",
        "columns": {
            "geometry": {
                "encoding": "WKB",
                "geometry_types": ["Polygon"],
                "crs": json.loads(pyproj.CRS.from_epsg(4326).to_json()),
                "edges": "planar",
                "bbox": list(bbox),
                "covering": {
                    "bbox": {
                        "xmin": ["bbox", "xmin"],
                        "ymin": ["bbox", "ymin"],
                        "xmax": ["bbox", "xmax"],
                        "ymax": ["bbox", "ymax"],
                    }
                },
            }
        },
    }


def _file_size(src: str, options: dict[str, Any] | None = None) -> int:
    """The object's size: os.stat for local files, one HEAD for http(s), the S3 HEAD (object_store)."""
    if src.startswith(("http://", "https://")):
        import urllib.request

        req = urllib.request.Request(src, method="HEAD")
        try:
            with urllib.request.urlopen(req, timeout=float((options or {}).get("timeout", 30))) as r:
                n = r.headers.get("Content-Length")
        except OSError as e:
            raise RumiIOError(f"{src}: cannot read its size: {e}") from None
        if n is None or not n.isdigit():
            raise RumiIOError(f"{src}: the server gives no Content-Length")
        return int(n)
    if src.startswith("s3://"):
        # no S3 HEAD here: -1 (unknown) skips the size check of open_row; the blob is still
        # checked against the size the first range response gives (rumi.open with header=)
        return -1
    try:
        return os.stat(src).st_size
    except OSError as e:
        raise RumiIOError(f"{src}: {e.strerror}") from None


def _footprint(transform, rows, cols, code, densify=16):
    """Polygon of the pixel grid's outline in EPSG:4326 (edges densified), and its bbox."""
    _, _, pyproj, shapely = _deps()
    x0, xres, rrot, y0, crot, yres = transform
    ts = np.linspace(0.0, 1.0, densify + 1)
    edge = np.concatenate(
        [
            np.stack([ts * cols, np.zeros_like(ts)], 1),
            np.stack([np.full_like(ts, cols), ts * rows], 1),
            np.stack([(1 - ts) * cols, np.full_like(ts, rows)], 1),
            np.stack([np.zeros_like(ts), (1 - ts) * rows], 1),
        ]
    )
    px, py = edge[:, 0], edge[:, 1]
    x = x0 + px * xres + py * rrot
    y = y0 + px * crot + py * yres
    if code != 4326:
        tr = pyproj.Transformer.from_crs(code, 4326, always_xy=True)
        x, y = tr.transform(x, y)
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise FormatError(f"the footprint of the grid does not project to EPSG:4326 (EPSG:{code})")
    poly = shapely.Polygon(np.stack([x, y], 1))
    if not poly.is_valid:
        poly = shapely.make_valid(poly)
    return shapely.to_wkb(poly), (float(np.min(x)), float(np.min(y)), float(np.max(x)), float(np.max(y)))


def _ts(seconds):
    return int(seconds) * 1_000_000  # microseconds: pyarrow takes ints for timestamp[us]


def time_seconds(table: Any, name: str = "rumi:times") -> list[list[int] | None]:
    """Per row: the list of a timestamp-list column's values as int seconds (None stays None)."""
    pa = _deps()[0]
    col = table.column(name).cast(pa.list_(pa.int64()))
    return [None if v is None else [x // 1_000_000 for x in v] for v in col.to_pylist()]


def describe(src: str, *, options: dict[str, Any] | None = None, nodata: Any = None) -> dict[str, Any]:
    """One catalogue row (a dict) for the rumi file at src (parses and validates its header).
    nodata: None (the file's PAM sidecar, if any), a number for every band, or one per band
    (None for a band without): see the module's notes."""
    with rumi.open(src, options=options) as ds:
        return _describe(ds, src, options, nodata)


# --- nodata and the valid-fraction summary ---------------------------------------------------


# the sidecar's reading, `nodata=` normalisation and the sample test live in rumi._nodata
pam_nodata = _nodata.pam_nodata


def valid_counts(dataset: rumi.Dataset, nodata: Sequence[float | None]) -> tuple[np.ndarray, np.ndarray]:
    """Per band and tile, the number of samples (over all time steps) that are not nodata, and
    the number of samples: two int64 arrays (B, tiles_y, tiles_x). Reads the file once, a tile
    row and a bounded group of time steps at a time."""
    T, B, Y, X = dataset.shape
    th, tw = dataset.tile_shape
    ny, nx = -(-Y // th), -(-X // tw)
    if len(nodata) != B:
        raise ValueError(f"nodata gives {len(nodata)} values, the file has {B} bands")
    valid = np.zeros((B, ny, nx), np.int64)
    total = np.zeros((B, ny, nx), np.int64)
    xs = np.arange(nx) * tw
    per_t = B * th * X * dataset.sample_bytes
    step = max(1, (64 << 20) // max(1, per_t))
    for ty in range(ny):
        r0 = ty * th
        h = min(th, Y - r0)
        cols = np.minimum(xs + tw, X) - xs
        total[:, ty, :] = T * h * cols
        for t0 in range(0, T, step):
            ts = list(range(t0, min(T, t0 + step)))
            a = dataset.read(t=ts, window=(r0, 0, h, X))
            for b, nd in enumerate(nodata):
                if nd is None:
                    valid[b, ty, :] += len(ts) * h * cols
                    continue
                m = _nodata.valid_mask(np.asarray(a[:, b]), nd)  # (t, h, X)
                per_col = m.sum(axis=(0, 1), dtype=np.int64)
                valid[b, ty, :] += np.add.reduceat(per_col, xs)
    return valid, total


def valid_fractions(dataset: rumi.Dataset, nodata: Any) -> np.ndarray | None:
    """The fraction of samples that are not nodata, per band and tile over all time steps: a
    float64 array (B, tiles_y, tiles_x), or None when no band has nodata (every sample valid).
    nodata: a number for every band, or one per band (None: no nodata in that band)."""
    nd = _nodata.normalize(nodata, dataset.shape[1], dataset.path)
    if nd is None:
        return None
    v, n = valid_counts(dataset, nd)
    return v / n


VALID_STEPS_PER_OCTAVE = 16


def encode_valid(valid: np.ndarray, total: np.ndarray) -> np.ndarray:
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


def nodata_bound(codes: np.ndarray) -> np.ndarray:
    """rumi:valid codes -> the upper bound of each tile's nodata fraction (0.0 for code 255)."""
    c = np.asarray(codes, np.float64)
    return np.where(c >= 255, 0.0, np.exp2(-c / VALID_STEPS_PER_OCTAVE))


def valid_summary(dataset: rumi.Dataset, nodata: Any) -> bytes | None:
    """The catalogue's rumi:valid value: encode_valid of valid_counts, B x tiles_y x tiles_x
    uint8 in C order; None when no band has nodata."""
    nd = _nodata.normalize(nodata, dataset.shape[1], dataset.path)
    if nd is None:
        return None
    v, n = valid_counts(dataset, nd)
    return encode_valid(v, n).tobytes()


def unpack_valid(blob: bytes | None, shape: Sequence[int], tile_shape: Sequence[int]) -> np.ndarray | None:
    """A rumi:valid value as uint8 codes (B, tiles_y, tiles_x) (255: every sample valid; see
    nodata_bound); None stays None."""
    if blob is None:
        return None
    _, B, Y, X = shape
    th, tw = tile_shape
    want = (B, -(-Y // th), -(-X // tw))
    a = np.frombuffer(blob, np.uint8)
    if a.size != math.prod(want):
        raise FormatError(f"rumi:valid has {a.size} bytes, a {B}-band file of {want[1]}x{want[2]} tiles needs {math.prod(want)}")
    return a.reshape(want)


def _describe(ds: rumi.Dataset, src: str, options: dict[str, Any] | None, nodata: Any = None) -> dict[str, Any]:
    size = _file_size(src, options)
    T, B, Y, X = ds.shape
    kind = ds.time_kind
    secs = ds.times.astype("int64")
    if kind == "interval":
        starts, ends = [int(v) for v in secs[:, 0]], [int(v) for v in secs[:, 1]]
    else:
        starts, ends = [int(v) for v in secs], None
    lo, hi = min(starts), max(ends if ends else starts)
    row = {
        "id": os.path.splitext(os.path.basename(src.rstrip("/")))[0],
        "datetime": _ts(lo) if (T == 1 and kind == "instant") else None,
        "start_datetime": None if (T == 1 and kind == "instant") else _ts(lo),
        "end_datetime": None if (T == 1 and kind == "instant") else _ts(hi),
        "geometry": None,
        "bbox": None,
        "proj:code": ds.crs,
        "proj:transform": None,
        "proj:shape": [Y, X],
        "assets": {"data": {"href": _href(src), "type": "application/x-rumi", "roles": ["data"]}},
        "location": _href(src),
        "rumi:header": bytes(ds.header),
        "rumi:bands": ds.bands,
        "rumi:time_kind": kind,
        "rumi:times": [_ts(s) for s in starts],
        "rumi:time_ends": [_ts(s) for s in ends] if ends else None,
        "rumi:dtype": ds.encoding,
        "rumi:shape": [T, B, Y, X],
        "rumi:frame_unit": ds.frame_unit,
        "rumi:tile_shape": list(ds.tile_shape),
        "rumi:file_size": size,
        "rumi:crs_type": ds.crs_type,
    }
    nd = _nodata.normalize(nodata, B, src) if nodata is not None else pam_nodata(src, B, options=options)
    row["rumi:nodata"] = nd
    row["rumi:valid"] = valid_summary(ds, nd) if nd is not None else None
    gt = ds.geotransform
    if gt is not None and ds.epsg is not None:
        x0, xres, rrot, y0, crot, yres = gt
        row["proj:transform"] = [xres, rrot, x0, crot, yres, y0]
        wkb, bb = _footprint(gt, Y, X, ds.epsg)
        row["geometry"] = wkb
        row["bbox"] = dict(zip(("xmin", "ymin", "xmax", "ymax"), bb))
    return row


def _parse_time(v: Any) -> int:
    return seconds(v, "time")


def _epsg(crs: str | int | None) -> int | None:
    if crs is None:
        return None
    if isinstance(crs, (int, np.integer)):
        return int(crs)
    s = str(crs)
    if s.upper().startswith("EPSG:") and s[5:].isdigit():
        return int(s[5:])
    raise ValueError(f"crs must be 'EPSG:<code>' or an int, got {crs!r}")


class Catalog:
    """Rows of a catalogue (a pyarrow Table) and where they came from. Picklable in a few
    hundred bytes when it was opened from a file: the path, the file's size and mtime, and the
    search that selected the rows, replayed in the worker."""

    def __init__(self, table: Any, path: str | None = None, query: tuple[Any, ...] = (), _stamp: Any = None) -> None:
        self.table = table
        self.path = path
        self._query = tuple(query)
        self._stamp = _stamp
        self._rows: list[dict[str, Any]] | None = None

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
    ) -> Catalog:
        """Catalogues srcs (paths or URLs of rumi files) into the GeoParquet file path.
        on_error: 'raise' (default) or 'skip' (warns and leaves the file out).
        nodata: a number for every band of every file, or one per band (None for a band
        without); default: each file's PAM sidecar <file>.aux.xml (see the module's notes)."""
        pa, pq, *_ = _deps()
        if isinstance(srcs, (str, os.PathLike)):
            srcs = [srcs]
        rows = []
        for s in srcs:
            s = os.fspath(s)
            try:
                rows.append(describe(s, options=options, nodata=nodata))
            except Exception as e:
                if on_error != "skip":
                    raise type(e)(f"{s}: {e}") if isinstance(e, (FormatError, RumiIOError)) else e
                print(f"rumi-catalog: skipping {s}: {e}", file=sys.stderr)
        if not rows:
            raise ValueError("no rumi file to catalogue")
        table = pa.Table.from_pylist(rows, schema=schema())
        cls._write(table, os.fspath(path))
        return cls.open(path)

    @staticmethod
    def _write(table: Any, path: str) -> None:
        pa, pq, *_ = _deps()
        bb = [r for r in table.column("bbox").to_pylist() if r is not None]
        total = (
            (min(r["xmin"] for r in bb), min(r["ymin"] for r in bb), max(r["xmax"] for r in bb), max(r["ymax"] for r in bb))
            if bb
            else (0.0, 0.0, 0.0, 0.0)
        )
        md = dict(table.schema.metadata or {})
        md[b"geo"] = json.dumps(_geo_metadata(total)).encode()
        md[b"rumi:catalog"] = json.dumps({"version": CATALOG_VERSION}).encode()
        table = table.replace_schema_metadata(md)
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            pq.write_table(table, tmp, compression="zstd", row_group_size=4096)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    @classmethod
    def open(cls, path_or_url: str | os.PathLike[str]) -> Catalog:
        """Opens a catalogue written by build (a local path or an http(s)/s3 URL)."""
        pa, pq, *_ = _deps()
        src = os.fspath(path_or_url)
        if src.startswith(("http://", "https://", "s3://")):
            data = fetch(src)
            table = pq.read_table(pa.BufferReader(data))
            stamp = (len(data), None)
        else:
            try:
                st = os.stat(src)
            except OSError as e:
                raise RumiIOError(f"{src}: {e.strerror}") from None
            table = pq.read_table(src)
            stamp = (st.st_size, st.st_mtime_ns)
        md = table.schema.metadata or {}
        if b"rumi:catalog" not in md:
            raise FormatError(f"{src} is not a rumi catalogue (no rumi:catalog metadata)")
        sch = schema()
        missing = [n for n in sch.names if n not in table.column_names and n not in OPTIONAL_COLUMNS]
        if missing:
            raise FormatError(f"{src} is not a rumi catalogue: columns {missing} are missing")
        for n in OPTIONAL_COLUMNS:  # a catalogue written before these columns: no nodata
            if n not in table.column_names:
                table = table.append_column(sch.field(n), pa.nulls(table.num_rows, sch.field(n).type))
        return cls(table, src, (), stamp)

    # -- pickling ------------------------------------------------------------------------
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.path is None:
            return (Catalog, (self.table, None, self._query, None))
        return (_reopen_catalog, (self.path, self._stamp, self._query))

    # -- rows ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.table.num_rows)

    def __repr__(self) -> str:
        return f"rumi.Catalog({self.path!r}, {len(self)} files)"

    def column(self, name: str) -> list[Any]:
        return self.table.column(name).to_pylist()

    #: catalogues of at most this many rows convert their rows to Python once, at the first
    #: row() (a reader's open: a slice's to_pylist costs 0.33 ms, a chip loader's workers open
    #: every file they meet); larger ones convert the row asked for
    ROWS_CACHED = 100_000

    def row(self, i: int) -> dict[str, Any]:
        n = int(self.table.num_rows)
        if n > self.ROWS_CACHED:
            return self.table.slice(i, 1).to_pylist()[0]
        if not -n <= i < n:
            raise IndexError(f"row {i} of a catalogue of {n} rows")
        if self._rows is None:
            self._rows = self.table.to_pylist()
        return dict(self._rows[i])

    def dataset(self, i: int, *, options: dict[str, Any] | None = None, verify_size: bool = True) -> rumi.Dataset:
        """Opens row i as a rumi.Dataset from its catalogued blob: no request but the frames.
        A file whose size differs from the catalogued one raises FormatError (never decoded)."""
        return open_row(self.row(i), options=options, verify_size=verify_size)

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
    ) -> Catalog:
        """Rows that intersect bbox (west, south, east, north; EPSG:4326 unless crs names
        another CRS), whose time coordinates meet time (an instant or a (start, end) pair,
        inclusive) and that hold every band text in bands."""
        q = (("bbox", tuple(bbox) if bbox is not None else None, crs), ("time", norm_time(time)), ("bands", tuple(bands) if bands else None))
        return Catalog(_apply(self.table, q), self.path, self._query + q, self._stamp)

    def filter_crs(self, crs: str | int) -> Catalog:
        """Rows whose CRS is crs ('EPSG:n' or n)."""
        q = (("crs", f"EPSG:{_epsg(crs)}"),)
        return Catalog(_apply(self.table, q), self.path, self._query + q, self._stamp)

    # -- GDAL ----------------------------------------------------------------------------
    def vrt(self, path: str | os.PathLike[str], *, time_index: int = 0, bands: Sequence[str] | None = None) -> None:
        """Writes a GDAL VRT mosaic of the rows (one CRS, one sample type, the same band
        texts): time step time_index of each file, bands by text (default all). The finest
        resolution of the rows is the mosaic's; GDAL opens the sources with the rumi plugin."""
        write_vrt(self, path, time_index=time_index, bands=bands)
        return path


def _reopen_catalog(path: str, stamp: Any, query: tuple[Any, ...]) -> Catalog:
    cat = Catalog.open(path)
    if stamp is not None and stamp[1] is not None and cat._stamp != stamp:
        raise FormatError(f"catalogue {path} changed since it was opened (size/mtime {stamp} -> {cat._stamp})")
    if query:
        cat = Catalog(_apply(cat.table, query), cat.path, query, cat._stamp)
    return cat


def norm_time(time: Any) -> tuple[int | None, int | None] | None:
    """An instant or (start, end) (None: open) -> (start, end) seconds, both included; None ->
    None. A value coarser than a second covers all of it, as STAC searches read dates
    (pystac-client): "2023-05-11" is that whole day, "2023-05" that month, and an end
    "2020-12-31" includes the last day."""
    if time is None:
        return None
    if isinstance(time, (tuple, list)) and len(time) == 2:
        a = _time_span(time[0])[0] if time[0] is not None else None
        b = _time_span(time[1])[1] if time[1] is not None else None
        return (a, b)
    return _time_span(time)


def _time_span(v: Any) -> tuple[int, int]:
    """(first, last) second that a time value covers: one second for an instant, the whole
    day / month / year for a date, a year-month or a year."""
    start = _parse_time(v)
    unit = None
    if isinstance(v, str):
        try:
            unit = np.datetime_data(np.datetime64(v.strip().rstrip("Z")).dtype)[0]
        except ValueError:
            unit = None
    elif isinstance(v, np.datetime64):
        unit = np.datetime_data(v.dtype)[0]
    elif isinstance(v, _dt.date) and not isinstance(v, _dt.datetime):
        unit = "D"
    if unit in ("Y", "M", "W", "D", "h", "m"):
        d = np.datetime64(start, "s").astype(f"datetime64[{unit}]")
        return start, int((d + 1).astype("datetime64[s]").astype("int64")) - 1
    return start, start


def _apply(table, query):
    pa = _deps()[0]
    import pyarrow.compute as pc

    mask = np.ones(table.num_rows, dtype=bool)
    for item in query:
        kind = item[0]
        if kind == "bbox" and item[1] is not None:
            w, s, e, n = (float(v) for v in item[1])
            code = _epsg(item[2])
            if code is not None and code != 4326:
                pyproj = _deps()[2]
                tr = pyproj.Transformer.from_crs(code, 4326, always_xy=True)
                w, s, e, n = tr.transform_bounds(w, s, e, n, densify_pts=21)
            bb = table.column("bbox")
            xmin = np.array(pc.struct_field(bb, "xmin").to_numpy(zero_copy_only=False), dtype=float)
            ymin = np.array(pc.struct_field(bb, "ymin").to_numpy(zero_copy_only=False), dtype=float)
            xmax = np.array(pc.struct_field(bb, "xmax").to_numpy(zero_copy_only=False), dtype=float)
            ymax = np.array(pc.struct_field(bb, "ymax").to_numpy(zero_copy_only=False), dtype=float)
            with np.errstate(invalid="ignore"):
                hit = (xmin <= e) & (xmax >= w) & (ymin <= n) & (ymax >= s)
            mask &= np.nan_to_num(hit, nan=False).astype(bool)
            if mask.any():  # exact test against the footprint polygons
                shapely = _deps()[3]
                box = shapely.box(w, s, e, n)
                geoms = table.column("geometry").to_pylist()
                for i in np.flatnonzero(mask):
                    g = geoms[i]
                    if g is None or not shapely.from_wkb(g).intersects(box):
                        mask[i] = False
        elif kind == "time" and item[1] is not None:
            a, b = item[1]
            times = time_seconds(table)
            ends = time_seconds(table, "rumi:time_ends")
            for i in np.flatnonzero(mask):
                mask[i] = bool(time_indices(times[i], ends[i], (a, b)))
        elif kind == "crs":
            codes = table.column("proj:code").to_pylist()
            for i in np.flatnonzero(mask):
                mask[i] = codes[i] == item[1]
        elif kind == "bands" and item[1] is not None:
            want = set(item[1])
            bl = table.column("rumi:bands").to_pylist()
            for i in np.flatnonzero(mask):
                mask[i] = want.issubset(bl[i])
    return table.filter(pa.array(mask))


def time_indices(times: list[int], ends: list[int] | None, window: tuple[int | None, int | None]) -> list[int]:
    """Indices of the time steps that meet window (start, end) in seconds (None = open)."""
    a, b = window
    out = []
    for k, t in enumerate(times):
        s = t
        e = ends[k] if ends else s
        if (a is None or e >= a) and (b is None or s <= b):
            out.append(k)
    return out


def open_row(
    row: dict[str, Any], *, options: dict[str, Any] | None = None, verify_size: bool = True, threads: int = 1
) -> rumi.Dataset:
    """A rumi.Dataset of a catalogue row, opened from the row's blob (no header request; the
    blob is checked against the file as rumi.open checks any header=)."""
    href = row["assets"]["data"]["href"] if row.get("assets") else row["location"]
    want = row["rumi:file_size"]
    if verify_size and want is not None and want >= 0:
        if not href.startswith("s3://"):
            have = _file_size(href, options)
            if have != want:
                raise FormatError(
                    f"{href} changed since it was catalogued: {have} bytes, the catalogue recorded {want} "
                    "(rebuild the catalogue; its header blob no longer describes the file)"
                )
    return rumi.open(href, header=row["rumi:header"], options=options, threads=threads)


# --- GDAL VRT -----------------------------------------------------------------------------

_GDAL_TYPES = {
    "bool": "Byte", "uint8": "Byte", "int8": "Int8", "uint16": "UInt16", "int16": "Int16", "uint32": "UInt32",
    "int32": "Int32", "uint64": "UInt64", "int64": "Int64", "float32": "Float32", "float64": "Float64",
    "complex64": "CFloat32", "complex128": "CFloat64", "float16": "Float32", "bfloat16": "Float32",
}


def write_vrt(
    cat: Catalog, path: str | os.PathLike[str], *, time_index: int = 0, bands: Sequence[str] | None = None
) -> None:
    from xml.sax.saxutils import escape

    rows = cat.table.to_pylist()
    if not rows:
        raise RequestError("the selection is empty: no VRT to write")
    codes = {r["proj:code"] for r in rows}
    if len(codes) != 1 or None in codes:
        raise RequestError(f"a VRT mosaic needs one CRS; the selection has {sorted(map(str, codes))}")
    dtypes = {r["rumi:dtype"] for r in rows}
    if len(dtypes) != 1:
        raise RequestError(f"a VRT mosaic needs one sample type; the selection has {sorted(dtypes)}")
    dtype = dtypes.pop()
    if dtype not in _GDAL_TYPES:
        raise RequestError(f"{dtype} samples have no GDAL VRT type here")
    names = bands or rows[0]["rumi:bands"]
    for r in rows:
        if r["proj:transform"][1] != 0 or r["proj:transform"][3] != 0:
            raise RequestError(f"{r['id']} has a rotated grid: no VRT mosaic")
        missing = [b for b in names if b not in r["rumi:bands"]]
        if missing:
            raise RequestError(f"{r['id']} lacks bands {missing}")
        if not 0 <= time_index < r["rumi:shape"][0]:
            raise RequestError(f"{r['id']} has {r['rumi:shape'][0]} time steps; time_index {time_index} is outside")
    xres = min(abs(r["proj:transform"][0]) for r in rows)
    yres = min(abs(r["proj:transform"][4]) for r in rows)
    left = min(r["proj:transform"][2] for r in rows)
    top = max(r["proj:transform"][5] for r in rows)
    right = max(r["proj:transform"][2] + r["proj:shape"][1] * r["proj:transform"][0] for r in rows)
    bottom = min(r["proj:transform"][5] + r["proj:shape"][0] * r["proj:transform"][4] for r in rows)
    W = int(round((right - left) / xres))
    H = int(round((top - bottom) / yres))
    pyproj = _deps()[2]
    wkt = pyproj.CRS.from_user_input(codes.pop()).to_wkt()
    out = [f'<VRTDataset rasterXSize="{W}" rasterYSize="{H}">', f"  <SRS>{escape(wkt)}</SRS>",
           f"  <GeoTransform>{left!r}, {xres!r}, 0, {top!r}, 0, {-yres!r}</GeoTransform>"]
    gtype = _GDAL_TYPES[dtype]
    for bi, name in enumerate(names):
        out.append(f'  <VRTRasterBand dataType="{gtype}" band="{bi + 1}">')
        out.append(f"    <Description>{escape(name)}</Description>")
        for r in rows:
            a, _, x0, _, e, y0 = r["proj:transform"]
            Y, X = r["proj:shape"]
            B = r["rumi:shape"][1]
            # the plugin exposes time t, band b as raster band t * B + b + 1
            src_band = time_index * B + r["rumi:bands"].index(name) + 1
            href = r["location"]
            if href.startswith(("http://", "https://")):
                href = "/vsicurl/" + href
            elif href.startswith("s3://"):
                href = "/vsis3/" + href[5:]
            dx, dy = (x0 - left) / xres, (top - y0) / yres
            out.append("    <SimpleSource>")
            out.append(f"      <SourceFilename relativeToVRT=\"0\">{escape(href)}</SourceFilename>")
            out.append(f"      <SourceBand>{src_band}</SourceBand>")
            out.append(f'      <SrcRect xOff="0" yOff="0" xSize="{X}" ySize="{Y}" />')
            out.append(f'      <DstRect xOff="{dx!r}" yOff="{dy!r}" xSize="{X * abs(a) / xres!r}" ySize="{Y * abs(e) / yres!r}" />')
            out.append("    </SimpleSource>")
        out.append("  </VRTRasterBand>")
    out.append("</VRTDataset>")
    tmp = f"{os.fspath(path)}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, path)


# --- command line: the `rumi-catalog` console script -----------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """`rumi-catalog build|search|vrt ...` (installed with the package)."""
    import argparse

    p = argparse.ArgumentParser(prog="rumi-catalog", description="catalogues of rumi files (GeoParquet 1.1)")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="one row per rumi file")
    b.add_argument("srcs", nargs="+", help="rumi files or URLs")
    b.add_argument("-o", "--output", required=True, help="catalogue path (.parquet)")
    b.add_argument("--skip-errors", action="store_true", help="leave out files that fail, with a warning")
    b.add_argument("--nodata", type=float, nargs="+", metavar="V",
                   help="nodata of every band (one value) or of each band (default: each file's .aux.xml)")
    v = sub.add_parser("vrt", help="GDAL VRT mosaic of a selection")
    v.add_argument("catalog")
    v.add_argument("-o", "--output", required=True)
    v.add_argument("--bbox", type=float, nargs=4, metavar=("W", "S", "E", "N"))
    v.add_argument("--crs", help="CRS of --bbox (default EPSG:4326)")
    v.add_argument("--time", nargs="+", help="an instant or START END")
    v.add_argument("--bands", nargs="+")
    v.add_argument("--time-index", type=int, default=0)
    s = sub.add_parser("search", help="print the ids of matching rows")
    for a in (s,):
        a.add_argument("catalog")
        a.add_argument("--bbox", type=float, nargs=4, metavar=("W", "S", "E", "N"))
        a.add_argument("--crs")
        a.add_argument("--time", nargs="+")
        a.add_argument("--bands", nargs="+")
    args = p.parse_args(argv)
    try:
        if args.cmd == "build":
            nd = None if not args.nodata else (args.nodata[0] if len(args.nodata) == 1 else args.nodata)
            cat = Catalog.build(args.srcs, args.output, on_error="skip" if args.skip_errors else "raise", nodata=nd)
            print(f"{args.output}: {len(cat)} files")
            return 0
        cat = Catalog.open(args.catalog)
        t = None if not args.time else (args.time[0] if len(args.time) == 1 else tuple(args.time[:2]))
        sel = cat.search(bbox=args.bbox, crs=args.crs, time=t, bands=args.bands)
        if args.cmd == "search":
            for i in sel.column("id"):
                print(i)
            return 0
        sel.vrt(args.output, time_index=args.time_index, bands=args.bands)
        print(f"{args.output}: mosaic of {len(sel)} files")
        return 0
    except (FormatError, RequestError, RumiIOError, ValueError, OSError) as e:
        print(f"rumi-catalog: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
