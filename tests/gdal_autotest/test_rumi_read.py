"""Reading rumi files through GDAL: frame units, encodings, edge tiles, the Image / Cube
mapping, subdatasets, band descriptions, time metadata and georeferencing."""

import math
import re

import numpy as np
import pytest
from osgeo import gdal, osr

import rumi_util
from rumi_util import make_rumi, sample_array

W, H, TILE = 37, 29, (16, 8)  # 3 x 4 tiles, the last column and row clipped


def gdal_cube(ds, times, bands):
    """All bands of `ds` as (T, B, Y, X)."""
    a = ds.ReadAsArray()
    return a.reshape((times, bands) + a.shape[-2:])


def mem_checksum(array2d):
    """GDAL's checksum of a 2-D array, computed by the MEM driver."""
    ds = gdal.GetDriverByName("MEM").Create("", array2d.shape[1], array2d.shape[0], 1,
                                          gdal.GetDataTypeByName(_gdal_type(array2d.dtype)))
    ds.GetRasterBand(1).WriteArray(array2d)
    return ds.GetRasterBand(1).Checksum()


def _gdal_type(dtype):
    return {"uint8": "Byte", "uint16": "UInt16", "int16": "Int16", "uint32": "UInt32", "int32": "Int32",
            "float32": "Float32", "float64": "Float64"}[np.dtype(dtype).name]


@pytest.mark.parametrize("bands,times,unit", [(b, t, u) for b, t in [(1, 1), (3, 1), (1, 3), (2, 3)]
                                              for u in rumi_util.valid_units(b, t)])
def test_every_frame_unit(tmp_path, bands, times, unit):
    data = sample_array("uint16", times, bands, H, W, seed=unit)
    path = make_rumi(tmp_path / "f.rumi", data, "uint16", tile=TILE, frame_unit=unit)
    ds = gdal.Open(str(path))
    assert ds.GetDriver().ShortName == "RUMI"
    assert (ds.RasterXSize, ds.RasterYSize, ds.RasterCount) == (W, H, bands * times)
    np.testing.assert_array_equal(gdal_cube(ds, times, bands), data)
    assert ds.GetMetadataItem("FRAME_UNIT", "RUMI") == str(unit)
    interleave = "BAND" if unit in (0, 9) else "PIXEL"  # cell frames: all bands are read together
    assert ds.GetMetadataItem("INTERLEAVE", "IMAGE_STRUCTURE") == interleave
    # the codec is in the RUMI domain: IMAGE_STRUCTURE/COMPRESSION is read into hosts' enums of
    # GDAL's codecs (rasterio's profile raises for a name it does not know)
    assert ds.GetMetadataItem("COMPRESSION", "RUMI") == "OPENZL"
    assert ds.GetMetadataItem("COMPRESSION", "IMAGE_STRUCTURE") is None
    # checksums agree with GDAL's own on the same pixels
    for i in range(ds.RasterCount):
        t, b = divmod(i, bands)
        assert ds.GetRasterBand(i + 1).Checksum() == mem_checksum(data[t, b])


@pytest.mark.parametrize("encoding", rumi_util.NATIVE)
def test_native_encodings(tmp_path, encoding):
    data = sample_array(encoding, 1, 2, H, W, seed=3)
    path = make_rumi(tmp_path / "f.rumi", data, encoding, tile=TILE, frame_unit=2)
    ds = gdal.Open(str(path))
    expected_type = {"bool": "Byte", "uint8": "Byte", "int8": "Byte", "uint16": "UInt16", "int16": "Int16",
                     "uint32": "UInt32", "int32": "Int32", "uint64": "UInt64", "int64": "Int64",
                     "float32": "Float32", "float64": "Float64", "complex64": "CFloat32",
                     "complex128": "CFloat64"}[encoding]
    band = ds.GetRasterBand(1)
    assert gdal.GetDataTypeName(band.DataType) == expected_type
    assert ds.GetMetadataItem("SAMPLE_ENCODING", "RUMI") == encoding
    got = gdal_cube(ds, 1, 2)
    np.testing.assert_array_equal(got, rumi_util.gdal_expected(encoding, data))
    if encoding == "bool":
        assert band.GetMetadataItem("NBITS", "IMAGE_STRUCTURE") == "1"
    if encoding == "int8":
        assert band.GetMetadataItem("PIXELTYPE", "IMAGE_STRUCTURE") == "SIGNEDBYTE"
        assert (got.view("i1") == data).all()


