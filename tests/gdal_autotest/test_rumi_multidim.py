"""The multidimensional API (gdal.OpenEx(path, gdal.OF_MULTIDIM_RASTER), gdalmdiminfo,
gdalmdimtranslate): a root group with the array data(time, band, y, x) and indexing variables
time (Int64 CF coordinates; interval starts, with time_bounds), band (the band texts) and y/x
(pixel centres from the affine). Synthetic fixtures always run; the real cubes built with
`rumi stack` from ../shared/data are skipped, with the reason, when that folder is absent."""

import calendar
import json
import re
import subprocess
import time

import numpy as np
import pytest
from osgeo import gdal

import rumi_util
from rumi_util import make_rumi, sample_array

RUMI = rumi_util.TARGET / "release" / "rumi"
NDVI = rumi_util.DATA_DIR / "eolearn_s2_ndvi_68t_float32.tif"
SAR = [rumi_util.DATA_DIR / "S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif",
       rumi_util.DATA_DIR / "S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif"]
UTM = rumi_util.UTM
T, B, Y, X = 4, 3, 37, 45
TILE = (16, 12)  # width, length


def open_md(path, **kwargs):
    return gdal.OpenEx(str(path), gdal.OF_MULTIDIM_RASTER, **kwargs)


def root(path, **kwargs):
    return open_md(path, **kwargs).GetRootGroup()


def run(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=True).stdout


def mdiminfo(path, *opts):
    return json.loads(run("gdalmdiminfo", *opts, path))


def attrs(obj):
    return {a.GetName(): a.Read() for a in obj.GetAttributes()}


def iso_seconds(text):
    """'2015-07-11T10:00:08' (UTC, optional Z) -> seconds since 1970."""
    return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S"))


class FrameCounter:
    """Collects the driver's debug line of each multidimensional read: (frames needed, frames
    read from the file; the others came from the array's cache of decoded frames)."""

    def __init__(self):
        self.reads = []

    def __call__(self, err_class, err_no, msg):
        m = re.search(r"multidim read of .*: (\d+) frame\(s\) needed, (\d+) read from the file", msg)
        if err_class == gdal.CE_Debug and m:
            self.reads.append((int(m.group(1)), int(m.group(2))))

    def __enter__(self):
        gdal.SetConfigOption("CPL_DEBUG", "RUMI")
        gdal.PushErrorHandler(self)
        return self

    def __exit__(self, *exc):
        gdal.PopErrorHandler()
        gdal.SetConfigOption("CPL_DEBUG", None)


@pytest.fixture(scope="module")
def cube(tmp_path_factory):
    """A float32 Cube (T=4, B=3) in tile frames (unit 0) and in cells (unit 4)."""
    d = tmp_path_factory.mktemp("md")
    data = sample_array("float32", T, B, Y, X, seed=7)
    paths = {u: make_rumi(d / f"u{u}.rumi", data, "float32", tile=TILE, frame_unit=u,
                          band_texts=["B4, Red", "B8, NIR", "Ünïcode"]) for u in (0, 4)}
    return data, paths


# ---- structure ------------------------------------------------------------------------------------


def test_driver_declares_multidim():
    assert gdal.GetDriverByName("RUMI").GetMetadataItem(gdal.DCAP_MULTIDIM_RASTER) == "YES"


@pytest.mark.parametrize("unit", [0, 4])
def test_cube_structure(cube, unit):
    data, paths = cube
    ds = open_md(paths[unit])
    assert ds.GetDriver().ShortName == "RUMI"
    rg = ds.GetRootGroup()
    assert rg.GetName() == "/"
    assert sorted(rg.GetMDArrayNames()) == ["band", "data", "time", "x", "y"]
    dims = {d.GetName(): d for d in rg.GetDimensions()}
    assert sorted(dims) == ["band", "time", "x", "y"]
    ar = rg.OpenMDArray("data")
    got = [(d.GetName(), d.GetSize(), d.GetType(), d.GetDirection()) for d in ar.GetDimensions()]
    assert got == [("time", T, "TEMPORAL", ""), ("band", B, "", ""), ("y", Y, "HORIZONTAL_Y", "SOUTH"),
                   ("x", X, "HORIZONTAL_X", "EAST")]
    for d in ar.GetDimensions():
        assert d.GetIndexingVariable().GetName() == d.GetName()
    assert ar.GetDataType().GetNumericDataType() == gdal.GDT_Float32
    tw, tl = TILE
    assert ar.GetBlockSize() == ([1, 1, tl, tw] if unit == 0 else [T, B, tl, tw])
    assert attrs(ar) == {"frame_unit": unit, "encoding": "float32"}
    assert ar.GetStructuralInfo() == {"COMPRESSION": "OPENZL", "FRAME_UNIT": str(unit)}
    srs = ar.GetSpatialRef()
    assert srs.GetAuthorityCode(None) == "32631"
    assert srs.GetDataAxisToSRSAxisMapping() == [4, 3]  # easting is dimension 4 (x), northing 3 (y)
    assert rg.OpenMDArray("band").Read() == ["B4, Red", "B8, NIR", "Ünïcode"]
    # pixel centres of the affine [20, 0, 500000, 0, -20, 4000000] (PixelIsArea)
    np.testing.assert_array_equal(rg.OpenMDArray("x").ReadAsArray(), 500000 + 20 * (np.arange(X) + 0.5))
    np.testing.assert_array_equal(rg.OpenMDArray("y").ReadAsArray(), 4000000 - 20 * (np.arange(Y) + 0.5))
    assert attrs(rg.OpenMDArray("x"))["standard_name"] == "projection_x_coordinate"
    assert attrs(rg.OpenMDArray("y"))["units"] == "m"


