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


def _holes(tmp_path):
    """A uint16 file whose 64 left columns are 0 (in both bands and steps), written without
    nodata (no sidecar), and its pixels."""
    a = np.random.default_rng(3).integers(1, 1000, size=(2, 2, 128, 192), dtype=np.uint16)
    a[:, :, :, :64] = 0
    p = tmp_path / "holes.rumi"
    rumi.write(p, a, bands=["red", "nir"], times=["2020-01-01", "2020-02-01"], crs="EPSG:32633",
               geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), tile=64)
    return p, a


def test_nodata_unknown_is_an_error_naming_how_to_give_it(tmp_path, monkeypatch):
    """No nodata known for a file (no sidecar, no nodata=): min_valid and return_valid are
    errors naming Catalog.build(nodata=) and ChipDataset(nodata=), never "all valid"; each way
    the errors name then gives the exact outcome."""
    p, a = _holes(tmp_path)
    cat = rumi.Catalog.build([str(p)], tmp_path / "h.parquet")
    assert cat.row(0)["rumi:nodata"] is None
    ds = rt.ChipDataset(cat, size=32)
    for make in (lambda: rt.RandomChipSampler(ds, length=8, min_valid=0.5), lambda: rt.GridChipSampler(ds, min_valid=0.5),
                 lambda: rt.TileChipSampler(ds, min_valid=0.5)):
        with pytest.raises(rumi.RequestError, match=r"min_valid=0.5 needs the nodata of the bands read, and none is known "
                                                     r"for 1 of the 1 files \(holes\).*\['red', 'nir'\].*"
                                                     r"rumi\.Catalog\.build\(\.\.\., nodata=V\)"):
            make()
    assert len(list(rt.RandomChipSampler(ds, length=8, min_valid=0))) == 8  # 0: no constraint
    with pytest.raises(rumi.RequestError, match=r"return_valid=True needs the nodata .* 1 of the 1 files \(holes\).* "
                                                 r"ChipDataset\(\.\.\., nodata=V\) .* rumi\.Catalog\.build\(\.\.\., nodata=V\)"):
        rt.ChipDataset(cat, size=32, return_valid=True)
    # ChipDataset(nodata=): the samples equal to it are marked (return_valid)
    ds0 = rt.ChipDataset(cat, size=32, return_valid=True, nodata=0)
    assert ds0.nodata == [[0.0, 0.0]]
    b = ds0.__getitems__([(0, 0, 48), (0, 10, 100)])
    np.testing.assert_array_equal(b["valid"].numpy(), b["image"].numpy() != 0)
    assert b["valid"][0].float().mean().item() == 0.5 and b["valid"][1].all()
    # ... while min_valid needs the catalogue's summary for that value: the error says so
    with pytest.raises(rumi.RequestError, match=r"min_valid=0.9 bounds a chip's valid fraction from the catalogue's "
                                                 r"per-tile summary .* not recorded .* rebuild the catalogue with "
                                                 r"rumi\.Catalog\.build\(\.\.\., nodata=\[0\.0, 0\.0\]\)"):
        rt.RandomChipSampler(ds0, length=8, min_valid=0.9)
    # Catalog.build(nodata=): min_valid draws only chips that meet it, without reading a pixel
    cat0 = rumi.Catalog.build([str(p)], tmp_path / "h0.parquet", nodata=0)
    ds1 = rt.ChipDataset(cat0, size=32, return_valid=True)
    with monkeypatch.context() as m:
        _no_pixel_reads(m)
        keys = list(rt.RandomChipSampler(ds1, length=40, seed=1, min_valid=0.9)) + list(rt.GridChipSampler(ds1, min_valid=0.9))
    assert len(keys) > 40 and all((a[:, :, r:r + 32, c:c + 32] != 0).mean() >= 0.9 for _, r, c in keys)
    assert any(c < 64 for _, r, c in rt.RandomChipSampler(ds1, length=40, seed=1))  # without it, holes are drawn
    b = ds1.__getitems__(keys[:4])
    np.testing.assert_array_equal(b["valid"].numpy(), b["image"].numpy() != 0)
    # the same value through ChipDataset(nodata=) uses that summary; another value is refused
    assert list(rt.RandomChipSampler(rt.ChipDataset(cat0, size=32, nodata=[0, 0]), length=40, seed=1, min_valid=0.9)) == keys[:40]
    with pytest.raises(rumi.RequestError, match=r"recorded for nodata \[0\.0, 0\.0\], not \[5\.0, 5\.0\] "
                                                 r"\(ChipDataset's nodata=\)"):
        rt.RandomChipSampler(rt.ChipDataset(cat0, size=32, nodata=5), length=8, min_valid=0.9)
    # one value per band; None: that band has no nodata
    b = rt.ChipDataset(cat, size=32, return_valid=True, nodata=[0, None]).__getitems__([(0, 0, 48)])
    assert b["valid"][0, :, 0].float().mean().item() == 0.5 and b["valid"][0, :, 1].all()
    with pytest.raises(ValueError, match=r"nodata gives 3 values for the 2 bands \['red', 'nir'\]"):
        rt.ChipDataset(cat, size=32, nodata=[0, 0, 0])


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


