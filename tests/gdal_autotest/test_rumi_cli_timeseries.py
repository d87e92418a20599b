"""docs/cli.md's recipe for a multi-band time series (a band per date) as a Cube, run as written
there on the real 68-date NDVI GeoTIFF of ../shared/data (skipped, with the reason, when it is
absent): a VRT per band with gdal_translate -b, then `rumi stack --times` with the band
descriptions (date-times without a zone: UTC). GDAL reading the Cube gives the source's pixels
date by date, and the times."""

import json
import subprocess

import numpy as np
import pytest
from osgeo import gdal

import rumi_util

RUMI = rumi_util.TARGET / "release" / "rumi"


def test_band_per_date_geotiff_becomes_a_cube(tmp_path):
    src = rumi_util.DATA_DIR / "eolearn_s2_ndvi_68t_float32.tif"
    if not src.is_file():
        pytest.skip(f"real raster {src} is absent")
    info = json.loads(subprocess.run(["gdalinfo", "-json", str(src)], capture_output=True, text=True,
                                     check=True).stdout)
    times = [b["description"] for b in info["bands"]]
    assert len(times) == 68 and times[0] == "2015-07-11T10:00:08"
    vrts = []
    for b in range(1, len(times) + 1):
        vrts.append(tmp_path / f"ndvi_{b:03d}.vrt")
        subprocess.run(["gdal_translate", "-q", "-of", "VRT", "-b", str(b), str(src), str(vrts[-1])], check=True)
    out = tmp_path / "ndvi.rumi"
    subprocess.run([str(RUMI), "stack", *map(str, vrts), str(out), "--times", ",".join(times), "--band-text", "ndvi",
                    "-q"], check=True)
    s, r = gdal.Open(str(src)), gdal.Open(str(out))
    assert r.RasterCount == 68
    np.testing.assert_array_equal(r.ReadAsArray(), s.ReadAsArray())
    assert r.GetMetadataItem("TIMES").split(",") == [t + "Z" for t in times]
    assert r.GetRasterBand(2).GetDescription() == f"ndvi @ {times[1]}Z"
    step = gdal.Open(f'RUMI:"{out}":7')
    assert step.GetMetadataItem("TIME") == "2015-12-08T10:04:09Z"
    np.testing.assert_array_equal(step.ReadAsArray(), s.GetRasterBand(8).ReadAsArray())