def test_instant_time_coordinates_in_seconds(cube):
    _, paths = cube
    tvar = root(paths[0]).OpenMDArray("time")
    assert tvar.GetDataType().GetNumericDataType() == gdal.GDT_Int64
    np.testing.assert_array_equal(tvar.ReadAsArray(), rumi_util.instants(T)["seconds"])
    a = attrs(tvar)
    assert a["units"] == "seconds since 1970-01-01T00:00:00Z"
    assert a["calendar"] == "proleptic_gregorian"
    assert a["standard_name"] == "time" and a["axis"] == "T"
    assert "bounds" not in a


def test_whole_days_use_days_since(tmp_path):
    days = [16000, 16010, 16025]
    path = make_rumi(tmp_path / "d.rumi", sample_array("uint8", 3, 1, 8, 8), "uint8", frame_unit=1,
                     time={"kind": "instant", "seconds": [d * 86400 for d in days]})
    tvar = root(path).OpenMDArray("time")
    np.testing.assert_array_equal(tvar.ReadAsArray(), days)
    assert attrs(tvar)["units"] == "days since 1970-01-01"


def test_interval_axis_has_starts_and_bounds(tmp_path):
    secs = [1000, 1500, 1500, 2100, 3000, 3001]  # [start, end) of 3 steps, meeting and with a gap
    path = make_rumi(tmp_path / "i.rumi", sample_array("int16", 3, 2, 10, 9), "int16", frame_unit=3,
                     time={"kind": "interval", "seconds": secs})
    rg = root(path)
    assert sorted(rg.GetMDArrayNames()) == ["band", "data", "time", "time_bounds", "x", "y"]
    tvar = rg.OpenMDArray("time")
    np.testing.assert_array_equal(tvar.ReadAsArray(), [1000, 1500, 3000])  # interval starts
    assert attrs(tvar)["bounds"] == "time_bounds"
    bounds = rg.OpenMDArray("time_bounds")
    assert [(d.GetName(), d.GetSize()) for d in bounds.GetDimensions()] == [("time", 3), ("nv", 2)]
    np.testing.assert_array_equal(bounds.ReadAsArray(), np.reshape(secs, (3, 2)))
    assert attrs(bounds)["units"] == "seconds since 1970-01-01T00:00:00Z"
    # a reversed, strided read of a small array goes through the same machinery
    np.testing.assert_array_equal(bounds.ReadAsArray(array_start_idx=[2, 1], count=[2, 2], array_step=[-2, -1]),
                                  np.reshape(secs, (3, 2))[2::-2, ::-1])


def test_image_has_a_time_dimension_of_one(tmp_path):
    data = sample_array("uint16", 1, 2, 20, 30)
    path = make_rumi(tmp_path / "img.rumi", data, "uint16", tile=(16, 16), frame_unit=1)
    ar = root(path).OpenMDArray("data")
    assert [d.GetSize() for d in ar.GetDimensions()] == [1, 2, 20, 30]
    np.testing.assert_array_equal(ar.ReadAsArray(), data)


def test_point_geographic_and_north_up_positive_y(tmp_path):
    geo = {"epsg": 4326, "model": "geographic", "raster_type": "point", "affine": [0.5, 0, -10.0, 0, 0.25, 40.0]}
    path = make_rumi(tmp_path / "g.rumi", sample_array("uint8", 1, 1, 6, 5), "uint8", georef=geo)
    rg = root(path)
    ar = rg.OpenMDArray("data")
    assert [d.GetDirection() for d in ar.GetDimensions()][2:] == ["NORTH", "EAST"]
    # PixelIsPoint: the affine maps pixel centres
    np.testing.assert_array_equal(rg.OpenMDArray("x").ReadAsArray(), -10.0 + 0.5 * np.arange(5))
    np.testing.assert_array_equal(rg.OpenMDArray("y").ReadAsArray(), 40.0 + 0.25 * np.arange(6))
    assert attrs(rg.OpenMDArray("x"))["units"] == "degrees_east"
    assert attrs(rg.OpenMDArray("y"))["standard_name"] == "latitude"
    srs = ar.GetSpatialRef()
    assert srs.GetAuthorityCode(None) == "4326"
    assert srs.GetDataAxisToSRSAxisMapping() == [3, 4]  # latitude is y (dimension 3), longitude x (4)


