"""Scale, offset and unit per band (issue 47): one array written twice, as a GeoTIFF by rasterio
with `scales`/`offsets`/`units` (the oracle) and by rumi.write / rumi.Writer with `scales=`/
`offsets=`/`units=`, then read by every surface: `rumi.open(...).scales/offsets/units` against
rasterio's, the xarray engine against `rioxarray.open_rasterio(mask_and_scale=False/True)` (values
bit for bit, dtype, attrs and encoding), `rumi.to_rumi` against `rio.to_raster` of the same
DataArray (samples, scales, offsets), and the real rasters of ../shared/data given the scales
of real archives (Landsat C2 L2, Sentinel-2 L2A, a DEM in feet)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import rasterio
import rioxarray
import xarray as xr
from hypothesis import given, strategies as st

import rumi
from diffkit import REAL_SCALES, Case, _nd_equal, assert_nan_equal, cases, write_rumi, write_tif

#: the types rioxarray's mask_and_scale scales (complex and 64-bit integers aside)
DTYPES = ("uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "float64")
SCALE_KEYS = ("scale_factor", "add_offset", "scales", "offsets")


def _engine(path, mask_and_scale: bool, chunks=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=FutureWarning)
        return xr.open_dataset(path, engine="rumi", mask_and_scale=mask_and_scale, chunks=chunks)["band_data"]


def _rioxarray(tif, mask_and_scale: bool):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Scales differ across bands" (rioxarray's, expected)
        return rioxarray.open_rasterio(tif, mask_and_scale=mask_and_scale)


def _scaled(case: Case) -> bool:
    return case.scales is not None and any(
        s != 1.0 or o != 0.0 for s, o in zip(case.scales, case.offsets or (0.0,) * case.bands)
    )


def check_engine(rf, tif, case: Case, mask_and_scale: bool, chunks=None) -> None:
    """The engine against rioxarray on the GeoTIFF: values, dtype, the scale keys (attrs without
    mask_and_scale, encoding with it) and units."""
    what = f"{case} engine vs rioxarray mask_and_scale={mask_and_scale} chunks={chunks!r}"
    ref = _rioxarray(tif, mask_and_scale)
    if mask_and_scale and case.per_band and len({repr(v) for v in case.nodatavals}) > 1:
        with pytest.raises(ValueError, match="nodata"):
            _engine(rf, mask_and_scale, chunks)
        return
    da = _engine(rf, mask_and_scale, chunks)
    got = da.isel(time=0)
    scaled = _scaled(case)
    nodata = any(v is not None for v in case.nodatavals)
    # rioxarray's mask_and_scale=True casts to float even with nothing to mask or scale; the
    # engine then keeps the exact samples (as for masked=True without nodata)
    with np.errstate(over="ignore", invalid="ignore"):
        assert_nan_equal(got.values, ref.values, what + ": values", dtype=scaled or nodata or not mask_and_scale)
    where_got, where_ref = (da.encoding, ref.encoding) if mask_and_scale else (got.attrs, ref.attrs)
    if scaled:
        for k in SCALE_KEYS:
            g, r = where_got.get(k), where_ref.get(k)
            assert (g is None) == (r is None) and (g is None or tuple(np.atleast_1d(g)) == tuple(np.atleast_1d(r))), (
                f"{what}: {k} {g!r} != rioxarray's {r!r}"
            )
        if mask_and_scale:
            assert np.dtype(da.encoding["dtype"]) == np.dtype(ref.encoding["dtype"]), f"{what}: encoding dtype"
            for k in SCALE_KEYS:
                assert k not in got.attrs, f"{what}: {k} in attrs too (xarray would scale twice)"
    else:  # rioxarray says 1 and 0; the engine says nothing
        for k in SCALE_KEYS:
            assert k not in where_got, f"{what}: {k} = {where_got[k]!r} for a file without scales"
    assert got.attrs.get("units") == ref.attrs.get("units"), (
        f"{what}: units {got.attrs.get('units')!r} != rioxarray's {ref.attrs.get('units')!r}"
    )


@given(case=cases(dtypes=DTYPES, scaled=True, point=False), how=st.sampled_from(["write", "writer"]))
def test_scales_offsets_units_against_rasterio_and_rioxarray(case, how, tmp_path_factory):
    d = tmp_path_factory.mktemp("scale")
    tif = write_tif(case, d / "a.tif")
    rf = write_rumi(case, d / "a.rumi", how=how)
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        assert (ds.scales, ds.offsets, ds.units) == (src.scales, src.offsets, src.units), str(case)
    for ms in (False, True):
        check_engine(rf, tif, case, ms)
    check_engine(rf, tif, case, True, chunks={})


@given(case=cases(dtypes=("uint8", "uint16", "int16", "int32", "float32"), scaled=True, point=False,
                  kinds=("north-up",), per_band=False),
       real=st.sampled_from(REAL_SCALES), mask_and_scale=st.booleans(), dask=st.booleans())
def test_to_rumi_writes_what_rio_to_raster_writes(case, real, mask_and_scale, dask, tmp_path_factory):
    """to_rumi of rioxarray's DataArray (decoded with mask_and_scale=True, raw without) stores
    the samples and scales rio.to_raster stores; real archives' scales (arbitrary ones make
    rio.to_raster's float encoding overflow)."""
    case.scales, case.offsets = (real[0],) * case.bands, (real[1],) * case.bands
    d = tmp_path_factory.mktemp("to_rumi")
    tif = write_tif(case, d / "a.tif")
    da = _rioxarray(tif, mask_and_scale)
    if dask:
        da = da.chunk({"y": 8})
    out_tif, out_rumi = d / "b.tif", d / "b.rumi"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        da.rio.to_raster(out_tif)
    rumi.to_rumi(da, out_rumi, times=["2020-01-01"])
    with rasterio.open(out_tif) as a, rumi.open(out_rumi) as b:
        what = f"{case} mask_and_scale={mask_and_scale} dask={dask}"
        assert (b.scales, b.offsets) == (a.scales, a.offsets), what
        assert b.dtype == np.dtype(a.dtypes[0]), what
        assert_nan_equal(b.read()[0], a.read(), what + ": samples")
        # NaN nodata: two NaN floats are equal only as the same object in a tuple's ==
        assert len(b.nodatavals) == len(a.nodatavals) and all(
            _nd_equal(x, y) for x, y in zip(b.nodatavals, a.nodatavals)), f"{what}: {b.nodatavals} != {a.nodatavals}"
        if case.units is not None:  # rio.to_raster writes attrs['units'] as a dataset tag; to_rumi as the bands'
            assert b.units == tuple(case.units) if case.bands > 1 else (case.units[0],), what