@pytest.mark.parametrize("encoding", rumi_util.PROMOTED)
def test_encodings_without_gdal_type_need_promote(tmp_path, encoding):
    data = sample_array(encoding, 1, 1, H, W, seed=5)
    path = make_rumi(tmp_path / "f.rumi", data, encoding, tile=TILE)
    with pytest.raises(RuntimeError) as err:
        gdal.Open(str(path))
    message = str(err.value)
    assert "PROMOTE=FLOAT32" in message and encoding in message, message
    assert "exactly" in message

    ds = gdal.OpenEx(str(path), open_options=["PROMOTE=FLOAT32"])
    band = ds.GetRasterBand(1)
    assert gdal.GetDataTypeName(band.DataType) == ("CFloat32" if encoding == "complex32" else "Float32")
    assert ds.GetMetadataItem("PROMOTED", "RUMI") == "FLOAT32"
    got = band.ReadAsArray()
    want = rumi_util.gdal_expected(encoding, data)[0, 0]
    np.testing.assert_array_equal(got, want)  # NaN == NaN for assert_array_equal


def test_float8_reference_values():
    """The Python reference decoder itself, against values from the ONNX / OCP tables."""
    f = rumi_util.float8_value
    assert f("float8_e4m3fn", 0x7E) == 448 and f("float8_e4m3fn", 0x01) == 2 ** -9
    assert math.isnan(f("float8_e4m3fn", 0x7F))
    assert f("float8_e4m3fnuz", 0x7F) == 240 and math.isnan(f("float8_e4m3fnuz", 0x80))
    assert f("float8_e5m2", 0x7B) == 57344 and f("float8_e5m2", 0x7C) == math.inf
    assert f("float8_e5m2fnuz", 0x7F) == 57344 and f("float8_e5m2fnuz", 0x40) == 1
    assert f("float8_e8m0fnu", 127) == 1 and f("float8_e8m0fnu", 0) == 2 ** -127


def test_promote_option_is_validated(tmp_path):
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 4, 4), "uint8", tile=(4, 4))
    with pytest.raises(RuntimeError, match="PROMOTE=FLOAT64 is not supported"):
        gdal.OpenEx(str(path), open_options=["PROMOTE=FLOAT64"])
    # encodings GDAL has a type for are unaffected by PROMOTE
    ds = gdal.OpenEx(str(path), open_options=["PROMOTE=FLOAT32"])
    assert ds.GetRasterBand(1).DataType == gdal.GDT_Byte


def test_edge_blocks_are_padded_with_zeros(tmp_path):
    data = sample_array("uint16", 1, 1, H, W, seed=1) | 1  # no zero samples
    path = make_rumi(tmp_path / "f.rumi", data, "uint16", tile=TILE)
    ds = gdal.Open(str(path))  # GDAL 3.6 bindings: keep the dataset alive while using a band
    band = ds.GetRasterBand(1)
    assert band.GetBlockSize() == list(TILE)
    assert (band.XSize, band.YSize) == (W, H)
    # block (2, 3) holds columns 32..36 and rows 24..28
    block = np.frombuffer(band.ReadBlock(2, 3), dtype="<u2").reshape(TILE[1], TILE[0])
    np.testing.assert_array_equal(block[:5, :5], data[0, 0, 24:29, 32:37])
    assert (block[5:, :] == 0).all() and (block[:, 5:] == 0).all()
    # windows crossing edge tiles
    np.testing.assert_array_equal(band.ReadAsArray(30, 20, 7, 9), data[0, 0, 20:29, 30:37])


def test_tile_larger_than_image(tmp_path):
    data = sample_array("uint32", 1, 2, 6, 10)
    path = make_rumi(tmp_path / "f.rumi", data, "uint32", tile=(4096, 2048), frame_unit=1)
    ds = gdal.Open(str(path))
    band = ds.GetRasterBand(2)
    assert band.GetBlockSize() == [16, 16]  # clipped to the image rounded up to 16, not 4096 x 2048
    assert ds.GetMetadataItem("TILE_WIDTH", "RUMI") == "4096"
    np.testing.assert_array_equal(ds.ReadAsArray(), data[0])