def test_rotated_and_undefined_georeferencing_have_no_coordinates(tmp_path):
    data = sample_array("uint8", 1, 1, 6, 5)
    rotated = {"epsg": 32631, "model": "projected", "raster_type": "area", "affine": [20, 3, 500000, 2, -20, 4e6]}
    rg = root(make_rumi(tmp_path / "r.rumi", data, "uint8", georef=rotated))
    assert sorted(rg.GetMDArrayNames()) == ["band", "data", "time"]
    ar = rg.OpenMDArray("data")
    assert ar.GetSpatialRef().GetAuthorityCode(None) == "32631"
    assert [d.GetIndexingVariable() is None for d in ar.GetDimensions()] == [False, False, True, True]
    assert [d.GetDirection() for d in ar.GetDimensions()][2:] == ["", ""]
    rg = root(make_rumi(tmp_path / "u.rumi", data, "uint8", georef={"raster_type": "area"}))
    ar = rg.OpenMDArray("data")
    assert ar.GetSpatialRef() is None
    assert [d.GetType() for d in ar.GetDimensions()][2:] == ["HORIZONTAL_Y", "HORIZONTAL_X"]
    np.testing.assert_array_equal(ar.ReadAsArray(), data)


def test_subdataset_name_gives_one_time_step(cube):
    data, paths = cube
    rg = root(f'RUMI:"{paths[4]}":2')
    ar = rg.OpenMDArray("data")
    assert [d.GetSize() for d in ar.GetDimensions()] == [1, B, Y, X]
    np.testing.assert_array_equal(ar.ReadAsArray(), data[2:3])
    np.testing.assert_array_equal(rg.OpenMDArray("time").ReadAsArray(), rumi_util.instants(T)["seconds"][2:3])


def test_update_access_is_refused(cube):
    _, paths = cube
    with pytest.raises(RuntimeError, match="read-only"):
        gdal.OpenEx(str(paths[0]), gdal.OF_MULTIDIM_RASTER | gdal.OF_UPDATE)


def test_arrays_outlive_their_dataset(cube):
    data, paths = cube
    ds = open_md(paths[4])
    ar = ds.GetRootGroup().OpenMDArray("data")
    del ds
    np.testing.assert_array_equal(ar.ReadAsArray(), data)


def test_file_list_and_stateless_open(tmp_path):
    data = sample_array("uint16", 2, 2, 20, 30)
    path = make_rumi(tmp_path / "h.rumi", data, "uint16", tile=(16, 16), frame_unit=4,
                     header=tmp_path / "h.rumi.header")
    ds = open_md(path)
    assert ds.GetFileList() == [str(path), str(path) + ".header"]
    np.testing.assert_array_equal(ds.GetRootGroup().OpenMDArray("data").ReadAsArray(), data)
    ds = open_md(path, open_options=["HEADER=NONE"])
    assert ds.GetFileList() == [str(path)]
    np.testing.assert_array_equal(ds.GetRootGroup().OpenMDArray("data").ReadAsArray(), data)


# ---- reading ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("unit", rumi_util.valid_units(B, T))
def test_full_read_every_frame_unit(tmp_path, unit):
    data = sample_array("int32", T, B, Y, X, seed=unit)
    path = make_rumi(tmp_path / "f.rumi", data, "int32", tile=TILE, frame_unit=unit)
    ar = root(path).OpenMDArray("data")
    np.testing.assert_array_equal(ar.ReadAsArray(), data)


def selections():
    """(start, count, step) per axis: forward, reversed, strided, single index, step 0."""
    return [
        ([0, 0, 0, 0], [T, B, Y, X], [1, 1, 1, 1]),
        ([T - 1, B - 1, Y - 1, X - 1], [T, B, Y, X], [-1, -1, -1, -1]),
        ([1, 0, 3, 2], [2, 2, 9, 8], [2, 2, 4, 5]),
        ([3, 2, 36, 44], [2, 2, 7, 6], [-3, -2, -5, -7]),
        ([2, 1, 5, 7], [1, 1, 20, 30], [1, 1, 1, 1]),
        ([0, 1, 30, 0], [3, 1, 1, X], [1, 1, 1, 1]),
        ([1, 2, 0, 40], [2, 3, 3, 4], [1, 0, 13, -13]),  # a band repeated three times
        ([0, 0, 12, 16], [T, B, 12, 16], [1, 1, 1, 1]),  # exactly one tile
    ]


def numpy_slice(data, start, count, step):
    out = data
    for axis, (s, c, st) in enumerate(zip(start, count, step)):
        idx = s + st * np.arange(c)
        out = np.take(out, idx, axis=axis)
    return out


@pytest.mark.parametrize("unit", [0, 4])
@pytest.mark.parametrize("sel", range(len(selections())))
def test_strided_and_reversed_reads_equal_numpy(cube, unit, sel):
    data, paths = cube
    start, count, step = selections()[sel]
    ar = root(paths[unit]).OpenMDArray("data")
    got = ar.ReadAsArray(array_start_idx=start, count=count, array_step=step)
    np.testing.assert_array_equal(got, numpy_slice(data, start, count, step))


