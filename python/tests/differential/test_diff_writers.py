"""rumi.to_rumi from the DataArrays users have (rioxarray's, numpy- and dask-backed, masked and
not; a hand-made numpy DataArray with rioxarray's grid; the xarray engine's, masked and not,
numpy and dask) writes what rioxarray's rio.to_raster writes of the same DataArray (samples bit
for bit, masks, transform, crs), with the source's nodata, band texts and time; and the engine
reads the result as rioxarray reads the source GeoTIFF."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import rasterio
import rioxarray
import xarray as xr
from hypothesis import given, strategies as st

import rumi
from diffkit import (
    KNOWN_DEFECTS, Case, _nd_equal, assert_same_masked, bits, assert_same_samples, cases, write_rumi, write_tif,
)
from test_diff_xarray import check_against_rioxarray

SOURCES = ("rioxarray", "rioxarray-dask", "rioxarray-masked", "numpy", "engine", "engine-masked", "engine-dask")


def source_array(how: str, case: Case, tif, rf):
    """The DataArray a user would hand to to_rumi (and whether it needs times=)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if how == "rioxarray":
            return rioxarray.open_rasterio(tif).load(), True
        if how == "rioxarray-dask":
            return rioxarray.open_rasterio(tif, chunks={"x": 16, "y": 8}), True
        if how == "rioxarray-masked":
            return rioxarray.open_rasterio(tif, masked=True).load(), True
        if how == "numpy":
            ref = rioxarray.open_rasterio(tif)
            xy = {} if case.kind == "rotated" else {"y": ref.y.values, "x": ref.x.values}  # a rotated grid has none
            da = xr.DataArray(case.data.copy(), dims=("band", "y", "x"), coords={"band": list(case.texts), **xy})
            da = da.rio.write_crs(case.crs).rio.write_transform(case.transform)
            if case.nodata is not None:
                da = da.rio.write_nodata(case.nodata)
            if case.point:
                da.attrs["AREA_OR_POINT"] = "Point"
            return da, True
        if how.startswith("engine"):
            ds = xr.open_dataset(rf, engine="rumi", mask_and_scale=how == "engine-masked",
                                 chunks={} if how == "engine-dask" else None)
            return ds["band_data"], False
    raise ValueError(how)


def _skip_reason(how: str, case: Case) -> str | None:
    if case.per_band and not how.startswith("engine"):
        return "per-band nodata: rioxarray has one nodata per array"
    if case.per_band and how == "engine-masked":
        return "the engine refuses masking bands of different nodata (test_diff_xarray)"
    if how == "rioxarray-masked" and case.nodata is None and "to-rumi-masked-dtype" in KNOWN_DEFECTS:
        return "test_to_rumi_of_a_masked_array_without_nodata"
    if (case.per_band and None in case.nodatavals and case.dtype.kind in "fc"
            and "engine-nodatavals-none-as-nan" in KNOWN_DEFECTS):
        return "test_engine_per_band_nodata_back_through_to_rumi"
    return None


def _to_rumi(da, out, case: Case, need_times: bool, what: str) -> bool:
    """to_rumi(da, out); False when it refused a known defect's case (loudly, as expected)."""
    kw = {"times": ["2020-05-18"]} if need_times else {}
    if case.kind == "rotated" and "to-rumi-rotated" in KNOWN_DEFECTS:  # test_to_rumi_of_a_rotated_grid
        with pytest.raises(ValueError, match="rotated"):
            rumi.to_rumi(da, out, tile=case.tile, **kw)
        return False
    try:
        rumi.to_rumi(da, out, tile=case.tile, **kw)
    except ValueError as e:
        if "to-rumi-fine-grid" in KNOWN_DEFECTS and "irregular" in str(e):  # test_to_rumi_of_a_fine_grid...
            return False
        if da.dtype == np.float64 and case.dtype.kind in "iu" and case.dtype.itemsize == 8 and "exactly" in str(e):
            return False  # rioxarray's masked=True float64 lost a 64-bit integer: refused, loudly (not truncated)
        raise
    return True


