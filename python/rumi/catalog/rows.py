"""One catalogue row per rumi file: `describe` parses a file's header (and, when it has nodata,
reads its pixels once for the valid-fraction summary); `open_row` opens a row again from its
header blob, checking the file's size against the catalogued one."""

from __future__ import annotations

import os
from typing import Any

from .._internal import AUX_SUFFIX, normalize_nodata, pam_nodata
from .._dataset import Dataset
from .._dataset import open as open_dataset
from .._errors import FormatError, RumiIOError
from .._grid import Grid
from .._location import Location
from . import geometry as _geometry
from . import columns as K
from .columns import deps, micros, scale_columns
from .scan import scan, tiles_of
from .classes import ClassSink
from .stats import StatsSink
from .valid import ValidSink

#: the outline's edges are cut into this many pieces before projecting to EPSG:4326
FOOTPRINT_DENSIFY = 16
#: in rumi:etag, between the file's identity and its PAM sidecar's ("none": no sidecar); rows
#: written before it hold the file's alone and are checked without the sidecar
AUX_MARK = "\n" + AUX_SUFFIX + " "
#: what a row's digest records as its nodata when it was given (nodata=), not the sidecar's
_GIVEN = "given"


def href(src: str) -> str:
    """The row's href of a location: a URL as it is, a local path made absolute."""
    loc = Location.parse(src)
    return loc.text if loc.is_remote else os.path.abspath(loc.text)


def file_size(src: str, options: dict[str, Any] | None = None) -> int:
    """The size of the file or object in bytes (one HEAD for an object); RumiIOError when it
    does not exist."""
    size = Location.parse(src).size(options)
    if size is None:
        raise RumiIOError(f"{src}: no such file or object")
    return size


def footprint(grid: Grid) -> tuple[bytes, tuple[float, float, float, float]]:
    """The grid's footprint in EPSG:4326 (edges densified) as WKB, as GeoJSON and STAC write
    it: cut at the antimeridian into a MultiPolygon, closed through a pole it holds; and its
    bbox (xmin > xmax across 180 degrees): see rumi.catalog.geometry."""
    shapely = deps().shapely
    geom, bb = _geometry.footprint(grid, FOOTPRINT_DENSIFY)
    return shapely.to_wkb(geom), bb


def stat(src: str, options: dict[str, Any] | None = None) -> tuple[int, str | None]:
    """(size, the store's identity of the content: rumi:etag) of the file or object, in one stat
    or HEAD, and of its PAM sidecar `<src>.aux.xml` (whose values the row snapshots: nodata,
    scales, offsets, units), in one more (AUX_MARK); RumiIOError when the file does not exist."""
    loc = Location.parse(src)
    st = loc.stat(options)
    if st is None:
        raise RumiIOError(f"{src}: no such file or object")
    return st[0], None if st[1] is None else st[1] + AUX_MARK + _aux_identity(loc, options)


def _aux_identity(loc: Location, options: dict[str, Any] | None) -> str:
    """The store's identity of the PAM sidecar beside loc ("none" when there is none)."""
    st = loc.sidecar(AUX_SUFFIX).stat(options)
    if st is None:
        return "none"
    return st[1] if st[1] is not None else f"size:{st[0]}"


def describe(src: str, *, options: dict[str, Any] | None = None, nodata: Any = None, classes: Any = None,
             stats: bool = True) -> dict[str, Any]:
    """One catalogue row (a dict) for the rumi file at src (parses and validates its header).
    nodata: None (the file's PAM sidecar, if any), a number for every band, or one per band
    (None for a band without): see rumi.catalog's notes."""
    before = stat(src, options)  # before the header is read: a rewrite in between is caught at open
    with open_dataset(src, options=options) as ds:
        return describe_dataset(ds, src, options=options, nodata=nodata, stat_=before, classes=classes, stats=stats)