@pytest.mark.parametrize("view,key", [
    ("[::-1,:,::-1,:]", np.s_[::-1, :, ::-1, :]),
    ("[1:4:2,2,10:,::3]", np.s_[1:4:2, 2, 10:, ::3]),
    ("[-1,...,::-4]", np.s_[-1, ..., ::-4]),
    ("[:,1]", np.s_[:, 1]),
])
def test_views_equal_numpy_slicing(cube, view, key):
    data, paths = cube
    ar = root(paths[4]).OpenMDArray("data")
    np.testing.assert_array_equal(ar.GetView(view).ReadAsArray(), data[key])


def test_buffer_stride_and_data_type(cube):
    data, paths = cube
    ar = root(paths[0]).OpenMDArray("data")
    count = [T, B, 9, 11]
    f64 = gdal.ExtendedDataType.Create(gdal.GDT_Float64)
    # a Fortran-order buffer: x slowest, time fastest
    fstride = [1, T, T * B, T * B * 9]
    raw = ar.Read(array_start_idx=[0, 0, 20, 30], count=count, buffer_stride=fstride, buffer_datatype=f64)
    got = np.frombuffer(raw, dtype=np.float64).reshape(count, order="F")
    np.testing.assert_array_equal(got, data[:, :, 20:29, 30:41].astype(np.float64))
    # conversion to an integer type rounds as GDAL does
    got = ar.ReadAsArray(buffer_datatype=gdal.ExtendedDataType.Create(gdal.GDT_Int32))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.clip(np.round(data), -2**31, 2**31 - 1).astype(np.int32))


@pytest.mark.parametrize("encoding,gdt", [("uint8", gdal.GDT_Byte), ("uint16", gdal.GDT_UInt16),
                                          ("int16", gdal.GDT_Int16), ("uint32", gdal.GDT_UInt32),
                                          ("int64", gdal.GDT_Int64), ("uint64", gdal.GDT_UInt64),
                                          ("float64", gdal.GDT_Float64), ("complex64", gdal.GDT_CFloat32),
                                          ("complex128", gdal.GDT_CFloat64), ("bool", gdal.GDT_Byte)])
def test_native_encodings(tmp_path, encoding, gdt):
    data = sample_array(encoding, 2, 2, 19, 21)
    path = make_rumi(tmp_path / "e.rumi", data, encoding, tile=(8, 8), frame_unit=3)
    ar = root(path).OpenMDArray("data")
    assert ar.GetDataType().GetNumericDataType() == gdt
    np.testing.assert_array_equal(ar.ReadAsArray(), data)
    np.testing.assert_array_equal(ar.GetView("[::-1,:,::3,::-2]").ReadAsArray(), data[::-1, :, ::3, ::-2])


def test_int8_is_widened_to_int16_before_gdal_3_7(tmp_path):
    data = sample_array("int8", 2, 1, 10, 12)
    path = make_rumi(tmp_path / "i8.rumi", data, "int8", tile=(8, 8), frame_unit=1)
    ar = root(path).OpenMDArray("data")
    if int(gdal.VersionInfo()) >= 3070000:
        assert ar.GetDataType().GetNumericDataType() == gdal.GDT_Int8
    else:
        assert ar.GetDataType().GetNumericDataType() == gdal.GDT_Int16
        assert ar.GetStructuralInfo()["PROMOTED"] == "INT16"
    got = ar.ReadAsArray()
    assert got.min() < 0
    np.testing.assert_array_equal(got, data)


def test_promoted_encodings_need_the_open_option(tmp_path):
    data = sample_array("float16", 2, 1, 10, 12)
    path = make_rumi(tmp_path / "h.rumi", data, "float16", tile=(8, 8), frame_unit=1)
    with pytest.raises(RuntimeError, match="PROMOTE=FLOAT32"):
        open_md(path)
    ar = root(path, open_options=["PROMOTE=FLOAT32"]).OpenMDArray("data")
    assert ar.GetDataType().GetNumericDataType() == gdal.GDT_Float32
    np.testing.assert_array_equal(ar.ReadAsArray(), data.astype(np.float32))
    np.testing.assert_array_equal(ar.GetView("[1,:,::-2,1:]").ReadAsArray(), data[1, :, ::-2, 1:].astype(np.float32))


# ---- selective reads --------------------------------------------------------------------------------


def open_uncached(path):
    gdal.SetConfigOption("RUMI_CACHE_MB", "0")
    try:
        return root(path).OpenMDArray("data")
    finally:
        gdal.SetConfigOption("RUMI_CACHE_MB", None)


