"""rumi.build keeps STAC's raster:bands scale, offset and unit (issue 47): each built file's
Dataset.scales / offsets / units (its .aux.xml sidecar) and its catalogue row equal the items'
raster:bands, and its pixels equal odc.stac.load's raw samples (odc-stac ignores scale and offset
in the pixels). Items that give one band two scales in one file are refused by name before
anything is written. The sources: Landsat C2 L2-like and Sentinel-2 L2A-like COGs written with
rasterio, items made with pystac (local hrefs)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import pytest

import rumi

from conftest import need

try:
    import odc.stac as odc_stac
    import pystac
    import rasterio
    from affine import Affine
except ImportError as e:  # RUMI_PY_STRICT=1 (scripts/test-python.sh installs them): a failure
    need(False, f"rumi.build needs odc-stac, pystac and rasterio: {e}")
from odc.geo.geobox import GeoBox  # noqa: E402

from rumi.catalog import band_scaling  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")

BANDS = ["red", "nir08"]
LANDSAT = {"scale": 2.75e-05, "offset": -0.2}
S2 = {"scale": 0.0001, "offset": -0.1}


def cog(path, seed, x0, y0=4100000.0, shape=(200, 240)):
    """A uint16 COG of surface-reflectance-like samples, nodata 0 (a stripe of it)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(7000, 40000, shape, dtype=np.uint16)
    a[:, :17] = 0
    with rasterio.open(path, "w", driver="COG", width=shape[1], height=shape[0], count=1, dtype="uint16",
                       crs="EPSG:32633", transform=Affine(30, 0, x0, 0, -30, y0), nodata=0, blocksize=256) as dst:
        dst.write(a, 1)
    return a


def item(d, pid, when, x0, seed, bands, y0=4100000.0, shape=(200, 240)):
    """A pystac Item of one COG per band; bands: name -> raster:bands fields besides data_type/nodata."""
    import pyproj
    import shapely.geometry

    xs = [x0, x0 + shape[1] * 30, x0 + shape[1] * 30, x0, x0]
    ys = [y0, y0, y0 - shape[0] * 30, y0 - shape[0] * 30, y0]
    lon, lat = pyproj.Transformer.from_crs(32633, 4326, always_xy=True).transform(xs, ys)
    geom = shapely.geometry.Polygon(zip(lon, lat))
    it = pystac.Item(id=pid, geometry=shapely.geometry.mapping(geom), bbox=list(geom.bounds),
                     datetime=dt.datetime.fromisoformat(when).replace(tzinfo=dt.timezone.utc),
                     properties={"proj:code": "EPSG:32633", "proj:shape": list(shape),
                                 "proj:transform": [30.0, 0.0, x0, 0.0, -30.0, y0]}, collection="c")
    it.stac_extensions = ["https://stac-extensions.github.io/projection/v2.0.0/schema.json",
                          "https://stac-extensions.github.io/raster/v1.1.0/schema.json"]
    for k, (b, extra) in enumerate(bands.items()):
        path = Path(d) / f"{pid}_{b}.tif"
        cog(path, seed * 10 + k, x0, y0, shape)
        it.add_asset(b, pystac.Asset(href=str(path), media_type=pystac.MediaType.COG, roles=["data"],
                                     extra_fields={"raster:bands": [{"data_type": "uint16", "nodata": 0, **extra}]}))
    return it


def raw_equals_odc(cat, items, bands):
    """Every file's pixels equal odc.stac.load's (raw) at its grid and its time steps."""
    for row in cat.table.to_pylist():
        with rumi.open(row["location"]) as ds:
            ref = odc_stac.load(items, bands=bands, geobox=GeoBox((ds.height, ds.width), ds.transform, ds.crs),
                                groupby="solar_day")
            data = ds.read()
            times = list(ds.times.astype("datetime64[s]"))
        assert data.dtype == np.uint16 and ref[bands[0]].dtype == np.uint16
        steps = [list(ref.time.values.astype("datetime64[s]")).index(t) for t in times]  # the file's steps
        want = np.stack([ref[b].values[steps] for b in bands], 1)
        np.testing.assert_array_equal(data, want)


def test_scale_offset_unit_of_raster_bands_are_kept(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    items = [
        item(src, "lc-a", "2021-05-01T10:00:00", 500000.0, 1,
             {"red": dict(LANDSAT, unit="reflectance"), "nir08": dict(LANDSAT)}),
        item(src, "lc-b", "2021-05-09T10:00:00", 503000.0, 2,
             {"red": dict(LANDSAT, unit="reflectance"), "nir08": dict(LANDSAT)}),
    ]
    cat = rumi.build(items, tmp_path / "out", bands=BANDS, crs="EPSG:32633", resolution=30)
    (row,) = cat.table.to_pylist()
    with rumi.open(row["location"]) as ds:
        got = (list(ds.scales), list(ds.offsets), [u or "" for u in ds.units])
    want = ([items[0].assets[b].extra_fields["raster:bands"][0].get("scale", 1.0) for b in BANDS],
            [items[0].assets[b].extra_fields["raster:bands"][0].get("offset", 0.0) for b in BANDS],
            [items[0].assets[b].extra_fields["raster:bands"][0].get("unit", "") for b in BANDS])
    assert got == want
    assert band_scaling(row, 2) == tuple(want)  # the catalogue's columns
    raw_equals_odc(cat, items, BANDS)


def test_sentinel2_offset_split_by_time_and_disagreeing_items_refused(tmp_path):
    """A Sentinel-2 L2A-like item of processing baseline 04.00 (offset) and one before it (none):
    in one file they are refused, naming the band and both items, with nothing written; built
    one month a file, each file keeps its own items' scale and offset."""
    src = tmp_path / "src"
    src.mkdir()
    items = [
        item(src, "s2-old", "2021-12-20T10:00:00", 500000.0, 3, {"red": {"scale": 0.0001}, "nir08": {"scale": 0.0001}}),
        item(src, "s2-new", "2022-01-27T10:00:00", 500000.0, 4, {"red": dict(S2), "nir08": dict(S2)}),
    ]
    out = tmp_path / "out"
    with pytest.raises(ValueError, match=r"band red has scale 0\.0001, offset 0, unit '' in item 's2-old' and scale "
                                         r"0\.0001, offset -0\.1, unit '' in item 's2-new'"):
        rumi.build(items, out, bands=BANDS, crs="EPSG:32633", resolution=30)
    assert not out.exists() or not any(out.iterdir())
    cat = rumi.build(items, out, bands=BANDS, crs="EPSG:32633", resolution=30, time="P1M")
    rows = {r["id"]: r for r in cat.table.to_pylist()}
    assert sorted(rows) == ["all_2021-12", "all_2022-01"]
    for rid, it in (("all_2021-12", items[0]), ("all_2022-01", items[1])):
        rb = [it.assets[b].extra_fields["raster:bands"][0] for b in BANDS]
        want = ([r.get("scale", 1.0) for r in rb], [r.get("offset", 0.0) for r in rb], ["", ""])
        with rumi.open(rows[rid]["location"]) as ds:
            assert (list(ds.scales), list(ds.offsets), [u or "" for u in ds.units]) == want
        assert band_scaling(rows[rid], 2) == tuple(want)
    raw_equals_odc(cat, items, BANDS)