def describe_dataset(ds: Dataset, src: str, *, options: dict[str, Any] | None = None, nodata: Any = None,
                     stat_: tuple[int, str | None] | None = None, classes: Any = None, stats: bool = True) -> dict[str, Any]:
    """The catalogue row of an open dataset read from src (see describe; stat_: the file's
    stat taken before it was opened; classes: which bands rumi:classes counts, see
    rumi.catalog.classes; stats: record rumi:stats, reading every file's pixels once, else null)."""
    size, etag = stat_ if stat_ is not None else stat(src, options)
    T, B, Y, X = ds.shape
    kind = ds.time_kind
    secs = ds.times.astype("int64")
    ends: list[int] | None
    if kind == "interval":
        starts, ends = [int(v) for v in secs[:, 0]], [int(v) for v in secs[:, 1]]
    else:
        starts, ends = [int(v) for v in secs], None
    lo, hi = min(starts), max(ends if ends else starts)
    one_instant = T == 1 and kind == "instant"
    url = href(src)
    row: dict[str, Any] = {
        "id": os.path.splitext(Location.parse(src).name)[0],
        "datetime": micros(lo) if one_instant else None,
        "start_datetime": None if one_instant else micros(lo),
        "end_datetime": None if one_instant else micros(hi),
        "geometry": None,
        "bbox": None,
        K.PROJ_CODE: ds.crs,
        K.PROJ_TRANSFORM: None,
        K.PROJ_SHAPE: [Y, X],
        "assets": {"data": {"href": url, "type": "application/x-rumi", "roles": ["data"]}},
        "location": url,
        K.HEADER: bytes(ds.header),
        K.BANDS: ds.bands,
        K.TIME_KIND: kind,
        K.TIMES: [micros(s) for s in starts],
        K.TIME_ENDS: [micros(s) for s in ends] if ends else None,
        K.DTYPE: ds.encoding,
        K.SHAPE: [T, B, Y, X],
        K.FRAME_UNIT: ds.frame_unit,
        K.TILE_SHAPE: list(ds.tile_shape),
        K.FILE_SIZE: size,
        K.ETAG: etag,
        K.CRS_TYPE: ds.crs_type,
    }
    nd = normalize_nodata(nodata, B, src) if nodata is not None else pam_nodata(src, B, options=options)
    row[K.NODATA] = nd
    row.update(summaries(ds, nd, classes, stats))
    row.update(scale_columns(ds.scales, ds.offsets, ds.units))  # the sidecar's, as now (a snapshot)
    row[K.DIGEST] = metadata_digest(ds, _aux_values(ds, nd if nodata is None else _GIVEN))
    if ds.geotransform is not None and ds.epsg is not None:
        grid = ds.grid
        t = grid.transform
        row[K.PROJ_TRANSFORM] = [t.a, t.b, t.c, t.d, t.e, t.f]  # STAC's order: affine's
        wkb, bb = footprint(grid)
        row["geometry"] = wkb
        row["bbox"] = dict(zip(("xmin", "ymin", "xmax", "ymax"), bb))
    return row


def summaries(ds: Dataset, nodata: list[float | None] | None, classes: Any = None, stats: bool = True) -> dict[str, Any]:
    """The row's per-tile summaries, all from one pass over the pixels (rumi.catalog.scan): each
    column's sink is fed the same blocks; a column whose sink is not run is None (rumi:valid:
    no band has nodata; rumi:stats: stats=False, the numeric statistics not recorded)."""
    B = ds.shape[1]
    tiles = tiles_of(ds)
    sinks: dict[str, Any] = {}
    if nodata is not None:
        sinks[K.VALID] = ValidSink(tiles)
    if stats:
        sinks[K.STATS] = StatsSink(tiles, ds.dtype)
    cls = ClassSink(tiles, ds.bands, ds.dtype, classes, ds.path)
    if cls.wants_pixels:
        sinks[K.CLASSES] = cls
    scan(ds, nodata if nodata is not None else [None] * B, list(sinks.values()))
    out: dict[str, Any] = {K.VALID: None, K.STATS: None, K.CLASSES: []}
    out.update({col: s.value() for col, s in sinks.items()})
    return out