@pytest.mark.parametrize("unit", [0, 4])
def test_a_slice_reads_only_its_frames(cube, unit):
    """Tiles are 16 x 12 on a 45 x 37 raster: 3 across, 4 down."""
    data, paths = cube
    ar = open_uncached(paths[unit])
    cases = [
        # (start, count, step), tiles touched (per plane for unit 0)
        (([2, 1, 0, 0], [1, 1, 12, 16], [1, 1, 1, 1]), 1),  # one tile
        (([2, 1, 11, 15], [1, 1, 2, 2], [1, 1, 1, 1]), 4),  # the corner of four tiles
        (([0, 0, 0, 0], [1, 1, 1, 2], [1, 1, 1, 40]), 2),  # columns 0 and 40: tiles 0 and 2, not 1
        (([1, 2, 36, 44], [1, 1, 3, 3], [1, 1, -12, -16]), 9),  # 3 x 3 tiles, reversed
    ]
    for (start, count, step), tiles in cases:
        with FrameCounter() as fc:
            got = ar.ReadAsArray(array_start_idx=start, count=count, array_step=step)
        np.testing.assert_array_equal(got, numpy_slice(data, start, count, step))
        # one frame per tile: the (t, b) tile for unit 0, the cell for unit 4
        assert fc.reads == [(tiles, tiles)], (start, count, step)
    # several time steps and bands: unit 0 reads one frame per (tile, t, b), unit 4 one per tile
    with FrameCounter() as fc:
        ar.ReadAsArray(array_start_idx=[0, 0, 0, 0], count=[3, 2, 12, 16], array_step=[1, 2, 1, 1])
    assert fc.reads == [(3 * 2, 3 * 2)] if unit == 0 else [(1, 1)]
    # the whole array: each frame once
    n = 12 * T * B if unit == 0 else 12
    with FrameCounter() as fc:
        np.testing.assert_array_equal(ar.ReadAsArray(), data)
    assert fc.reads == [(n, n)]


@pytest.mark.parametrize("unit", [0, 4])
def test_line_by_line_reads_decode_each_frame_once(cube, unit):
    """The cache of decoded frames serves readers that ask for one line at a time."""
    data, paths = cube
    ar = root(paths[unit]).OpenMDArray("data")
    with FrameCounter() as fc:
        for t in range(T):
            for b in range(B):
                for y in range(Y):
                    line = ar.ReadAsArray(array_start_idx=[t, b, y, 0], count=[1, 1, 1, X])
                    np.testing.assert_array_equal(line[0, 0, 0], data[t, b, y])
    assert len(fc.reads) == T * B * Y
    assert sum(read for _, read in fc.reads) == (12 * T * B if unit == 0 else 12)


# ---- tools: gdalmdiminfo, gdalmdimtranslate, xarray -----------------------------------------------


def test_gdalmdiminfo_json(cube):
    _, paths = cube
    info = mdiminfo(paths[4], "-detailed")
    assert info["driver"] == "RUMI"
    dims = {d["name"]: d for d in info["dimensions"]}
    assert dims["time"]["type"] == "TEMPORAL" and dims["time"]["indexing_variable"] == "/time"
    assert dims["y"]["direction"] == "SOUTH" and dims["x"]["direction"] == "EAST"
    data = info["arrays"]["data"]
    assert data["dimensions"] == ["/time", "/band", "/y", "/x"]
    assert data["block_size"] == [T, B, 12, 16]
    assert data["srs"]["data_axis_to_srs_axis_mapping"] == [4, 3]
    assert data["attributes"]["frame_unit"]["value"] == 4
    assert info["arrays"]["time"]["values"] == rumi_util.instants(T)["seconds"]
    assert info["arrays"]["band"]["values"] == ["B4, Red", "B8, NIR", "Ünïcode"]


def translate_and_check(src, data, seconds, tmp_path, fmt, bounds=None):
    out = tmp_path / ("out.zarr" if fmt == "Zarr" else "out.nc")
    run("gdalmdimtranslate", "-q", "-of", fmt, src, out)
    rg = root(out)
    assert rg.OpenMDArray("data").GetSpatialRef() is not None
    np.testing.assert_array_equal(rg.OpenMDArray("data").ReadAsArray(), data)
    tvar = rg.OpenMDArray("time")
    np.testing.assert_array_equal(tvar.ReadAsArray(), seconds)
    units = tvar.GetUnit() or attrs(tvar).get("units")
    assert units.startswith("seconds since 1970-01-01") or units.startswith("days since 1970-01-01")
    if bounds is not None:
        np.testing.assert_array_equal(rg.OpenMDArray("time_bounds").ReadAsArray(), bounds)
    return out


@pytest.mark.parametrize("kind", ["instant", "interval"])
def test_time_unit_is_the_cf_units_as_netcdf_answers(tmp_path, kind):
    """GetUnit() of the time coordinate (and of its bounds) is its CF units, as the netCDF and
    Zarr drivers answer for a copy (it was once empty, the units only in the attribute)."""
    secs = [86400 * d for d in (100, 110, 110, 131)] if kind == "interval" else [86400 * 100 + 5, 86400 * 110]
    path = make_rumi(tmp_path / "t.rumi", sample_array("uint16", 2, 1, 8, 8), "uint16", frame_unit=1,
                     time={"kind": kind, "seconds": secs})
    rg = root(path)
    names = ["time", "time_bounds"] if kind == "interval" else ["time"]
    for name in names:
        arr = rg.OpenMDArray(name)
        assert arr.GetUnit() == attrs(arr)["units"] and arr.GetUnit().startswith(("days since", "seconds since"))
    if gdal.GetDriverByName("netCDF") is None:
        pytest.skip("GDAL has no netCDF driver")
    out = tmp_path / "t.nc"
    run("gdalmdimtranslate", "-q", "-of", "netCDF", path, out)
    nc = root(out)
    for name in names:
        assert rg.OpenMDArray(name).GetUnit() == nc.OpenMDArray(name).GetUnit() != "", name


