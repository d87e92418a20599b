"""STAC items over real rasters of the shared data folder, for test_build.py and
bench/build_bench.py: pieces cut with GDAL's command-line tools (gdal_translate -of COG, gdalwarp
for an item in another UTM zone), one single-band COG per asset, items made with pystac (with the
projection and raster extensions, as real catalogues have them) pointing at a base URL (nginx)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

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
