"""Real Earth-observation rasters (../shared/data, see its README and MANIFEST.tsv) converted to
rumi and read back through the driver: every band's GDAL checksum must equal the source's.
Skipped, with the reason, when the folder is absent."""

import calendar
import re
import time

import numpy as np
import pytest
from osgeo import gdal

import rumi_util
from rumi_util import make_rumi

pytestmark = pytest.mark.skipif(not rumi_util.DATA_DIR.is_dir(),
                                reason=f"real test data folder {rumi_util.DATA_DIR} is absent")

ENCODINGS = {"Byte": "uint8", "UInt16": "uint16", "Int16": "int16", "UInt32": "uint32", "Int32": "int32",
             "Float32": "float32", "Float64": "float64", "CFloat32": "complex64", "CFloat64": "complex128"}

FILES = [
    "gdal_byte.tif",
    "rasterio_RGB.byte.tif",
    "naip_m_3607824_se_17_1_20160620_sub.tif",
    "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif",
    "xrspatial_s2_4band_10m_uint16.tif",
    "lf_elev_220_mt_hood_utm.tif",
    "lf_fbfm40_220_mt_hood_utm.tif",
    "S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif",
    "eolearn_dem_float32.tif",
    "eolearn_lulc_uint16.tif",
    "eolearn_s2_clm_68t_uint8.tif",
    "eolearn_s2_ndvi_68t_float32.tif",
    "stars_olinda_dem_utm25s.tif",
    "rioxarray_s1a_iw_slc_cint16.tif",
]


def utc_seconds(text):
    """'2015-07-11T10:00:08' (UTC) -> seconds since 1970."""
    return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S"))


def georef_of(ds):
    """The rumi georeferencing of a GDAL dataset (undefined when it has no EPSG CRS)."""
    gt = ds.GetGeoTransform(can_return_null=True)
    srs = ds.GetSpatialRef()
    point = ds.GetMetadataItem("AREA_OR_POINT") == "Point"
    raster_type = "point" if point else "area"
    if gt is None or srs is None:
        return {"raster_type": raster_type}
    srs = srs.Clone()
    srs.AutoIdentifyEPSG()
    code = srs.GetAuthorityCode(None)
    if code is None or srs.GetAuthorityName(None) != "EPSG":
        return {"raster_type": raster_type}
    x0, xres, rrot, y0, crot, yres = gt
    if point:  # GDAL's transform maps corners; a PixelIsPoint file stores centres
        x0, y0 = x0 + xres * 0.5 + rrot * 0.5, y0 + crot * 0.5 + yres * 0.5
    return {"epsg": int(code), "model": "projected" if srs.IsProjected() else "geographic",
            "raster_type": raster_type, "affine": [xres, rrot, x0, crot, yres, y0]}


def convert(src_path, dest):
    """Writes the GeoTIFF as rumi: a Cube (T, 1) when its band descriptions are timestamps, else
    an Image. Returns the rumi path."""
    ds = gdal.Open(str(src_path))
    type_name = gdal.GetDataTypeName(ds.GetRasterBand(1).DataType)
    if type_name not in ENCODINGS:
        pytest.skip(f"{src_path.name}: {type_name} samples have no rumi encoding")
    encoding = ENCODINGS[type_name]
    array = ds.ReadAsArray()
    if array.ndim == 2:
        array = array[None]
    descriptions = [ds.GetRasterBand(i + 1).GetDescription() for i in range(ds.RasterCount)]
    stamps = None
    try:
        stamps = [utc_seconds(d) for d in descriptions]
    except ValueError:
        pass
    if stamps is not None and len(stamps) > 1:
        data = array[:, None]  # (T, 1, Y, X)
        name = src_path.stem.split("_")[2].upper()
        texts, times = [name], {"kind": "instant", "seconds": stamps}
        unit = 1
    else:
        data = array[None]  # (1, B, Y, X)
        unique = len(set(descriptions)) == len(descriptions) and all(descriptions)
        texts = descriptions if unique else [f"band {i + 1}" for i in range(ds.RasterCount)]
        times = {"kind": "instant", "seconds": [0]}
        unit = 1 if ds.RasterCount > 1 else 0
    return make_rumi(dest, data, encoding, tile=(256, 256), frame_unit=unit, georef=georef_of(ds),
                     band_texts=texts, time=times)


@pytest.mark.parametrize("name", FILES)
def test_real_file_checksums(tmp_path, name):
    src_path = rumi_util.DATA_DIR / name
    if not src_path.exists():
        pytest.skip(f"{src_path} is absent")
    rumi_path = convert(src_path, tmp_path / (src_path.stem + ".rumi"))
    src, dst = gdal.Open(str(src_path)), gdal.Open(str(rumi_path))
    assert dst.GetDriver().ShortName == "RUMI"
    assert (dst.RasterXSize, dst.RasterYSize, dst.RasterCount) == (src.RasterXSize, src.RasterYSize, src.RasterCount)
    want = [src.GetRasterBand(i + 1).Checksum() for i in range(src.RasterCount)]
    got = [dst.GetRasterBand(i + 1).Checksum() for i in range(dst.RasterCount)]
    assert got == want
    if name == "gdal_byte.tif":
        assert got == [4672]  # GDAL's autotest value for byte.tif
    geo = georef_of(src)
    if "epsg" in geo:
        np.testing.assert_allclose(dst.GetGeoTransform(), src.GetGeoTransform(), rtol=0, atol=1e-9)
        assert dst.GetSpatialRef().GetAuthorityCode(None) == str(geo["epsg"])
    else:
        assert dst.GetSpatialRef() is None


def test_sar_pair_as_a_cube(tmp_path):
    """The two Sentinel-1 acquisitions on one grid: a Cube of T = 2 with their dates."""
    names = ["S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif",
             "S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif"]
    paths = [rumi_util.DATA_DIR / n for n in names]
    if not all(p.exists() for p in paths):
        pytest.skip("the Sentinel-1 pair is absent")
    srcs = [gdal.Open(str(p)) for p in paths]
    data = np.stack([s.ReadAsArray() for s in srcs])[:, None]
    stamps = [calendar.timegm(time.strptime(re.search(r"\d{8}T\d{6}", n).group(), "%Y%m%dT%H%M%S")) for n in names]
    path = make_rumi(tmp_path / "s1.rumi", data, "float32", tile=(128, 128), frame_unit=1,
                     georef=georef_of(srcs[0]), band_texts=["VV backscatter (dB)"],
                     time={"kind": "instant", "seconds": stamps})
    ds = gdal.Open(str(path))
    assert [ds.GetRasterBand(i + 1).Checksum() for i in range(2)] == [28227, 12040]
    assert ds.GetMetadataItem("TIMES") == "2015-03-09T17:30:17Z,2017-03-09T05:43:56Z"
    sub = gdal.Open(ds.GetSubDatasets()[1][0])
    assert sub.GetRasterBand(1).Checksum() == 12040
    assert sub.GetRasterBand(1).GetDescription() == "VV backscatter (dB)"