@pytest.mark.parametrize("fmt", ["Zarr", "netCDF"])
def test_gdalmdimtranslate_round_trip(cube, tmp_path, fmt):
    data, paths = cube
    out = translate_and_check(paths[0], data, rumi_util.instants(T)["seconds"], tmp_path, fmt)
    rg = root(out)
    np.testing.assert_allclose(rg.OpenMDArray("x").ReadAsArray(), 500000 + 20 * (np.arange(X) + 0.5))
    assert [t.decode() if isinstance(t, bytes) else t for t in rg.OpenMDArray("band").Read()] == \
        ["B4, Red", "B8, NIR", "Ünïcode"]


@pytest.mark.parametrize("fmt", ["Zarr", "netCDF"])
def test_gdalmdimtranslate_round_trip_intervals(tmp_path, fmt):
    secs = [86400 * d for d in (100, 110, 110, 131)]
    data = sample_array("uint16", 2, 2, 12, 10)
    path = make_rumi(tmp_path / "i.rumi", data, "uint16", tile=(8, 8), frame_unit=5,
                     time={"kind": "interval", "seconds": secs})
    translate_and_check(path, data, [100, 110], tmp_path, fmt, bounds=[[100, 110], [110, 131]])


def test_view_slice_to_geotiff_matches_the_subdataset(cube, tmp_path):
    data, paths = cube
    out = tmp_path / "t1.tif"
    run("gdalmdimtranslate", "-q", "-of", "GTiff", "-array", "name=data,view=[1,:,:,:]", paths[0], out)
    got, want = gdal.Open(str(out)), gdal.Open(f'RUMI:"{paths[0]}":1')
    assert got.RasterCount == want.RasterCount == B
    np.testing.assert_array_equal(got.ReadAsArray(), want.ReadAsArray())
    np.testing.assert_array_equal(got.ReadAsArray(), data[1])
    np.testing.assert_allclose(got.GetGeoTransform(), want.GetGeoTransform(), rtol=1e-12, atol=1e-6)
    assert got.GetSpatialRef().IsSame(want.GetSpatialRef())


def xarray_or_skip():
    return pytest.importorskip("xarray", reason="xarray is not installed (apt install python3-xarray "
                                                "python3-netcdf4)")


def test_xarray_reads_a_datetime_axis(cube, tmp_path):
    xr = xarray_or_skip()
    pytest.importorskip("netCDF4", reason="netCDF4 is not installed (apt install python3-netcdf4)")
    data, paths = cube
    out = tmp_path / "x.nc"
    run("gdalmdimtranslate", "-q", "-of", "netCDF", paths[4], out)
    with xr.open_dataset(out) as ds:
        assert np.issubdtype(ds.time.dtype, np.datetime64)
        want = np.array(rumi_util.instants(T)["seconds"], dtype="datetime64[s]")
        np.testing.assert_array_equal(ds.time.values.astype("datetime64[s]"), want)
        np.testing.assert_array_equal(ds["data"].values, data)
        assert ds["data"].dims == ("time", "band", "y", "x")


# ---- real cubes -------------------------------------------------------------------------------------

real = pytest.mark.skipif(not rumi_util.DATA_DIR.is_dir(),
                          reason=f"real test data folder {rumi_util.DATA_DIR} is absent")


@pytest.fixture(scope="module")
def ndvi_cube(tmp_path_factory):
    """The 68-date NDVI series as a Cube: one single-band VRT per date (gdal_translate -b i),
    stacked by `rumi stack` with the band descriptions (timestamps) as the times."""
    if not NDVI.exists():
        pytest.skip(f"{NDVI} is absent")
    d = tmp_path_factory.mktemp("ndvi")
    src = gdal.Open(str(NDVI))
    stamps = [src.GetRasterBand(i + 1).GetDescription() for i in range(src.RasterCount)]
    vrts = []
    for i in range(src.RasterCount):
        vrts.append(d / f"d{i:02d}.vrt")
        gdal.Translate(str(vrts[-1]), src, format="VRT", bandList=[i + 1])
    out = d / "ndvi.rumi"
    run(RUMI, "stack", "-q", *vrts, out, "--tile", "32", "--band-text", "NDVI",
        "--times", ",".join(s + "Z" for s in stamps))
    return out, src.ReadAsArray()[:, None], [iso_seconds(s) for s in stamps]


@pytest.fixture(scope="module")
def sar_cube(tmp_path_factory):
    if not all(p.exists() for p in SAR):
        pytest.skip("the Sentinel-1 pair is absent")
    out = tmp_path_factory.mktemp("sar") / "s1.rumi"
    stamps = [re.search(r"\d{8}T\d{6}", p.name).group() for p in SAR]
    iso = [f"{s[:4]}-{s[4:6]}-{s[6:8]}T{s[9:11]}:{s[11:13]}:{s[13:15]}Z" for s in stamps]
    run(RUMI, "stack", "-q", "--allow-nodata-loss", *SAR, out, "--band-text", "VV backscatter (dB)",
        "--times", ",".join(iso))
    data = np.stack([gdal.Open(str(p)).ReadAsArray() for p in SAR])[:, None]
    return out, data, [iso_seconds(s) for s in iso]