def test_image_mapping_and_descriptions(tmp_path):
    texts = ["B4, Red, 664.5nm (S2A) / 665nm (S2B)", "B8, NIR", "Ünïcödé"]
    data = sample_array("uint8", 1, 3, H, W)
    path = make_rumi(tmp_path / "f.rumi", data, "uint8", tile=TILE, frame_unit=1, band_texts=texts)
    ds = gdal.Open(str(path))
    assert ds.RasterCount == 3
    assert ds.GetSubDatasets() == []
    for b in range(3):
        band = ds.GetRasterBand(b + 1)
        assert band.GetDescription() == texts[b]
        assert band.GetMetadataItem("BAND_TEXT") == texts[b]
        assert band.GetMetadataItem("BAND_INDEX") == str(b)
    assert ds.GetMetadataItem("TIME") == "2020-09-13T12:26:40Z"


def test_cube_mapping_is_time_major(tmp_path):
    bands, times = 2, 3
    data = sample_array("int16", times, bands, H, W)
    path = make_rumi(tmp_path / "c.rumi", data, "int16", tile=TILE, frame_unit=4, band_texts=["red", "nir"])
    ds = gdal.Open(str(path))
    assert ds.RasterCount == 6
    stamps = ["2020-09-13T12:26:40Z", "2020-09-18T12:26:47Z", "2020-09-23T12:26:54Z"]
    for i in range(6):
        t, b = divmod(i, bands)
        band = ds.GetRasterBand(i + 1)
        np.testing.assert_array_equal(band.ReadAsArray(), data[t, b])
        assert band.GetDescription() == f"{['red', 'nir'][b]} @ {stamps[t]}"
        md = band.GetMetadata()
        assert md["BAND_TEXT"] == ["red", "nir"][b]
        assert md["BAND_INDEX"] == str(b) and md["TIME_INDEX"] == str(t)
        assert md["TIME"] == stamps[t]
    assert ds.GetMetadataItem("TIMES") == ",".join(stamps)
    assert ds.GetMetadataItem("TIME_COUNT") == "3"


def test_subdatasets(tmp_path):
    bands, times = 2, 3
    data = sample_array("float32", times, bands, H, W)
    path = make_rumi(tmp_path / "c.rumi", data, "float32", tile=TILE, frame_unit=6)
    ds = gdal.Open(str(path))
    subs = ds.GetSubDatasets()
    assert [s[0] for s in subs] == [f'RUMI:"{path}":{t}' for t in range(times)]
    assert "Time step 1 (2020-09-18T12:26:47Z)" in subs[1][1]
    for t, (name, _) in enumerate(subs):
        sub = gdal.Open(name)
        assert sub.RasterCount == bands
        np.testing.assert_array_equal(sub.ReadAsArray(), data[t])
        assert sub.GetMetadataItem("TIME") == ds.GetRasterBand(t * bands + 1).GetMetadataItem("TIME")
        assert sub.GetMetadataItem("TIME_INDEX", "RUMI") == str(t)
        assert sub.GetRasterBand(2).GetDescription() == "band 1"
        assert sub.GetSubDatasets() == []
        assert sub.GetGeoTransform() == ds.GetGeoTransform()
    # the whole file through the prefix, unquoted
    whole = gdal.Open(f"RUMI:{path}")
    assert whole.RasterCount == 6


@pytest.mark.parametrize("name,message", [
    ('RUMI:"{p}":3', "time index 3 is out of range"),
    ('RUMI:"{p}":-1', "invalid dataset name"),
    ('RUMI:"{p}":x', "invalid dataset name"),
    ('RUMI:"{p}"1', "invalid dataset name"),
    ('RUMI:"{p}', "invalid dataset name"),
    ('RUMI:', "invalid dataset name"),
    ('RUMI:"{p}.missing":0', "cannot open"),
])
def test_bad_subdataset_names(tmp_path, name, message):
    path = make_rumi(tmp_path / "c.rumi", sample_array("uint8", 3, 1, 4, 4), "uint8", tile=(4, 4))
    with pytest.raises(RuntimeError, match=message):
        gdal.Open(name.format(p=path))


