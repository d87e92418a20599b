"""ChipDataset's apply_scale (issue 47): chips of values raw * scale + offset per band and file,
equal to rasterio's window read of the same files written as GeoTIFFs times src.scales plus
src.offsets, nodata NaN (rioxarray's mask_and_scale); without it raw samples, a warning when the
bands have a scale, and a selection whose files give one band two scales refused at every world
size. Files: test_catalog_scales.py's (Landsat C2 L2-like, Sentinel-2 L2A-like, DEMs)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyarrow")
rasterio = pytest.importorskip("rasterio")

import rumi  # noqa: E402
import rumi.torch as rt  # noqa: E402
from rasterio.windows import Window  # noqa: E402
from rumi.catalog import write_parts  # noqa: E402

from test_catalog_scales import BANDS, SHAPE, scaled  # noqa: E402,F401

SIZE = 32


def cat_of(tmp_path, files, kinds, name="cat.parquet"):
    return rumi.Catalog.build([str(files[k][0]) for k in kinds], tmp_path / name)


def want_values(tif, r0, c0, dtype):
    """rasterio's window of the GeoTIFF: (T, B, h, w) of raw * src.scales + src.offsets in float64,
    NaN where rasterio's masked read masks (nodata), then as dtype."""
    T, B = SHAPE[:2]
    with rasterio.open(tif) as src:
        m = src.read(window=Window(c0, r0, SIZE, SIZE), masked=True)
        sc = np.array(src.scales)[:, None, None]
        of = np.array(src.offsets)[:, None, None]
    v = m.data.astype(np.float64) * sc + of
    v[np.ma.getmaskarray(m)] = np.nan
    return v.reshape(T, B, SIZE, SIZE).astype(dtype)


def keys_of(ds):
    out = []
    for j in range(ds.num_files):
        out += [(j, 0, 0), (j, 80 - SIZE, 96 - SIZE), (j, 17, 29)]
    return out


@pytest.mark.parametrize("dtype", [None, torch.float64, torch.bfloat16])
def test_apply_scale_equals_rasterio_times_scale_plus_offset(scaled, tmp_path, dtype):
    _, files = scaled
    cat = cat_of(tmp_path, files, ["landsat", "s2", "plain"])
    ds = rt.ChipDataset(cat, size=SIZE, apply_scale=True, dtype=dtype)
    keys = keys_of(ds)
    img = ds.__getitems__(keys)["image"]
    np_dtype = np.float64 if dtype == torch.float64 else np.float32
    assert img.dtype == (dtype or torch.float32)
    nans = 0
    for k, (j, r0, c0) in enumerate(keys):
        want = want_values(files[ds.ids[j]][1], r0, c0, np.float64)
        if dtype == torch.bfloat16:  # no numpy type: torch's rounding of the float64 values
            got, want = img[k].float().numpy(), torch.from_numpy(want).to(torch.bfloat16).float().numpy()
        else:
            got, want = img[k].numpy(), want.astype(np_dtype)
        np.testing.assert_array_equal(got, want, err_msg=f"{ds.ids[j]} chip ({r0}, {c0})")
        nans += int(np.isnan(want).sum())
    assert nans > 0  # nodata samples were in the chips: NaN, not the offset


def test_apply_scale_dem_units_and_a_band_in_two_units(scaled, tmp_path):
    _, files = scaled
    ds = rt.ChipDataset(cat_of(tmp_path, files, ["dem"]), size=SIZE, apply_scale=True)
    assert ds.units == ("ft", "ft")
    keys = keys_of(ds)
    img = ds.__getitems__(keys)["image"]
    for k, (j, r0, c0) in enumerate(keys):
        np.testing.assert_array_equal(img[k].numpy(), want_values(files["dem"][1], r0, c0, np.float32))
    with pytest.raises(rumi.RequestError, match=r"band red is in 'ft' in dem and in 'metre' in dem_m"):
        rt.ChipDataset(cat_of(tmp_path, files, ["dem", "dem_m"], "two.parquet"), size=SIZE, apply_scale=True)


def test_a_band_with_two_scales_is_refused_without_apply_scale_at_every_world_size(scaled, tmp_path):
    """landsat and s2 give red two scales: refused by a single process and by each rank of a
    sharded dataset (one shard each: a rank that plans only landsat refuses too)."""
    _, files = scaled
    cat = cat_of(tmp_path, files, ["landsat", "s2"])
    msg = (r"band red has scale 2\.75e-05, offset -0\.2 in landsat and scale 0\.0001, offset -0\.1 in s2: .*"
           r"apply_scale=True")
    with pytest.raises(rumi.RequestError, match=msg):
        rt.ChipDataset(cat, size=SIZE)
    write_parts(cat.table, str(tmp_path / "parts"), rows_per_group=1)
    parts = rumi.Catalog.open(str(tmp_path / "parts") + "/")
    for world in (1, 2):
        for rank in range(world):
            with pytest.raises(rumi.RequestError, match=r"band red has scale .* apply_scale=True"):
                rt.ChipDataset(parts, size=SIZE, streams=2, rank=rank, world_size=world)
    ds = rt.ChipDataset(parts, size=SIZE, streams=2, rank=1, world_size=2, apply_scale=True)  # accepted with it
    assert ds.num_files == 1