@real
def test_ndvi_cube_gdalmdiminfo(ndvi_cube):
    path, data, seconds = ndvi_cube
    info = mdiminfo(path, "-detailed")
    dims = {d["name"]: (d["size"], d.get("type"), d.get("direction")) for d in info["dimensions"]}
    assert dims == {"time": (68, "TEMPORAL", None), "band": (1, None, None), "y": (101, "HORIZONTAL_Y", "SOUTH"),
                    "x": (100, "HORIZONTAL_X", "EAST")}
    arrays = info["arrays"]
    assert arrays["time"]["values"] == seconds
    assert arrays["time"]["attributes"]["units"]["value"] == "seconds since 1970-01-01T00:00:00Z"
    assert arrays["time"]["attributes"]["calendar"]["value"] == "proleptic_gregorian"
    assert arrays["band"]["values"] == ["NDVI"]
    assert arrays["data"]["datatype"] == "Float32"
    assert arrays["data"]["attributes"]["frame_unit"]["value"] == 0  # rumi stack's default for B = 1: a frame a date
    assert arrays["data"]["attributes"]["encoding"]["value"] == "float32"
    assert arrays["data"]["block_size"] == [1, 1, 32, 32]
    assert "32633" in arrays["data"]["srs"]["wkt"]
    gt = gdal.Open(str(NDVI)).GetGeoTransform()
    x = arrays["x"]["values"]
    assert x[0] == pytest.approx(gt[0] + 0.5 * gt[1]) and x[1] - x[0] == pytest.approx(gt[1])


@real
def test_ndvi_cube_reads_equal_numpy(ndvi_cube):
    path, data, _ = ndvi_cube
    ar = root(path).OpenMDArray("data")
    np.testing.assert_array_equal(ar.ReadAsArray(), data)
    for start, count, step in [([67, 0, 100, 99], [34, 1, 26, 25], [-2, 1, -4, -4]),
                               ([5, 0, 3, 1], [7, 1, 10, 33], [9, 1, 7, 3]),
                               ([10, 0, 50, 50], [1, 1, 1, 1], [1, 1, 1, 1])]:
        got = ar.ReadAsArray(array_start_idx=start, count=count, array_step=step)
        np.testing.assert_array_equal(got, numpy_slice(data, start, count, step))
    np.testing.assert_array_equal(ar.GetView("[::-5,0,::-1,10:20]").ReadAsArray(), data[::-5, 0, ::-1, 10:20])


@real
@pytest.mark.parametrize("fmt", ["Zarr", "netCDF"])
def test_ndvi_cube_translates(ndvi_cube, tmp_path, fmt):
    path, data, seconds = ndvi_cube
    translate_and_check(path, data, seconds, tmp_path, fmt)


@real
def test_ndvi_cube_in_xarray(ndvi_cube, tmp_path):
    xr = xarray_or_skip()
    pytest.importorskip("netCDF4", reason="netCDF4 is not installed (apt install python3-netcdf4)")
    path, data, seconds = ndvi_cube
    out = tmp_path / "ndvi.nc"
    run("gdalmdimtranslate", "-q", "-of", "netCDF", path, out)
    with xr.open_dataset(out) as ds:
        assert np.issubdtype(ds.time.dtype, np.datetime64)
        np.testing.assert_array_equal(ds.time.values.astype("datetime64[s]"), np.array(seconds, dtype="datetime64[s]"))
        assert str(ds.time.values[0])[:19] == "2015-07-11T10:00:08"
        np.testing.assert_array_equal(ds["data"].sel(time="2017-12-22").values, data[-1:])


@real
def test_sar_pair_cube(sar_cube, tmp_path):
    path, data, seconds = sar_cube
    assert seconds == [1425922217, 1489038236]
    info = mdiminfo(path, "-detailed")
    assert info["arrays"]["time"]["values"] == seconds
    assert info["arrays"]["band"]["values"] == ["VV backscatter (dB)"]
    assert [d["size"] for d in info["dimensions"]] == [2, 1, 217, 268]
    ar = root(path).OpenMDArray("data")
    np.testing.assert_array_equal(ar.ReadAsArray(), data)
    np.testing.assert_array_equal(ar.GetView("[::-1,:,200:10:-3,::7]").ReadAsArray(), data[::-1, :, 200:10:-3, ::7])
    for fmt in ("Zarr", "netCDF"):
        sub = tmp_path / fmt
        sub.mkdir()
        translate_and_check(path, data, seconds, sub, fmt)
    out = tmp_path / "t1.tif"
    run("gdalmdimtranslate", "-q", "-of", "GTiff", "-array", "name=data,view=[1,:,:,:]", path, out)
    got, want = gdal.Open(str(out)), gdal.Open(f'RUMI:"{path}":1')
    np.testing.assert_array_equal(got.ReadAsArray(), want.ReadAsArray())
    assert got.GetRasterBand(1).Checksum() == want.GetRasterBand(1).Checksum() == 12040
    np.testing.assert_allclose(got.GetGeoTransform(), want.GetGeoTransform(), rtol=1e-12, atol=1e-6)


