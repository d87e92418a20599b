"""STAC items over real rasters of the shared data folder, for test_build.py and
bench/build_bench.py: pieces cut with GDAL's command-line tools (gdal_translate -of COG, gdalwarp
for an item in another UTM zone), one single-band COG per asset, items made with pystac (with the
projection and raster extensions, as real catalogues have them) pointing at a base URL (nginx)."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import numpy as np

LANDSAT = "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"
S1 = {
    "S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif": "2015-03-09T17:30:17Z",
    "S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif": "2017-03-09T05:43:56Z",
}
LANDSAT_BANDS = ("red", "green", "blue")

# Landsat pieces (EPSG:32621, 30 m): id -> (srcwin x, y, w, h, datetime, extra gdal options).
# lc-a and lc-c share a solar day (one mosaicked time step); lc-c's values are halved so that the
# mosaic's order shows; lc-d is warped to the next UTM zone (EPSG:32622).
PIECES = {
    "lc-a": ((0, 0, 700, 640), "2020-05-18T13:45:00Z", []),
    "lc-b": ((500, 300, 700, 600), "2020-06-03T13:45:10Z", []),
    "lc-c": ((300, 560, 640, 600), "2020-05-18T13:45:20.250Z", ["-scale", "0", "65535", "0", "32767"]),
    "lc-d": ((1000, 900, 600, 560), "2020-07-05T13:44:00Z", "warp"),
}
# the benchmark's larger pieces: the whole scene in four overlapping quarters, two dates
BENCH_PIECES = {
    "q-nw": ((0, 0, 1100, 1000), "2020-05-18T13:45:00Z", []),
    "q-ne": ((940, 0, 1101, 1000), "2020-05-18T13:45:05Z", []),
    "q-sw": ((0, 860, 1100, 1000), "2020-06-03T13:45:00Z", []),
    "q-se": ((940, 860, 1101, 1000), "2020-06-03T13:45:05Z", []),
}


def run(*args):
    r = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))}: {r.stderr}")
    return r.stdout


def cog(src, dst, *opts):
    run("gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKSIZE=256", *opts, src, dst)


def warp(src, dst, epsg=32622, nodata=0):
    """src warped to a UTM zone as a COG whose collar (and nodata) is nodata."""
    run("gdalwarp", "-q", "-overwrite", "-t_srs", f"EPSG:{epsg}", "-tr", "30", "30", "-r", "near",
        "-dstnodata", nodata, "-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKSIZE=256", src, dst)


def strip_raster_bands(items):
    """The items without the raster extension's band metadata (as a hand-made catalogue has
    them): odc-stac then knows neither the sample type nor the nodata of their files."""
    for it in items:
        for a in it.assets.values():
            a.extra_fields.pop("raster:bands", None)
    return items


def make_cogs(data_dir, out, pieces=None):
    """Writes the COGs into out: {collection: [(id, datetime, {band: file name})]}."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    landsat = Path(data_dir) / LANDSAT
    cols = {"landsat": [], "s1": []}
    for pid, (win, dt, extra) in (pieces or PIECES).items():
        assets = {}
        for bi, band in enumerate(LANDSAT_BANDS, 1):
            name = f"{pid}_{band}.tif"
            if extra == "warp":
                tmp = out / f"{pid}_{band}_src.tif"
                run("gdal_translate", "-q", "-b", bi, "-srcwin", *win, landsat, tmp)
                warp(tmp, out / name)
                tmp.unlink()
            else:
                cog(landsat, out / name, "-b", bi, "-srcwin", *win, *extra)
            assets[band] = name
        cols["landsat"].append((pid, dt, assets))
    if pieces is None:
        for fname, dt in S1.items():
            pid = "s1-" + dt[:10]
            cog(Path(data_dir) / fname, out / f"{pid}_vv.tif")
            cols["s1"].append((pid, dt, {"vv": f"{pid}_vv.tif"}))
    return cols


def _grid(path):
    """(epsg, shape, transform in STAC order, nodata, data type, footprint in EPSG:4326) of a
    raster, from gdalinfo -json."""
    info = json.loads(run("gdalinfo", "-json", path))
    gt = info["geoTransform"]
    wkt = info["coordinateSystem"]["wkt"]
    epsg = None
    for line in reversed(wkt.splitlines()):
        if 'ID["EPSG"' in line:
            epsg = int(line.split(",")[-1].strip(" ]\n"))
            break
    band = info["bands"][0]
    footprint = info["wgs84Extent"]
    return epsg, [info["size"][1], info["size"][0]], [gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]], \
        band.get("noDataValue"), band["type"], footprint


