"""rumi.torch for training (issue 24): nodata-aware sampling, labels beside images, resumable
and reproducible iteration, time series. Real rasters of the shared data folder converted with
the `rumi` CLI (conftest.converted); skipped with the reason when the folder is absent."""

from __future__ import annotations

import multiprocessing as mp
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
pytest.importorskip("shapely")

import rumi  # noqa: E402
import rumi.torch as rt  # noqa: E402
from conftest import DATA, tiff_pixels  # noqa: E402
from test_catalog import cat, files  # noqa: E402,F401


# --- nodata: min_valid and return_valid ---------------------------------------------------------


@pytest.fixture()
def rgb_cat(converted, tmp_path):
    rgb = converted("rasterio_RGB.byte.tif")
    return rumi.Catalog.build([str(rgb)], tmp_path / "rgb.parquet")


def _no_pixel_reads(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a sampler read pixels to decide")

    monkeypatch.setattr(rumi.Dataset, "read_into", refuse)
    monkeypatch.setattr(rumi.Dataset, "read", refuse)
    monkeypatch.setattr(rumi, "open", refuse)


def test_min_valid_on_the_rgb_collar(rgb_cat, monkeypatch):
    """rasterio's RGB scene has a nodata-0 collar: with min_valid=0.9 no drawn chip is less
    valid than that (checked on the GeoTIFF's own pixels), for every sampler; the samplers
    decide without reading a pixel; return_valid gives exactly the non-nodata samples."""
    px = tiff_pixels(DATA / "rasterio_RGB.byte.tif")  # (3, 718, 791)
    ds = rt.ChipDataset(rgb_cat, size=64, return_valid=True)
    assert ds.nodata == [[0.0, 0.0, 0.0]]

    def frac(k):
        _, r, c = k
        return float((px[:, r:r + 64, c:c + 64] != 0).mean())

    # without min_valid, chips in the collar are drawn: the assertion below can fail
    plain = list(rt.RandomChipSampler(ds, length=300, seed=1))
    assert min(frac(k) for k in plain) < 0.5
    with monkeypatch.context() as m:
        _no_pixel_reads(m)
        samplers = {
            "random": rt.RandomChipSampler(ds, length=300, seed=1, min_valid=0.9),
            "grid": rt.GridChipSampler(ds, stride=32, min_valid=0.9),
            "tile": rt.TileChipSampler(ds, shuffle=True, min_valid=0.9),
        }
        keys = {n: list(s) for n, s in samplers.items()}
    for n, ks in keys.items():
        assert len(ks) > (0 if n == "tile" else 20), n  # tile: 64x64 chips at the 9 tile origins
        fr = [frac(k) for k in ks]
        assert min(fr) >= 0.9, (n, min(fr))
    assert len(set(keys["random"])) > 250  # still random positions, not a few lattice points
    # the grid keeps every chip its bound allows; the kept ones are a subset of the full grid
    full = list(rt.GridChipSampler(ds, stride=32))
    assert set(keys["grid"]) <= set(full) and len(keys["grid"]) < len(full)
    assert sum(frac(k) >= 0.9 for k in full) >= len(keys["grid"])
    # return_valid: the samples that are not nodata, exactly
    b = ds.__getitems__(keys["random"][:8])
    for i, (_, r, c) in enumerate(b["key"]):
        np.testing.assert_array_equal(b["image"][i, 0].numpy(), px[:, r:r + 64, c:c + 64])
        np.testing.assert_array_equal(b["valid"][i, 0].numpy(), px[:, r:r + 64, c:c + 64] != 0)
        assert b["valid"][i].float().mean().item() >= 0.9


def test_tile_chips_are_exact_to_the_summary(rgb_cat):
    """A tile-aligned chip of the tile's size: its bound is 1 - the mean of its bands' coded
    nodata bounds (the code computed here from the GeoTIFF's pixels, by search)."""
    from rumi.catalog import nodata_bound
    from test_catalog import _floor255 as code

    px = tiff_pixels(DATA / "rasterio_RGB.byte.tif")
    ds = rt.ChipDataset(rgb_cat, size=256)
    for mv in (0.7, 0.999):
        got = set(rt.TileChipSampler(ds, min_valid=mv))
        want = set()
        for k in rt.TileChipSampler(ds):
            _, r, c = k
            f = [1 - nodata_bound(code((px[b, r:r + 256, c:c + 256] != 0).sum(), 256 * 256)) for b in range(3)]
            if np.mean(f) >= mv:
                want.add(k)
        assert got == want and 0 < len(got) < len(list(rt.TileChipSampler(ds))), mv


def test_min_valid_that_no_chip_meets_is_an_error_at_construction(rgb_cat, files, tmp_path):
    ds = rt.ChipDataset(rgb_cat, size=600)
    with pytest.raises(rumi.RequestError, match=r"min_valid=0.99: no 600x600 chip can have that valid fraction .*"
                                                 r"the best: 0\.\d+, file rasterio_RGB.*lower min_valid"):
        rt.RandomChipSampler(ds, length=10, min_valid=0.99)
    for cls in (rt.GridChipSampler, rt.TileChipSampler):
        with pytest.raises(rumi.RequestError, match="min_valid=0.99: no 600x600 chip"):
            cls(ds, min_valid=0.99)
    with pytest.raises(ValueError, match=r"min_valid must be in \[0, 1\]"):
        rt.RandomChipSampler(ds, length=10, min_valid=1.5)
    # files without nodata: every chip is valid, min_valid=1 is no constraint
    p = files["a"][0]
    plain = rt.ChipDataset(rumi.Catalog.build([str(p)], tmp_path / "a.parquet"), size=32, return_valid=True)
    assert len(list(rt.RandomChipSampler(plain, length=5, min_valid=1.0))) == 5
    assert plain[(0, 0, 0)]["valid"].all()


def test_min_valid_reads_no_pixel_over_http(converted, tmp_path, nginx):
    """The request count while sampling: none (the catalogue holds the summary)."""
    rgb = converted("rasterio_RGB.byte.tif")
    for suffix in ("", ".aux.xml"):
        shutil.copy(f"{rgb}{suffix}", nginx.root / f"rgb_mv.rumi{suffix}")
    cat = rumi.Catalog.build([nginx.url("rgb_mv.rumi")], tmp_path / "r.parquet")
    assert cat.row(0)["rumi:nodata"] == [0.0, 0.0, 0.0]  # the sidecar beside the URL
    since = nginx.mark()
    ds = rt.ChipDataset(cat, size=64)
    keys = list(rt.RandomChipSampler(ds, length=100, seed=2, min_valid=0.95))
    keys += list(rt.GridChipSampler(ds, min_valid=0.95))
    assert nginx.requests(since) == []
    ds.__getitems__(keys[:4])
    assert len(nginx.requests(since)) > 0  # reading the chips does request