def test_raw_chips_with_one_warning_naming_the_scaled_bands(scaled, tmp_path):
    _, files = scaled
    cat = cat_of(tmp_path, files, ["landsat"])
    with pytest.warns(RuntimeWarning, match=r"raw samples.*red: scale 2\.75e-05, offset -0\.2; nir: scale 2\.75e-05, "
                                            r"offset -0\.2.*apply_scale=True") as rec:
        ds = rt.ChipDataset(cat, size=SIZE)
    assert len([w for w in rec if "apply_scale" in str(w.message)]) == 1
    keys = keys_of(ds)
    img = ds.__getitems__(keys)["image"]
    assert img.dtype == torch.uint16
    with rasterio.open(files["landsat"][1]) as src:
        for k, (_, r0, c0) in enumerate(keys):
            want = src.read(window=Window(c0, r0, SIZE, SIZE)).reshape(SHAPE[0], SHAPE[1], SIZE, SIZE)
            np.testing.assert_array_equal(img[k].numpy(), want)
    with warnings.catch_warnings():  # a file without scale or offset: nothing to say
        warnings.simplefilter("error")
        rt.ChipDataset(cat_of(tmp_path, files, ["plain"], "plain.parquet"), size=SIZE)
        rt.ChipDataset(cat_of(tmp_path, files, ["dem"], "dem.parquet"), size=SIZE)  # a unit alone


def test_apply_scale_refuses_a_catalogue_that_did_not_record_scales_and_integer_dtypes(scaled, tmp_path):
    import pyarrow.parquet as pq

    _, files = scaled
    cat = cat_of(tmp_path, files, ["landsat", "plain"])
    old = cat.table.drop_columns(["rumi:scales", "rumi:offsets", "rumi:units"])
    pq.write_table(old.replace_schema_metadata(cat.table.schema.metadata), tmp_path / "old.parquet")
    with pytest.raises(rumi.RequestError, match=r"did not record them for 2 of the 2 files \(landsat, plain\).*"
                                                r"build it again"):
        rt.ChipDataset(rumi.Catalog.open(tmp_path / "old.parquet"), size=SIZE, apply_scale=True)
    with pytest.raises(ValueError, match=r"dtype=torch.int32: apply_scale=True .* floating dtype"):
        rt.ChipDataset(cat, size=SIZE, apply_scale=True, dtype=torch.int32)


def test_raw_chips_of_a_catalogue_without_scales_are_warned_about_and_values_shown_exactly(scaled, tmp_path):
    """A catalogue written before the scale columns cannot say whether a band has one scale: raw
    chips come with a warning naming the files (they came silently, even from files of two
    scales); two scales that print alike at 6 digits are shown with every digit."""
    import pyarrow.parquet as pq

    _, files = scaled
    cat = cat_of(tmp_path, files, ["landsat", "s2"])
    old = cat.table.drop_columns(["rumi:scales", "rumi:offsets", "rumi:units"])
    pq.write_table(old.replace_schema_metadata(cat.table.schema.metadata), tmp_path / "old.parquet")
    with pytest.warns(RuntimeWarning, match=r"did not record scales, offsets and units for 2 of the 2 files "
                                            r"\(landsat, s2; .*not checked; build the catalogue again"):
        ds = rt.ChipDataset(rumi.Catalog.open(tmp_path / "old.parquet"), size=SIZE)
    assert ds.num_files == 2
    a = np.ones((1, 1, SIZE, SIZE), np.uint16)
    kw = dict(bands=["x"], times=["2020-01-01"], crs="EPSG:32633", geotransform=(0.0, 1.0, 0.0, 0.0, 0.0, -1.0))
    rumi.write(tmp_path / "p.rumi", a, scales=1.0000001, **kw)
    rumi.write(tmp_path / "q.rumi", a, scales=1.0, offsets=1e-9, **kw)
    two = rumi.Catalog.build([str(tmp_path / "p.rumi"), str(tmp_path / "q.rumi")], tmp_path / "two.parquet")
    with pytest.raises(rumi.RequestError, match=r"band x has scale 1\.0000001, offset 0 in p and scale 1, offset 1e-09 in q"):
        rt.ChipDataset(two, size=SIZE)
