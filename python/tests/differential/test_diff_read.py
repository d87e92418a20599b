"""rumi.open(...) against rasterio reading the GeoTIFF written from the same array: samples (bit
for bit), masked reads, windows (inside, at the edges, boundless, negative, outside), metadata
(transform, crs, bounds, res, nodatavals, descriptions, dtypes, profile, index/xy), for every
sample type a GeoTIFF holds, nodata none / a value / NaN / per band, every transform kind and
PixelIsPoint; files written by rumi.write and by rumi.Writer in blocks."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import rasterio
from affine import Affine
from hypothesis import given, strategies as st
from rasterio.windows import Window

import rumi
from diffkit import (
    FLOAT16_IN_RASTERIO, KNOWN_DEFECTS, check_metadata, Case, arrays, assert_same_masked, assert_same_samples, cases, nodatas,
    transforms, write_rumi, write_tif,
)


def _both(case: Case, d, how: str = "write"):
    tif = write_tif(case, d / "src.tif")
    rf = write_rumi(case, d / "out.rumi", how=how)
    return tif, rf


@given(case=cases(), how=st.sampled_from(["write", "writer"]))
def test_whole_read_and_metadata(scratch, case, how):
    d = scratch()
    tif, rf = _both(case, d, how)
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        what = f"{case} written by rumi.{how}"
        assert_same_samples(ds.read()[0], src.read(), f"{what}: read()")
        assert_same_masked(ds.read(masked=True)[0], src.read(masked=True), f"{what}: read(masked=True)")
        for b in range(case.bands):
            assert_same_samples(ds.read(b=b)[0, 0], src.read(b + 1), f"{what}: read(b={b}) vs read({b + 1})")
        check_metadata(ds, src, case)


def boundless_oracle(src, case: Case, c: int, r: int, w: int, h: int):
    """rasterio's boundless read of Window(c, r, w, h), built from its plain read of the part
    inside: the outside is each band's nodata (else 0) and masked; the inside as read."""
    B, Y, X = case.data.shape
    out = np.zeros((B, h, w), case.dtype)
    mask = np.ones((B, h, w), bool)
    for b, v in enumerate(case.nodatavals):
        if v is not None:
            out[b] = v
    r0, r1, c0, c1 = max(r, 0), min(r + h, Y), max(c, 0), min(c + w, X)
    if r0 < r1 and c0 < c1:
        inner = Window(c0, r0, c1 - c0, r1 - r0)
        out[:, r0 - r:r1 - r, c0 - c:c1 - c] = src.read(window=inner)
        mask[:, r0 - r:r1 - r, c0 - c:c1 - c] = np.ma.getmaskarray(src.read(window=inner, masked=True))
    return out, np.ma.masked_array(out.copy(), mask)


@given(case=cases(max_side=29), data=st.data())
def test_windows(scratch, case, data):
    """Inside the raster: the same samples. Reaching outside without boundless: rasterio crops
    (silently), rumi refuses loudly naming the window, or gives rasterio's crop. Boundless: the
    same samples, fill and mask as rasterio (masked=True masks the outside): the oracle is built
    from rasterio's plain reads, and checked against rasterio's boundless read where that read is
    exact."""
    d = scratch()
    tif, rf = _both(case, d)
    _, Y, X = case.data.shape
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        for _ in range(4):
            c, r, w, h = data.draw(st.tuples(st.integers(-X - 2, X + 2), st.integers(-Y - 2, Y + 2),
                                             st.integers(1, X + 4), st.integers(1, Y + 4)), label="window")
            what = f"{case} window=Window(col_off={c}, row_off={r}, width={w}, height={h})"
            win = Window(c, r, w, h)
            inside = c >= 0 and r >= 0 and c + w <= X and r + h <= Y
            if inside:
                assert_same_samples(ds.read(window=rumi.Window(c, r, w, h))[0], src.read(window=win), what)
                assert_same_samples(ds.read(window=win)[0], src.read(window=win), what + " (a rasterio Window)")
                assert_same_masked(ds.read(window=win, masked=True)[0], src.read(window=win, masked=True),
                                   what + " masked")
            else:
                want = src.read(window=win)  # rasterio: the part inside, or an empty array
                try:
                    got = ds.read(window=win)
                except (ValueError, IndexError, rumi.RumiError) as e:
                    msg = str(e).lower()
                    assert "window" in msg or "outside" in msg or "bound" in msg, f"{what}: an unclear error {e!r}"
                else:
                    assert_same_samples(got[0], want, what + " (not boundless: rumi read instead of refusing)")
            want, want_m = boundless_oracle(src, case, c, r, w, h)
            if case.dtype.kind not in "iu" or case.dtype.itemsize < 8:
                if not case.per_band and case.kind != "rotated":
                    # rasterio's own boundless read agrees with the oracle built from its plain reads
                    # (except where its VRT path is wrong: 64-bit integers above 2**53 pass through
                    # float64, per-band nodata becomes one value for every band, rotated grids
                    # read the wrong pixels)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        assert_same_samples(src.read(window=win, boundless=True), want, what + " rasterio boundless (oracle check)")
                        assert_same_masked(src.read(window=win, boundless=True, masked=True), want_m,
                                           what + " rasterio boundless masked (oracle check)")
            assert_same_samples(ds.read(window=win, boundless=True)[0], want, what + " boundless")
            assert_same_masked(ds.read(window=win, boundless=True, masked=True)[0], want_m, what + " boundless masked")


