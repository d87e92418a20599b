"""rumi.torch.ChipDataset against rasterio: each chip's samples equal rasterio's window read of the
GeoTIFF of the same array, and return_valid equals rasterio's masked read (skipped where torch is
not installed: scripts/test-python.sh's venv has no torch; the torch venv runs it)."""

from __future__ import annotations

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
