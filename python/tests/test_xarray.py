"""xarray backend (engine="rumi") and dask: lazy frame-aligned chunks, coordinates, CF grid
mapping, per-band statistics on a 2-worker dask.distributed LocalCluster."""

import warnings

import numpy as np
import pytest

import rumi
from conftest import tiff_pixels
from test_read_write import GT, cube, write_cube

xr = pytest.importorskip("xarray")
pytest.importorskip("dask")


def test_open_dataset_is_lazy_and_frame_aligned(tmp_path):
    a = cube(T=3, B=2, Y=70, X=90, dtype=np.float32)
    p = write_cube(str(tmp_path / "x.rumi"), a, unit=0, tile=32)
    ds = xr.open_dataset(p, engine="rumi", chunks={})
    da = ds["band_data"]
    assert da.dims == ("time", "band", "y", "x")
    assert da.chunks == ((1, 1, 1), (1, 1), (32, 32, 6), (32, 32, 26))
    assert list(da.band.values) == ["b0", "b1"]
    assert da.time.dtype == np.dtype("datetime64[ns]")
    assert str(da.time.values[2])[:10] == "2020-01-03"
    assert np.allclose(da.x.values[:2], [GT[0] + 5, GT[0] + 15]) and np.allclose(da.y.values[0], GT[3] - 5)
    sr = ds["spatial_ref"].attrs
    assert 'AUTHORITY["EPSG","32633"]' in sr["crs_wkt"] and sr["GeoTransform"].split()[1] == "10.0"
    assert da.encoding["grid_mapping"] == "spatial_ref" and "grid_mapping" not in da.attrs
    assert da.rio.crs.to_epsg() == 32633
    assert np.array_equal(da.values, a)
    assert np.array_equal(da.isel(time=[2, 0], band=1, y=slice(3, 40), x=[5, 1, 70]).values,
                          a[[2, 0]][:, 1][:, 3:40][:, :, [5, 1, 70]])
    # cell frames (all bands and times of a tile): one chunk per tile
    q = write_cube(str(tmp_path / "c.rumi"), a, unit=4, tile=32)
    assert xr.open_dataset(q, engine="rumi", chunks={})["band_data"].chunks[:2] == ((3,), (2,))


def test_pyproj_understands_spatial_ref(tmp_path):
    pyproj = pytest.importorskip("pyproj")
    p = write_cube(str(tmp_path / "x.rumi"), cube(T=1, B=1, Y=20, X=20))
    ds = xr.open_dataset(p, engine="rumi")
    assert pyproj.CRS.from_cf(ds["spatial_ref"].attrs).to_epsg() == 32633


def test_band_statistics_on_a_local_cluster(tmp_path, converted, data_dir):
    distributed = pytest.importorskip("dask.distributed")
    name = "xrspatial_s2_4band_10m_uint16.tif"
    p = converted(name)
    src = tiff_pixels(data_dir / name).astype(np.float64)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        ds = xr.open_dataset(str(p), engine="rumi", chunks={})
        da = ds["band_data"].astype("float64")
        mean, std, mx = client.compute([da.mean(("time", "y", "x")), da.std(("time", "y", "x")),
                                        da.max(("time", "y", "x"))], sync=True)
    assert np.allclose(mean.values, src.mean(axis=(1, 2)))
    assert np.allclose(std.values, src.std(axis=(1, 2)))
    assert np.array_equal(mx.values, src.max(axis=(1, 2)))
    assert list(mean.band.values) == rumi.open(str(p)).bands