_TYPES = {"UInt16": "uint16", "Float32": "float32", "Byte": "uint8", "Int16": "int16"}


def make_items(cog_dir, base_url, entries, collection):
    """pystac Items (projection + raster extensions) of entries made by make_cogs, served at
    base_url."""
    import pystac
    import shapely.geometry

    items = []
    for pid, dt, assets in entries:
        first = Path(cog_dir) / next(iter(assets.values()))
        epsg, shape, tr, nodata, gtype, footprint = _grid(first)
        geom = shapely.geometry.shape(footprint)
        item = pystac.Item(
            id=pid, geometry=footprint, bbox=list(geom.bounds),
            datetime=pystac.utils.str_to_datetime(dt),
            properties={"proj:code": f"EPSG:{epsg}", "proj:shape": shape,
                        "proj:transform": tr, "updated": "2026-01-01T00:00:00Z"},
            collection=collection,
        )
        item.stac_extensions = [
            "https://stac-extensions.github.io/projection/v2.0.0/schema.json",
            "https://stac-extensions.github.io/raster/v1.1.0/schema.json",
        ]
        for band, name in assets.items():
            rb = {"data_type": _TYPES[gtype]}
            if nodata is not None:
                rb["nodata"] = nodata
            item.add_asset(band, pystac.Asset(
                href=f"{base_url.rstrip('/')}/{name}", media_type=pystac.MediaType.COG, roles=["data"],
                extra_fields={"raster:bands": [rb]}))
        items.append(item)
    return items


def synthetic_items(entries, epsg=32633, res=10.0, base_url="http://127.0.0.1:9/none/"):
    """pystac Items over no file (hrefs that are never opened), for plans: entries are (id,
    datetime, (x0, y0) upper-left corner in EPSG:epsg, (rows, cols)); every asset is uint16
    with nodata 0 in the raster extension, so planning reads no source header either."""
    import pystac
    import pyproj
    import shapely.geometry

    to_ll = pyproj.Transformer.from_crs(epsg, 4326, always_xy=True)
    items = []
    for pid, dt, (x0, y0), (rows, cols) in entries:
        xs = [x0, x0 + cols * res, x0 + cols * res, x0, x0]
        ys = [y0, y0, y0 - rows * res, y0 - rows * res, y0]
        lon, lat = to_ll.transform(xs, ys)
        geom = shapely.geometry.Polygon(zip(lon, lat))
        item = pystac.Item(
            id=pid, geometry=shapely.geometry.mapping(geom), bbox=list(geom.bounds),
            datetime=pystac.utils.str_to_datetime(dt),
            properties={"proj:code": f"EPSG:{epsg}", "proj:shape": [rows, cols],
                        "proj:transform": [res, 0.0, x0, 0.0, -res, y0], "updated": "2026-01-01T00:00:00Z"},
            collection="synthetic",
        )
        item.stac_extensions = [
            "https://stac-extensions.github.io/projection/v2.0.0/schema.json",
            "https://stac-extensions.github.io/raster/v1.1.0/schema.json",
        ]
        for band in LANDSAT_BANDS:
            item.add_asset(band, pystac.Asset(
                href=f"{base_url}{pid}_{band}.tif", media_type=pystac.MediaType.COG, roles=["data"],
                extra_fields={"raster:bands": [{"data_type": "uint16", "nodata": 0}]}))
        items.append(item)
    return items


# --- a Sentinel-2 L2A-like stac-geoparquet table (bench/build_bench.py --plan, test_build_scale.py)
# 100 MGRS-like tiles of 109.8 km (UTM zones 32 and 33, 5 x 10 tiles each, 100 km apart, so that
# neighbours overlap by 9.8 km), each acquired on 3 of every 11 days at about 10:30 solar time
# with milliseconds; items as Earth Search v1 serves them (the 12 bands, SCL, AOT, WVP, the
# true-colour image, thumbnail and metadata; the projection extension per asset, raster and eo
# bands, about 50 properties), a third of the footprints cut diagonally (a swath's edge). The
# hrefs point at sentinel-cogs URLs that planning never opens.