@given(case=cases(dtypes=DTYPES, scaled=True, point=False, kinds=("north-up",)),
       how=st.sampled_from(["write", "writer"]))
def test_the_plugin_reports_what_gdal_reports_of_the_geotiff(case, how, scratch, gdal_oracle):
    """GDAL reading the rumi file (the plugin, a PAM dataset) reports the GeoTIFF's GetScale,
    GetOffset and GetUnitType."""
    d = scratch()
    tif = write_tif(case, d / "a.tif")
    rf = write_rumi(case, d / "a.rumi", how=how)
    mr, _ = gdal_oracle.describe(rf, d / "rumi.npz", [])
    ms, _ = gdal_oracle.describe(tif, d / "src.npz", [])
    # GDAL 3.6's PAM bands answer 1 and 0 with success where GTiff answers "not set" (None):
    # the same values
    none = {"scales": 1.0, "offsets": 0.0, "units": ""}
    for k, default in none.items():
        got = [default if v is None else v for v in mr[k]]
        want = [default if v is None else v for v in ms[k]]
        assert got == want, f"{case} written by rumi.{how}: GDAL's {k} {mr[k]!r}, of the GeoTIFF {ms[k]!r}"


def test_rewrite_keeps_them(tmp_path):
    """write -> read -> rewrite (rumi.write with the read scales) -> read: the same; a rewrite
    without them removes rumi's sidecar (nothing stale)."""
    a = np.arange(2 * 3 * 5 * 7, dtype=np.uint16).reshape(2, 3, 5, 7)
    kw = dict(bands=["b1", "b2", "b3"], times=["2020-01-01", "2020-01-02"], crs="EPSG:32633",
              transform=rasterio.Affine(10, 0, 500000, 0, -10, 4100000))
    p = tmp_path / "c.rumi"
    rumi.write(p, a, scales=[2.75e-5, 1e-4, 0.5], offsets=[-0.2, -1000.0, 0.0], units=[None, "1", "ft"], nodata=0, **kw)
    with rumi.open(p) as ds:
        first = (ds.scales, ds.offsets, ds.units, ds.nodatavals)
        data = ds.read()
    assert first == ((2.75e-5, 1e-4, 0.5), (-0.2, -1000.0, 0.0), (None, "1", "ft"), (0.0, 0.0, 0.0))
    rumi.write(p, data, scales=first[0], offsets=first[1], units=first[2], nodata=list(first[3]), **kw)
    with rumi.open(p) as ds:
        assert (ds.scales, ds.offsets, ds.units, ds.nodatavals) == first
    # the engine's arrays go back through to_rumi with them, decoded or not
    for ms in (True, False):
        rumi.to_rumi(_engine(p, ms), tmp_path / f"e{ms}.rumi")
        with rumi.open(tmp_path / f"e{ms}.rumi") as ds:
            assert (ds.scales, ds.offsets, ds.units, ds.nodatavals) == first
            assert np.array_equal(ds.read(), data)
    rumi.write(p, data, **kw)
    assert not (tmp_path / "c.rumi.aux.xml").exists()
    with rumi.open(p) as ds:
        assert (ds.scales, ds.offsets, ds.units) == ((1.0,) * 3, (0.0,) * 3, (None,) * 3)