@given(case=cases(max_side=25, point=not KNOWN_DEFECTS.intersection({"to-rumi-point"})), how=st.sampled_from(SOURCES))
def test_to_rumi_round_trip(scratch, case, how):
    if _skip_reason(how, case):
        return
    d = scratch()
    tif = write_tif(case, d / "src.tif")
    rf = write_rumi(case, d / "in.rumi")
    da, need_times = source_array(how, case, tif, rf)
    out = d / "out.rumi"
    what = f"{case} to_rumi from {how}"
    if not _to_rumi(da, out, case, need_times, what):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        flat = da.isel(time=0) if "time" in da.dims else da
        rio_t = tuple(flat.rio.transform())
        if case.per_band:  # rioxarray has one nodata per array: the oracle is the source itself
            ref_tif = tif
        else:
            # the oracle: what rioxarray's rio.to_raster writes of the same DataArray (masked
            # samples encoded to its nodata; NaN samples of a masked float array become nodata too)
            ref_tif = d / "ref.tif"
            flat.rio.to_raster(ref_tif)
    with rasterio.open(ref_tif) as ref, rumi.open(out) as ds:
        assert_same_samples(ds.read()[0], ref.read(), f"{what}: read() vs {ref_tif.name}")
        assert_same_masked(ds.read(masked=True)[0], ref.read(masked=True), f"{what}: read(masked=True) vs {ref_tif.name}")
        # the source's transform, what rioxarray says (rio.transform(): the origin from the x/y
        # coordinates, 0.0009999999999994458 for 0.001 beside 30 m pixels), or what rio.to_raster
        # writes (the resolution from the coordinates' differences, too: 0.00027777777776805124)
        assert tuple(ds.transform)[:6] in (tuple(ref.transform)[:6], tuple(case.transform)[:6], rio_t[:6]), (
            f"{what}: transform {ds.transform!r}: not the source's, rio.transform()'s {rio_t} nor rio.to_raster's "
            f"{ref.transform!r}"
        )
        assert ds.crs == f"EPSG:{ref.crs.to_epsg()}", f"{what}: crs {ds.crs} != {ref.crs}"
        assert all(_nd_equal(a, b) for a, b in zip(ds.nodatavals, case.nodatavals)), (
            f"{what}: nodatavals {ds.nodatavals} != the source's {case.nodatavals}"
        )
        assert list(ds.descriptions) == case.texts, f"{what}: band texts {ds.descriptions} != the source's {case.texts}"
        assert ds.times.astype("datetime64[s]").tolist() == [np.datetime64("2020-05-18T00:00:00", "s").tolist()], (
            f"{what}: times {ds.times}"
        )
    with rumi.open(out) as ds:
        same = np.array_equal(bits(ds.read()[0]), bits(case.data)) and ds.transform == case.transform
    if same:  # the samples and grid survived (rioxarray masked=True holds uint64 in float64): as the source
        check_against_rioxarray(out, tif, case, masked=False, chunks=None)


def _xfail_known(name: str, reason: str):
    return pytest.mark.xfail(name in KNOWN_DEFECTS, strict=True, reason=reason)


def _one(scratch, case: Case, how: str):
    d = scratch()
    tif = write_tif(case, d / "src.tif")
    rf = write_rumi(case, d / "in.rumi")
    da, need_times = source_array(how, case, tif, rf)
    out = d / "out.rumi"
    rumi.to_rumi(da, out, tile=case.tile, **({"times": ["2020-05-18"]} if need_times else {}))
    return tif, out


@_xfail_known("to-rumi-rotated", "to_rumi refuses a rotated grid that rioxarray carries (rio.transform()); rio.to_raster writes it")
@pytest.mark.parametrize("how", ["rioxarray", "engine"])
def test_to_rumi_of_a_rotated_grid(scratch, how):
    """A rotated grid rioxarray knows (the GeoTransform of its spatial_ref, rio.transform()) is
    written as rio.to_raster writes it: the file's transform is the source's."""
    from affine import Affine

    case = Case(data=np.arange(12, dtype=np.uint8).reshape(1, 3, 4), kind="rotated",
                transform=Affine(10.0, 0.1, 500000.0, 0.05, -10.0, 4100000.0), tile=8)
    tif, out = _one(scratch, case, how)
    with rasterio.open(tif) as src, rumi.open(out) as ds:
        assert_same_samples(ds.read()[0], src.read(), f"{case} to_rumi from {how}: read()")
        assert ds.transform == src.transform, f"{case} to_rumi from {how}: transform {ds.transform!r}"


@_xfail_known("to-rumi-point", "to_rumi ignores AREA_OR_POINT=Point (rioxarray's attrs): the file says PixelIsArea")
@pytest.mark.parametrize("how", ["rioxarray", "engine", "numpy"])
def test_to_rumi_keeps_pixel_is_point(scratch, how):
    """rioxarray's AREA_OR_POINT=Point (and the engine's) is kept, as rio.to_raster keeps the
    tag: the file is PixelIsPoint with the source's transform."""
    case = Case(data=np.arange(12, dtype=np.uint8).reshape(1, 3, 4), point=True, tile=8)
    tif, out = _one(scratch, case, how)
    with rasterio.open(tif) as src, rumi.open(out) as ds:
        assert ds.pixel_is_point, f"{case} to_rumi from {how}: the file is PixelIsArea"
        assert ds.transform == src.transform, f"{case} to_rumi from {how}: transform {ds.transform!r}"