S2_ASSETS = {  # key -> (band name, common name, resolution m, centre µm, width µm)
    "coastal": ("B01", "coastal", 60, 0.443, 0.027), "blue": ("B02", "blue", 10, 0.49, 0.098),
    "green": ("B03", "green", 10, 0.56, 0.045), "red": ("B04", "red", 10, 0.665, 0.038),
    "rededge1": ("B05", "rededge", 20, 0.704, 0.019), "rededge2": ("B06", "rededge", 20, 0.74, 0.018),
    "rededge3": ("B07", "rededge", 20, 0.783, 0.028), "nir": ("B08", "nir", 10, 0.842, 0.145),
    "nir08": ("B8A", "nir08", 20, 0.865, 0.033), "nir09": ("B09", "nir09", 60, 0.945, 0.026),
    "swir16": ("B11", "swir16", 20, 1.61, 0.143), "swir22": ("B12", "swir22", 20, 2.19, 0.242),
}
S2_ZONES = (32, 33)
S2_COLS = range(1, 6)
S2_ROWS = range(10)
S2_SIDE = 109_800.0


def s2_tiles():
    """The 100 MGRS-like tiles: zones 32 and 33, columns 1..5 (x 299980..699980), rows 0..9
    (y 5300040 down to 4400040), each with its footprint in EPSG:4326 (4 points a side), its
    swath-cut footprint and its centre's longitude."""
    import pyproj
    out = []
    for z in S2_ZONES:
        to_ll = pyproj.Transformer.from_crs(32600 + z, 4326, always_xy=True)
        for c in S2_COLS:
            for r in S2_ROWS:
                x0, y0 = 199_980.0 + 100_000 * c, 5_300_040.0 - 100_000 * r
                k = np.linspace(0, 1, 5)[:-1]
                xs = np.r_[x0 + k * S2_SIDE, np.full(4, x0 + S2_SIDE), x0 + S2_SIDE - k * S2_SIDE, np.full(4, x0), x0]
                ys = np.r_[np.full(4, y0), y0 - k * S2_SIDE, np.full(4, y0 - S2_SIDE), y0 - S2_SIDE + k * S2_SIDE, y0]
                lon, lat = to_ll.transform(xs, ys)
                # a swath edge: the eastern part cut off diagonally (real data footprints)
                cxs = np.array([x0, x0 + 0.7 * S2_SIDE, x0 + 0.4 * S2_SIDE, x0, x0])
                cys = np.array([y0, y0, y0 - S2_SIDE, y0 - S2_SIDE, y0])
                clon, clat = to_ll.transform(cxs, cys)
                mid_lon, _ = to_ll.transform(x0 + S2_SIDE / 2, y0 - S2_SIDE / 2)
                band = "TU"[int(to_ll.transform(x0, y0 - S2_SIDE / 2)[1] >= 48)]
                sq = "ABCDEFGHJK"[c] + "LMNPQRSTUV"[r]
                out.append(dict(zone=z, col=(z - 32) * 5 + c - 1, row=r, x0=x0, y0=y0, code=f"{z}{band}{sq}", band=band, sq=sq,
                                ring=[[float(a), float(b)] for a, b in zip(lon, lat)],
                                cut=[[float(a), float(b)] for a, b in zip(clon, clat)], lon=mid_lon))
    return out