def open_row(row: dict[str, Any], *, options: dict[str, Any] | None = None, verify_size: bool = True, threads: int = 1) -> Dataset:
    """A rumi.Dataset of a catalogue row, opened from the row's blob (no header request; the
    blob is checked against the file as rumi.open checks any header=). verify_size: first
    check that the file is the one catalogued, in one stat (one HEAD for an object): a size
    that differs from rumi:file_size is a FormatError; an identity that differs from rumi:etag
    (a file's inode and times, an object's ETag or Last-Modified: a rewrite, or a copy) has
    the file's header read and compared with the blob: the same -> opened (a copy), another ->
    FormatError naming what changed (the blob no longer describes the file). The same for the
    PAM sidecar `<file>.aux.xml` whose values the row holds (rumi:nodata, rumi:scales...): its
    identity (or absence) is in rumi:etag (one more stat or HEAD), and a sidecar whose values
    changed is a FormatError naming it. Rows without rumi:etag (catalogues written before it)
    are checked by size alone, rows whose rumi:etag has no sidecar part without the sidecar."""
    url = row["assets"]["data"]["href"] if row.get("assets") else row["location"]
    want = row[K.FILE_SIZE]
    blob = row[K.HEADER]
    if verify_size and want is not None and want >= 0:
        have, now = stat(url, options)
        if have != want:
            raise FormatError(
                f"{url} changed since it was catalogued: {have} bytes, the catalogue recorded {want} "
                "(rebuild the catalogue; its header blob no longer describes the file)"
            )
        etag, digest = row.get(K.ETAG), row.get(K.DIGEST)
        if etag is not None and digest is not None:
            if AUX_MARK not in etag and now is not None:  # a row written before the sidecar's identity
                now = now.split(AUX_MARK)[0]
            if now != etag:
                return _open_changed(url, row, digest, options, threads, now)
    return open_dataset(url, header=blob, options=options, threads=threads)


def metadata_digest(ds: Dataset, aux: dict[str, Any] | None = None) -> str:
    """A digest of what a catalogue row takes from a file (rumi:digest): its header blob, times,
    bands, CRS, georeferencing, sample type, shape, tiles and frame unit, and (aux, rows that
    record the sidecar's identity) what it takes from the PAM sidecar (sha256, hex)."""
    import hashlib
    import json

    meta: dict[str, Any] = {
        "header": bytes(ds.header).hex(), "times": ds.times.astype("int64").tolist(), "kind": ds.time_kind,
        "bands": list(ds.bands), "crs": ds.crs, "geotransform": None if ds.geotransform is None else list(ds.geotransform),
        "encoding": ds.encoding, "shape": list(ds.shape), "tiles": list(ds.tile_shape), "frame_unit": ds.frame_unit}
    if aux is not None:
        meta["aux"] = aux
    return hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()


def _aux_values(ds: Dataset, nodata: Any) -> dict[str, Any]:
    """What a row takes from the PAM sidecar: the scale columns, and its nodata (_GIVEN when
    the row's was given instead)."""
    return {**scale_columns(ds.scales, ds.offsets, ds.units), K.NODATA: nodata}