@real
def test_sar_pair_in_xarray(sar_cube, tmp_path):
    xr = xarray_or_skip()
    pytest.importorskip("netCDF4", reason="netCDF4 is not installed (apt install python3-netcdf4)")
    path, data, _ = sar_cube
    out = tmp_path / "s1.nc"
    run("gdalmdimtranslate", "-q", "-of", "netCDF", path, out)
    with xr.open_dataset(out) as ds:
        assert [str(t)[:19] for t in ds.time.values] == ["2015-03-09T17:30:17", "2017-03-09T05:43:56"]
        np.testing.assert_array_equal(ds["data"].values, data)


def _scaled_tif(path, scales, units=("metre", "metre"), nodata=-9999):
    ds = gdal.GetDriverByName("GTiff").Create(str(path), 40, 30, len(scales), gdal.GDT_Int16)
    ds.SetGeoTransform((500000, 30, 0, 5000000, 0, -30))
    ds.SetProjection("EPSG:32610")
    for b, (s, u) in enumerate(zip(scales, units), 1):
        band = ds.GetRasterBand(b)
        band.WriteArray((np.arange(30 * 40, dtype=np.int16).reshape(30, 40) * b) % 500)
        band.SetScale(s)
        band.SetOffset(100.0)
        band.SetUnitType(u)
        band.SetNoDataValue(nodata)
    ds = None


def _array_values(arr):
    return (arr.GetScale(), arr.GetOffset(), arr.GetUnit(), arr.GetNoDataValueAsDouble())


def test_data_array_reports_the_sidecars_scale_offset_unit_and_nodata(tmp_path):
    """The data array reports the scale, offset, unit and nodata the classic view reads from the
    PAM sidecar (rumi convert keeps them there), as the array of GDAL's own multidimensional view
    of the source GeoTIFF (gdalmdimtranslate's netCDF copy of it) does, so gdalmdimtranslate so.rumi so.nc writes the netCDF that
    gdalmdimtranslate so.tif so.nc writes (scale_factor, add_offset, units, _FillValue; it
    wrote none). Bands that differ: no value, and a warning naming them at the array's open."""
    tif, rumi_file = tmp_path / "so.tif", tmp_path / "so.rumi"
    _scaled_tif(tif, (0.5, 0.5))
    subprocess.run([str(RUMI), "convert", str(tif), str(rumi_file), "--time", "2020-01-01"], check=True,
                   capture_output=True)
    classic_ds = gdal.Open(str(rumi_file))  # kept: a band of a closed dataset is freed
    classic = classic_ds.GetRasterBand(2)
    want = (classic.GetScale(), classic.GetOffset(), classic.GetUnitType(), classic.GetNoDataValue())
    assert want == (0.5, 100.0, "metre", -9999.0)
    assert _array_values(root(rumi_file).OpenMDArray("data")) == want
    for name, path in (("tif", tif), ("rumi", rumi_file)):
        gdal.MultiDimTranslate(str(tmp_path / f"{name}.nc"), str(path), format="netCDF")
    nc_ds = [open_md(tmp_path / "tif.nc"), open_md(tmp_path / "rumi.nc")]
    nc_tif, nc_rumi = (d.GetRootGroup() for d in nc_ds)
    got = nc_rumi.OpenMDArray("data")
    assert _array_values(got) == want  # the classic API's values
    # GDAL's copy of the GeoTIFF: the same scale, offset and nodata (GDAL 3.6 drops the unit there)
    ref = _array_values(nc_tif.OpenMDArray(nc_tif.GetMDArrayNames()[-1]))
    assert [_array_values(got)[i] for i in (0, 1, 3)] == [ref[i] for i in (0, 1, 3)]
    np.testing.assert_array_equal(got.ReadAsArray()[0], gdal.Open(str(tif)).ReadAsArray())
    # band 2 with another scale: the array has none, and says why
    _scaled_tif(tif, (0.5, 0.25))
    subprocess.run([str(RUMI), "convert", str(tif), str(tmp_path / "two.rumi"), "--time", "2020-01-01"], check=True,
                   capture_output=True)
    said = []
    gdal.PushErrorHandler(lambda cls, no, text: said.append((cls, text)))
    try:
        two = open_md(tmp_path / "two.rumi")
        arr = two.GetRootGroup().OpenMDArray("data")
    finally:
        gdal.PopErrorHandler()
    assert [cls for cls, _ in said] == [gdal.CE_Warning], said
    msg = said[0][1]
    assert re.search(r"two\.rumi\.aux\.xml: the bands' scales differ \(GDAL band 1: 0\.5, band 2: 0\.25\); the data "
                     r"array, one array for every band, reports none", msg), msg
    assert arr.GetScale() is None and arr.GetOffset() == 100.0 and arr.GetUnit() == "metre"
    # the classic view still gives each band's
    two_classic = gdal.Open(str(tmp_path / "two.rumi"))
    assert [two_classic.GetRasterBand(b).GetScale() for b in (1, 2)] == [0.5, 0.25]