@pytest.mark.parametrize("kind,seconds,expect", [
    ("instant", [86400 * 18262], {"TIME": "2020-01-01"}),
    ("instant", [1589800000], {"TIME": "2020-05-18T11:06:40Z"}),
    ("interval", [86400 * 18262, 86400 * 18628], {"TIME_START": "2020-01-01", "TIME_END": "2021-01-01"}),
    ("interval", [-1, 3600], {"TIME_START": "1969-12-31T23:59:59Z", "TIME_END": "1970-01-01T01:00:00Z"}),
])
def test_image_time_metadata(tmp_path, kind, seconds, expect):
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 4, 4), "uint8", tile=(4, 4),
                     time={"kind": kind, "seconds": seconds})
    ds = gdal.Open(str(path))
    md = ds.GetMetadata()
    for k, v in expect.items():
        assert md[k] == v
    assert ds.GetMetadataItem("TIME_TYPE", "RUMI") == kind.upper()
    assert ds.GetMetadataItem("TIME_SCALE", "RUMI") == ("86400" if all(s % 86400 == 0 for s in seconds) else "1")


def test_cube_interval_metadata(tmp_path):
    days = [18262, 18263, 18263, 18265, 18270, 18271]  # intervals may meet or leave gaps
    path = make_rumi(tmp_path / "c.rumi", sample_array("uint8", 3, 1, 4, 4), "uint8", tile=(4, 4),
                     time={"kind": "interval", "seconds": [d * 86400 for d in days]})
    ds = gdal.Open(str(path))
    assert ds.GetMetadataItem("TIMES") == "2020-01-01/2020-01-02,2020-01-02/2020-01-04,2020-01-09/2020-01-10"
    md = ds.GetRasterBand(3).GetMetadata()
    assert (md["TIME_START"], md["TIME_END"]) == ("2020-01-09", "2020-01-10")
    assert ds.GetRasterBand(2).GetDescription() == "band 0 @ 2020-01-02/2020-01-04"


def test_georef_projected_area(tmp_path):
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 4, 4), "uint8", tile=(4, 4))
    ds = gdal.Open(str(path))
    assert ds.GetGeoTransform() == (500000.0, 20.0, 0.0, 4000000.0, 0.0, -20.0)
    srs = ds.GetSpatialRef()
    assert srs.GetAuthorityName(None) == "EPSG" and srs.GetAuthorityCode(None) == "32631"
    assert ds.GetMetadataItem("AREA_OR_POINT") == "Area"


def test_georef_geographic_axis_order(tmp_path):
    g = {"epsg": 4326, "model": "geographic", "raster_type": "area", "affine": [0.1, 0, -10.0, 0, -0.1, 50.0]}
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 4, 4), "uint8", tile=(4, 4), georef=g)
    ds = gdal.Open(str(path))
    srs = ds.GetSpatialRef()
    assert srs.GetAuthorityCode(None) == "4326"
    assert srs.GetDataAxisToSRSAxisMapping() == [2, 1]  # traditional GIS order: x = longitude
    assert ds.GetGeoTransform() == (-10.0, 0.1, 0.0, 50.0, 0.0, -0.1)


def test_georef_rotated(tmp_path):
    g = dict(rumi_util.UTM, affine=[20.0, 0.5, 500000.0, -0.25, -20.0, 4e6])
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 4, 4), "uint8", tile=(4, 4), georef=g)
    assert gdal.Open(str(path)).GetGeoTransform() == (500000.0, 20.0, 0.5, 4e6, -0.25, -20.0)


def test_georef_pixel_is_point_matches_gtiff(tmp_path):
    g = dict(rumi_util.UTM, raster_type="point")
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 4, 4), "uint8", tile=(4, 4), georef=g)
    ds = gdal.Open(str(path))
    assert ds.GetMetadataItem("AREA_OR_POINT") == "Point"
    # the file maps pixel centres; GDAL's transform maps corners (the GTiff convention)
    assert ds.GetGeoTransform() == (500000.0 - 10.0, 20.0, 0.0, 4000000.0 + 10.0, 0.0, -20.0)
    # GTiff with the same PixelIsPoint georeferencing presents the same transform
    tif = str(tmp_path / "p.tif")
    src = gdal.GetDriverByName("GTiff").Create(tif, 4, 4, 1)
    src.SetMetadataItem("AREA_OR_POINT", "Point")
    src.SetGeoTransform(ds.GetGeoTransform())
    src.SetSpatialRef(ds.GetSpatialRef())
    src = None
    assert gdal.Open(tif).GetGeoTransform() == ds.GetGeoTransform()