@_xfail_known("to-rumi-masked-dtype", "to_rumi writes rioxarray's masked=True array without nodata as float (its stored uint8 is in encoding)")
@pytest.mark.parametrize("dtype", ["uint8", "int32"])
def test_to_rumi_of_a_masked_array_without_nodata(scratch, dtype):
    """rioxarray.open_rasterio(masked=True) of a file without nodata casts to float and keeps the
    stored type in encoding["dtype"]; to_raster writes that type back, so must to_rumi."""
    case = Case(data=np.arange(12, dtype=dtype).reshape(1, 3, 4), tile=8)
    tif, out = _one(scratch, case, "rioxarray-masked")
    with rasterio.open(tif) as src, rumi.open(out) as ds:
        assert_same_samples(ds.read()[0], src.read(), f"{case} to_rumi from rioxarray masked=True: read()")


@_xfail_known("to-rumi-fine-grid", "to_rumi calls a regular grid irregular when its spacing is small beside its origin (1 mm at 8388609 m)")
@pytest.mark.parametrize("how", ["rioxarray", "engine"])
def test_to_rumi_of_a_fine_grid_far_from_the_origin(scratch, how):
    """1 mm pixels at northing 8388609 m: float64 coordinates step by 0.001 +- 2e-9 (their
    ulp), which is regular; rioxarray's to_raster writes it, so must to_rumi."""
    from affine import Affine

    case = Case(data=np.arange(40, dtype=np.uint8).reshape(1, 8, 5), transform=Affine(0.001, 0.0, 500000.0, 0.0, -0.001, 8388609.0), tile=8)
    tif, out = _one(scratch, case, how)
    with rasterio.open(tif) as src, rumi.open(out) as ds:
        assert_same_samples(ds.read()[0], src.read(), f"{case} to_rumi from {how}: read()")
        assert np.allclose(tuple(ds.transform), tuple(src.transform), rtol=1e-12), f"{case}: transform {ds.transform!r}"


def test_to_rumi_keeps_the_geotransform_odc_geo_would_derive(scratch):
    """One column of 1 mm pixels at 8388609 m, read by rioxarray with odc-geo's accessor
    imported: odc-geo derives the step from the y coordinates (-0.0010000001639), rio.to_raster
    writes the array's GeoTransform (-0.001); to_rumi writes the GeoTransform, bit for bit
    (found by the differential suite's random profile)."""
    import odc.geo.xr  # noqa: F401  (registers da.odc, as odc-stac users have it)
    from affine import Affine

    case = Case(data=np.array([[[33], [215]]], np.uint8), transform=Affine(0.001, 0.0, 500000.0, 0.0, -0.001, 8388609.0), tile=8)
    tif, out = _one(scratch, case, "rioxarray")
    with rasterio.open(tif) as src, rumi.open(out) as ds:
        assert tuple(ds.transform)[:6] == tuple(src.transform)[:6], f"{case}: transform {ds.transform!r}"


@pytest.mark.parametrize("dtype,nodata", [
    pytest.param("float32", [-9999.0, None], marks=_xfail_known(
        "engine-nodatavals-none-as-nan",
        "engine attrs nodatavals says NaN for a band without nodata; to_rumi writes NaN as that band's nodata")),
    ("uint8", [None, 0]), ("int16", [-1, 7]),
])
def test_engine_per_band_nodata_back_through_to_rumi(scratch, dtype, nodata):
    """The engine (mask_and_scale=False) of a file whose bands have different nodata (or none)
    lists them in attrs["nodatavals"]; to_rumi writes each band's back, and a band without
    nodata gets none (not NaN: NaN samples of that band stay valid)."""
    a = np.array([[[1, 2, np.nan if dtype == "float32" else 3]], [[4, 5, 6]]], dtype=dtype)
    case = Case(data=a, nodata=nodata, tile=8)
    d = scratch()
    rf = write_rumi(case, d / "in.rumi")
    da = xr.open_dataset(rf, engine="rumi", mask_and_scale=False)["band_data"]
    rumi.to_rumi(da, d / "out.rumi", tile=8)
    with rumi.open(d / "out.rumi") as ds, rumi.open(rf) as src:
        assert all(_nd_equal(g, w) for g, w in zip(ds.nodatavals, src.nodatavals)), (
            f"{case}: engine -> to_rumi nodatavals {ds.nodatavals}, the file's {src.nodatavals}"
        )
        assert_same_samples(ds.read(), src.read(), f"{case}: engine -> to_rumi samples")
        assert_same_masked(ds.read(masked=True), src.read(masked=True), f"{case}: engine -> to_rumi masked")
