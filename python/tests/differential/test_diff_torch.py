"""rumi.torch.ChipDataset against rasterio: each chip's samples equal rasterio's window read of the
GeoTIFF of the same array, and return_valid equals rasterio's masked read (skipped where torch is
not installed: scripts/test-python.sh's venv has no torch; the torch venv runs it)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import rasterio
from hypothesis import given, settings, strategies as st
from rasterio.windows import Window

from diffkit import GTIFF_DTYPES, cases, write_rumi, write_tif

torch = pytest.importorskip("torch", reason="torch is not installed in this venv (the torch venv runs this file)")


@settings(max_examples=10)
@given(case=cases(dtypes=tuple(d for d in GTIFF_DTYPES if d not in ("uint32", "uint64") and not d.startswith("complex")),
                  kinds=("north-up", "latlon"), per_band=False, max_side=40), data=st.data())
def test_chips_against_rasterio_windows(scratch, case, data):
    import rumi

    _, Y, X = case.data.shape
    size = data.draw(st.integers(1, min(Y, X)), label="size")
    d = scratch()
    tif = write_tif(case, d / "src.tif")
    rf = write_rumi(case, d / "a.rumi")
    cat = rumi.Catalog.build([rf], d / "cat.parquet")
    nodata = None if case.nodata is None else case.nodata
    ds = rumi.torch.ChipDataset(cat, size=size, bands=list(case.texts), return_valid=nodata is not None, nodata=nodata)
    keys = [(0, data.draw(st.integers(0, Y - size)), data.draw(st.integers(0, X - size))) for _ in range(3)]
    batch = ds.__getitems__(keys)
    with rasterio.open(tif) as src:
        for k, (_, r, c) in enumerate(keys):
            want = src.read(window=Window(c, r, size, size))
            what = f"{case} chip size={size} at row={r} col={c}"
            got = batch["image"][k, 0].numpy()
            assert got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8)), f"{what}: samples"
            if nodata is not None:
                valid = ~np.ma.getmaskarray(src.read(window=Window(c, r, size, size), masked=True))
                assert np.array_equal(batch["valid"][k, 0].numpy(), valid), f"{what}: return_valid"


@settings(max_examples=10)
@given(case=cases(dtypes=tuple(d for d in GTIFF_DTYPES if d not in ("uint32", "uint64") and not d.startswith("complex")),
                  kinds=("north-up",), per_band=False, max_side=40),
       scale=st.floats(1e-6, 1e4).map(lambda v: float(np.float64(v))), offset=st.floats(-1e4, 1e4), data=st.data())
def test_apply_scale_chips_against_rasterio_scales_and_offsets(scratch, case, scale, offset, data):
    """ChipDataset(apply_scale=True) equals rasterio's masked window read of the GeoTIFF times
    its scales plus its offsets (in float64, masked samples NaN, as rioxarray's mask_and_scale),
    rounded once to float32."""
    import rumi
    from diffkit import rumi_nodata

    _, Y, X = case.data.shape
    B = case.data.shape[0]
    size = data.draw(st.integers(1, min(Y, X)), label="size")
    d = scratch()
    tif = write_tif(case, d / "src.tif")
    with rasterio.open(tif, "r+") as dst:  # GDAL keeps them in the GeoTIFF's metadata
        dst.scales = (scale,) * B
        dst.offsets = (offset,) * B
    arr = case.data if case.mask is None else np.ma.masked_array(case.data, case.mask)
    rumi.write(d / "a.rumi", arr, bands=case.texts, times=["2020-05-18"], crs=case.crs, transform=case.transform,
               nodata=rumi_nodata(case), tile=case.tile, pixel_is_point=case.point, scales=scale, offsets=offset)
    cat = rumi.Catalog.build([str(d / "a.rumi")], d / "cat.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # files smaller than the chip: none here
        ds = rumi.torch.ChipDataset(cat, size=size, bands=list(case.texts), apply_scale=True)
    keys = [(0, data.draw(st.integers(0, Y - size)), data.draw(st.integers(0, X - size))) for _ in range(3)]
    batch = ds.__getitems__(keys)
    with rasterio.open(tif) as src:
        sc = np.array(src.scales, np.float64)[:, None, None]
        of = np.array(src.offsets, np.float64)[:, None, None]
        for k, (_, r, c) in enumerate(keys):
            m = src.read(window=Window(c, r, size, size), masked=True)
            want = m.data.astype(np.float64) * sc + of
            want[np.ma.getmaskarray(m)] = np.nan
            got = batch["image"][k, 0].numpy()
            assert got.dtype == np.float32, got.dtype
            np.testing.assert_array_equal(got, want.astype(np.float32), err_msg=f"{case} scale={scale} offset={offset} "
                                                                                  f"chip size={size} at row={r} col={c}")
