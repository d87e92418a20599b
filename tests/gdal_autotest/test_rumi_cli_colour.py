"""`rumi convert` / `rumi stack` keep the sources' colour interpretation and palettes where GDAL
keeps what a format has no field for, the PAM sidecar `<file>.aux.xml`: GDAL reading the rumi file
(gdalinfo -json, a time step RUMI:"f":t, gdal_translate -of COG from it) reports what GDAL reading
the source reports. The real rasters come from ../shared/data (skipped, with the reason, when it is
absent); the palette source is made here with GDAL (no real raster has one)."""

import json
import subprocess

import numpy as np
import pytest
from osgeo import gdal

import rumi_util

RUMI = rumi_util.TARGET / "release" / "rumi"
REAL = ["naip_m_3607824_se_17_1_20160620_sub.tif", "rasterio_RGB.byte.tif", "gdal_byte.tif"]


def rumi(*args):
    return subprocess.run([str(RUMI), *map(str, args)], capture_output=True, text=True, check=True)


def colours(name):
    """Per band: (colorInterpretation, colour table entries or None), as gdalinfo -json says."""
    info = json.loads(subprocess.run(["gdalinfo", "-json", str(name)], capture_output=True, text=True,
                                     check=True).stdout)
    return [(b.get("colorInterpretation"), (b.get("colorTable") or {}).get("entries")) for b in info["bands"]]


def real(name):
    path = rumi_util.DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"real raster {path} is absent")
    return path


@pytest.mark.parametrize("name", REAL)
def test_convert_keeps_colour_interpretation(tmp_path, name):
    src = real(name)
    out = tmp_path / "f.rumi"
    rumi("convert", src, out, "--time", "2020-01-01", "--allow-nodata-loss", "-q")
    expected = colours(src)
    assert colours(out) == expected
    if name != "gdal_byte.tif":
        assert [c for c, _ in expected[:3]] == ["Red", "Green", "Blue"]
    # GDAL's own copy from the rumi file keeps the colour roles
    cog = tmp_path / "f.tif"
    gdal.Translate(str(cog), str(out), format="COG")
    assert [c for c, _ in colours(cog)] == [c for c, _ in expected]
    # a second convert over it replaces rumi's own sidecar without --force
    rumi("convert", src, out, "--time", "2020-01-02", "--allow-nodata-loss", "-q")
    assert colours(out) == expected


def paletted(path, values):
    """A Byte GeoTIFF with an RGBA colour table (GDAL's Palette interpretation)."""
    ds = gdal.GetDriverByName("GTiff").Create(str(path), values.shape[1], values.shape[0], 1, gdal.GDT_Byte)
    ds.SetGeoTransform([500000, 10, 0, 4100000, 0, -10])
    ds.SetProjection("EPSG:32633")
    ct = gdal.ColorTable()
    for i, e in enumerate([(0, 0, 0, 0), (255, 0, 0, 255), (0, 128, 0, 255), (10, 20, 30, 40)]):
        ct.SetColorEntry(i, e)
    band = ds.GetRasterBand(1)
    band.SetColorTable(ct)
    band.SetColorInterpretation(gdal.GCI_PaletteIndex)
    band.WriteArray(values)
    ds = None
    return path


def test_convert_and_stack_keep_a_palette(tmp_path):
    values = np.arange(40 * 30, dtype=np.uint8).reshape(40, 30) % 4
    a = paletted(tmp_path / "a.tif", values)
    b = paletted(tmp_path / "b.tif", values[::-1].copy())
    expected = colours(a)
    # TIFF's colormap: 256 entries, no alpha
    assert expected[0][0] == "Palette" and expected[0][1][:3] == [[0, 0, 0, 255], [255, 0, 0, 255], [0, 128, 0, 255]]
    out = tmp_path / "p.rumi"
    r = rumi("convert", a, out, "--time", "2020-01-01")
    assert "colour" not in r.stderr, r.stderr  # no warning that the palette is dropped
    assert colours(out) == expected
    cog = tmp_path / "p.tif"
    gdal.Translate(str(cog), str(out), format="COG")
    assert colours(cog) == expected
    np.testing.assert_array_equal(gdal.Open(str(cog)).ReadAsArray(), values)
    # a Cube: every band of the whole file and of each time step
    cube = tmp_path / "c.rumi"
    rumi("stack", a, b, cube, "--times", "2020-01-01,2020-02-01", "-q")
    assert colours(cube) == expected * 2
    assert colours(f'RUMI:"{cube}":1') == expected


def test_stack_keeps_each_time_steps_colours(tmp_path):
    src = real("rasterio_RGB.byte.tif")
    out = tmp_path / "s.rumi"
    rumi("stack", src, src, out, "--times", "2020-01-01,2020-01-02", "--allow-nodata-loss", "-q")
    expected = colours(src)
    assert colours(out) == expected * 2
    assert colours(f'RUMI:"{out}":0') == expected
    assert colours(f'RUMI:"{out}":1') == expected