@pytest.mark.skipif(FLOAT16_IN_RASTERIO, reason="rasterio writes float16 here: float16 is among the oracle's types")
@given(data=st.data())
def test_float16_against_numpy(scratch, data):
    """float16: rasterio (GDAL < 3.11) has no such type, so rumi is compared with numpy: the
    samples written come back bit for bit, masked reads mask exactly the nodata samples."""
    B = data.draw(st.integers(1, 3))
    nd = data.draw(nodatas(np.dtype("float16"), B))
    a = data.draw(arrays(np.dtype("float16"), (B, 9, 13), nd))
    kind, t, crs = data.draw(transforms())
    case = Case(data=a, nodata=nd, kind=kind, transform=t, crs=crs, tile=8)
    d = scratch()
    rf = write_rumi(case, d / "f16.rumi")
    with rumi.open(rf) as ds:
        assert_same_samples(ds.read()[0], a, f"{case}: read()")
        m = ds.read(masked=True)[0]
        want = np.zeros(a.shape, bool)
        for b, v in enumerate(case.nodatavals):
            if v is not None:
                want[b] = np.isnan(a[b]) if math.isnan(v) else a[b] == np.float16(v)
        assert_same_masked(m, np.ma.masked_array(a, want), f"{case}: read(masked=True)")
        assert ds.transform == t, f"{case}: transform {ds.transform!r}"


@given(case=cases(per_band=False, max_side=20), data=st.data())
def test_masked_array_write(scratch, case, data):
    """rumi.write of a numpy masked array equals rasterio's dst.write of it: the masked samples
    become the nodata value (a masked read masks them); without nodata rumi refuses loudly
    naming the mask, or writes what rasterio writes."""
    mask = data.draw(st.lists(st.booleans(), min_size=case.data.size, max_size=case.data.size))
    case.mask = np.array(mask, bool).reshape(case.data.shape)
    d = scratch()
    tif = write_tif(case, d / "src.tif")
    try:
        rf = write_rumi(case, d / "out.rumi")
    except (ValueError, TypeError) as e:
        assert case.nodata is None, f"{case}: rumi.write refused a masked array with nodata: {e}"
        assert "mask" in str(e).lower(), f"{case}: the refusal does not name the mask: {e}"
        return
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        got = ds.read()[0]
        if case.nodata is not None:  # the masked samples hold the nodata value (numpy's filled(nodata))
            want = np.ma.masked_array(case.data, case.mask).filled(np.array(case.nodata).astype(case.dtype))
            assert_same_samples(got, want, f"{case}: masked array written, read()")
        if case.nodata is None or not math.isnan(case.nodata):
            # rasterio 1.4 fills with the array's fill_value when nodata is NaN: not an oracle there
            assert_same_samples(got, src.read(), f"{case}: masked array written, read() vs rasterio")
            assert_same_masked(ds.read(masked=True)[0], src.read(masked=True),
                               f"{case}: masked array written, read(masked=True)")


NEAR = {"float32": np.float32, "float64": np.float64}


@pytest.mark.xfail("float-nodata-tolerance" in KNOWN_DEFECTS, strict=True,
                   reason="GDAL masks floats within a few float32 ulps of nodata; rumi masks only equal samples")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_near_nodata_floats(scratch, dtype):
    """GDAL's nodata test of floats (rasterio's and rioxarray's masked reads) takes samples within
    a few float32 ulps of the nodata value as nodata; rumi must mask the same samples."""
    t = NEAR[dtype]
    nd = -99.0
    vals = [nd, float(np.nextafter(t(nd), t(0))), nd * (1 + 1e-7), nd * (1 + 1e-6), -99.0001, 5.0]
    a = np.array([[vals]], dtype=dtype)
    case = Case(data=a, nodata=nd)
    d = scratch()
    tif, rf = _both(case, d)
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        assert_same_masked(ds.read(masked=True)[0], src.read(masked=True), f"{case} values {vals}: read(masked=True)")