@pytest.mark.parametrize("unit", [0, 9, 3, 4, 8])
def test_chunks_are_the_frames(tmp_path, unit):
    """spec "frame_unit": units 0 and 9 hold one tile of one (band, time) plane per frame, so
    their chunks are (1, 1, tile); the other units hold every plane of a tile: (T, B, tile).
    Each chunk then reads exactly its frames (one frame per chunk)."""
    a = cube(T=3, B=2, Y=40, X=50, dtype=np.uint16)
    p = write_cube(str(tmp_path / f"u{unit}.rumi"), a, unit=unit, tile=16)
    ds = rumi.open(p)
    assert ds.frame_unit == unit
    da = xr.open_dataset(p, engine="rumi", chunks={})["band_data"]
    one_plane = unit in (0, 9)
    assert da.chunks[:2] == (((1, 1, 1), (1, 1)) if one_plane else ((3,), (2,)))
    assert da.chunks[2:] == ((16, 16, 8), (16, 16, 16, 2))
    # a chunk is one frame: reading it touches exactly one
    assert len(ds.frames_for(t=[1] if one_plane else None, b=[1] if one_plane else None, window=(16, 32, 16, 16))) == 1
    assert np.array_equal(da.values, a)


# --- rioxarray and rasterio as the oracle -------------------------------------------------------

#: the real rasters rumi can store (the CInt16 scene and the CRS without an EPSG code cannot)
REAL = ["S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif", "eolearn_dem_float32.tif",
        "eolearn_lulc_uint16.tif", "eolearn_s2_clm_68t_uint8.tif", "eolearn_s2_ndvi_68t_float32.tif",
        "gdal_byte.tif", "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif", "lf_elev_220_mt_hood_utm.tif",
        "lf_fbfm40_220_mt_hood_utm.tif", "naip_m_3607824_se_17_1_20160620_sub.tif", "rasterio_RGB.byte.tif",
        "xrspatial_s2_4band_10m_uint16.tif"]