@pytest.mark.parametrize("raster_type", ["area", "point"])
def test_georef_undefined(tmp_path, raster_type):
    path = make_rumi(tmp_path / "f.rumi", sample_array("uint8", 1, 1, 4, 4), "uint8", tile=(4, 4),
                     georef={"raster_type": raster_type})
    ds = gdal.Open(str(path))
    assert ds.GetSpatialRef() is None
    assert ds.GetGeoTransform(can_return_null=True) is None
    assert ds.GetMetadataItem("AREA_OR_POINT") == raster_type.capitalize()


def _count_decodes(path, read):
    """Runs `read(ds)` with CPL_DEBUG on and returns how many frames the driver decoded (the
    sum of "<n> read from the file" over the debug line of each rumi_read)."""
    decoded = []

    def handler(cls, num, msg):
        m = re.search(r" read of .*: \d+ frame\(s\) needed, (\d+) read from the file", msg)
        if cls == gdal.CE_Debug and m:
            decoded.append(int(m.group(1)))

    gdal.SetConfigOption("CPL_DEBUG", "RUMI")
    gdal.PushErrorHandler(handler)
    try:
        ds = gdal.Open(str(path))
        read(ds)
    finally:
        gdal.PopErrorHandler()
        gdal.SetConfigOption("CPL_DEBUG", None)
    assert decoded, "no read debug line"
    return sum(decoded)


@pytest.mark.parametrize("unit", [4, 7, 0, 9])
def test_reading_all_bands_decodes_each_frame_once(tmp_path, unit):
    bands, times = 3, 2
    data = sample_array("uint16", times, bands, H, W)
    path = make_rumi(tmp_path / "c.rumi", data, "uint16", tile=TILE, frame_unit=unit)
    frames = int(gdal.Open(str(path)).GetMetadataItem("FRAME_COUNT", "RUMI"))
    tiles = 3 * 4
    assert frames == (tiles * bands * times if unit in (0, 9) else tiles)
    n = _count_decodes(path, lambda ds: ds.ReadAsArray())
    assert n == frames
    # one band of a cell-frame file still decodes each of its frames once
    n = _count_decodes(path, lambda ds: ds.GetRasterBand(5).ReadAsArray())
    assert n == tiles


@pytest.mark.parametrize("unit", [4, 0])
def test_last_decoded_cell_is_reused_when_the_block_cache_is_small(tmp_path, unit):
    """With 6 bands of 128 KiB blocks and a 1 MiB block cache, the dataset's decoded-frame
    cache (its own budget) still saves decoding a cell again for each band."""
    data = sample_array("uint16", 2, 3, 260, 300)
    path = make_rumi(tmp_path / "c.rumi", data, "uint16", tile=(256, 256), frame_unit=unit)
    cache_max = gdal.GetCacheMax()
    gdal.SetCacheMax(1 << 20)
    try:
        n = _count_decodes(path, lambda ds: [ds.GetRasterBand(i + 1).ReadAsArray(0, 0, 256, 256) for i in range(6)])
    finally:
        gdal.SetCacheMax(cache_max)
    assert n == (6 if unit == 0 else 1)


def test_concurrent_readers(tmp_path):
    """Several threads, each with its own dataset on one file (GDAL's threading model)."""
    from concurrent.futures import ThreadPoolExecutor

    data = sample_array("uint16", 2, 3, 200, 150)
    path = make_rumi(tmp_path / "c.rumi", data, "uint16", tile=(32, 32), frame_unit=8)

    def read(_):
        ds = gdal.Open(str(path))
        return gdal_cube(ds, 2, 3)

    with ThreadPoolExecutor(4) as pool:
        for got in pool.map(read, range(8)):
            np.testing.assert_array_equal(got, data)


def test_rasterio_of_sub_windows_and_resampling(tmp_path):
    data = sample_array("float64", 1, 2, H, W)
    path = make_rumi(tmp_path / "f.rumi", data, "float64", tile=TILE, frame_unit=1)
    ds = gdal.Open(str(path))
    np.testing.assert_array_equal(ds.ReadAsArray(3, 5, 20, 17), data[0, :, 5:22, 3:23])
    small = ds.GetRasterBand(2).ReadAsArray(0, 0, W, H, buf_xsize=10, buf_ysize=10)
    assert small.shape == (10, 10)
    osr.SpatialReference()  # osr is importable alongside the driver