# --- labels beside images ------------------------------------------------------------------------


def _gdal(*args):
    exe = shutil.which(args[0])
    if exe is None:
        pytest.skip(f"{args[0]} is not installed (gdal-bin; scripts/test-torch.sh installs it)")
    r = subprocess.run([exe, "-q", *args[1:]], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.fixture()
def landfire(converted, tmp_path):
    elev = converted("lf_elev_220_mt_hood_utm.tif")
    fbfm = converted("lf_fbfm40_220_mt_hood_utm.tif")
    cat = rumi.Catalog.build([str(elev)], tmp_path / "elev.parquet")
    return cat, fbfm, tiff_pixels(DATA / "lf_elev_220_mt_hood_utm.tif"), tiff_pixels(DATA / "lf_fbfm40_220_mt_hood_utm.tif")


def _samplers(ds, seed=3):
    return {
        "random": rt.RandomChipSampler(ds, length=24, seed=seed),
        "grid": rt.GridChipSampler(ds, stride=200, shuffle=True, seed=seed),
        "tile": rt.TileChipSampler(ds, shuffle=True, seed=seed),
    }


def _batches(ds, sampler, workers):
    kw = {"multiprocessing_context": mp.get_context("fork")} if workers else {}
    return [b for b in ds.loader(sampler, batch_size=8, num_workers=workers, **kw)]


@pytest.mark.parametrize("workers", [0, 2])
def test_landfire_masks_equal_the_label_windows(landfire, workers):
    """LANDFIRE elevation (int16) with its fuel-model classes (int16) on the same grid: every
    mask is the label raster's window at the chip (GeoTIFF pixels), for every sampler."""
    cat, fbfm, elev_px, fbfm_px = landfire
    ds = rt.ChipDataset(cat, size=96, labels=fbfm)
    assert (ds.Tl, ds.Bl, ds.label_encoding) == (1, 1, "int16")
    assert [m.kind for m in ds.matches[0]] == ["window"] and ds.matches[0][0].k == (1, 1)
    for name, s in _samplers(ds).items():
        n = 0
        for b in _batches(ds, s, workers):
            assert b["mask"].shape[1:] == (1, 1, 96, 96) and b["mask"].dtype == torch.int16
            for i, (_, r, c) in enumerate(b["key"]):
                np.testing.assert_array_equal(b["image"][i, 0, 0].numpy(), elev_px[0, r:r + 96, c:c + 96])
                np.testing.assert_array_equal(b["mask"][i, 0, 0].numpy(), fbfm_px[0, r:r + 96, c:c + 96], err_msg=name)
                n += 1
        assert n >= 8, name


@pytest.fixture()
def eolearn(converted, tmp_path):
    ndvi = converted("eolearn_s2_ndvi_68t_float32.tif")
    lulc = converted("eolearn_lulc_uint16.tif")
    clm = converted("eolearn_s2_clm_68t_uint8.tif")
    return ndvi, lulc, clm


@pytest.mark.parametrize("workers", [0, 2])
def test_eolearn_ndvi_with_land_cover_and_cloud_masks(eolearn, tmp_path, workers):
    """The eo-learn NDVI stack (68 bands) with its land-cover labels (uint16) and its cloud
    masks (68 bands of uint8) on the same grid: masks equal the label windows exactly."""
    ndvi, lulc, clm = eolearn
    cat = rumi.Catalog.build([str(ndvi)], tmp_path / "ndvi.parquet")
    ndvi_px = tiff_pixels(DATA / "eolearn_s2_ndvi_68t_float32.tif")
    for lab, name, bands in ((lulc, "eolearn_lulc_uint16.tif", None), (clm, "eolearn_s2_clm_68t_uint8.tif", [0, 5, 67])):
        lab_px = tiff_pixels(DATA / name)
        lcat = rumi.Catalog.build([str(lab)], tmp_path / "lab.parquet")
        names = lcat.row(0)["rumi:bands"]
        ds = rt.ChipDataset(cat, size=32, labels=lcat, label_bands=None if bands is None else [names[k] for k in bands])
        want_b = [0] if bands is None else bands
        for sname, s in _samplers(ds).items():
            for b in _batches(ds, s, workers):
                assert b["mask"].dtype == (torch.uint16 if bands is None else torch.uint8)
                for i, (_, r, c) in enumerate(b["key"]):
                    np.testing.assert_array_equal(b["image"][i, 0].numpy(), ndvi_px[:, r:r + 32, c:c + 32])
                    np.testing.assert_array_equal(b["mask"][i, 0].numpy(), lab_px[want_b, r:r + 32, c:c + 32],
                                                  err_msg=f"{name} {sname}")


def test_labels_on_an_aligned_coarser_grid_are_windowed(landfire, tmp_path):
    """Labels at 60 m on the 30 m image grid's alignment (GDAL nearest: every other pixel): each
    label pixel covers 2x2 image pixels, read directly and repeated."""
    cat, fbfm, _, _ = landfire
    coarse = tmp_path / "fbfm60.tif"
    _gdal("gdal_translate", "-tr", "60", "60", "-r", "nearest", str(DATA / "lf_fbfm40_220_mt_hood_utm.tif"), str(coarse))
    cp = tiff_pixels(coarse)
    out = tmp_path / "fbfm60.rumi"
    from conftest import CLI

    r = subprocess.run([str(CLI), "convert", str(coarse), str(out), "--time", "2020-05-18"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ds = rt.ChipDataset(cat, size=64, labels=out)
    m = ds.matches[0][0]
    assert (m.kind, m.k, m.off) == ("window", (2, 2), (0, 0))
    keys = list(rt.RandomChipSampler(ds, length=40, seed=9))
    b = ds.__getitems__(keys)
    for i, (_, r0, c0) in enumerate(keys):
        want = cp[0][np.ix_((r0 + np.arange(64)) // 2, (c0 + np.arange(64)) // 2)]
        np.testing.assert_array_equal(b["mask"][i, 0, 0].numpy(), want)
    # the last image row/column whose label pixel exists: 799 rows -> 400 label rows cover 800
    assert m.rect == (0, 799, 0, 1013)


def _edge_distance(keys, diff, gt, ltr):
    """For the pixels where diff is True: how far (in label pixels) the image pixel centre maps
    from the nearest label pixel edge (pyproj, exact)."""
    import pyproj
    from affine import Affine

    tr = pyproj.Transformer.from_crs(26910, 32611, always_xy=True)
    k, rr, cc = np.nonzero(diff)
    rows = np.array([keys[i][1] for i in k]) + rr + 0.5
    cols = np.array([keys[i][2] for i in k]) + cc + 0.5
    x, y = Affine.from_gdal(*gt) @ (cols, rows)
    lx, ly = tr.transform(x, y)
    lc, lr = ~Affine.from_gdal(*ltr) @ (np.asarray(lx), np.asarray(ly))
    return np.minimum(np.abs(lc - np.round(lc)), np.abs(lr - np.round(lr)))


def test_labels_in_another_utm_zone_match_gdal_nearest_warp(landfire, tmp_path):
    """The fuel classes warped by GDAL to UTM zone 11 (nearest neighbour), read back on the image
    grid (zone 10) through pyproj: equal to GDAL's own nearest-neighbour warp of that label file
    onto the image grid with exact transforms (gdalwarp -et 0) on >= 99.9 % of pixels (measured:
    all of them), and the pixels where any differ sit on label pixel edges. Against gdalwarp's
    default approximate transformer (-et 0.125: up to 1/8 pixel of error) ~1 % differ, every one
    within 1/8 label pixel of an edge: GDAL's approximation, not the labels' placement."""
    cat, fbfm, _, _ = landfire
    from conftest import CLI, tiff_geotransform

    z11 = tmp_path / "fbfm_z11.tif"
    _gdal("gdalwarp", "-t_srs", "EPSG:32611", "-r", "near", "-tr", "30", "30", "-dstnodata", "-1",
          str(DATA / "lf_fbfm40_220_mt_hood_utm.tif"), str(z11))
    lab = tmp_path / "fbfm_z11.rumi"
    r = subprocess.run([str(CLI), "convert", str(z11), str(lab), "--time", "2020-05-18"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ltr = rumi.open(lab).geotransform
    gt = tiff_geotransform(DATA / "lf_elev_220_mt_hood_utm.tif")
    Y, X = 799, 1013
    ds = rt.ChipDataset(cat, size=128, labels=lab)
    assert [m.kind for m in ds.matches[0]] == ["warp"]
    keys = list(rt.GridChipSampler(ds, stride=128))
    assert len(keys) >= 12
    got = ds.__getitems__(keys)["mask"][:, 0, 0].numpy()
    assert (got != -1).mean() > 0.9  # labels, not the warp's nodata fill
    for et, need, edge_max in (("0", 0.999, 0.01), ("0.125", 0.98, 0.125 + 1e-6)):
        # GDAL's nearest warp of the zone-11 labels back onto the elevation grid
        ref_tif = tmp_path / f"ref{et}.tif"
        _gdal("gdalwarp", "-t_srs", "EPSG:26910", "-te", str(gt[0]), str(gt[3] + Y * gt[5]), str(gt[0] + X * gt[1]),
              str(gt[3]), "-ts", str(X), str(Y), "-r", "near", "-et", et, "-dstnodata", "-1", str(z11), str(ref_tif))
        ref = tiff_pixels(ref_tif)[0]
        want = np.stack([ref[r:r + 128, c:c + 128] for _, r, c in keys])
        eq = got == want
        print(f"\nlabels across UTM zones vs gdalwarp -et {et}: {eq.size - eq.sum()} of {eq.size} pixels differ "
              f"({100 * (1 - eq.mean()):.4f} %)", end="")
        assert eq.mean() >= need, (et, eq.mean())
        if not eq.all():
            edge = _edge_distance(keys, ~eq, gt, ltr)
            print(f"; their centres lie at most {edge.max():.5f} label pixels from a label pixel edge", end="")
            assert edge.max() < edge_max, (et, edge.max())


def _label_file(path, arr, times, transform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), crs="EPSG:32633", **kw):
    rumi.write(path, arr, bands=[f"l{k}" for k in range(arr.shape[1])], times=times, crs=crs,
               geotransform=transform if crs else None, tile=64, **kw)
    return path


def test_label_errors_name_the_problem(cat, files, tmp_path):
    a_only = cat.search(bands=["red"], time=("2020-01-01", "2020-12-31"))
    lab = np.arange(300 * 520, dtype=np.uint8).reshape(1, 1, 300, 520)
    nocrs = _label_file(tmp_path / "nocrs.rumi", lab, ["2020-01-01"], crs=None)
    with pytest.raises(rumi.RequestError, match=r"label file nocrs has no CRS \(300x520 pixels without georeferencing\): it "
                                                r"cannot be placed on the image grid \(EPSG:32633, 300x520 pixels, transform"):
        rt.ChipDataset(a_only, size=32, labels=nocrs)
    far = _label_file(tmp_path / "far.rumi", lab, ["2020-01-01"], transform=(600000.0, 10.0, 0.0, 5000000.0, 0.0, -10.0))
    with pytest.raises(rumi.RequestError, match=r"the labels do not overlap the images: no label file \(far; EPSG:32633, "
                                                r"300x520 pixels, transform .*\) intersects an image file \(a; EPSG:32633"):
        rt.ChipDataset(a_only, size=32, labels=far)
    # labels with several time steps must have each image step of the selection
    lt = np.zeros((2, 1, 300, 520), np.uint8)
    two = _label_file(tmp_path / "two.rumi", lt, ["2020-01-01", "2020-02-15"])
    with pytest.raises(rumi.RequestError, match=r"the time axes of image a and labels two differ: the labels have no step at "
                                                r"\['2020-02-01T00:00:00', '2020-03-01T00:00:00'\]"):
        rt.ChipDataset(a_only, size=32, labels=two)
    # ... which a time selection can satisfy
    ds = rt.ChipDataset(a_only, size=32, labels=two, time="2020-01-01")
    assert (ds.T, ds.Tl) == (1, 1)
    with pytest.raises(ValueError, match="on_missing must be 'skip' or 'raise'"):
        rt.ChipDataset(a_only, size=32, labels=two, on_missing="fill")


def test_chips_without_labels_are_skipped_or_raise(cat, files, tmp_path):
    """Labels covering the left 200 columns of file a: samplers draw only chips inside them
    (on_missing='skip'); with on_missing='raise' a chip outside is an error when read."""
    a_only = cat.search(bands=["red"], time=("2020-01-01", "2020-12-31"))
    lab = (np.arange(300 * 200, dtype=np.int32).reshape(1, 1, 300, 200) * 7)
    left = _label_file(tmp_path / "left.rumi", lab, ["2019-06-01"])
    ds = rt.ChipDataset(a_only, size=32, labels=left)
    for s in (rt.RandomChipSampler(ds, length=50, seed=1), rt.GridChipSampler(ds), rt.TileChipSampler(ds)):
        keys = list(s)
        assert keys and all(c + 32 <= 200 for _, _, c in keys), type(s).__name__
    b = ds.__getitems__(keys[:5])
    for i, (_, r, c) in enumerate(keys[:5]):
        np.testing.assert_array_equal(b["mask"][i, 0, 0].numpy(), lab[0, 0, r:r + 32, c:c + 32])
    assert b["mask"].dtype == torch.int32
    with pytest.raises(rumi.RequestError, match=r"chip \(0, 0, 300\) of a has no label file covering it"):
        ds.__getitems__([(0, 0, 300)])
    raising = rt.ChipDataset(a_only, size=32, labels=left, on_missing="raise")
    assert any(c + 32 > 200 for _, _, c in rt.GridChipSampler(raising))  # not filtered
    big = rt.ChipDataset(a_only, size=250, labels=left)
    with pytest.raises(rumi.RequestError, match="no 250x250 chip of the 1 image files lies wholly inside a label file"):
        rt.RandomChipSampler(big, length=4)


def test_labels_with_time_steps_follow_the_images(cat, files, tmp_path):
    """Labels with a time axis (a cloud mask per scene) are read at each chip's image steps."""
    a_only = cat.search(bands=["red"], time=("2020-01-01", "2020-12-31"))
    lab = np.random.default_rng(0).integers(0, 2, size=(4, 1, 300, 520), dtype=np.uint8)
    times = ["2019-12-01", "2020-01-01", "2020-02-01", "2020-03-01"]
    p = _label_file(tmp_path / "clouds.rumi", lab, times)
    ds = rt.ChipDataset(a_only, size=40, labels=p, time=("2020-01-15", "2020-12-31"))
    assert (ds.T, ds.Tl) == (2, 2)
    b = ds.__getitems__([(0, 7, 9)])
    np.testing.assert_array_equal(b["mask"][0, :, 0].numpy(), lab[2:4, 0, 7:47, 9:49])
    np.testing.assert_array_equal(b["image"][0].numpy(), files["a"][1][1:3, :, 7:47, 9:49])


# --- resumable and reproducible ----------------------------------------------------------------


def _interleave(parts):
    out = []
    for k in range(max(len(p) for p in parts)):
        out += [p[k] for p in parts if k < len(p)]
    return out


@pytest.mark.parametrize("make", [
    lambda ds, **kw: rt.RandomChipSampler(ds, length=48, seed=5, **kw),
    lambda ds, **kw: rt.GridChipSampler(ds, stride=40, shuffle=True, seed=5, **kw),
    lambda ds, **kw: rt.TileChipSampler(ds, shuffle=True, seed=5, **kw),
], ids=["random", "grid", "tile"])
def test_global_order_is_the_same_for_1_2_and_4_ranks(cat, make):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=40)
    one = list(make(ds))
    for world in (2, 4):
        parts = [list(make(ds, rank=r, world_size=world)) for r in range(world)]
        assert len({len(p) for p in parts}) == 1
        n = len(one) // world * world
        assert _interleave(parts) == one[:n], world
    s = make(ds)
    s.set_epoch(1)
    assert list(s) != one  # another epoch, another order


_TRAIN = r"""
import os, sys, signal, json, torch
import rumi, rumi.torch as rt
cat, state, log, kill_after, workers, kind = sys.argv[1:7]
kill_after, workers = int(kill_after), int(workers)
ds = rt.ChipDataset(rumi.Catalog.open(cat).search(bands=["red"]), size=32)
sampler = rt.RandomChipSampler(ds, length=60, seed=7)
if kind == "stateful":
    from torchdata.stateful_dataloader import StatefulDataLoader
    loader = StatefulDataLoader(ds, batch_size=6, sampler=sampler, collate_fn=rt.collate, num_workers=workers)
else:
    loader = ds.loader(sampler, batch_size=6, num_workers=workers)
if os.path.exists(state):
    loader.load_state_dict(torch.load(state, weights_only=False))
n = 0
for b in loader:
    with open(log, "a") as f:
        f.write(json.dumps([list(k) for k in b["key"]]) + "\n")
    torch.save(loader.state_dict(), state + ".tmp")
    os.replace(state + ".tmp", state)
    n += 1
    if n == kill_after:
        os.kill(os.getpid(), signal.SIGKILL)  # a crash: no clean-up
"""


def _run_train(tmp_path, catpath, name, kill_after, workers, kind):
    import json

    script = tmp_path / "train.py"
    script.write_text(_TRAIN)
    state, log = tmp_path / f"{name}.state", tmp_path / f"{name}.log"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, str(script), str(catpath), str(state), str(log), str(kill_after), str(workers), kind],
                       capture_output=True, text=True, env=env, timeout=300)
    keys = [tuple(k) for line in open(log) for k in json.loads(line)] if log.exists() else []
    return r, keys


@pytest.mark.parametrize("kind,workers", [("rumi", 0), ("rumi", 2), ("stateful", 0), ("stateful", 2)])
def test_resume_after_a_crash_continues_the_epoch(cat, tmp_path, kind, workers):
    """A training loop killed (SIGKILL) after 4 batches, restarted from its last saved state:
    the keys of both runs, concatenated, are one uninterrupted epoch (ds.loader, and torchdata's
    StatefulDataLoader when installed; 0 and 2 workers)."""
    if kind == "stateful":
        pytest.importorskip("torchdata.stateful_dataloader")
    catpath = tmp_path / "cat.parquet"
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    whole = list(rt.RandomChipSampler(ds, length=60, seed=7))  # one uninterrupted epoch's keys, in order
    assert len(whole) == 60
    r, first = _run_train(tmp_path, catpath, "crash", 4, workers, kind)
    assert r.returncode == -9, r.stderr
    assert first == whole[:24]
    r, rest = _run_train(tmp_path, catpath, "crash", 0, workers, kind)
    assert r.returncode == 0, r.stderr
    assert rest[:24] == first and rest[24:] == whole[24:]  # the log holds both runs


def test_sampler_state_moves_between_world_sizes(cat):
    """A state saved by rank 0 of 2 resumes a 1-rank run at the same place of the global order."""
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=40)
    s2 = rt.RandomChipSampler(ds, length=40, seed=1, rank=0, world_size=2)
    it = iter(s2)
    for _ in range(5):
        next(it)
    st = s2.state_dict()
    assert st == {"seed": 1, "epoch": 0, "rank": 0, "world_size": 2, "yielded": 5}
    s1 = rt.RandomChipSampler(ds, length=40, seed=99)
    s1.load_state_dict(st)
    assert list(s1) == list(rt.RandomChipSampler(ds, length=40, seed=1))[10:]
    assert list(s1)[:1] == list(rt.RandomChipSampler(ds, length=40, seed=1))[:1]  # the next epoch pass starts at 0


def test_loader_state_counts_delivered_batches_not_read_ahead(cat):
    ds = rt.ChipDataset(cat.search(bands=["red"]), size=32)
    s = rt.RandomChipSampler(ds, length=30, seed=2)
    loader = ds.loader(s, batch_size=5, read_ahead=3)
    it = iter(loader)
    got = [next(it)["key"] for _ in range(2)]
    st = loader.state_dict()
    assert st["samples_delivered"] == 10 and st["seed"] == 2
    fresh = ds.loader(rt.RandomChipSampler(ds, length=30, seed=0), batch_size=5)
    fresh.load_state_dict(st)
    rest = [b["key"] for b in fresh]
    assert sum(got + rest, []) == list(rt.RandomChipSampler(ds, length=30, seed=2))
    # a plain list of keys as the sampler: resumes by skipping
    keys = list(rt.RandomChipSampler(ds, length=12, seed=3))
    lst = ds.loader(keys, batch_size=4)
    lst.load_state_dict({"samples_delivered": 8})
    assert [k for b in lst for k in b["key"]] == keys[8:]


# --- time series -----------------------------------------------------------------------------------


@pytest.fixture()
def ndvi_series(converted, tmp_path):
    """The eo-learn NDVI stack as rumi Cubes (68 steps, the band descriptions are the times; and
    one of its first 30 steps), the cloud masks as a 68-step Cube beside them."""
    ndvi = rumi.open(converted("eolearn_s2_ndvi_68t_float32.tif"))
    clm = rumi.open(converted("eolearn_s2_clm_68t_uint8.tif"))
    times = np.array(ndvi.bands, dtype="datetime64[s]")
    keep = np.concatenate([[True], np.diff(times) > np.timedelta64(0, "s")])  # 2015-12-08 appears twice
    times = times[keep]
    a = ndvi.read()[0][keep][:, None]  # (T, 1, Y, X)
    m = clm.read()[0][keep][:, None]
    geo = dict(crs=ndvi.crs, geotransform=ndvi.geotransform, tile=32)
    full, short, mask = tmp_path / "ndvi_full.rumi", tmp_path / "ndvi_short.rumi", tmp_path / "clm.rumi"
    rumi.write(full, a, bands=["ndvi"], times=[str(t) for t in times], **geo)
    rumi.write(short, a[:30], bands=["ndvi"], times=[str(t) for t in times[:30]], **geo)
    rumi.write(mask, m, bands=["clouds"], times=[str(t) for t in times], **geo)
    cat = rumi.Catalog.build([str(full), str(short)], tmp_path / "series.parquet")
    return cat, a, m, times, mask


def test_time_series_of_different_lengths_are_padded(ndvi_series):
    cat, a, m, times, mask = ndvi_series
    window = ("2016-01-01", "2017-01-01")
    # the end date covers its whole day, as STAC searches read dates
    sel = (times >= np.datetime64("2016-01-01")) & (times < np.datetime64("2017-01-02"))
    idx = np.flatnonzero(sel)
    n_full, n_short = len(idx), int(np.sum(idx < 30))
    assert n_full > n_short > 0
    ds = rt.ChipDataset(cat, size=32, time=window, labels=mask)
    assert (ds.T, ds.Tl) == (n_full, n_full)
    keys = [(0, 10, 20), (1, 50, 60), (1, 0, 0)]
    b = ds.__getitems__(keys)
    assert b["image"].shape == (3, n_full, 1, 32, 32) and b["mask"].shape == (3, n_full, 1, 32, 32)
    for i, (j, r, c) in enumerate(keys):
        steps = idx if j == 0 else idx[idx < 30]
        k = len(steps)
        assert b["time_mask"][i].tolist() == [True] * k + [False] * (n_full - k)
        np.testing.assert_array_equal(b["time"][i], times[steps])
        assert b["time"][i].dtype == np.dtype("datetime64[s]")
        np.testing.assert_array_equal(b["image"][i, :k].numpy(), a[steps, :, r:r + 32, c:c + 32])
        np.testing.assert_array_equal(b["mask"][i, :k].numpy(), m[steps, :, r:r + 32, c:c + 32])
        assert not b["image"][i, k:].any() and not b["mask"][i, k:].any()  # padding
    with pytest.raises(rumi.RequestError, match="align_time: the files' time axes differ"):
        rt.ChipDataset(cat, size=32, time=window, align_time=True)


def test_max_steps_newest_and_random(ndvi_series):
    cat, a, m, times, mask = ndvi_series
    newest = rt.ChipDataset(cat, size=32, max_steps=5)
    assert newest.T == 5
    b = newest.__getitems__([(0, 1, 2), (1, 3, 4)])
    np.testing.assert_array_equal(b["time"][0], times[-5:])
    np.testing.assert_array_equal(b["time"][1], times[25:30])
    np.testing.assert_array_equal(b["image"][1].numpy(), a[25:30, :, 3:35, 4:36])
    rnd = rt.ChipDataset(cat, size=32, max_steps=6, time_steps="random", seed=1, labels=mask)
    keys = [(0, 0, 0), (0, 5, 5), (1, 7, 7)]
    b1, b2 = rnd.__getitems__(keys), rnd.__getitems__(keys)
    picked = []
    for i, (j, r, c) in enumerate(keys):
        t = b1["time"][i]
        assert len(t) == 6 and np.all(np.diff(t) > np.timedelta64(0, "s"))  # distinct, in time order
        np.testing.assert_array_equal(t, b2["time"][i])  # seeded per chip: the same again
        steps = np.searchsorted(times, t)
        assert j == 0 or steps.max() < 30
        np.testing.assert_array_equal(b1["image"][i].numpy(), a[steps, :, r:r + 32, c:c + 32])
        np.testing.assert_array_equal(b1["mask"][i].numpy(), m[steps, :, r:r + 32, c:c + 32])
        picked.append(tuple(steps))
    assert len(set(picked)) == 3
    other = rt.ChipDataset(cat, size=32, max_steps=6, time_steps="random", seed=2).__getitems__(keys)
    assert any(not np.array_equal(x, y) for x, y in zip(other["time"], b1["time"]))
    with pytest.raises(ValueError, match="max_steps must be an integer >= 1"):
        rt.ChipDataset(cat, size=32, max_steps=0)


def test_decoded_frames_are_kept_across_batches_within_the_budget(cat):
    """keep_cache (default): a later batch's chips that share frames with an earlier one decode
    nothing; keep_cache=False or a budget too small for a frame decode them again."""
    sel = cat.search(bands=["red"])
    keys = [(0, 5, 5), (0, 70, 70), (1, 3, 100)]
    for kw, again in (({}, 0), ({"keep_cache": False}, None), ({"cache_bytes": 1}, None)):
        ds = rt.ChipDataset(sel, size=40, **kw)
        first = ds.__getitems__(keys)["stats"]
        second = ds.__getitems__(keys)["stats"]
        assert first["decoded"] > 0 and second["frames"] == first["frames"], kw
        if again == 0:
            assert second["decoded"] == 0 and second["cache_hits"] == second["frames"] and second["requests"] == 0
        else:
            assert second["decoded"] == first["decoded"], kw
