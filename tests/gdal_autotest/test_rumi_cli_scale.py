"""`rumi convert` / `rumi stack` keep each band's scale, offset and unit where GDAL keeps what a format
has no field for, the PAM sidecar `<file>.aux.xml` (`<Scale>`, `<Offset>`, `<UnitType>`): GDAL reading
the rumi file (gdalinfo -json, rasterio through the plugin, a time step RUMI:"f":t, gdal_translate
-unscale) reports what GDAL reading the source GeoTIFF reports. Sources: real rasters from
../shared/data (skipped, with the reason, when absent) given the scales of real archives with
gdal_translate -a_scale/-a_offset (Landsat Collection 2 L2 surface reflectance, Sentinel-2 L2A's
BOA offset, a DEM in feet)."""

import json
import re
import subprocess

import numpy as np
import pytest
from osgeo import gdal

import rumi_util

RUMI = rumi_util.TARGET / "release" / "rumi"

# (real raster, scale, offset, unit): the repro of issue 47, Landsat C2 L2 SR, Sentinel-2 L2A, feet
CASES = [
    ("lf_elev_220_mt_hood_utm.tif", 0.5, 100.0, "metre"),
    ("landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif", 2.75e-5, -0.2, None),
    ("xrspatial_s2_4band_10m_uint16.tif", 1e-4, -1000.0, None),
    ("eolearn_dem_float32.tif", 0.3048, 0.0, "ft"),
]


def rumi(*args, check=True):
    return subprocess.run([str(RUMI), *map(str, args)], capture_output=True, text=True, check=check)


def real(name):
    path = rumi_util.DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"real raster {path} is absent")
    return path


def scaled_copy(src, dst, scale, offset, unit):
    """A GeoTIFF copy of src whose bands have the scale, offset and unit (as gdal_translate
    -a_scale/-a_offset and SetUnitType give them)."""
    gdal.Translate(str(dst), str(src), scaleParams=None, options=["-a_scale", repr(scale), "-a_offset", repr(offset)])
    if unit:
        ds = gdal.Open(str(dst), gdal.GA_Update)
        for b in range(ds.RasterCount):
            ds.GetRasterBand(b + 1).SetUnitType(unit)
        ds = None
    return dst


def scaling(name):
    """Per band: (scale, offset, unit) as gdalinfo -json says."""
    info = json.loads(subprocess.run(["gdalinfo", "-json", str(name)], capture_output=True, text=True,
                                     check=True).stdout)
    return [(b.get("scale"), b.get("offset"), b.get("unit")) for b in info["bands"]]


def unscaled(name):
    """The values GDAL computes from the scale and offset (gdal_translate -unscale -ot Float64)."""
    ds = gdal.Translate("", str(name), format="MEM", unscale=True, outputType=gdal.GDT_Float64)
    return ds.ReadAsArray()


@pytest.mark.parametrize("name,scale,offset,unit", CASES)
def test_convert_keeps_scale_offset_unit(tmp_path, name, scale, offset, unit):
    src = scaled_copy(real(name), tmp_path / "src.tif", scale, offset, unit)
    out = tmp_path / "f.rumi"
    r = rumi("convert", src, out, "--time", "2020-01-01", "--allow-nodata-loss")
    assert "is not stored" not in r.stderr, r.stderr
    assert "scale, offset and unit of" in r.stderr, r.stderr
    expected = scaling(src)
    assert expected[0][:2] == (scale, offset) and expected[0][2] == unit  # the oracle holds them
    assert scaling(out) == expected
    # exactly: the values GDAL derives from them are the source's, bit for bit
    np.testing.assert_array_equal(unscaled(out), unscaled(src))
    # rasterio through the plugin, as it reads the source
    rasterio = pytest.importorskip("rasterio")
    with rasterio.open(src) as a, rasterio.open(out) as b:
        assert (b.scales, b.offsets, b.units) == (a.scales, a.offsets, a.units)
    # rumi info says them
    line = next(x for x in rumi("info", out).stdout.splitlines() if x.startswith("scale "))
    said = re.findall(r"GDAL band \d+: raw \* ([^ ,]+) \+ ([^ ,]+)", line)
    assert [(float(s), float(o)) for s, o in said] == [(scale, offset)] * len(expected), line
    assert (unit or "") in line
    # a convert of a source without them replaces rumi's sidecar: GDAL reports none
    rumi("convert", real(name), out, "--time", "2020-01-01", "--allow-nodata-loss", "-q")
    assert all(s in (None, 1.0) and o in (None, 0.0) and not u for s, o, u in scaling(out))


def test_stack_keeps_them_per_time_step_and_refuses_differences(tmp_path):
    src = real("lf_elev_220_mt_hood_utm.tif")
    a = scaled_copy(src, tmp_path / "a.tif", 0.5, 100.0, "metre")
    b = scaled_copy(src, tmp_path / "b.tif", 0.5, 100.0, "metre")
    out = tmp_path / "s.rumi"
    rumi("stack", a, b, out, "--times", "2020-01-01,2020-02-01", "-q")
    assert scaling(out) == scaling(a) * 2
    assert scaling(f'RUMI:"{out}":1') == scaling(b)
    # a band scaled differently in another source is refused, naming both (never the first one's)
    c = scaled_copy(src, tmp_path / "c.tif", 0.25, 100.0, "metre")
    r = rumi("stack", a, c, tmp_path / "x.rumi", "--times", "2020-01-01,2020-02-01", check=False)
    assert r.returncode != 0
    assert "scales, offsets or units differ" in r.stderr and "scale 0.25" in r.stderr and "scale 0.5" in r.stderr
    assert not (tmp_path / "x.rumi").exists()
    d = scaled_copy(src, tmp_path / "d.tif", 0.5, 100.0, "foot")
    r = rumi("stack", a, d, tmp_path / "x.rumi", "--times", "2020-01-01,2020-02-01", check=False)
    assert r.returncode != 0 and 'unit "foot"' in r.stderr, r.stderr


def test_non_finite_scale_is_refused(tmp_path):
    src = real("gdal_byte.tif")
    bad = tmp_path / "nan.tif"
    gdal.Translate(str(bad), str(src))
    ds = gdal.Open(str(bad), gdal.GA_Update)
    ds.GetRasterBand(1).SetScale(float("nan"))
    ds = None
    r = rumi("convert", bad, tmp_path / "x.rumi", "--time", "2020-01-01", check=False)
    assert r.returncode != 0 and "not finite numbers" in r.stderr, r.stderr