def _open_changed(url: str, row: dict[str, Any], digest: str, options: dict[str, Any] | None, threads: int,
                  now: str | None) -> Dataset:
    """The file at url, whose identity (or its sidecar's) is not the catalogued one, opened
    from its own header when its metadata and sidecar values are still the catalogued
    (rumi:digest: a copy, or a rewrite of the same content); FormatError naming what changed
    otherwise."""
    ds = open_dataset(url, options=options, threads=threads)
    try:
        aux_now = None
        if AUX_MARK not in (row.get(K.ETAG) or ""):  # a row written before the sidecar's identity
            if metadata_digest(ds) == digest:
                return ds
        else:
            aux_now = _aux_values(ds, pam_nodata(url, ds.shape[1], options=options))
            if digest in (metadata_digest(ds, aux_now), metadata_digest(ds, {**aux_now, K.NODATA: _GIVEN})):
                return ds
        file_what, aux_what = changes(row, ds), _aux_changes(row, aux_now)
    except BaseException:
        ds.close()
        raise
    ds.close()
    etag = row.get(K.ETAG) or ""
    same_file = now is not None and AUX_MARK in etag and now.split(AUX_MARK)[0] == etag.split(AUX_MARK)[0]
    if file_what or not (aux_what or same_file):
        what = "; ".join(file_what) or "other metadata (the catalogued digest rumi:digest differs)"
        raise FormatError(
            f"{url} changed since it was catalogued: the same size, but {what}: the catalogue's row no longer "
            "describes the file (rebuild the catalogue, or append the file to it again)")
    raise FormatError(
        f"{url}{AUX_SUFFIX}, the file's PAM sidecar, changed since it was catalogued: "
        f"{'; '.join(aux_what) or 'its values are not the catalogued (rumi:digest)'}: the "
        "catalogue's row no longer gives the file's values (rebuild the catalogue, or append the file to it again)")


def _aux_changes(row: dict[str, Any], aux: dict[str, Any] | None) -> list[str]:
    """What differs between a row's sidecar values and the sidecar's now, in words."""
    out = []
    for col, name in ((K.SCALES, "the scales"), (K.OFFSETS, "the offsets"), (K.UNITS, "the units"),
                      (K.NODATA, "the nodata")):
        if aux is not None and col in row and _text(row[col]) != _text(aux[col]):
            out.append(f"{name} {_text(row[col])} -> {_text(aux[col])}")
    return out


def changes(row: dict[str, Any], ds: Dataset) -> list[str]:
    """What differs between a catalogue row and the file's metadata now, in words ("the times
    [...] -> [...]"), from the row's columns that it has."""
    now = describe_fields(ds)
    out = []
    for col, name in ((K.TIMES, "the times"), (K.BANDS, "the bands"), (K.PROJ_CODE, "the CRS"),
                      (K.PROJ_TRANSFORM, "the georeferencing"), (K.DTYPE, "the sample type"),
                      (K.SHAPE, "the shape"), (K.TILE_SHAPE, "the tile shape")):
        if col in row and _text(row[col]) != _text(now[col]):
            out.append(f"{name} {_text(row[col])} -> {_text(now[col])}")
    return out


def describe_fields(ds: Dataset) -> dict[str, Any]:
    """The columns of a row that changes() compares, as a row read back gives them."""
    import datetime as _dt

    secs = ds.times.astype("int64")
    starts = secs[:, 0] if ds.time_kind == "interval" else secs
    t = ds.grid.transform if ds.geotransform is not None and ds.epsg is not None else None
    return {K.TIMES: [_dt.datetime(1970, 1, 1) + _dt.timedelta(seconds=int(s)) for s in starts],
            K.BANDS: list(ds.bands), K.PROJ_CODE: ds.crs,
            K.PROJ_TRANSFORM: None if t is None else [t.a, t.b, t.c, t.d, t.e, t.f],
            K.DTYPE: ds.encoding, K.SHAPE: list(ds.shape), K.TILE_SHAPE: list(ds.tile_shape)}


def _text(v: Any) -> str:
    from datetime import timezone as _timezone

    if isinstance(v, list):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    if hasattr(v, "isoformat"):  # a datetime read back (UTC, aware or not) as naive ISO text
        return repr((v.replace(tzinfo=None) if getattr(v, "tzinfo", None) is None else
                     v.astimezone(_timezone.utc).replace(tzinfo=None)).isoformat())
    return repr(v)
