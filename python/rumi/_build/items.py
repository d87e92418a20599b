"""The sources of a build: STAC items read and checked, what odc-stac makes of their bands
(sample types, the files' own nodata), and what a file depends on of each item (its record in
the fingerprint). Reads item files and source headers, never a pixel."""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Mapping, Sequence

import numpy as np


#: GDAL settings for reading a source file's header as odc-stac reads it (no sibling listing)
PROBE_ENV = {"GDAL_DISABLE_READDIR_ON_OPEN": "EMPTY_DIR"}

#: (item index, band) -> (the file's own nodata, its href)
SourceNodata = Mapping[tuple[int, str], tuple[float, str]]


def deps() -> tuple[Any, Any, Any]:
    """(odc.stac, pystac, xarray), or an ImportError saying what to install."""
    try:
        import odc.geo  # noqa: F401
        import odc.stac
        import pystac
        import xarray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(f"rumi.build needs odc-stac, odc-geo, pystac and xarray (pip install 'rumi[stac]'): {e}") from None
    return odc.stac, pystac, xarray


def load_items(items: Any) -> list[Any]:
    """A list of pystac Items from an ItemCollection, Items or dicts, or a file: a STAC
    ItemCollection / FeatureCollection (.json, .geojson), one item per line (.ndjson, .jsonl) or
    stac-geoparquet (.parquet, .geoparquet)."""
    _, pystac, _ = deps()

    def item(d: Any, where: str) -> Any:
        try:
            return pystac.Item.from_dict(dict(d))
        except Exception as e:
            raise ValueError(f"{where} is not a STAC Item: {type(e).__name__}: {e}") from None

    out: list[Any]
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


def check_bands(parsed: Sequence[Any], bands: Sequence[str]) -> None:
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


def untyped_bands(item_list: Sequence[Any], parsed: Sequence[Any], bands: Sequence[str]) -> list[str]:
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


def output_itemsize(parsed: Sequence[Any], bands: Sequence[str], dtype: Any) -> int:
    """Bytes per sample of the output as odc-stac types it: dtype=, else the largest of the
    bands' types in the items' metadata (float32 for a band without one). An estimate for a
    plan: the load decides."""
    kinds = []
    for b in bands:
        kind: Any = None
        for p in parsed:
            try:
                kind = getattr(getattr(p.resolve_bands([b])[b], "meta", None), "data_type", None)
            except Exception:  # noqa: BLE001 (this item lacks the band)
                continue
            if kind:
                break
        kinds.append(kind)
    return itemsize_of(kinds, dtype)


def itemsize_of(kinds: Sequence[Any], dtype: Any) -> int:
    """output_itemsize from each band's first sample type in the items (None: none given)."""
    if dtype is not None:
        return int(np.dtype(dtype).itemsize)
    size = 0
    for kind in kinds:
        try:
            size = max(size, np.dtype(kind or "float32").itemsize)
        except TypeError:
            size = max(size, 4)
    return size


def source_nodata(
    parsed: Sequence[Any], bands: Sequence[str], dtype: Any, patch_url: Callable[[str], str] | None
) -> dict[tuple[int, str], tuple[float, str]]:
    """(item index, band) -> (nodata, href) for the bands whose items give no nodata (no
    raster:bands nodata, no stac_cfg one) and that load as integers (dtype=, else the items'
    data_type; odc-stac gives a floating-point output NaN whatever the files say): each file's
    own, read from its header (8 files at a time, each once) as odc-stac reads it when it masks
    that file. A file without nodata is left out, and so is one that cannot be opened (its load
    fails with its own error)."""
    return probe_nodata(nodata_files(parsed, bands, dtype, patch_url))


def nodata_files(
    parsed: Sequence[Any], bands: Sequence[str], dtype: Any, patch_url: Callable[[str], str] | None
) -> dict[tuple[int, str], tuple[str, int]]:
    """(item index, band) -> (href, band index) of the files source_nodata reads."""
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
    return todo


def probe_nodata(todo: Mapping[tuple[int, str], tuple[str, int]]) -> dict[tuple[int, str], tuple[float, str]]:
    """source_nodata's reads: each file of todo once, 8 at a time."""
    if not todo:
        return {}
    import rasterio  # type: ignore[import-untyped,unused-ignore]

    def probe(key: tuple[str, int]) -> float | None:
        uri, bidx = key
        try:
            with rasterio.Env(**PROBE_ENV), rasterio.open(uri) as f:
                v = f.nodatavals[bidx - 1]
        except Exception:  # noqa: BLE001 (see source_nodata)
            return None
        return None if v is None else float(v)

    files = list(dict.fromkeys(todo.values()))
    with ThreadPoolExecutor(min(8, len(files))) as ex:
        found = dict(zip(files, ex.map(probe, files)))
    return {k: (v, f[0]) for k, f in todo.items() if (v := found[f]) is not None}


