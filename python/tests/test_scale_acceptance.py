"""Issue 47's acceptance check, end to end as a user would go: a Landsat Collection 2 Level-2
scene (uint16, scale 2.75e-5, offset -0.2, nodata 0), a Sentinel-2 L2A item with its offset
(uint16, scale 1e-4, offset -0.1, nodata 0) and a DEM in feet (int16 decifeet: scale 0.1, unit
"ft", nodata 32767), each a real raster of ../shared/data written by rasterio as a GeoTIFF (the
oracle) with those scales, offsets, units and nodata, then made into rumi files by the
routes a user has: `rumi convert`, `rumi.write` (with rasterio's src.scales/offsets/units) and
`to_rumi` of rioxarray's DataArray (raw, and decoded with mask_and_scale=True). Every rumi file
is read back through GDAL and rasterio (Debian's python3 loading this tree's plugin), the
xarray engine (mask_and_scale both ways, against rioxarray.open_rasterio of the GeoTIFF: the
venv's rasterio wheel carries its own GDAL, which cannot load the plugin), `rumi.open`, the catalogue's columns and ChipDataset (apply_scale True
and False), each against rasterio / rioxarray reading the GeoTIFF: scales, offsets, units, nodata,
raw samples, scaled values and NaN where nodata. Then the STAC route: `rumi.build` over items whose
raster:bands carry scale/offset/unit, against odc.stac.load and the items; and the files served over
HTTP (nginx)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

from conftest import STRICT, need

# run by scripts/test-torch.sh (torch's venv); skipped where torch is absent (scripts/test-python.sh)
torch = pytest.importorskip("torch")
try:
    import pyarrow  # noqa: F401
    import rasterio
    import rioxarray
    import xarray as xr
except ImportError as e:  # RUMI_PY_STRICT=1 (scripts/test-torch.sh installs them): a failure
    need(False, f"the acceptance check needs pyarrow, rasterio, rioxarray and xarray: {e}")

import rumi  # noqa: E402
import rumi.torch as rt  # noqa: E402
from rasterio.windows import Window  # noqa: E402
from rumi.catalog import band_scaling  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("RUMI_DATA_DIR", REPO.parent / "shared" / "data"))
CLI = Path(os.environ.get("RUMI_CLI", REPO / "target" / "release" / "rumi"))
PLUGIN = Path(os.environ.get("RUMI_GDAL_PLUGIN", REPO / "target" / "release" / "libgdal_rumi.so"))
DEBIAN_PYTHON = Path(os.environ.get("RUMI_DEBIAN_PYTHON", "/usr/bin/python3"))
TIME = "2020-05-18"

# name -> (source raster, window (col, row, w, h) or None, scale, offset, unit, nodata)
SCENES = {
    "landsat_c2l2": ("landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif", (700, 600, 300, 260),
                     2.75e-5, -0.2, None, 0),
    "s2_l2a": ("xrspatial_s2_4band_10m_uint16.tif", None, 1e-4, -0.1, None, 0),
    "dem_ft": ("lf_elev_220_mt_hood_utm.tif", (100, 80, 280, 240), 0.1, 0.0, "ft", 32767),
}
ROUTES = ("convert", "write", "to_rumi", "to_rumi_decoded")

# Debian's python3 with osgeo and rasterio over the system GDAL, the plugin in GDAL_DRIVER_PATH:
# what GDAL and rasterio report of each path (argv: a JSON list of [path, npz out])
PLUGIN_READER = r"""
import json, sys
import numpy as np
from osgeo import gdal
import rasterio
gdal.UseExceptions()
out = {}
for path, npz in json.loads(sys.argv[1]):
    ds = gdal.Open(path)
    bands = [ds.GetRasterBand(i + 1) for i in range(ds.RasterCount)]
    g = {"driver": ds.GetDriver().ShortName, "scales": [b.GetScale() for b in bands],
         "offsets": [b.GetOffset() for b in bands], "units": [b.GetUnitType() for b in bands],
         "nodata": [b.GetNoDataValue() for b in bands], "geotransform": list(ds.GetGeoTransform())}
    gdata = ds.ReadAsArray().reshape(ds.RasterCount, ds.RasterYSize, ds.RasterXSize)
    gmask = np.stack([b.GetMaskBand().ReadAsArray() == 0 for b in bands])
    ds = None
    with rasterio.open(path) as src:
        r = {"driver": src.driver, "scales": list(src.scales), "offsets": list(src.offsets),
             "units": list(src.units), "nodata": list(src.nodatavals), "transform": list(src.transform)[:6]}
        m = src.read(masked=True)
    np.savez(npz, gdal=gdata, gdal_mask=gmask, rio=m.data, rio_mask=np.ma.getmaskarray(m))
    out[path] = {"gdal": g, "rasterio": r}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    """{scene: (GeoTIFF oracle, {route: rumi path})}."""
    if not DATA.is_dir():
        if STRICT:
            pytest.fail(f"required by RUMI_PY_STRICT=1: the real rasters folder {DATA} is absent")
        pytest.skip(f"the real rasters folder {DATA} (../shared/data) is absent")
    need(CLI.exists(), f"the rumi CLI {CLI} is not built (cargo build --release -p rumi-cli)")
    d = tmp_path_factory.mktemp("acceptance")
    out = {}
    for name, (src_name, win, scale, offset, unit, nodata) in SCENES.items():
        src_path = DATA / src_name
        need(src_path.is_file(), f"real raster {src_path} is absent")
        with rasterio.open(src_path) as src:
            window = Window(*win) if win else None
            data = src.read(window=window)
            profile = src.profile
            profile.update(driver="GTiff", width=data.shape[2], height=data.shape[1], nodata=nodata,
                           transform=src.window_transform(window) if window else src.transform)
        profile.pop("blockxsize", None), profile.pop("blockysize", None), profile.pop("tiled", None)
        # some nodata samples in every band (a stripe and a corner), kept where the source has them
        data[:, 5:9, :] = nodata
        data[:, :, -3:] = nodata
        B = data.shape[0]
        tif = d / f"{name}.tif"
        with rasterio.open(tif, "w", **profile) as dst:
            dst.write(data)
            dst.scales, dst.offsets = (scale,) * B, (offset,) * B
            if unit:
                dst.units = (unit,) * B
        files = {}
        # 1. the CLI
        p = d / f"{name}.convert.rumi"
        r = subprocess.run([str(CLI), "convert", str(tif), str(p), "--time", TIME, "-q"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert "scale" not in r.stderr.lower(), f"rumi convert still warns about scale/offset: {r.stderr}"
        files["convert"] = p
        # 2. rumi.write with what rasterio reports of the GeoTIFF
        p = d / f"{name}.write.rumi"
        with rasterio.open(tif) as src:
            rumi.write(p, src.read(), bands=[f"band {i}" for i in range(B)], times=[TIME], crs=f"EPSG:{src.crs.to_epsg()}",
                       transform=src.transform, nodata=src.nodata, scales=src.scales, offsets=src.offsets,
                       units=src.units)
        files["write"] = p
        # 3. to_rumi of rioxarray's array (raw: mask_and_scale=False keeps the encoding in attrs)
        p = d / f"{name}.to_rumi.rumi"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rumi.to_rumi(rioxarray.open_rasterio(tif, mask_and_scale=False), p, times=[TIME])
        files["to_rumi"] = p
        # 4. to_rumi of rioxarray's decoded array (mask_and_scale=True: floats, NaN, the encoding)
        p = d / f"{name}.to_rumi_decoded.rumi"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rumi.to_rumi(rioxarray.open_rasterio(tif, mask_and_scale=True), p, times=[TIME])
        files["to_rumi_decoded"] = p
        out[name] = (tif, files)
    return out


@pytest.fixture(scope="module")
def plugin_reads(scenes, tmp_path_factory):
    """{path: ({"gdal": ..., "rasterio": ...}, arrays)} of every GeoTIFF and rumi file, as Debian's
    GDAL and rasterio read them with this tree's plugin."""
    need(PLUGIN.exists(), f"the GDAL plugin {PLUGIN} is not built (cargo build --release --lib)")
    need(DEBIAN_PYTHON.exists(), f"{DEBIAN_PYTHON} (Debian's python3 with GDAL and rasterio) is absent")
    probe = subprocess.run([str(DEBIAN_PYTHON), "-c", "import numpy, osgeo.gdal, rasterio"], capture_output=True, text=True)
    need(probe.returncode == 0, f"{DEBIAN_PYTHON} lacks osgeo or rasterio (apt install python3-gdal python3-rasterio): "
                                f"{probe.stderr.strip()[-200:]}")
    d = tmp_path_factory.mktemp("plugin")
    shutil.copy2(PLUGIN, d / "gdal_RUMI.so")
    paths = [p for tif, files in scenes.values() for p in (tif, *files.values())]
    jobs = [[str(p), str(d / f"{i}.npz")] for i, p in enumerate(paths)]
    env = dict(os.environ, GDAL_DRIVER_PATH=str(d), CPL_LOG="/dev/null")
    env.pop("PYTHONPATH", None)
    r = subprocess.run([str(DEBIAN_PYTHON), "-c", PLUGIN_READER, json.dumps(jobs)], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    meta = json.loads(r.stdout)
    out = {}
    for p, npz in jobs:
        with np.load(npz) as z:
            out[p] = (meta[p], {k: z[k] for k in z.files})
    return out


def params():
    return [pytest.param(s, r, id=f"{s}-{r}") for s in SCENES for r in ROUTES]


def _oracle(tif):
    with rasterio.open(tif) as src:
        m = src.read(masked=True)
        return src.scales, src.offsets, src.units, src.nodatavals, m.data, np.ma.getmaskarray(m)


@pytest.mark.parametrize("scene,route", params())
def test_gdal_and_rasterio_through_the_plugin(scene, route, scenes, plugin_reads):
    tif, files = scenes[scene]
    rf = files[route]
    (want, wa), (got, ga) = plugin_reads[str(tif)], plugin_reads[str(rf)]
    assert got["gdal"]["driver"] == "RUMI" and got["rasterio"]["driver"] == "RUMI"
    for lib in ("gdal", "rasterio"):
        for k in ("scales", "offsets", "units", "nodata"):
            g, w = got[lib][k], want[lib][k]
            if lib == "gdal" and k == "units":  # GTiff says '' where unset, as PAM does
                g, w = [u or "" for u in g], [u or "" for u in w]
            assert g == w, f"{scene} by {route}: {lib}'s {k} {g!r}, of the GeoTIFF {w!r}"
        assert np.array_equal(ga[lib if lib == "gdal" else "rio"], wa[lib if lib == "gdal" else "rio"]), (
            f"{scene} by {route}: {lib}'s samples differ from the GeoTIFF's")
        mk = "gdal_mask" if lib == "gdal" else "rio_mask"
        assert np.array_equal(ga[mk], wa[mk]) and wa[mk].any(), f"{scene} by {route}: {lib}'s nodata mask"
    np.testing.assert_allclose(got["gdal"]["geotransform"], want["gdal"]["geotransform"], rtol=0, atol=1e-6)
    sc, of = SCENES[scene][2:4]
    assert want["rasterio"]["scales"] == [sc] * len(want["rasterio"]["scales"])  # the oracle holds what we set
    assert want["rasterio"]["offsets"] == [of] * len(want["rasterio"]["offsets"])


@pytest.mark.parametrize("scene,route", params())
def test_rumi_open(scene, route, scenes):
    tif, files = scenes[scene]
    scales, offsets, units, nodata, raw, _ = _oracle(tif)
    with rumi.open(files[route]) as ds:
        assert (ds.scales, ds.offsets, ds.units, ds.nodatavals) == (scales, offsets, units, nodata), f"{scene} {route}"
        got = ds.read()
    assert got.shape == (1, *raw.shape) and got.dtype == raw.dtype
    assert np.array_equal(got[0], raw), f"{scene} {route}: raw samples"


@pytest.mark.parametrize("mask_and_scale", [True, False])
@pytest.mark.parametrize("scene,route", params())
def test_xarray_engine_as_rioxarray(scene, route, mask_and_scale, scenes):
    tif, files = scenes[scene]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = rioxarray.open_rasterio(tif, mask_and_scale=mask_and_scale)
        da = xr.open_dataset(files[route], engine="rumi", mask_and_scale=mask_and_scale)["band_data"]
    got = da.isel(time=0)
    what = f"{scene} by {route}, mask_and_scale={mask_and_scale}"
    assert got.dtype == ref.dtype, what
    np.testing.assert_array_equal(got.values, ref.values, err_msg=what)
    if mask_and_scale:
        assert np.isnan(got.values).any(), what + ": no NaN where nodata"
        for k in ("scale_factor", "add_offset", "_FillValue", "dtype"):
            g, r = da.encoding.get(k), ref.encoding.get(k)
            assert g is not None and np.array_equal(np.atleast_1d(g), np.atleast_1d(r)), f"{what}: encoding {k} {g!r} != {r!r}"
    else:
        for k in ("scale_factor", "add_offset", "_FillValue"):
            g, r = got.attrs.get(k), ref.attrs.get(k)
            assert g is not None and np.array_equal(np.atleast_1d(g), np.atleast_1d(r)), f"{what}: attrs {k} {g!r} != {r!r}"
    assert got.attrs.get("units") == ref.attrs.get("units"), f"{what}: units"
    np.testing.assert_array_equal(got.x.values, ref.x.values)
    np.testing.assert_array_equal(got.y.values, ref.y.values)


@pytest.fixture(scope="module")
def catalogs(scenes, tmp_path_factory):
    d = tmp_path_factory.mktemp("cats")
    return {(s, r): rumi.Catalog.build([str(p)], d / f"{s}.{r}.parquet")
            for s, (_, files) in scenes.items() for r, p in files.items()}


@pytest.mark.parametrize("scene,route", params())
def test_catalogue_columns(scene, route, scenes, catalogs):
    tif, _ = scenes[scene]
    scales, offsets, units, nodata, _, _ = _oracle(tif)
    row = catalogs[scene, route].table.to_pylist()[0]
    B = len(scales)
    assert band_scaling(row, B) == (list(scales), list(offsets), [u or "" for u in units]), f"{scene} {route}"
    assert row["rumi:nodata"] == list(nodata), f"{scene} {route}: nodata column"


SIZE = 64


@pytest.mark.parametrize("apply_scale", [True, False])
@pytest.mark.parametrize("scene,route", params())
def test_chip_dataset(scene, route, apply_scale, scenes, catalogs):
    """Chips equal rasterio's windows of the GeoTIFF: raw, or times src.scales plus src.offsets
    (float64 rounded once to float32), NaN where rasterio masks."""
    tif, _ = scenes[scene]
    if apply_scale:
        ds = rt.ChipDataset(catalogs[scene, route], size=SIZE, apply_scale=True)
    else:
        with pytest.warns(RuntimeWarning, match=r"raw samples.*apply_scale=True"):
            ds = rt.ChipDataset(catalogs[scene, route], size=SIZE)
    with rasterio.open(tif) as src:
        H, W = src.height, src.width
        keys = [(0, 0, 0), (0, H - SIZE, W - SIZE), (0, 3, 17)]
        img = ds.__getitems__(keys)["image"]
        assert img.dtype == (torch.float32 if apply_scale else torch.uint16 if src.dtypes[0] == "uint16" else torch.int16)
        for k, (_, r0, c0) in enumerate(keys):
            m = src.read(window=Window(c0, r0, SIZE, SIZE), masked=True)
            if apply_scale:
                v = m.data.astype(np.float64) * np.array(src.scales)[:, None, None] + np.array(src.offsets)[:, None, None]
                v[np.ma.getmaskarray(m)] = np.nan
                want = v.astype(np.float32)
            else:
                want = m.data
            np.testing.assert_array_equal(img[k].numpy().reshape(want.shape), want,
                                          err_msg=f"{scene} by {route} chip ({r0}, {c0})")
        if apply_scale:
            assert torch.isnan(img).any(), "nodata is NaN"


def test_a_mosaic_of_two_scales_is_refused_by_name(scenes, tmp_path):
    """The S2 scene written twice, once with Landsat's scale: one band with two scales."""
    tif, files = scenes["s2_l2a"]
    other = tmp_path / "other.rumi"
    with rasterio.open(tif) as src:
        rumi.write(other, src.read(), bands=[f"band {i}" for i in range(src.count)], times=["2020-06-01"],
                   crs=f"EPSG:{src.crs.to_epsg()}", transform=src.transform, nodata=0, scales=2.75e-5, offsets=-0.2)
    cat = rumi.Catalog.build([str(files["write"]), str(other)], tmp_path / "c.parquet")
    with pytest.raises(rumi.RequestError, match=r"band band 0 has scale 0\.0001, offset -0\.1 in .* and scale "
                                                r"2\.75e-05, offset -0\.2 in .*apply_scale=True"):
        rt.ChipDataset(cat, size=SIZE)
    rt.ChipDataset(cat, size=SIZE, apply_scale=True)  # each file's own scale: accepted


# --- the STAC route: rumi.build over items with raster:bands scale/offset/unit ---------------

def test_build_from_stac_items_keeps_raster_bands(scenes, tmp_path):
    """Two Landsat-C2-L2-like COGs (pieces of the scene) as STAC items whose raster:bands give
    scale, offset and unit; rumi.build's files report them as the items say, and their pixels equal
    odc.stac.load's raw samples and, scaled, odc's values times the items' scale plus offset."""
    try:
        import odc.stac as odc_stac
        import pystac
        from odc.geo.geobox import GeoBox
    except ImportError as e:
        need(False, f"the STAC route needs odc-stac and pystac: {e}")
    import datetime as dt

    import rasterio.warp

    tif, _ = scenes["landsat_c2l2"]
    with rasterio.open(tif) as src:
        data, crs = src.read(), src.crs
        tr = src.transform
    bands = ["red", "nir08"]
    rb = [{"data_type": "uint16", "nodata": 0, "scale": 2.75e-5, "offset": -0.2, "unit": "1"}] * 2
    items = []
    for k, day in enumerate((5, 21)):
        a = data[k:k + 2, :128, :128]
        hrefs = {}
        for b, name in enumerate(bands):
            p = tmp_path / f"{day}_{name}.tif"
            with rasterio.open(p, "w", driver="GTiff", width=128, height=128, count=1, dtype="uint16", crs=crs,
                               transform=tr, nodata=0, tiled=True, blockxsize=64, blockysize=64) as dst:
                dst.write(a[b][None])
            hrefs[name] = p
        when = dt.datetime(2020, 5, day, tzinfo=dt.timezone.utc)
        bbox = list(rasterio.warp.transform_bounds(crs, "EPSG:4326", *rasterio.transform.array_bounds(128, 128, tr)))
        it = pystac.Item(f"LC08_{day}", geometry={"type": "Polygon", "coordinates": [[
            [bbox[0], bbox[1]], [bbox[2], bbox[1]], [bbox[2], bbox[3]], [bbox[0], bbox[3]], [bbox[0], bbox[1]]]]},
            bbox=bbox, datetime=when, properties={"proj:epsg": crs.to_epsg(), "proj:shape": [128, 128],
                                                  "proj:transform": list(tr)[:6]})
        it.stac_extensions = ["https://stac-extensions.github.io/projection/v1.1.0/schema.json",
                              "https://stac-extensions.github.io/raster/v1.1.0/schema.json"]
        for name in bands:
            it.add_asset(name, pystac.Asset(str(hrefs[name]), media_type=pystac.MediaType.COG, roles=["data"],
                                            extra_fields={"raster:bands": rb[:1]}))
        items.append(it)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        cat = rumi.build(items, tmp_path / "built", bands=bands, crs=f"EPSG:{crs.to_epsg()}", resolution=30)
    rows = cat.table.to_pylist()
    assert rows
    for row in rows:
        assert band_scaling(row, 2) == ([2.75e-5] * 2, [-0.2] * 2, ["1"] * 2), row["id"]
        with rumi.open(row["location"]) as ds:
            assert ds.scales == (2.75e-5,) * 2 and ds.offsets == (-0.2,) * 2 and ds.units == ("1",) * 2, row["id"]
            assert ds.nodatavals == (0.0, 0.0), row["id"]
            got = ds.read()
            times = list(ds.times.astype("datetime64[s]"))
            geobox = GeoBox((ds.height, ds.width), ds.transform, ds.crs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PendingDeprecationWarning)
            ref = odc_stac.load(items, bands=bands, geobox=geobox, groupby="solar_day")
        steps = [list(ref.time.values.astype("datetime64[s]")).index(t) for t in times]
        want = np.stack([ref[b].values[steps] for b in bands], 1)
        np.testing.assert_array_equal(got, want, err_msg=row["id"])
        # and scaled by ChipDataset: odc's raw values times the items' scale plus offset, NaN at nodata
        one = rumi.Catalog.build([row["location"]], tmp_path / f"{row['id']}.parquet")
        chips = rt.ChipDataset(one, size=SIZE, apply_scale=True)
        img = chips.__getitems__([(0, 0, 0)])["image"][0].numpy().reshape(len(times), 2, SIZE, SIZE)
        w = want[:, :, :SIZE, :SIZE]
        v = np.where(w == 0, np.nan, w.astype(np.float64) * 2.75e-5 - 0.2).astype(np.float32)
        np.testing.assert_array_equal(img, v, err_msg=row["id"])


def test_over_http(scenes, nginx, tmp_path):
    """The same files served over HTTP (nginx, byte ranges): rumi.open, the catalogue and the xarray
    engine read the sidecar's scales, offsets, units and nodata there too."""
    for scene, (tif, files) in scenes.items():
        src = files["convert"]
        for suffix in ("", ".header", ".aux.xml"):
            shutil.copy(str(src) + suffix, nginx.root / (src.name + suffix))
        url = nginx.url(src.name)
        scales, offsets, units, nodata, raw, _ = _oracle(tif)
        with rumi.open(url) as ds:
            assert (ds.scales, ds.offsets, ds.units, ds.nodatavals) == (scales, offsets, units, nodata), scene
            assert np.array_equal(ds.read()[0], raw), scene
        row = rumi.Catalog.build([url], tmp_path / f"{scene}.parquet").table.to_pylist()[0]
        assert band_scaling(row, len(scales)) == (list(scales), list(offsets), [u or "" for u in units]), scene
        assert row["rumi:nodata"] == list(nodata), scene
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = rioxarray.open_rasterio(tif, mask_and_scale=True)
            da = xr.open_dataset(url, engine="rumi", mask_and_scale=True)["band_data"]
        np.testing.assert_array_equal(da.isel(time=0).values, ref.values, err_msg=scene)
        assert da.encoding.get("scale_factor") == ref.encoding.get("scale_factor"), scene
