"""rumi.build: STAC items -> rumi cubes, one per cell of a tiling and time range, and their
catalogue (issue 22, item 4). The `rumi-build` console script is main().

    cat = rumi.build(items, "out/", bands=["red", "nir"], crs="EPSG:32633", resolution=10,
                     tiles=GridSpec("EPSG:32633", (2048, 2048), 10), time="P1M")

odc-stac (`odc.stac.load`) does every reprojection, resampling and mosaic: a cell is exactly what
`odc.stac.load(items, bands=..., geobox=<the cell's GeoBox>, groupby=...)` gives for its time
steps. Needs `pip install 'rumi[stac]'` (odc-stac, odc-geo, pystac; stac-geoparquet for .parquet
item files; geopandas for footprint tilings; pyarrow, shapely for the catalogue).

Cells
    tiles=None: one cell, the GeoBox odc.stac.load picks for all items at crs/resolution (anchor=).
    tiles=GridSpec: the grid's tiles that the items' footprints overlap, named "x{ix}_y{iy}".
    tiles=GeoboxTiles: its tiles that the footprints overlap, named "r{row}_c{col}".
    tiles=GeoBox: one cell with exactly that grid, named "cell".
    tiles=GeoDataFrame: one cell per footprint, the GeoBox over the footprint at crs/resolution
        (anchor=), named after a "name" or "id" column if there is one, else the index.
    tiles={name: GeoBox}: the given cells.
    A cell gets the items whose footprint overlaps it (area > 0); a cell with none is not built.

Time ranges (time=)
    None: one range (every time step). A period: "P1Y", "P3M", "P1M", "P2W", "P1D" (ISO 8601;
    "1Y", "M" etc. too), calendar-anchored in UTC: years, months counted from January of year 0
    (P3M: quarters), ISO weeks (Monday), days counted from 1970-01-01; named "2020", "2020-05",
    "2020-05-18". Or explicit ranges [(start, end), ...] (also "start/end" strings), start
    inclusive, end exclusive (as `rumi convert --interval`), named "20200101-20210101".
    Grouping (groupby=, as odc.stac.load: "solar_day", "time", "id", a property name or a
    callable) happens first, per cell, exactly as odc.stac.load does it for that cell; a time step
    goes to the range holding its time coordinate (the earliest item of its group, odc-stac's
    convention), so a group is never split between ranges. Time steps outside every explicit range
    are not built. rumi files record whole seconds: a time with a fraction of a second is
    rounded to the nearest second (halves up, as every rumi writer rounds), with one warning
    naming the times changed; its range is the rounded time's.

Grid
    Any CRS with an EPSG code that odc-stac loads, projected or geographic (EPSG:4326 with
    resolution= in degrees): a file's pixels, CRS and transform are odc.stac.load's on its GeoBox.

Nodata
    A band's nodata is odc.stac.load's (nodata=, else raster:bands nodata). When neither gives
    one, it comes from the source files themselves (each file's own nodata, read from its header
    as odc-stac reads it): an integer output takes the first one found among a cell's items and
    odc-stac fills with it (odc-stac maps every file's own nodata onto it), and a value that the
    output sample type (dtype=) cannot hold is refused by name before anything is written; a
    floating-point output keeps odc-stac's NaN. Nodata goes to the .aux.xml sidecar (beside an
    s3:// object too) and the catalogue's rumi:nodata.

Files
    dest/{cell}.rumi (time=None) or dest/{cell}_{range}.rumi, with their .header sidecars (and
    .aux.xml for nodata); dest/rumi-build.json (the manifest: per file, a fingerprint of what it
    was built from -- the ids, collections, datetimes, "updated" properties and band hrefs of its
    items, and every parameter that changes pixels -- with the file's size and the SHA-256 of
    its header blob); dest/catalog.parquet (rumi.Catalog of the files of this build).

Re-running
    A file whose fingerprint, size and header blob match the manifest is skipped (not read, not
    rewritten); any other is built again. A file is written atomically: a cell that fails leaves
    nothing behind (an earlier file of that name is left, but dropped from the manifest and the
    catalogue). Every cell is tried; at the end a failure raises BuildError naming each failed
    file with its error (its .catalog holds what was built). Files of earlier builds that this one
    does not produce are left as they are (listed in report.stale).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import os
import re
import sys
import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from . import _rumi
from ._errors import RumiError

BUILD_FORMAT = 2  # bump when the same inputs would give different files
MANIFEST = "rumi-build.json"
#: odc.stac.load's x chunk when chunks= does not give one (pixels); y chunks default to whole
#: blocks of tile rows of about rumi.to_rumi's BLOCK_BYTES (each file's are in the manifest)
DEFAULT_CHUNKS = {"x": 2048}
CATALOG = "catalog.parquet"
_NAME_OK = re.compile(r"[^A-Za-z0-9._+-]")


class BuildError(RumiError):
    """Some cells failed. .report (BuildReport) lists them with their errors; .catalog is the
    catalogue of the files that were built (None when there are none)."""

    def __init__(self, message: str, report: BuildReport, catalog: Any) -> None:
        super().__init__(message)
        self.report = report
        self.catalog = catalog


@dataclass
class BuildReport:
    """What one rumi.build call did (file names relative to dest)."""

    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # cells (tiles) that no item overlaps
    raw_bytes: int = 0  # uncompressed bytes of the files written
    seconds: float = 0.0


def _deps() -> tuple[Any, Any, Any]:
    try:
        import odc.geo  # noqa: F401
        import odc.stac
        import pystac
        import xarray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"rumi.build needs odc-stac, odc-geo, pystac and xarray (pip install 'rumi[stac]'): {e}") from None
    return odc.stac, pystac, xarray


# --- items ------------------------------------------------------------------------------------


def load_items(items: Any) -> list[Any]:
    """A list of pystac Items from an ItemCollection, Items or dicts, or a file: a STAC
    ItemCollection / FeatureCollection (.json, .geojson), one item per line (.ndjson, .jsonl) or
    stac-geoparquet (.parquet, .geoparquet)."""
    _, pystac, _ = _deps()

    def item(d: Any, where: str) -> Any:
        try:
            return pystac.Item.from_dict(dict(d))
        except Exception as e:
            raise ValueError(f"{where} is not a STAC Item: {type(e).__name__}: {e}") from None

    if isinstance(items, (str, os.PathLike)):
        path = os.fspath(items)
        if not os.path.exists(path):
            raise FileNotFoundError(f"STAC items file {path} does not exist")
        low = path.lower()
        if low.endswith((".parquet", ".geoparquet")):
            try:
                import pyarrow.parquet as pq
                import stac_geoparquet.arrow
            except ImportError as e:  # pragma: no cover
                raise ImportError(f"reading {path} needs stac-geoparquet (pip install 'rumi[stac]'): {e}") from None
            dicts = list(stac_geoparquet.arrow.stac_table_to_items(pq.read_table(path)))
            out = [item(d, f"{path} row {k}") for k, d in enumerate(dicts)]
        elif low.endswith((".ndjson", ".jsonl")):
            with open(path) as f:
                try:
                    out = [item(json.loads(line), f"{path} line {k + 1}") for k, line in enumerate(f) if line.strip()]
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path} is not JSON lines: {e}") from None
        else:
            with open(path) as f:
                try:
                    doc = json.load(f)
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path} is not JSON: {e}") from None
            if isinstance(doc, dict) and doc.get("type") == "Feature":
                out = [item(doc, path)]
            elif isinstance(doc, dict) and isinstance(doc.get("features"), list):
                out = [item(d, f"{path} feature {k}") for k, d in enumerate(doc["features"])]
            else:
                raise ValueError(f"{path} is neither a STAC Item nor an ItemCollection (no 'features' list)")
    else:
        if isinstance(items, pystac.Item):
            items = [items]
        out = []
        try:
            items = list(items)
        except TypeError:
            raise TypeError(f"items must be pystac Items, an ItemCollection or a file path, not {type(items).__name__}") from None
        for k, it in enumerate(items):
            if isinstance(it, pystac.Item):
                out.append(it)
            elif isinstance(it, Mapping):
                out.append(item(it, f"items[{k}]"))
            else:
                raise TypeError(f"items must be pystac Items (or STAC item dicts), got {type(it).__name__}")
    if not out:
        raise ValueError("no STAC items to build from (the item list is empty)")
    ids = [it.id for it in out]
    if len(set(zip(ids, (it.collection_id for it in out)))) != len(out):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"STAC items repeat ids {dup[:5]}: each item must appear once")
    return out


def _check_bands(parsed: Sequence[Any], bands: Sequence[str]) -> None:
    """Every band resolves (asset key or alias) in every collection of the items."""
    cols: dict[str, Any] = {}
    for p in parsed:
        cols.setdefault(p.collection.name, p.collection)
    for name, col in cols.items():
        missing = []
        for b in bands:
            try:
                col.resolve_bands([b])
            except (ValueError, KeyError):
                missing.append(b)
        if missing:
            have = sorted({k[0] if isinstance(k, tuple) else str(k) for k in col.meta.bands})
            where = f"collection {name!r}" if name and name != "_" else "the items"
            raise ValueError(f"bands {missing} are not in {where} (its bands: {have})")


def _untyped_bands(item_list: Sequence[Any], parsed: Sequence[Any], bands: Sequence[str]) -> list[str]:
    """The bands no item gives a sample type for (raster:bands data_type): odc-stac loads them
    as float32, whatever the files hold."""
    out = []
    for b in bands:
        typed = False
        for it, p in zip(item_list, parsed):
            try:
                asset, idx = p.collection.band_key(b)
            except (ValueError, KeyError, AttributeError):
                continue
            a = it.assets.get(asset) if hasattr(it, "assets") else None
            rb = (a.extra_fields.get("raster:bands") if a is not None else None) or []
            if 0 < idx <= len(rb) and isinstance(rb[idx - 1], Mapping) and rb[idx - 1].get("data_type"):
                typed = True
                break
        if not typed:
            out.append(b)
    return out


#: GDAL settings for reading a source file's header as odc-stac reads it (no sibling listing)
_PROBE_ENV = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR"}


def _source_nodata(
    parsed: Sequence[Any], bands: Sequence[str], dtype: Any, patch_url: Callable[[str], str] | None
) -> dict[tuple[int, str], tuple[float, str]]:
    """(item index, band) -> (nodata, href) for the bands whose items give no nodata (no
    raster:bands nodata, no stac_cfg one) and that load as integers (dtype=, else the items'
    data_type; odc-stac gives a floating-point output NaN whatever the files say): each file's
    own, read from its header (8 files at a time, each once) as odc-stac reads it when it masks
    that file. A file without nodata is left out, and so is one that cannot be opened (its load
    fails with its own error)."""
    from concurrent.futures import ThreadPoolExecutor

    todo: dict[tuple[int, str], tuple[str, int]] = {}
    for i, p in enumerate(parsed):
        for b in bands:
            try:
                src = p.resolve_bands([b])[b]
            except Exception:  # noqa: BLE001 (this item lacks the band: nothing to read)
                continue
            meta = getattr(src, "meta", None)
            if meta is not None and meta.nodata is not None:
                continue
            try:
                kind = np.dtype(dtype if dtype is not None else getattr(meta, "data_type", None) or "float32").kind
            except TypeError:  # a type numpy does not name (odc-stac's load says what it makes of it)
                continue
            if kind not in "iu":
                continue
            uri = patch_url(src.uri) if patch_url else src.uri
            todo[(i, b)] = (uri, int(src.band or 1))
    if not todo:
        return {}
    import rasterio

    def probe(key: tuple[str, int]) -> float | None:
        uri, bidx = key
        try:
            with rasterio.Env(**_PROBE_ENV), rasterio.open(uri) as f:
                v = f.nodatavals[bidx - 1]
        except Exception:  # noqa: BLE001 (see above)
            return None
        return None if v is None else float(v)

    files = list(dict.fromkeys(todo.values()))
    with ThreadPoolExecutor(min(8, len(files))) as ex:
        found = dict(zip(files, ex.map(probe, files)))
    return {k: (v, f[0]) for k, f in todo.items() if (v := found[f]) is not None}


def _holds(dtype: Any, v: float) -> bool:
    """Whether samples of dtype can take the value v exactly."""
    d = np.dtype(dtype)
    if d.kind in "iu":
        info = np.iinfo(d)
        return math.isfinite(v) and v == int(v) and info.min <= int(v) <= info.max
    if d.kind == "f":
        return math.isnan(v) or float(d.type(v)) == v
    return False


def _unholdable(band: str, v: float, href: str, dtype: Any) -> ValueError:
    return ValueError(
        f"band {band}: {href} has nodata {v:g}, which a {np.dtype(dtype)} output cannot hold (the items give no "
        f"nodata, so rumi.build takes the files' own): pass nodata= (rumi-build --nodata) with a "
        f"{np.dtype(dtype)} value, or a dtype= that holds {v:g}"
    )


def _whole_second(t: Any) -> np.datetime64:
    """t rounded to the nearest second, halves up (as rumi's writers round)."""
    ns = int(np.datetime64(t, "ns").astype("int64"))
    q, r = divmod(ns, 10**9)
    return np.datetime64(q + (1 if 2 * r >= 10**9 else 0), "s")


def _file_dtype(parsed: Any, band: str, patch_url: Callable[[str], str] | None) -> str | None:
    """The sample type of band in its first file (one header read), or None."""
    try:
        import rasterio

        src = parsed.bands[parsed.collection.band_key(band)]
        uri = patch_url(src.uri) if patch_url else src.uri
        with rasterio.open(uri) as f:
            return str(f.dtypes[(src.band or 1) - 1])
    except Exception:  # noqa: BLE001 (a hint only)
        return None


# --- grids ------------------------------------------------------------------------------------


def _crs(crs: Any) -> Any:
    from odc.geo.crs import CRS

    try:
        c = CRS(crs)
    except Exception as e:
        raise ValueError(f"crs {crs!r} is not a CRS PROJ knows: {e}") from None
    if c.epsg is None:
        raise ValueError(f"crs {crs!r} has no EPSG code; rumi files record EPSG codes")
    return c


def _union_geobox(odc_stac: Any, parsed: Sequence[Any], bands: Sequence[str], crs: Any, resolution: Any, anchor: Any) -> Any:
    gbox = odc_stac.output_geobox(list(parsed), bands=list(bands), crs=crs, resolution=resolution, anchor=anchor)
    if gbox is None:
        raise ValueError("odc-stac cannot find the items' grid: give crs= and resolution=")
    return gbox


def _cells(tiles: Any, union: Any, crs: Any, resolution: Any, anchor: Any, geoms: Sequence[Any]) -> list[tuple[str, Any]]:
    """[(name, GeoBox)] of the tiling over the items' footprints (geoms in crs)."""
    from odc.geo.geobox import GeoBox, GeoboxTiles
    from odc.geo.gridspec import GridSpec

    if tiles is None:
        return [("all", union)]
    if isinstance(tiles, GridSpec):
        if crs is not None and tiles.crs != crs:
            raise ValueError(f"tiles (a GridSpec in {tiles.crs}) and crs={crs} differ")
        if resolution is not None and abs(abs(tiles.resolution.x) - abs(_res(resolution))) > 1e-9:
            raise ValueError(f"tiles (a GridSpec of resolution {tiles.resolution}) and resolution={resolution} differ")
        hull = _union_geom(geoms)
        return [(f"x{ix}_y{iy}", g) for (ix, iy), g in tiles.tiles_from_geopolygon(hull)]
    if isinstance(tiles, GeoboxTiles):
        hull = _union_geom([g.to_crs(tiles.base.crs) for g in geoms])
        return [(f"r{iy}_c{ix}", tiles[iy, ix]) for iy, ix in tiles.tiles(hull)]
    if isinstance(tiles, GeoBox):
        return [("cell", tiles)]
    if isinstance(tiles, Mapping):
        out = []
        for k, g in tiles.items():
            if not isinstance(g, GeoBox):
                raise TypeError(f"tiles[{k!r}] must be an odc.geo GeoBox, got {type(g).__name__}")
            out.append((str(k), g))
        return out
    if hasattr(tiles, "geometry") and hasattr(tiles, "crs") and hasattr(tiles, "index"):  # GeoDataFrame
        from odc.geo.geom import Geometry

        if tiles.crs is None:
            raise ValueError("tiles (a GeoDataFrame) has no CRS")
        col = next((c for c in ("name", "id") if c in tiles.columns), None)
        names = [str(v) for v in (tiles[col] if col else tiles.index)]
        out = []
        for name, geom in zip(names, tiles.geometry):
            if geom is None or geom.is_empty:
                raise ValueError(f"tiles: footprint {name!r} is empty")
            g = Geometry(geom, crs=tiles.crs.to_wkt()).to_crs(crs)
            out.append((name, GeoBox.from_geopolygon(g, resolution=resolution, crs=crs, anchor=anchor or "default")))
        return out
    raise TypeError(
        "tiles must be None, an odc.geo GridSpec, GeoboxTiles or GeoBox, a {name: GeoBox} mapping or a "
        f"GeoDataFrame of footprints, not {type(tiles).__name__}"
    )


def _res(resolution: Any) -> float:
    if isinstance(resolution, (int, float, np.integer, np.floating)):
        return float(resolution)
    x = getattr(resolution, "x", None)
    return float(x if x is not None else resolution[0])


def _union_geom(geoms: Sequence[Any]) -> Any:
    from odc.geo.geom import unary_union

    return unary_union(geoms)


def _safe_name(name: str) -> str:
    s = _NAME_OK.sub("-", name)
    if not s or s.startswith("."):
        raise ValueError(f"cell name {name!r} cannot be a file name")
    return s


# --- time ranges ------------------------------------------------------------------------------

_PERIOD = re.compile(r"^P?(\d*)([YMWD])$", re.IGNORECASE)
_EPOCH_MONDAY = np.datetime64("1970-01-05", "D")


def _time_ranges(time: Any) -> Callable[[np.datetime64], tuple[str, str] | None] | None:
    """time= -> a function from a time step's time to (range name, range spec) or None (not
    built); None for one range."""
    if time is None:
        return None
    if isinstance(time, str) and "/" not in time:
        m = _PERIOD.match(time.strip())
        if not m:
            raise ValueError(f"time={time!r}: a period is P<n>Y, P<n>M, P<n>W or P<n>D (e.g. 'P1M')")
        n = int(m.group(1) or 1)
        unit = m.group(2).upper()
        if n < 1:
            raise ValueError(f"time={time!r}: the period must be at least 1")
        spec = f"P{n}{unit}"

        def period(t: np.datetime64) -> tuple[str, str]:
            if unit == "Y":
                y = int(str(t.astype("datetime64[Y]"))[:4])
                y -= y % n
                return f"{y:04d}", spec
            if unit == "M":
                k = int(t.astype("datetime64[M]").astype("int64")) + 1970 * 12
                k -= k % n
                return f"{k // 12:04d}-{k % 12 + 1:02d}", spec
            d = t.astype("datetime64[D]")
            if unit == "W":
                days = int((d - _EPOCH_MONDAY).astype("int64"))
                start = _EPOCH_MONDAY + np.timedelta64(days - days % (7 * n), "D")
            else:
                days = int(d.astype("int64"))
                start = np.datetime64(days - days % n, "D")
            return str(start), spec

        return period
    if isinstance(time, (str, tuple)):
        time = [time]
    ranges = []
    for r in time:
        if isinstance(r, str):
            if "/" not in r:
                raise ValueError(f"time range {r!r} must be 'start/end' or a (start, end) pair")
            r = tuple(r.split("/", 1))
        if not isinstance(r, (tuple, list)) or len(r) != 2:
            raise ValueError(f"time range {r!r} must be a (start, end) pair")
        a, b = (_instant(v, "time range") for v in r)
        if b <= a:
            raise ValueError(f"time range {r!r}: end must be after start (end is exclusive)")
        ranges.append((a, b))
    if not ranges:
        raise ValueError("time= gives no range")
    srt = sorted(ranges)
    for (a0, b0), (a1, b1) in zip(srt, srt[1:]):
        if a1 < b0:
            raise ValueError(f"time ranges {_label(a0)}-{_label(b0)} and {_label(a1)}-{_label(b1)} overlap")

    def explicit(t: np.datetime64) -> tuple[str, str] | None:
        s = t.astype("datetime64[s]")
        for a, b in ranges:
            if a <= s < b:
                return f"{_label(a)}-{_label(b)}", f"{a}/{b}"
        return None

    return explicit


def _instant(v: Any, what: str) -> np.datetime64:
    try:
        if isinstance(v, _dt.datetime) and v.tzinfo is not None:
            v = v.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        if isinstance(v, str) and v.endswith("Z"):
            v = v[:-1]
        d = np.datetime64(v, "s")
    except (ValueError, TypeError):
        raise ValueError(f"{what}: {v!r} is not an ISO 8601 UTC time") from None
    if np.isnat(d):
        raise ValueError(f"{what}: {v!r} is not a time")
    return d


def _label(t: np.datetime64) -> str:
    s = str(t.astype("datetime64[s]"))
    day, clock = s.split("T")
    return day.replace("-", "") + ("" if clock == "00:00:00" else "T" + clock.replace(":", ""))


# --- grouping (odc.stac.load's, through ParsedItem's public API) ------------------------------


def _group_key(groupby: Any, lon: float) -> Callable[[Any, Any, int], Any]:
    if callable(groupby):
        return groupby  # type: ignore[no-any-return]
    if groupby == "time":
        return lambda item, p, i: p.nominal_datetime
    if groupby == "solar_day":
        return lambda item, p, i: p.solar_date_at(lon).date()
    if groupby in ("id", None):
        return lambda item, p, i: i
    return lambda item, p, i: item.properties.get(groupby, None)


def _groups(items: Sequence[Any], parsed: Sequence[Any], idx: Sequence[int], groupby: Any, lon: float) -> list[list[int]]:
    """Groups of item indices (into items) as odc.stac.load forms them for a load of the items
    idx: sorted by (group key, time, id), runs of one key."""
    key = _group_key(groupby, lon)
    local = list(idx)
    keys = {i: key(items[i], parsed[i], k) for k, i in enumerate(local)}
    order = sorted(local, key=lambda i: (keys[i], parsed[i].nominal_datetime, parsed[i].id))
    out: list[list[int]] = []
    for i in order:
        if out and keys[out[-1][0]] == keys[i]:
            out[-1].append(i)
        else:
            out.append([i])
    return out


# --- fingerprints and the manifest ------------------------------------------------------------


def _hrefs(parsed: Any, bands: Sequence[str]) -> list[str | None]:
    """The href (odc-stac's RasterSource.uri) of each band of an item, None where it has none."""
    out = []
    for b in bands:
        try:
            out.append(getattr(parsed.resolve_bands([b])[b], "uri", None))
        except Exception:
            out.append(None)
    return out


def _iso(v: Any) -> str | None:
    """A datetime as ISO 8601 UTC text (None stays None): one form whether the item came from a
    file (strings) or was made in memory (pystac datetimes)."""
    if v is None:
        return None
    if isinstance(v, str):
        from pystac.utils import str_to_datetime

        v = str_to_datetime(v)
    if v.tzinfo is not None:
        v = v.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    return str(v.isoformat())


def _item_record(item: Any, bands: Sequence[str], parsed: Any) -> list[Any]:
    """What a file depends on of one item: its id and collection, its times, its 'updated'
    property, its bands' hrefs (and file:checksum where given)."""
    cm = item.common_metadata
    try:
        updated = _iso(cm.updated)
    except Exception:  # an unparsable 'updated' still counts as it is
        updated = repr(item.properties.get("updated"))
    return [
        item.id,
        item.collection_id,
        [_iso(item.datetime), _iso(cm.start_datetime), _iso(cm.end_datetime)],
        updated,
        _hrefs(parsed, bands),
        [(a.href, a.extra_fields.get("file:checksum")) for k, a in sorted(item.assets.items()) if k in bands],
    ]


def _fingerprint(records: list[Any], params: dict[str, Any]) -> str:
    doc = json.dumps({"format": BUILD_FORMAT, "params": params, "items": sorted(records, key=repr)}, sort_keys=True, default=repr)
    return hashlib.sha256(doc.encode()).hexdigest()


class _Local:
    """A destination folder on this machine."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.created = False

    def url(self, name: str) -> str:
        return os.path.join(self.root, name)

    def check(self) -> None:
        if os.path.exists(self.root) and not os.path.isdir(self.root):
            raise ValueError(f"dest {self.root} exists and is not a folder")

    def prepare(self) -> None:
        if not os.path.isdir(self.root):
            os.makedirs(self.root, exist_ok=True)
            self.created = True

    def read(self, name: str) -> bytes | None:
        try:
            with open(self.url(name), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def size(self, name: str) -> int | None:
        try:
            return os.stat(self.url(name)).st_size
        except FileNotFoundError:
            return None

    def put(self, name: str, data: bytes) -> None:
        path = self.url(name)
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def undo_prepare(self) -> None:
        if self.created:
            try:
                os.rmdir(self.root)
            except OSError:
                pass


class _S3:
    """An s3:// prefix: files through rumi.to_rumi (uploaded with their sidecars at close, aborted
    on failure); the manifest and the catalogue through the core's object store (rumi::store,
    the same client, configured by the AWS_* environment)."""

    def __init__(self, url: str) -> None:
        rest = url[len("s3://"):]
        bucket, _, prefix = rest.partition("/")
        if not bucket:
            raise ValueError(f"dest {url}: no bucket")
        self.bucket, self.prefix = bucket, prefix.strip("/")
        self.root = f"s3://{bucket}" + (f"/{self.prefix}" if self.prefix else "")

    def key(self, name: str) -> str:
        return f"{self.prefix}/{name}" if self.prefix else name

    def url(self, name: str) -> str:
        return f"{self.root}/{name}"

    def check(self) -> None:
        pass

    def prepare(self) -> None:
        pass

    def undo_prepare(self) -> None:
        pass

    def read(self, name: str) -> bytes | None:
        return _rumi.fetch_object(self.url(name), None, missing_ok=True)

    def size(self, name: str) -> int | None:
        return _rumi.object_size(self.url(name))

    def put(self, name: str, data: bytes) -> None:
        _rumi.put_object(self.url(name), bytes(data))


def _destination(dest: str) -> Any:
    if dest.startswith("s3://"):
        return _S3(dest)
    if "://" in dest:
        raise ValueError(f"dest {dest}: rumi.build writes to a local folder or an s3:// prefix")
    return _Local(dest)


def _read_manifest(dest: Any) -> dict[str, Any]:
    try:
        data = dest.read(MANIFEST)
        doc = None if data is None else json.loads(data)
    except (OSError, ValueError) as e:
        print(f"rumi.build: ignoring unreadable manifest {dest.url(MANIFEST)} ({e}); every cell is rebuilt", file=sys.stderr)
        return {}
    if not isinstance(doc, dict) or doc.get("format") != BUILD_FORMAT or not isinstance(doc.get("files"), dict):
        return {}
    return dict(doc["files"])


def _write_manifest(dest: Any, files: dict[str, Any]) -> None:
    dest.put(MANIFEST, json.dumps({"format": BUILD_FORMAT, "files": files}, indent=1, sort_keys=True).encode())


def _up_to_date(dest: Any, name: str, entry: Any, fp: str) -> bool:
    if not isinstance(entry, dict) or entry.get("fingerprint") != fp:
        return False
    try:
        if dest.size(name) != entry.get("size"):
            return False
        blob = dest.read(name + ".header")
        if blob is None or (entry.get("aux") and dest.size(name + ".aux.xml") is None):
            return False  # no sidecar, or the nodata sidecar is gone
    except OSError:
        return False
    return hashlib.sha256(blob).hexdigest() == entry.get("header_sha256")


def _catalogue(dest: Any, names: list[str], sizes: dict[str, int], options: dict[str, Any] | None) -> Any:
    """The rumi.Catalog of the files names, saved as dest/catalog.parquet."""
    import rumi

    if isinstance(dest, _Local):
        return rumi.Catalog.build([dest.url(n) for n in names], dest.url(CATALOG))
    import tempfile

    import pyarrow as pa

    from . import catalog

    rows = []
    for n in names:
        row = catalog.describe(dest.url(n), options=options)
        row["rumi:file_size"] = sizes.get(n, row["rumi:file_size"])  # known here: no HEAD per file
        rows.append(row)
    with tempfile.TemporaryDirectory() as tmp:
        local = os.path.join(tmp, CATALOG)
        rumi.Catalog._write(pa.Table.from_pylist(rows, schema=catalog.schema()), local)
        with open(local, "rb") as f:
            dest.put(CATALOG, f.read())
    return rumi.Catalog.open(dest.url(CATALOG))


def _unreachable(hrefs: Sequence[str], limit: int = 64) -> list[str]:
    """After a cell failed: which of its hrefs GDAL cannot open (rasterio errors rarely name the
    file), as 'href (reason)'; at most limit are tried, 8 at a time."""
    from concurrent.futures import ThreadPoolExecutor

    import rasterio

    def probe(h: str) -> str | None:
        try:
            with rasterio.open(h):
                return None
        except Exception as e:
            return f"{h} ({e})"

    todo = list(dict.fromkeys(h for h in hrefs if h))[:limit]
    with ThreadPoolExecutor(8) as ex:
        return [r for r in ex.map(probe, todo) if r]


# --- writing one cell -------------------------------------------------------------------------


def _cube(xx: Any, bands: Sequence[str]) -> tuple[Any, dict[str, str]]:
    """odc.stac.load's Dataset -> a (time, band, Y, X) DataArray (one sample type) and its dims
    by role: Y and X are odc-geo's names for the CRS (y/x, latitude/longitude for a geographic
    one)."""
    dtypes = {b: xx[b].dtype for b in bands}
    if len(set(dtypes.values())) > 1:
        raise ValueError(f"bands have different sample types {{{', '.join(f'{b}: {d}' for b, d in dtypes.items())}}}: give dtype=")
    ydim, xdim = (str(d) for d in xx.odc.spatial_dims)
    da = xx[list(bands)].to_array("band").transpose("time", "band", ydim, xdim)
    return da, {"time": "time", "band": "band", "y": ydim, "x": xdim}


def _nodata(vals: Sequence[Any]) -> Any:
    """Per-band nodata as rumi.to_rumi takes it: None, one value, or one per band."""
    if all(v is None for v in vals):
        return None
    return list(vals) if len(set(map(repr, vals))) > 1 else vals[0]


def _block_chunks(
    T: int, B: int, Y: int, X: int, itemsize: int, tile_rows: int, chunks: Mapping[str, Any] | None
) -> tuple[dict[str, Any], int | None]:
    """odc.stac.load's chunks for a cell and the block_bytes for rumi.to_rumi that make each of
    its blocks of tile rows exactly one row of load chunks: every chunk feeds one block (never
    loaded twice, whatever the scheduler keeps). Default: blocks of about to_rumi's BLOCK_BYTES
    raw, x chunks of 2048."""
    from ._to_rumi import BLOCK_BYTES

    row_bytes = T * B * X * itemsize
    out = dict(chunks or {})
    out.setdefault("x", DEFAULT_CHUNKS["x"])
    if "y" not in out:
        k = max(1, BLOCK_BYTES // max(1, row_bytes * tile_rows))
        out["y"] = min(k, -(-Y // tile_rows)) * tile_rows
    cy = out["y"]
    if isinstance(cy, int) and cy > 0 and cy % tile_rows == 0:
        return out, row_bytes * cy
    return out, None  # not whole tile rows: to_rumi's own blocks


def _write_cell(da: Any, dest: str, **opts: Any) -> bytes:
    """The one place a cell is written: da (time, band, Y, X; dims by role in opts["dims"], its
    grid opts["geobox"]) -> dest and its sidecars (.header; .aux.xml with nodata), atomically, through rumi.to_rumi: a dask
    array block by block of tile rows, one task per block on the active scheduler."""
    from ._to_rumi import to_rumi

    gbox = opts["geobox"]
    return to_rumi(
        da, dest, dims=opts["dims"], bands=[str(b) for b in da["band"].values], times=opts["times"],
        crs=f"EPSG:{gbox.crs.epsg}", transform=gbox.affine, nodata=opts.get("nodata"), tile=opts.get("tile", 256), level=opts.get("level"),
        frame_unit=opts.get("frame_unit"),
        threads=opts.get("threads"), options=opts.get("options"), block_bytes=opts.get("block_bytes"),
    )


# --- the build --------------------------------------------------------------------------------


def build(
    items: Any,
    dest: str | os.PathLike[str],
    *,
    bands: str | Sequence[str],
    crs: Any = None,
    resolution: Any = None,
    tiles: Any = None,
    time: Any = None,
    groupby: Any = "solar_day",
    chunks: Mapping[str, int] | None = None,
    nodata: float | None = None,
    dtype: Any = None,
    resampling: str | Mapping[str, str] | None = None,
    anchor: Any = None,
    tile: int | tuple[int, int] = 256,
    level: int | None = None,
    frame_unit: int | None = None,
    threads: int | None = None,
    cells_in_flight: int = 2,
    stac_cfg: Any = None,
    patch_url: Callable[[str], str] | None = None,
    storage_options: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Any:
    """Builds rumi cubes (T, B, Y, X) from STAC items into dest (a folder or an s3:// prefix), one per cell of tiles
    and range of time (see the module's text), and returns their rumi.Catalog (also saved as
    dest/catalog.parquet; .report is a BuildReport). Re-running skips what is up to date.

    items: pystac ItemCollection or Items, or a .json/.ndjson/.parquet (stac-geoparquet) file.
    bands: asset keys (or odc-stac aliases). crs ('EPSG:n'), resolution (metres or degrees):
    the output grid, as odc.stac.load takes them (required unless tiles gives the grid).
    groupby, chunks, nodata, dtype, resampling, anchor, stac_cfg, patch_url: odc.stac.load's
    (chunks: y a multiple of the tile height makes each load chunk one block of the writer;
    default: blocks of about 32 MiB raw, x chunks of 2048; the manifest records each file's;
    without nodata= and raster:bands nodata, an integer output takes the source files' own:
    "Nodata" in the module's text).
    tile, level, frame_unit, threads: the rumi files' tile size, OpenZL level, frame layout and
    encoding threads (rumi.to_rumi's; level=0 leaves OpenZL's numeric graph out of the
    candidates: 2.4x the default 7's encode speed and 1.2 % larger files on a Landsat cube, but
    28 % larger on the LANDFIRE fuel classes, where that graph wins: docs/performance.md).
    cells_in_flight: files built at once (threads here; their work runs on the dask scheduler).
    storage_options: object-storage options (as rumi.open's options=) for an s3:// dest.
    progress: called with one line per file. Raises ValueError (nothing written) on bad
    input; BuildError at the end when cells failed."""
    odc_stac, pystac, xr = _deps()
    import rumi

    t0 = _time.perf_counter()
    out_dest = _destination(os.fspath(dest))
    out_dest.check()
    band_list = [bands] if isinstance(bands, str) else list(bands)
    if not band_list or not all(isinstance(b, str) and b for b in band_list):
        raise ValueError(f"bands must be one or more band names, got {bands!r}")
    if len(set(band_list)) != len(band_list):
        raise ValueError(f"bands repeat a name: {band_list}")
    from odc.geo.geobox import GeoBox, GeoboxTiles
    from odc.geo.gridspec import GridSpec

    grid_given = isinstance(tiles, (GridSpec, GeoboxTiles, GeoBox, Mapping))
    if grid_given:
        if isinstance(tiles, GridSpec):
            grid_crs = tiles.crs
        elif isinstance(tiles, GeoboxTiles):
            grid_crs = tiles.base.crs
        elif isinstance(tiles, GeoBox):
            grid_crs = tiles.crs
        else:
            crss = {g.crs for g in tiles.values() if isinstance(g, GeoBox)}
            if len(crss) != 1:
                raise ValueError(f"tiles: the cells must share one CRS, got {len(crss)}")
            grid_crs = crss.pop()
        if crs is not None and _crs(crs) != grid_crs:
            raise ValueError(f"crs={crs} differs from the CRS of tiles ({grid_crs})")
        out_crs = _crs(grid_crs)
    else:
        if crs is None or resolution is None:
            raise ValueError("crs= and resolution= are required (or tiles= giving the grid)")
        out_crs = _crs(crs)
    if resolution is not None:
        try:
            r = _res(resolution)
        except (TypeError, ValueError, IndexError):
            raise ValueError(f"resolution {resolution!r} is not a number or (x, y) pair") from None
        if not (math.isfinite(r) and r != 0):
            raise ValueError(f"resolution {resolution!r} must be a finite non-zero number")
    in_range = _time_ranges(time)

    item_list = load_items(items)
    try:
        parsed = list(odc_stac.parse_items(item_list, cfg=stac_cfg))
    except Exception as e:
        raise ValueError(f"odc-stac cannot read the items: {e}") from None
    _check_bands(parsed, band_list)
    if dtype is None and stac_cfg is None and (untyped := _untyped_bands(item_list, parsed, band_list)):
        have = _file_dtype(parsed[0], untyped[0], patch_url)
        hint = f" (the first item's {untyped[0]} is {have})" if have else ""
        import warnings

        warnings.warn(
            f"rumi.build: the items give no sample type for bands {', '.join(untyped)} (no raster:bands "
            f"data_type), so odc-stac loads them as float32 with NaN for nodata{hint}: pass dtype= "
            f"(rumi-build --dtype) to keep the files' type, e.g. dtype={have or 'uint16'!r}",
            UserWarning, stacklevel=2,
        )
    # the files' own nodata where the items give none: read before anything is written, so that
    # a value the output type cannot hold is refused here, by name
    src_nodata = _source_nodata(parsed, band_list, dtype, patch_url) if nodata is None else {}
    if dtype is not None and np.dtype(dtype).kind in "iu":
        for (_, b), (v, href) in src_nodata.items():
            if not _holds(dtype, v):
                raise _unholdable(b, v, href, dtype)
    geoms = []
    for it, p in zip(item_list, parsed):
        g = p.safe_geometry(out_crs)
        if g is None or g.is_empty:
            raise ValueError(f"item {it.id!r} has no footprint (no geometry and no projection extension)")
        geoms.append(g)
    union = None
    if tiles is None or not grid_given:
        union = _union_geobox(odc_stac, parsed, band_list, out_crs, resolution, anchor)
    cells = _cells(tiles, union, out_crs, resolution, anchor, geoms)
    names = [_safe_name(n) for n, _ in cells]
    if len(set(names)) != len(names):
        raise ValueError(f"tiles: cell names repeat ({sorted({n for n in names if names.count(n) > 1})[:5]})")

    params = {
        "bands": band_list, "crs": out_crs.epsg, "groupby": groupby if isinstance(groupby, str) else getattr(groupby, "__qualname__", repr(groupby)),
        "nodata": nodata, "dtype": None if dtype is None else str(dtype), "resampling": resampling,
        "tile": tile, "level": level, "frame_unit": frame_unit, "stac_cfg": stac_cfg, "chunks": None if chunks is None else dict(chunks),
        "rumi": rumi.CORE_VERSION,
    }
    report = BuildReport()
    say = progress or (lambda s: None)
    manifest = _read_manifest(out_dest)
    produced: list[str] = []  # files of this build that exist (written or up to date)

    # plan: per cell, the whole groups (odc.stac.load's, for that cell) that touch it, by range
    todo: list[tuple[str, Any, list[int], str]] = []  # (file, GeoBox, item indices, fingerprint)
    rounded: dict[str, dict[str, str]] = {}  # file -> {time as the items give it: as stored}
    import shapely

    tree = shapely.STRtree([g.geom for g in geoms])  # the footprints in the cells' CRS
    for (cname, gbox), fname in zip(cells, names):
        ext = gbox.extent.to_crs(out_crs) if gbox.crs != out_crs else gbox.extent
        near = tree.query(ext.geom, predicate="intersects")
        touching = {int(i) for i in near if shapely.intersection(geoms[int(i)].geom, ext.geom).area > 0}
        if not touching:
            report.empty.append(fname)
            continue
        ((lon, _),) = gbox.extent.centroid.to_crs("epsg:4326").points
        jobs: dict[str, tuple[str, list[int]]] = {}
        for grp in _groups(item_list, parsed, range(len(item_list)), groupby, lon):
            if not touching.intersection(grp):
                continue
            given = np.datetime64(parsed[grp[0]].nominal_datetime.replace(tzinfo=None), "us")
            t = _whole_second(given)  # the time the file stores, so its range is the stored time's
            rng = ("", "") if in_range is None else in_range(t)
            if rng is None:
                continue
            out = f"{fname}.rumi" if in_range is None else f"{fname}_{rng[0]}.rumi"
            jobs.setdefault(out, (rng[1], []))[1].extend(grp)
            if t != given:
                rounded.setdefault(out, {})[str(given)] = str(t)
        for out, (rspec, ii) in jobs.items():
            records = [_item_record(item_list[i], band_list, parsed[i]) for i in ii]
            grid = [[float(v) for v in list(gbox.affine)[:6]], [int(v) for v in gbox.shape]]
            fp = _fingerprint(records, dict(params, geobox=grid, range=rspec))
            if out in manifest and _up_to_date(out_dest, out, manifest[out], fp):
                report.skipped.append(out)
                produced.append(out)
                say(f"{out}: up to date")
            else:
                manifest.pop(out, None)
                todo.append((out, gbox, sorted(ii), fp))

    changed = {k: v for out, _, _, _ in todo for k, v in rounded.get(out, {}).items()}
    if changed:
        import warnings

        shown = ", ".join(f"{k} -> {v}" for k, v in sorted(changed.items())[:5])
        more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        warnings.warn(
            f"rumi.build: {len(changed)} time step(s) have a fraction of a second; rumi files store whole seconds, "
            f"so they are stored rounded to the nearest second: {shown}{more}",
            UserWarning, stacklevel=2,
        )
    tile_rows = int(tile if isinstance(tile, (int, np.integer)) else tile[0])

    def _cell_nodata(xx: Any, bands: Sequence[str], ii: Sequence[int]) -> list[Any]:
        """Per band, the cell's nodata: odc-stac's (nodata=, raster:bands), else NaN for a
        floating-point output (odc-stac's fill, onto which it maps the files' nodata), else the
        first of the cell's files' own."""
        out: list[Any] = []
        for b in bands:
            v = xx[b].attrs.get("nodata")
            if v is None and xx[b].dtype.kind == "f":
                v = math.nan
            elif v is None:
                hit = next((src_nodata[(i, b)] for i in ii if (i, b) in src_nodata), None)
                if hit is not None:
                    if not _holds(xx[b].dtype, hit[0]):
                        raise _unholdable(b, hit[0], hit[1], xx[b].dtype)
                    v = hit[0]
            out.append(None if v is None else float(v))
        return out

    def run(job: tuple[str, Any, list[int], str]) -> dict[str, Any]:
        out, gbox, ii, fp = job
        t1 = _time.perf_counter()

        def load(ch: Mapping[str, Any], bands: Sequence[str] = band_list, fill: Any = nodata) -> Any:
            return odc_stac.load(
                [item_list[i] for i in ii], bands=list(bands), geobox=gbox, groupby=groupby, chunks=dict(ch),
                resampling=resampling, dtype=dtype, nodata=fill, fail_on_error=True, stac_cfg=stac_cfg,
                patch_url=patch_url,
            )

        xx = load(chunks or {"x": DEFAULT_CHUNKS["x"], "y": tile_rows})  # lazy: the time steps and sample type
        itemsize = max(xx[b].dtype.itemsize for b in band_list)
        ch, block_bytes = _block_chunks(
            xx.sizes["time"], len(band_list), gbox.shape[0], gbox.shape[1], itemsize, tile_rows, chunks
        )
        if dict(ch) != dict(chunks or {"x": DEFAULT_CHUNKS["x"], "y": tile_rows}):
            xx = load(ch)
        nds = _cell_nodata(xx, band_list, ii)
        refill: dict[Any, list[str]] = {}  # the files' nodata -> the integer bands odc-stac fills with it
        for b, v in zip(band_list, nds):
            if v is not None and xx[b].attrs.get("nodata") is None and xx[b].dtype.kind != "f":
                refill.setdefault(v, []).append(b)
        for v, bs in refill.items():  # lazy loads again: odc-stac fills with v and maps each file's nodata onto it
            again = load(ch, bs, v)
            xx = xx.assign({b: again[b] for b in bs})
        da, dims = _cube(xx, band_list)
        times = [_whole_second(v) for v in xx["time"].values]
        path = out_dest.url(out)
        blob = _write_cell(da, path, dims=dims, geobox=gbox, times=times, nodata=_nodata(nds), tile=tile, level=level,
                           threads=threads, frame_unit=frame_unit, block_bytes=block_bytes, options=storage_options)
        size = out_dest.size(out)
        raw = int(np.prod(da.shape)) * da.dtype.itemsize
        say(f"{out}: {da.shape} {da.dtype} {raw / 1e6:.1f} MB -> {size / 1e6:.1f} MB in {_time.perf_counter() - t1:.1f} s")
        return {
            "fingerprint": fp, "size": size, "header_sha256": hashlib.sha256(blob).hexdigest(),
            "items": [item_list[i].id for i in ii], "shape": list(da.shape), "chunks": dict(ch), "raw": raw,
            "aux": out_dest.size(out + ".aux.xml") is not None,
        }

    if todo:
        out_dest.prepare()
    from concurrent.futures import ThreadPoolExecutor, as_completed

    # cells run concurrently from threads of this process: each one's load and write are tasks
    # on the active dask scheduler, so a cluster is kept busy across cells; the manifest is
    # updated here, as each cell ends
    ex = ThreadPoolExecutor(max(1, int(cells_in_flight)))
    futures = {ex.submit(run, job): job for job in todo}
    try:
        for fut in as_completed(futures):
            out, _, ii, _ = futures[fut]
            try:
                entry = fut.result()
            except Exception as e:  # every cell is tried; the failures are raised at the end
                msg = f"{type(e).__name__}: {e}"
                try:
                    hs = [h for i in ii for h in _hrefs(parsed[i], band_list) if h]
                    bad = _unreachable([patch_url(h) for h in hs] if patch_url else hs)
                except (ImportError, OSError, ValueError, RuntimeError):  # a courtesy: never hide the error itself
                    bad = []
                if bad:
                    msg += f"; unreachable: {', '.join(bad)}"
                report.failed[out] = msg
                say(f"{out}: FAILED {msg}")
                continue
            report.raw_bytes += entry.pop("raw")
            manifest[out] = entry
            _write_manifest(out_dest, manifest)
            report.written.append(out)
            produced.append(out)
    except BaseException:  # Ctrl-C, or a bug here: no new cell starts (those running end)
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown()
    order = {job[0]: k for k, job in enumerate(todo)}
    report.written.sort(key=order.__getitem__)
    report.failed = dict(sorted(report.failed.items(), key=lambda kv: order[kv[0]]))
    report.stale = sorted(set(manifest) - set(produced))
    cat = None
    if produced:
        if report.failed:
            _write_manifest(out_dest, manifest)
        produced.sort(key=lambda n: order.get(n, -1))
        sizes = {n: manifest[n]["size"] for n in produced if n in manifest}
        cat = _catalogue(out_dest, produced, sizes, storage_options)
        cat.report = report
    else:
        out_dest.undo_prepare()
    report.seconds = _time.perf_counter() - t0
    if report.failed:
        lines = "\n".join(f"  {n}: {m}" for n, m in report.failed.items())
        raise BuildError(f"rumi.build: {len(report.failed)} of {len(report.failed) + len(produced)} files failed:\n{lines}", report, cat)
    if cat is None:
        raise ValueError("rumi.build: no item overlaps any cell (or time range): nothing to build")
    return cat


# --- command line: the `rumi-build` console script --------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """`rumi-build ITEMS DEST --bands ... --crs ... --resolution ... [--tile-size N] [--time P1M]`."""
    import argparse

    p = argparse.ArgumentParser(
        prog="rumi-build",
        description="STAC items -> rumi cubes (one per grid cell and time range) and their catalogue (DEST/catalog.parquet)",
    )
    p.add_argument("items", help="STAC ItemCollection (.json), items one per line (.ndjson) or stac-geoparquet (.parquet)")
    p.add_argument("dest", help="output folder or s3://bucket/prefix")
    p.add_argument("--bands", nargs="+", required=True, help="asset keys (or aliases) to load, in band order")
    p.add_argument("--crs", required=True, help="output CRS, e.g. EPSG:32633")
    p.add_argument("--resolution", type=float, required=True, help="pixel size in CRS units")
    p.add_argument("--tile-size", type=int, metavar="PIXELS",
                   help="cells of a grid of PIXELS x PIXELS anchored at the CRS origin (default: one cell over the items)")
    p.add_argument("--anchor", choices=["edge", "center"], default="edge",
                   help="pixel edges (default) or pixel centres on multiples of the resolution: centre suits grids "
                        "whose edges sit half a pixel off (Landsat's 15 m), so that no pixel is resampled")
    p.add_argument("--time", help="time ranges: a period P1Y, P1M, P1W, P1D... or START/END (repeat with commas)")
    p.add_argument("--groupby", default="solar_day", help="odc-stac grouping: solar_day (default), time, id or a property")
    p.add_argument("--resampling", help="odc-stac resampling, e.g. nearest (default), bilinear")
    p.add_argument("--dtype", help="output sample type (default: the bands')")
    p.add_argument("--nodata", type=float, help="output nodata (default: the bands')")
    p.add_argument("--chunk", type=int, help="odc-stac load chunks of N x N pixels (default: blocks of tile rows of about 32 MiB)")
    p.add_argument("--tile", type=int, default=256, help="rumi tile size (default 256)")
    p.add_argument("--level", type=int, help="OpenZL level of the numeric candidate (default 7; 0: without it, "
                   "the fastest to encode and decode, larger on categorical rasters)")
    p.add_argument("--frame-unit", type=int, help="rumi frame_unit 0..9 (default by shape)")
    p.add_argument("--workers", type=int, help="run on a dask LocalCluster of this many worker processes")
    p.add_argument("-q", "--quiet", action="store_true")
    a = p.parse_args(argv)
    tiles = None
    if a.tile_size is not None:
        if a.tile_size < 1:
            p.error("--tile-size must be positive")
        from odc.geo.gridspec import GridSpec

        from odc.geo import XY

        half = a.resolution / 2 if a.anchor == "center" else 0.0
        try:
            tiles = GridSpec(_crs(a.crs), (a.tile_size, a.tile_size), a.resolution, origin=XY(half, half))
        except ValueError as e:
            print(f"rumi-build: {e}", file=sys.stderr)
            return 2
    time: Any = None
    if a.time:
        time = a.time if "/" not in a.time else a.time.split(",")
    if a.workers is not None and a.workers < 1:
        p.error("--workers must be positive")
    client = None
    try:
        if a.workers:
            try:
                from dask.distributed import Client, LocalCluster
            except ImportError as e:
                print(f"rumi-build: --workers runs the build on a dask.distributed LocalCluster, and the distributed "
                      f"package is not installed ({e}): pip install 'rumi[stac]' (or pip install distributed), or leave "
                      "--workers out to build on dask's threads in this process", file=sys.stderr)
                return 2
            client = Client(LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True))
        say = None if a.quiet else (lambda s: print(s, file=sys.stderr))
        import warnings

        warnings.showwarning = lambda m, *_a, **_k: print(f"rumi-build: warning: {str(m).removeprefix('rumi.build: ')}",
                                                           file=sys.stderr)
        cat = build(
            a.items, a.dest, bands=a.bands, crs=a.crs, resolution=a.resolution, tiles=tiles, time=time,
            groupby=a.groupby, chunks=None if a.chunk is None else {"x": a.chunk, "y": a.chunk}, nodata=a.nodata, dtype=a.dtype,
            resampling=a.resampling, tile=a.tile, level=a.level, frame_unit=a.frame_unit, progress=say,
            anchor=None if a.anchor == "edge" else a.anchor,
        )
        r = cat.report
        print(f"{a.dest}: {len(r.written)} written, {len(r.skipped)} up to date, {len(cat)} in {cat.path}")
        return 0
    except BuildError as e:
        print(str(e), file=sys.stderr)
        return 1
    except (ValueError, TypeError, OSError, RumiError) as e:
        print(f"rumi-build: {e}", file=sys.stderr)
        return 2
    finally:
        if client is not None:
            client.close()


if __name__ == "__main__":
    sys.exit(main())