def s2_item(t, day, k, rng, year):
    """Tile t's item of day `day` of `year` (the k-th acquisition) as Earth Search v1 gives a
    Sentinel-2 L2A item: a dict."""
    sat = "AB"[(day + t["col"]) % 2]
    date = np.datetime64(f"{year}-01-01") + np.timedelta64(day, "D")
    secs = 10.5 * 3600 - t["lon"] * 240 + t["row"] * 14.3 + rng.integers(0, 1000) / 1000
    stamp = (date.astype("datetime64[ms]") + np.timedelta64(int(round(secs * 1000)), "ms"))
    dt = str(stamp) + "Z"
    ymd = str(date).replace("-", "")
    iid = f"S2{sat}_{t['code']}_{ymd}_0_L2A"
    base = f"https://sentinel-cogs.s3.us-west-2.amazonaws.com/sentinel-s2-l2a-cogs/{t['zone']}/{t['band']}/{t['sq']}/{year}/{int(str(date)[5:7])}/{iid}"
    cut = (day + t["col"]) % 3 == 0
    ring = t["cut"] if cut else t["ring"]
    lons, lats = [p[0] for p in ring], [p[1] for p in ring]
    cloud = float(rng.uniform(0, 100))
    assets = {}
    for key, (bname, common, res, cw, fw) in S2_ASSETS.items():
        n = int(S2_SIDE // res)
        assets[key] = {
            "href": f"{base}/{bname}.tif", "type": "image/tiff; application=geotiff; profile=cloud-optimized",
            "title": f"{common.capitalize()} ({bname}) - {res}m", "gsd": res,
            "eo:bands": [{"name": bname, "common_name": common, "description": f"{common} band", "center_wavelength": cw,
                          "full_width_half_max": fw}],
            "proj:shape": [n, n], "proj:transform": [float(res), 0.0, t["x0"], 0.0, -float(res), t["y0"]],
            "raster:bands": [{"nodata": 0, "data_type": "uint16", "bits_per_sample": 15, "spatial_resolution": res,
                              "scale": 0.0001, "offset": -0.1}],
            "roles": ["data", "reflectance"],
        }
    for key, res, dtype, title in (("scl", 20, "uint8", "Scene classification map (SCL)"), ("aot", 20, "uint16", "Aerosol optical thickness (AOT)"),
                                   ("wvp", 20, "uint16", "Water vapour (WVP)")):
        n = int(S2_SIDE // res)
        assets[key] = {"href": f"{base}/{key.upper()}.tif", "type": "image/tiff; application=geotiff; profile=cloud-optimized",
                       "title": title, "proj:shape": [n, n], "proj:transform": [float(res), 0.0, t["x0"], 0.0, -float(res), t["y0"]],
                       "raster:bands": [{"nodata": 0, "data_type": dtype, "bits_per_sample": 8 if dtype == "uint8" else 15,
                                         "spatial_resolution": res, "unit": "none"}], "roles": ["data"]}
    assets["visual"] = {"href": f"{base}/TCI.tif", "type": "image/tiff; application=geotiff; profile=cloud-optimized",
                        "title": "True color image", "proj:shape": [10980, 10980],
                        "proj:transform": [10.0, 0.0, t["x0"], 0.0, -10.0, t["y0"]], "roles": ["visual"]}
    assets["thumbnail"] = {"href": f"{base}/thumbnail.jpg", "type": "image/jpeg", "title": "Thumbnail image", "roles": ["thumbnail"]}
    assets["granule_metadata"] = {"href": f"{base}/granule_metadata.xml", "type": "application/xml", "roles": ["metadata"]}
    assets["tileinfo_metadata"] = {"href": f"{base}/tileinfo_metadata.json", "type": "application/json", "roles": ["metadata"]}
    pct = rng.dirichlet(np.ones(6)) * 100
    props = {
        "datetime": dt, "created": f"{year + 1}-02-01T00:00:00.000Z", "updated": f"{year + 1}-02-01T00:00:00.000Z",
        "platform": f"sentinel-2{sat.lower()}", "constellation": "sentinel-2", "instruments": ["msi"],
        "eo:cloud_cover": cloud, "proj:epsg": 32600 + t["zone"], "mgrs:utm_zone": t["zone"],
        "mgrs:latitude_band": t["band"], "mgrs:grid_square": t["sq"], "grid:code": f"MGRS-{t['code']}",
        "view:sun_azimuth": float(rng.uniform(140, 170)), "view:sun_elevation": float(rng.uniform(20, 65)),
        "s2:degraded_msi_data_percentage": 0.0, "s2:nodata_pixel_percentage": 33.3 if cut else 0.0,
        "s2:saturated_defective_pixel_percentage": 0.0, "s2:dark_features_percentage": float(pct[0]),
        "s2:cloud_shadow_percentage": float(pct[1]), "s2:vegetation_percentage": float(pct[2]),
        "s2:not_vegetated_percentage": float(pct[3]), "s2:water_percentage": float(pct[4]),
        "s2:unclassified_percentage": float(pct[5]), "s2:medium_proba_clouds_percentage": cloud / 3,
        "s2:high_proba_clouds_percentage": cloud / 3, "s2:thin_cirrus_percentage": cloud / 3,
        "s2:snow_ice_percentage": 0.0, "s2:product_type": "S2MSI2A", "s2:processing_baseline": "05.09",
        "s2:product_uri": f"S2{sat}_MSIL2A_{ymd}T101559_N0509_R065_T{t['code']}_{ymd}T120000.SAFE",
        "s2:generation_time": f"{date}T12:00:00.000000Z", "s2:datatake_id": f"GS2{sat}_{ymd}T101559_0{k:05d}_N05.09",
        "s2:datatake_type": "INS-NOBS", "s2:datastrip_id": f"S2{sat}_OPER_MSI_L2A_DS_2BPS_{ymd}T120000_S{ymd}T101559_N05.09",
        "s2:granule_id": f"S2{sat}_OPER_MSI_L2A_TL_2BPS_{ymd}T120000_A0{k:05d}_T{t['code']}_N05.09",
        "s2:reflectance_conversion_factor": 1.0 + 0.03 * math.cos(2 * math.pi * day / 365),
        "s2:sequence": "0", "processing:software": {"sentinel2-to-stac": "0.1.1"},
        "earthsearch:s3_path": f"s3://sentinel-cogs/sentinel-s2-l2a-cogs/{t['zone']}/{t['band']}/{t['sq']}/{year}/{iid}",
        "earthsearch:payload_id": f"roda-sentinel2/workflow-sentinel2-to-stac/{k:032x}", "earthsearch:boa_offset_applied": True,
    }
    return {
        "type": "Feature", "stac_version": "1.0.0", "id": iid, "collection": "sentinel-2-l2a",
        "stac_extensions": [
            "https://stac-extensions.github.io/eo/v1.1.0/schema.json", "https://stac-extensions.github.io/projection/v1.1.0/schema.json",
            "https://stac-extensions.github.io/raster/v1.1.0/schema.json", "https://stac-extensions.github.io/view/v1.0.0/schema.json",
            "https://stac-extensions.github.io/grid/v1.0.0/schema.json", "https://stac-extensions.github.io/mgrs/v1.0.0/schema.json",
            "https://stac-extensions.github.io/processing/v1.1.0/schema.json", "https://stac-extensions.github.io/file/v2.1.0/schema.json",
        ],
        "geometry": {"type": "Polygon", "coordinates": [ring]}, "bbox": [min(lons), min(lats), max(lons), max(lats)],
        "properties": props, "assets": assets,
        "links": [{"rel": "self", "type": "application/geo+json", "href": f"https://earth-search.aws.element84.com/v1/collections/sentinel-2-l2a/items/{iid}"},
                  {"rel": "canonical", "href": f"s3://sentinel-cogs/sentinel-s2-l2a-cogs/{iid}/{iid}.json", "type": "application/json"},
                  {"rel": "license", "href": "https://sentinel.esa.int/documents/247904/690755/Sentinel_Data_Legal_Notice"},
                  {"rel": "parent", "type": "application/json", "href": "https://earth-search.aws.element84.com/v1/collections/sentinel-2-l2a"}],
    }


def s2_acquisitions(n):
    """(tile, day, k, year) of the first n acquisitions from 2023-01-01 on: each tile on 3 of
    every 11 days (about 100 a year), a tile column's days shifted as relative orbits are."""
    tiles = s2_tiles()
    k = 0
    year = 2023
    while True:
        for day in range(365):
            for t in tiles:
                if (day + 2 * t["col"]) % 11 in (0, 4, 7):
                    yield t, day, k, year
                    k += 1
                    if k == n:
                        return
        year += 1


def s2_dicts(n, seed=40):
    """The first n items as dicts."""
    rng = np.random.default_rng(seed)
    return [s2_item(t, day, k, rng, year) for t, day, k, year in s2_acquisitions(n)]


def make_s2_table(n, path, chunk=5000, dicts=None):
    """The stac-geoparquet table of the first n acquisitions (or of dicts), row groups of chunk
    items, written to path; returns the Arrow table."""
    import pyarrow as pa
    import stac_geoparquet.arrow as sga

    rng = np.random.default_rng(40)
    source = iter(dicts) if dicts is not None else (s2_item(t, day, k, rng, year) for t, day, k, year in s2_acquisitions(n))
    tables, batch = [], []
    for d in source:
        batch.append(d)
        if len(batch) == chunk:
            tables.append(sga.parse_stac_items_to_arrow(batch).read_all())
            batch = []
    if batch:
        tables.append(sga.parse_stac_items_to_arrow(batch).read_all())
    schema = tables[0].schema
    table = pa.concat_tables([t.cast(schema) if t.schema != schema else t for t in tables])
    sga.to_parquet(table, path)
    return table
