"""The driver is read-only and says so to GDAL (`gdalinfo --formats`: ro; an update open: a
"read-only" error). rasterio's `open(f, "r+")` cannot reach that refusal: it picks a writer class
only for a driver whose DCAP_CREATE or DCAP_CREATECOPY is true (the items gdalinfo --formats
reads), and its r+ branch calls the None it gets otherwise (docs/gdal.md, "rasterio"). These
tests pin both, so that a rasterio that names the problem, or a driver that starts claiming
write support, is noticed and the docs updated. rasterio: Debian's python3-rasterio (skipped,
with the reason, when it is not installed)."""

import subprocess

import pytest
from osgeo import gdal

from rumi_util import make_rumi, sample_array


def test_gdal_lists_the_driver_as_read_only(tmp_path):
    out = subprocess.run(["gdalinfo", "--formats"], capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.strip().startswith("RUMI "))
    assert "(ro" in line, line
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 8, 8), "uint8")
    with pytest.raises(RuntimeError, match="the driver is read-only"):
        gdal.Open(str(path), gdal.GA_Update)


def test_rasterio_r_plus_and_w(tmp_path):
    rasterio = pytest.importorskip("rasterio", reason="Debian's python3-rasterio is not installed")
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 8, 8), "uint8")
    with rasterio.open(path) as ds:  # "r" reads
        assert ds.driver == "RUMI" and ds.read(1).shape == (8, 8)
    with pytest.raises(Exception) as e:
        rasterio.open(path, "r+")
    if isinstance(e.value, TypeError):
        # rasterio's r+ branch calls get_writer_for_path(...) = None (docs/gdal.md)
        assert "'NoneType' object is not callable" in str(e.value)
    else:  # a rasterio that checks: its error must name the driver
        assert "RUMI" in str(e.value), e.value
    from rasterio.errors import DriverCapabilityError

    with pytest.raises(DriverCapabilityError, match="Writer does not exist for driver: RUMI"):
        rasterio.open(tmp_path / "new.rumi", "w", driver="RUMI", width=2, height=2, count=1, dtype="uint8")