def quiet(f, *a, **kw):
    """f(*a, **kw) without rioxarray's PendingDeprecationWarnings of affine's `*`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return f(*a, **kw)


def source(path):
    """What rasterio reads of a GeoTIFF: (pixels (B, Y, X), nodatavals, EPSG code, transform)."""
    rasterio = pytest.importorskip("rasterio")
    with rasterio.open(path) as f:
        return f.read(), f.nodatavals, f.crs.to_epsg(), f.transform


@pytest.mark.parametrize("name", REAL)
def test_coordinates_are_rioxarrays_bit_for_bit(converted, data_dir, name):
    """x/y of the engine equal rioxarray's (and odc-geo's) for the source GeoTIFF exactly, and so
    do the transform and the grid mapping: with `x0 + (i + 0.5) * res` they differed by up to
    5e-10 m on 5 of these rasters, and `engine - rioxarray` silently aligned to a smaller grid."""
    rioxarray = pytest.importorskip("rioxarray")
    src = str(data_dir / name)
    r = quiet(rioxarray.open_rasterio, src)
    e = xr.open_dataset(converted(name), engine="rumi")["band_data"]
    assert np.array_equal(e.x.values, r.x.values) and np.array_equal(e.y.values, r.y.values)
    assert e.x.dtype == r.x.dtype == np.float64
    assert rumi.open(converted(name)).geotransform == source(src)[3].to_gdal()
    assert e.spatial_ref.attrs == r.spatial_ref.attrs  # CF parameters, WKT, GeoTransform's text
    assert quiet(lambda: e.rio.transform()) == quiet(lambda: r.rio.transform())
    assert e.rio.crs == r.rio.crs
    # arithmetic between the two aligns on every pixel (it once kept a much smaller intersection)
    diff = e.isel(time=0).astype("float64").drop_vars("band") - r.astype("float64").drop_vars("band")
    assert diff.sizes["y"] == r.sizes["y"] and diff.sizes["x"] == r.sizes["x"]
    from odc.geo.geobox import GeoBox

    gb = GeoBox((r.sizes["y"], r.sizes["x"]), source(src)[3], f"EPSG:{source(src)[2]}")
    assert np.array_equal(gb.coords["x"].values, e.x.values) and np.array_equal(gb.coords["y"].values, e.y.values)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_samples_with_nodata_stay_complex(tmp_path, dtype):
    """The masked type of complex samples is complex (xarray's: NaN+NaNj where the nodata is);
    it was float64, the imaginary part dropped with only numpy's ComplexWarning."""
    a = cube(T=1, B=2, Y=20, X=30, dtype=dtype)
    a[0, :, :3, :4] = -99
    p = write_cube(str(tmp_path / "c.rumi"), a, nodata=-99)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's ComplexWarning included
        da = xr.open_dataset(p, engine="rumi")["band_data"]
        got = da.values
    assert da.dtype == np.dtype(dtype) and got.dtype == np.dtype(dtype)
    miss = got[0, :, :3, :4]
    assert np.isnan(miss.real).all() and np.isnan(miss.imag).all()
    keep = np.ones(a.shape, bool)
    keep[0, :, :3, :4] = False
    assert np.array_equal(got[keep], a[keep])
    assert da.encoding["_FillValue"] == -99 and da.encoding["dtype"] == np.dtype(dtype)
    raw = xr.open_dataset(p, engine="rumi", mask_and_scale=False)["band_data"]
    assert raw.dtype == np.dtype(dtype) and np.array_equal(raw.values, a)
    # and back: the masked samples are the nodata again
    rumi.to_rumi(da, tmp_path / "back.rumi")
    with rumi.open(str(tmp_path / "back.rumi")) as ds:
        assert ds.dtype == np.dtype(dtype) and np.array_equal(ds.read(), a) and ds.nodatavals == (-99.0, -99.0)


@pytest.mark.parametrize("masked", [True, False])
def test_engine_dataset_writes_back_with_to_raster_and_to_netcdf(tmp_path, converted, data_dir, masked):
    """rio.to_raster and to_netcdf of the engine's Dataset ("Key 'grid_mapping' already exists in
    attrs" when the grid mapping was in both attrs and encoding): rasterio, GDAL and rioxarray
    read back the source's pixels, CRS, transform and nodata."""
    pytest.importorskip("rioxarray")
    name = "rasterio_RGB.byte.tif"  # uint8, nodata 0 on every band
    pixels, nodatavals, epsg, transform = source(data_dir / name)
    ds = xr.open_dataset(converted(name), engine="rumi", mask_and_scale=masked)
    # a DataArray of one time step (rioxarray writes 2-D and 3-D arrays); recalc_transform=False:
    # rioxarray's default recalculates the transform from the coordinates, which rounds this
    # one's y resolution differently (-300.041782729805 for -300.04178272980505), as it does for
    # its own open_rasterio of the source (test_round_trips_through_the_engine)
    quiet(ds["band_data"].isel(time=0).rio.to_raster, tmp_path / "a.tif", recalc_transform=False)
    got = source(tmp_path / "a.tif")
    assert np.array_equal(got[0], pixels) and got[0].dtype == np.uint8
    assert got[1:] == (nodatavals, epsg, transform)
    # a Dataset of 2-D variables (what rioxarray writes as bands)
    quiet(ds.isel(time=0, band=1).rio.to_raster, tmp_path / "d.tif", recalc_transform=False)
    got = source(tmp_path / "d.tif")
    assert np.array_equal(got[0], pixels[1:2]) and got[1:] == (nodatavals[:1], epsg, transform)
    # NetCDF, read back by xarray + rioxarray and by GDAL
    pytest.importorskip("netCDF4")
    ds.to_netcdf(tmp_path / "x.nc")
    with xr.open_dataset(tmp_path / "x.nc", decode_coords="all", mask_and_scale=masked) as nc:
        v = nc["band_data"]
        assert np.array_equal(v.values, ds["band_data"].values, equal_nan=True) and v.dtype == ds["band_data"].dtype
        assert v.rio.crs.to_epsg() == epsg and quiet(v.rio.transform) == transform
        assert (v.rio.encoded_nodata if masked else v.rio.nodata) == 0
        assert list(v.band.values) == list(ds.band.values) and np.array_equal(v.time.values, ds.time.values)
    # GDAL's netCDF driver (rasterio's): it could not parse the CRS when crs_wkt was "EPSG:n"
    got = source(f'netcdf:{tmp_path / "x.nc"}:band_data')
    assert np.array_equal(got[0], pixels) and got[1:] == (nodatavals, epsg, transform)


@pytest.mark.parametrize("name", ["S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif", "rasterio_RGB.byte.tif",
                                  "lf_elev_220_mt_hood_utm.tif", "eolearn_s2_ndvi_68t_float32.tif"])
@pytest.mark.parametrize("masked", [True, False])
def test_round_trips_through_the_engine(tmp_path, converted, data_dir, name, masked):
    """engine (masked and not) -> to_rumi -> the same file as the source's conversion: samples,
    nodata, CRS, transform, times, band texts; engine -> rio.to_raster -> what rasterio reads of
    the source GeoTIFF."""
    rioxarray = pytest.importorskip("rioxarray")
    p = converted(name)
    da = xr.open_dataset(p, engine="rumi", mask_and_scale=masked)["band_data"]
    rumi.to_rumi(da, tmp_path / "back.rumi")
    with rumi.open(str(p)) as a, rumi.open(str(tmp_path / "back.rumi")) as b:
        assert np.array_equal(b.read(), a.read(), equal_nan=True) and b.dtype == a.dtype
        assert b.nodatavals == a.nodatavals and b.crs == a.crs and b.geotransform == a.geotransform
        assert np.array_equal(b.times, a.times) and b.bands == a.bands
    pixels, nodatavals, epsg, transform = source(data_dir / name)
    quiet(da.isel(time=0).rio.to_raster, tmp_path / "back.tif", recalc_transform=False)
    got = source(tmp_path / "back.tif")
    assert np.array_equal(got[0], pixels, equal_nan=True) and got[0].dtype == pixels.dtype
    assert got[1:] == (nodatavals, epsg, transform)
    # with rioxarray's default (the transform recalculated from the coordinates) the same file as
    # rioxarray's own read of the source writes: the coordinates are the same bits
    r = quiet(rioxarray.open_rasterio, data_dir / name, masked=masked)
    quiet(da.isel(time=0).rio.to_raster, tmp_path / "engine.tif")
    quiet(r.rio.to_raster, tmp_path / "oracle.tif")
    e, o = source(tmp_path / "engine.tif"), source(tmp_path / "oracle.tif")
    assert np.array_equal(e[0], o[0], equal_nan=True) and e[1:] == o[1:]
    # rioxarray's own read of the source (masked or not) -> to_rumi gives the source's samples
    rumi.to_rumi(r.expand_dims(time=da.time.values), tmp_path / "rio.rumi")
    with rumi.open(str(tmp_path / "rio.rumi")) as c:
        assert np.array_equal(c.read()[0], pixels, equal_nan=True) and c.nodatavals == tuple(
            None if v is None else float(v) for v in nodatavals)
        assert c.crs == f"EPSG:{epsg}" and c.geotransform == transform.to_gdal()


def test_interval_times_round_trip_through_the_engine(tmp_path):
    a = cube(T=2, B=2, Y=20, X=30, dtype=np.uint16)
    p = str(tmp_path / "i.rumi")
    rumi.write(p, a, bands=["red", "nir"], crs="EPSG:32633", geotransform=GT, tile=16,
               times=[("2020-01-01", "2020-01-31T23:59:59"), ("2020-02-01", "2020-02-29")])
    da = xr.open_dataset(p, engine="rumi")["band_data"]
    assert str(da.time_end.values[0])[:19] == "2020-01-31T23:59:59"
    rumi.to_rumi(da, tmp_path / "b.rumi")
    with rumi.open(p) as x, rumi.open(str(tmp_path / "b.rumi")) as y:
        assert y.times.shape == (2, 2) and np.array_equal(y.times, x.times) and y.bands == x.bands
        assert np.array_equal(y.read(), a)
