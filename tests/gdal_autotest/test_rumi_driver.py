"""The RUMI driver as GDAL sees it: registration, driver metadata, exported symbols."""

import subprocess

from osgeo import gdal

import rumi_util


def test_driver_registered_with_metadata():
    drv = gdal.GetDriverByName("RUMI")
    assert drv is not None, "GDAL_DRIVER_PATH does not provide gdal_RUMI.so"
    md = drv.GetMetadata()
    assert md["DMD_LONGNAME"] == "rumi stateless raster storage"
    assert md["DMD_EXTENSION"] == "rumi"
    assert md["DCAP_RASTER"] == "YES"
    assert md["DCAP_VIRTUALIO"] == "YES"
    assert md["DMD_SUBDATASETS"] == "YES"
    assert md["DMD_CONNECTION_PREFIX"] == "RUMI:"
    options = md["DMD_OPENOPTIONLIST"]
    for name in ("HEADER", "PROMOTE", "MAX_FRAME_MB"):
        assert f"name='{name}'" in options
    assert "FLOAT32" in options
    # read-only: no Create / CreateCopy
    assert "DCAP_CREATE" not in md and "DCAP_CREATECOPY" not in md


def test_registration_is_idempotent(plugin_dir):
    """GDAL 3.6 calls GDALRegister_RUMI on every GDALAllRegister(): one driver, always."""
    script = (
        "from osgeo import gdal\n"
        "gdal.AllRegister(); n = gdal.GetDriverCount()\n"
        "gdal.AllRegister(); gdal.AllRegister()\n"
        "names = [gdal.GetDriver(i).ShortName for i in range(gdal.GetDriverCount())]\n"
        "print(n == gdal.GetDriverCount(), names.count('RUMI'))\n"
    )
    out = subprocess.run([rumi_util.PYTHON, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "1"], out.stderr


def test_python_loads_plugin_without_undefined_symbols(plugin_dir):
    """libgdal must be in the plugin's DT_NEEDED, or dlopen from Python fails."""
    out = subprocess.run([rumi_util.PYTHON, "-c", "from osgeo import gdal; print(gdal.GetDriverByName('RUMI') is not None)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    assert "undefined symbol" not in out.stderr
    needed = subprocess.run(["readelf", "-d", str(rumi_util.PLUGIN)], capture_output=True, text=True, check=True)
    assert "libgdal" in needed.stdout


def test_plugin_exports_only_the_rumi_api():
    out = subprocess.run(["nm", "-D", "--defined-only", str(rumi_util.PLUGIN)], capture_output=True, text=True,
                         check=True)
    names = sorted(line.split()[-1] for line in out.stdout.splitlines() if line.strip())
    assert "GDALRegister_RUMI" in names
    assert "rumi_open" in names and "rumi_read" in names
    # the entry points the planner replaced are gone
    assert not [n for n in names if n.startswith(("rumi_frame_read", "rumi_frame_extract", "rumi_read_strided",
                                                  "rumi_frames_read", "rumi_tile_dims"))], names
    strays = [n for n in names if n != "GDALRegister_RUMI" and not n.startswith("rumi_")]
    assert strays == [], f"symbols outside the rumi API are exported: {strays[:20]}"


def test_plain_open_is_not_claimed_for_other_files(tmp_path):
    tif = tmp_path / "x.tif"
    gdal.GetDriverByName("GTiff").Create(str(tif), 4, 4, 1)
    ds = gdal.Open(str(tif))
    assert ds.GetDriver().ShortName == "GTiff"