def unholdable(band: str, v: float, href: str, dtype: Any) -> ValueError:
    """The error for a file's own nodata that the output sample type cannot hold."""
    return ValueError(
        f"band {band}: {href} has nodata {v:g}, which a {np.dtype(dtype)} output cannot hold (the items give no "
        f"nodata, so rumi.build takes the files' own): pass nodata= (rumi-build --nodata) with a "
        f"{np.dtype(dtype)} value, or a dtype= that holds {v:g}"
    )


def file_dtype(parsed: Any, band: str, patch_url: Callable[[str], str] | None) -> str | None:
    """The sample type of band in its first file (one header read), or None."""
    try:
        import rasterio  # type: ignore[import-untyped,unused-ignore]

        src = parsed.bands[parsed.collection.band_key(band)]
        uri = patch_url(src.uri) if patch_url else src.uri
        with rasterio.open(uri) as f:
            return str(f.dtypes[(src.band or 1) - 1])
    except Exception:  # noqa: BLE001 (a hint only)
        return None


#: a band's (scale, offset, unit) as the items give them; (1.0, 0.0, "") when they give none
Scaling = tuple[float, float, str]
NO_SCALING: Scaling = (1.0, 0.0, "")


def band_scaling(item: Any, parsed: Any, band: str) -> Scaling:
    """The scale, offset and unit of an item's band (a value is raw * scale + offset, in unit):
    the raster extension's, found where odc-stac finds a band's data type, nodata and unit
    (odc.stac's band_metadata: the item's properties, then the asset, then the STAC 1.1 `bands`
    entry of the band (`raster:scale`, `raster:offset`, `unit`); the raster extension v1's
    `raster:bands` entry (`scale`, `offset`, `unit`) when no `bands` entry gives any). odc-stac
    loads raw samples and ignores scale and offset; rumi.build records them in the files'
    sidecars. NO_SCALING for a band the item lacks or that gives none; ValueError for a scale or
    offset that is not a finite number."""
    try:
        asset, idx = parsed.collection.band_key(band)
    except (ValueError, KeyError, AttributeError):
        return NO_SCALING
    a = item.assets.get(asset) if hasattr(item, "assets") else None
    if a is None:
        return NO_SCALING
    d = a.to_dict()
    keys = (("raster:scale", "scale"), ("raster:offset", "offset"), ("unit", "unit"))

    def values(src: Any, names: Sequence[str]) -> dict[str, Any]:
        if not isinstance(src, Mapping):
            return {}
        return {k: src[n] for k, n in zip(("scale", "offset", "unit"), names) if src.get(n) is not None}

    got = values(getattr(item, "properties", {}), [k[0] for k in keys]) | values(d, [k[0] for k in keys])
    common = d.get("bands")
    in_bands = {}
    if isinstance(common, list) and 0 < idx <= len(common):
        in_bands = values(common[idx - 1], [k[0] for k in keys])
    got |= in_bands
    rb = d.get("raster:bands")
    bands_empty = not isinstance(common, list) or all(not values(c, [k[0] for k in keys]) for c in common)
    if isinstance(rb, list) and 0 < idx <= len(rb) and bands_empty:
        got |= values(rb[idx - 1], [k[1] for k in keys])
    out: list[Any] = []
    for k, dflt in zip(("scale", "offset"), NO_SCALING[:2]):
        v = got.get(k, dflt)
        try:
            f = float(v)
        except (TypeError, ValueError):
            f = math.nan
        if not math.isfinite(f) or isinstance(v, bool):
            raise ValueError(f"item {item.id!r} band {band}: {k} {v!r} is not a finite number")
        out.append(f)
    return (out[0], out[1], str(got.get("unit", "")))


def hrefs(parsed: Any, bands: Sequence[str]) -> list[str | None]:
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


def item_record(item: Any, bands: Sequence[str], parsed: Any) -> list[Any]:
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
        hrefs(parsed, bands),
        [(a.href, a.extra_fields.get("file:checksum")) for k, a in sorted(item.assets.items()) if k in bands],
    ]


def unreachable(urls: Sequence[str], limit: int = 64) -> list[str]:
    """After a cell failed: which of its hrefs GDAL cannot open (rasterio errors rarely name the
    file), as 'href (reason)'; at most limit are tried, 8 at a time."""
    import rasterio  # type: ignore[import-untyped,unused-ignore]

    def probe(h: str) -> str | None:
        try:
            with rasterio.open(h):
                return None
        except Exception as e:
            return f"{h} ({e})"

    todo = list(dict.fromkeys(h for h in urls if h))[:limit]
    with ThreadPoolExecutor(8) as ex:
        return [r for r in ex.map(probe, todo) if r]
