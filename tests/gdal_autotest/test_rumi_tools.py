"""GDAL tools on rumi files: gdaladdo overviews, gdal_translate round trips, gdalinfo."""

import shutil
import subprocess

import numpy as np
from osgeo import gdal

from rumi_util import make_rumi, sample_array

W, H = 300, 200


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, check=True).stdout


def test_gdaladdo_overviews_are_built_and_used(tmp_path):
    data = sample_array("uint16", 1, 2, H, W)
    path = make_rumi(tmp_path / "f.rumi", data, "uint16", tile=(64, 64), frame_unit=1)
    run("gdaladdo", "-r", "average", str(path), "2", "4")
    assert (tmp_path / "f.rumi.ovr").exists()
    ds = gdal.Open(str(path))
    band = ds.GetRasterBand(1)
    assert band.GetOverviewCount() == 2
    ov = band.GetOverview(0)
    assert (ov.XSize, ov.YSize) == (150, 100)
    # a decimated read is served from the overview: same pixels as reading the overview
    small = band.ReadAsArray(0, 0, W, H, buf_xsize=150, buf_ysize=100)
    np.testing.assert_array_equal(small, ov.ReadAsArray())
    # and the overview holds the 2x2 averages of the full-resolution band
    full = data[0, 0].astype(np.float64)
    avg = (full[0::2, 0::2] + full[1::2, 0::2] + full[0::2, 1::2] + full[1::2, 1::2]) / 4
    assert np.abs(ov.ReadAsArray() - avg).max() <= 1


def test_cog_round_trip_keeps_pixels(tmp_path):
    data = sample_array("int16", 1, 3, H, W)
    path = make_rumi(tmp_path / "f.rumi", data, "int16", tile=(128, 96), frame_unit=2,
                     band_texts=["red", "green", "blue"])
    cog = tmp_path / "f.tif"
    gdal.Translate(str(cog), str(path), format="COG", creationOptions=["COMPRESS=DEFLATE"])
    src, dst = gdal.Open(str(path)), gdal.Open(str(cog))
    for i in range(1, 4):
        assert dst.GetRasterBand(i).Checksum() == src.GetRasterBand(i).Checksum()
        assert dst.GetRasterBand(i).GetDescription() == src.GetRasterBand(i).GetDescription()
    np.testing.assert_array_equal(dst.ReadAsArray(), data[0])
    assert dst.GetGeoTransform() == src.GetGeoTransform()
    assert dst.GetSpatialRef().IsSame(src.GetSpatialRef())


def test_translate_a_subdataset(tmp_path):
    data = sample_array("float32", 3, 2, 40, 50)
    path = make_rumi(tmp_path / "c.rumi", data, "float32", tile=(16, 16), frame_unit=4)
    out = tmp_path / "t2.tif"
    run("gdal_translate", "-q", f'RUMI:"{path}":2', str(out))
    np.testing.assert_array_equal(gdal.Open(str(out)).ReadAsArray(), data[2])


def test_gdalinfo_checksum_and_json(tmp_path):
    data = sample_array("uint8", 2, 2, 40, 50)
    path = make_rumi(tmp_path / "c.rumi", data, "uint8", tile=(16, 16), frame_unit=3)
    text = run("gdalinfo", "-checksum", str(path))
    assert "Driver: RUMI/rumi stateless raster storage" in text
    assert text.count("Checksum=") == 4
    info = gdal.Info(str(path), format="json", extraMDDomains=["RUMI"])
    assert info["metadata"]["RUMI"]["FRAME_UNIT"] == "3"
    assert len(info["metadata"]["SUBDATASETS"]) == 4
    assert shutil.which("gdalinfo")
