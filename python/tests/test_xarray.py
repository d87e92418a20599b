"""xarray backend (engine="rumi") and dask: lazy frame-aligned chunks, coordinates, CF grid
mapping, per-band statistics on a 2-worker dask.distributed LocalCluster."""

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
    assert sr["crs_wkt"] == "EPSG:32633" and sr["GeoTransform"].split()[1] == "10.0"
    assert da.attrs["grid_mapping"] == "spatial_ref"
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