@pytest.mark.parametrize("dtype,nodata,rasterio_refuses", [
    ("uint8", -1, True), ("uint8", 256, True), ("uint16", math.nan, True), ("int8", 128, True),
    ("int16", 1.5, False),
    pytest.param("float32", 1e39, False, marks=pytest.mark.xfail(
        "nodata-beyond-float32" in KNOWN_DEFECTS, strict=True,
        reason="rumi.write accepts nodata=1e39 for float32 samples (beyond float32's range)")),
])
def test_nodata_the_type_cannot_hold(scratch, dtype, nodata, rasterio_refuses):
    """A nodata value the band type cannot hold: rasterio refuses those out of the type's range
    (and accepts 1.5 for int16, 1e39 for float32, which no sample can equal); rumi refuses them
    all, naming nodata, and leaves no file."""
    a = np.zeros((1, 4, 4), dtype)
    d = scratch()
    if rasterio_refuses:
        with pytest.raises(Exception):
            with rasterio.open(d / "x.tif", "w", driver="GTiff", width=4, height=4, count=1, dtype=dtype,
                               nodata=nodata, crs="EPSG:32633", transform=Affine(1, 0, 0, 0, -1, 0)) as dst:
                dst.write(a)
    with pytest.raises((ValueError, TypeError)) as e:
        rumi.write(d / "x.rumi", a, bands=["b"], times=["2020-01-01"], nodata=nodata, crs="EPSG:32633",
                   transform=Affine(1, 0, 0, 0, -1, 0))
    assert "nodata" in str(e.value).lower(), f"dtype={dtype} nodata={nodata}: {e.value}"
    assert not (d / "x.rumi").exists(), f"dtype={dtype} nodata={nodata}: a refused write left a file"


def _xfail_known(name: str, reason: str):
    from diffkit import KNOWN_DEFECTS

    return pytest.mark.xfail(name in KNOWN_DEFECTS, strict=True, reason=reason)


@_xfail_known("complex-nodata-real-part", "rumi masks a complex sample only when it equals nodata; GDAL masks by its real part")
@pytest.mark.parametrize("nodata", [5.0, math.nan])
def test_complex_nodata_masks_by_the_real_part(scratch, nodata):
    """GDAL (rasterio's, rioxarray's and the plugin's masked reads) tests a complex sample
    against nodata by its real part: 5+3j and 5+nanj are nodata 5."""
    a = np.array([[[5 + 3j, 5, complex(5, np.nan), 3 + 5j, complex(np.nan, 5), complex(np.nan, 0), complex(0, np.nan), 1]]],
                 "complex64")
    case = Case(data=a, nodata=nodata)
    d = scratch()
    tif, rf = _both(case, d)
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        assert_same_masked(ds.read(masked=True)[0], src.read(masked=True), f"{case} values {a.tolist()}: read(masked=True)")


@_xfail_known("rotated-res", "Dataset.res of a rotated grid differs from rasterio's sqrt(a*a + d*d) by an ulp")
def test_res_of_a_rotated_grid(scratch):
    """rasterio's res is (sqrt(a*a + d*d), sqrt(b*b + e*e)); rumi's must be the same float."""
    case = Case(data=np.zeros((1, 2, 2), np.uint8), kind="rotated", transform=Affine(10.0, 0.1, 500000.0, 0.05, -10.0, 4100000.0))
    d = scratch()
    tif, rf = _both(case, d)
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        assert tuple(ds.res) == tuple(src.res), f"{case}: res {ds.res!r} != rasterio {src.res!r}"


@_xfail_known("south-up-bounds", "Dataset.bounds sorts bottom/top of a south-up grid; rasterio's bottom is f + e * height")
def test_bounds_of_a_south_up_grid(scratch):
    """rasterio's bounds of a south-up grid (e > 0) are (c, f + e * height, c + a * width, f):
    bottom above top; rumi's "bounds as rasterio's" must be the same tuple."""
    case = Case(data=np.zeros((1, 2, 3), np.uint8), kind="south-up", transform=Affine(10.0, 0.0, 500000.0, 0.0, 10.0, 4100000.0))
    d = scratch()
    tif, rf = _both(case, d)
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        assert tuple(ds.bounds) == tuple(src.bounds), f"{case}: bounds {tuple(ds.bounds)} != rasterio {tuple(src.bounds)}"


@pytest.mark.parametrize("t", [
    Affine(1 / 3, 0.001, 500000.0, 0.0005, -1 / 3, 4100000.0),
    Affine(10.0, 0.0, 500000.0, 0.0, -10.0, 0.001),
    pytest.param(Affine(10.0, 0.1, 500000.0, 0.05, -10.0, 0.001), marks=_xfail_known(
        "point-rotated-shift", "rotated PixelIsPoint: rumi gives f = 0.0009999999999994458, GDAL 0.001000000000000334")),
])
def test_pixel_is_point_transform(scratch, t):
    """rumi.write(transform=T, pixel_is_point=True) reads back what GDAL reads back of a GeoTIFF
    written with T and AREA_OR_POINT=Point: GDAL stores T shifted by half a pixel and shifts it
    back (GTiff: x0 -= a * 0.5 + b * 0.5, y0 -= d * 0.5 + e * 0.5), exact or not; the same
    arithmetic gives the same float (rotated grids included)."""
    case = Case(data=np.zeros((1, 3, 3), np.uint8), kind="rotated" if t.b or t.d else "north-up", transform=t, point=True)
    d = scratch()
    tif, rf = _both(case, d)
    with rasterio.open(tif) as src, rumi.open(rf) as ds:
        assert tuple(ds.transform) == tuple(src.transform), f"{case}: transform {tuple(ds.transform)} != GDAL's {tuple(src.transform)}"