# the real rasters of ../shared/data given the scales of real archives
REAL = [
    ("landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif", 2.75e-5, -0.2, None),  # Landsat C2 L2 SR
    ("xrspatial_s2_4band_10m_uint16.tif", 1e-4, -1000.0, None),  # Sentinel-2 L2A BOA offset on the counts
    ("xrspatial_s2_4band_10m_uint16.tif", 1e-4, -0.1, "1"),  # the same as reflectance (STAC raster:bands)
    ("eolearn_dem_float32.tif", 0.3048, 0.0, "ft"),  # a DEM in feet
    ("lf_elev_220_mt_hood_utm.tif", 0.5, 100.0, "metre"),  # issue 47's repro
]


@pytest.mark.parametrize("name,scale,offset,unit", REAL)
def test_real_rasters(name, scale, offset, unit, tmp_path, data_dir):
    src_path = data_dir / name
    if not src_path.is_file():
        pytest.skip(f"real raster {src_path} is absent")
    tif = tmp_path / "a.tif"
    with rasterio.open(src_path) as src:
        data, profile = src.read(), src.profile
        B = src.count
        nodata = src.nodata
    profile.update(driver="GTiff")
    with rasterio.open(tif, "w", **profile) as dst:
        dst.write(data)
        dst.scales, dst.offsets = (scale,) * B, (offset,) * B
        if unit:
            dst.units = (unit,) * B
    rf = tmp_path / "a.rumi"
    rumi.write(rf, data, bands=[f"b{i}" for i in range(B)], times=["2020-05-18"], crs=f"EPSG:{profile['crs'].to_epsg()}",
               transform=profile["transform"], nodata=nodata, scales=scale, offsets=offset, units=unit)
    with rasterio.open(tif) as a, rumi.open(rf) as b:
        assert (b.scales, b.offsets, b.units) == (a.scales, a.offsets, a.units)
    case = Case(data=data, nodata=nodata, scales=(scale,) * B, offsets=(offset,) * B,
                units=(unit,) * B if unit else None)
    for ms in (False, True):
        check_engine(rf, tif, case, ms)
        # and back: to_rumi of rioxarray's array stores rio.to_raster's samples
        da = _rioxarray(tif, ms)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            da.rio.to_raster(tmp_path / "b.tif")
        rumi.to_rumi(da, tmp_path / "b.rumi", times=["2020-05-18"])
        with rasterio.open(tmp_path / "b.tif") as a, rumi.open(tmp_path / "b.rumi") as b:
            assert (b.scales, b.offsets) == (a.scales, a.offsets)
            assert np.array_equal(b.read()[0], a.read()), f"{name} mask_and_scale={ms}"
            if data.dtype.kind in "iu" or not ms:
                assert np.array_equal(b.read()[0], data), f"{name} mask_and_scale={ms}: not the source's samples"
            else:  # float samples decoded to float and encoded back: rounded twice, as rio.to_raster's
                np.testing.assert_allclose(b.read()[0], data, rtol=1e-6, err_msg=f"{name} mask_and_scale={ms}")
