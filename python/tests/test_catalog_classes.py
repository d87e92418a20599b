"""The catalogue's class counts (rumi:classes, issue 50 item 1): per categorical band, time step
and tile, the count of each class, equal to numpy over the pixels (real rasters of the shared
data folder read by tifffile, skipped with the reason when absent; random files by hypothesis),
the detection rule, classes= declared, catalogues without the column, and one read of each
file for every summary."""

from __future__ import annotations

import pathlib
import tempfile

import numpy as np
import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
pytest.importorskip("shapely")

import rumi  # noqa: E402
from conftest import DATA, tiff_pixels  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rumi.catalog.classes import DETECT_MAX, unpack_classes  # noqa: E402

GEO = dict(crs="EPSG:32633", geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0))


def oracle(a, tile, values, nodata=None):
    """numpy: (T, ny, nx, K) counts of values in each tile of a (T, Y, X), nodata excluded."""
    T, Y, X = a.shape
    th, tw = tile
    ny, nx = -(-Y // th), -(-X // tw)
    out = np.zeros((T, ny, nx, len(values)), np.int64)
    for i in range(ny):
        for j in range(nx):
            blk = a[:, i * th:(i + 1) * th, j * tw:(j + 1) * tw]
            for k, v in enumerate(values):
                m = blk == v
                if nodata is not None:
                    m &= blk != nodata
                out[:, i, j, k] = m.sum(axis=(1, 2))
    return out


def counts_of(cat, i=0):
    r = cat.row(i)
    return unpack_classes(r["rumi:classes"], r["rumi:shape"], r["rumi:tile_shape"])


def test_landfire_fuel_classes_equal_numpy(converted, tmp_path):
    """The LANDFIRE fuel-model map (int16, 27 classes, nodata 32767 in its sidecar): detected as
    categorical, counts per 64 x 64 tile equal numpy over the GeoTIFF's pixels, nodata left out;
    the elevation (int16, many values) is not categorical."""
    fbfm = converted("lf_fbfm40_220_mt_hood_utm.tif", "--tile", "64")
    elev = converted("lf_elev_220_mt_hood_utm.tif", "--tile", "64")
    cat = rumi.Catalog.build([str(fbfm), str(elev)], tmp_path / "lf.parquet")
    px = tiff_pixels(DATA / "lf_fbfm40_220_mt_hood_utm.tif")[0]
    got = counts_of(cat, 0)
    vals, counts = got[0]
    want_vals = np.unique(px[px != 32767])
    np.testing.assert_array_equal(vals, want_vals)
    assert len(vals) == 27 and 32767 not in vals
    np.testing.assert_array_equal(counts, oracle(px[None], (64, 64), vals))
    assert counts.dtype == np.uint32
    assert cat.row(1)["rumi:classes"] == []  # elevation: no categorical band
    blob = cat.row(0)["rumi:classes"][0]["counts"]
    assert len(blob) < counts.nbytes / 4  # byte planes + zstd: the counts are mostly zeros


def test_cloud_masks_68_steps_equal_numpy(converted, tmp_path):
    """The eo-learn cloud masks as a 68-step Cube (uint8 0/1): counts per step and tile equal
    numpy; as the converted 68-band file each band is counted."""
    clm = rumi.open(converted("eolearn_s2_clm_68t_uint8.tif"))
    px = tiff_pixels(DATA / "eolearn_s2_clm_68t_uint8.tif")  # (68, 101, 100)
    m = clm.read()[0]
    np.testing.assert_array_equal(m, px)
    rumi.write(tmp_path / "clm.rumi", m[:, None], bands=["clouds"], times=[f"2016-01-01T{k // 60:02d}:{k % 60:02d}:00" for k in range(68)],
               crs=clm.crs, geotransform=clm.geotransform, tile=32)
    cat = rumi.Catalog.build([str(tmp_path / "clm.rumi"), str(converted("eolearn_s2_clm_68t_uint8.tif"))],
                             tmp_path / "clm.parquet")
    vals, counts = counts_of(cat, 0)[0]
    np.testing.assert_array_equal(vals, [0, 1])
    np.testing.assert_array_equal(counts, oracle(px, (32, 32), [0, 1]))
    bands = counts_of(cat, 1)  # 68 bands, one step, 256 x 256 tiles: one tile
    assert sorted(bands) == list(range(68))
    for b in (0, 5, 67):
        v, c = bands[b]
        np.testing.assert_array_equal(c[0, 0, 0], [(px[b] == x).sum() for x in v])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(["uint8", "int8", "uint16", "int16", "int32", "uint32"]),
       T=st.integers(1, 3), B=st.integers(1, 2), tile=st.sampled_from([16, 24, 64]), K=st.integers(1, DETECT_MAX + 4),
       nodata=st.booleans())
def test_random_files_equal_numpy(tmp_path, seed, dtype, T, B, tile, K, nodata):
    """Random integer files: a band with <= 32 distinct valid values is counted exactly (per
    step and tile, nodata excluded); one with more is not (the detection rule); declared with
    classes=, it is counted whatever the number."""
    rng = np.random.default_rng(seed)
    Y, X = int(rng.integers(1, 80)), int(rng.integers(1, 80))
    info = np.iinfo(dtype)
    pool = np.unique(rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, K * 2))[:K].astype(dtype)
    a = pool[rng.integers(0, len(pool), (T, B, Y, X))]
    nd = None
    if nodata:
        nd = int(pool[0])
    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    rumi.write(d / "x.rumi", a, bands=[f"b{k}" for k in range(B)], times=[f"2020-01-{k + 1:02d}" for k in range(T)],
               tile=tile, nodata=nd, **GEO)
    got = counts_of(rumi.Catalog.build([str(d / "x.rumi")], d / "x.parquet"))
    for b in range(B):
        vals = np.unique(a[:, b][a[:, b] != nd] if nd is not None else a[:, b])
        if len(vals) > DETECT_MAX:
            assert b not in got
            continue
        np.testing.assert_array_equal(got[b][0], vals)
        np.testing.assert_array_equal(got[b][1], oracle(a[:, b], (tile, tile), vals, nd))
    # declared: counted whatever the number of values; {band: values}: only those
    decl = counts_of(rumi.Catalog.build([str(d / "x.rumi")], d / "y.parquet", classes=["b0"]))
    assert sorted(decl) == [0]
    vals = np.unique(a[:, 0][a[:, 0] != nd] if nd is not None else a[:, 0])
    np.testing.assert_array_equal(decl[0][1], oracle(a[:, 0], (tile, tile), vals, nd))
    some = [int(v) for v in pool[:2]] + [12345678]
    decl = counts_of(rumi.Catalog.build([str(d / "x.rumi")], d / "z.parquet", classes={"b0": some}))
    np.testing.assert_array_equal(decl[0][0], sorted(some))
    np.testing.assert_array_equal(decl[0][1], oracle(a[:, 0], (tile, tile), sorted(some), nd))


def test_classes_option_errors_and_none(tmp_path):
    a = np.arange(4 * 4, dtype=np.uint8).reshape(1, 1, 4, 4) % 3
    rumi.write(tmp_path / "m.rumi", a, bands=["mask"], times=["2020-01-01"], tile=16, **GEO)
    rumi.write(tmp_path / "f.rumi", a.astype(np.float32), bands=["x"], times=["2020-01-01"], tile=16, **GEO)
    src = [str(tmp_path / "m.rumi")]
    assert rumi.Catalog.build(src, tmp_path / "n.parquet", classes=False).row(0)["rumi:classes"] == []
    with pytest.raises(ValueError, match=r"classes= declares the bands \['SCL'\] categorical, but none of the 1 files has "
                                         r"them \(their bands: \['mask'\]\)"):
        rumi.Catalog.build(src, tmp_path / "e.parquet", classes=["SCL"])
    with pytest.raises(ValueError, match=r"band 'x' is declared categorical \(classes=\), but its samples are float32"):
        rumi.Catalog.build([str(tmp_path / "f.rumi")], tmp_path / "e.parquet", classes=["x"])
    with pytest.raises(TypeError, match=r"classes: the values of band 'mask' must be integers"):
        rumi.Catalog.build(src, tmp_path / "e.parquet", classes={"mask": ["a"]})
    # floats are never detected
    assert rumi.Catalog.build([str(tmp_path / "f.rumi")], tmp_path / "f.parquet").row(0)["rumi:classes"] == []
    # the console script
    rumi.catalog.main(["build", *src, "-o", str(tmp_path / "c.parquet"), "--classes", "none"])
    assert rumi.Catalog.open(tmp_path / "c.parquet").row(0)["rumi:classes"] == []


def test_catalogue_without_the_column_opens(tmp_path):
    """A catalogue written before rumi:classes opens with it null (not recorded)."""
    import pyarrow.parquet as pq

    a = (np.arange(64 * 64).reshape(1, 1, 64, 64) // 1000).astype(np.uint8)
    rumi.write(tmp_path / "m.rumi", a, bands=["mask"], times=["2020-01-01"], tile=32, **GEO)
    cat = rumi.Catalog.build([str(tmp_path / "m.rumi")], tmp_path / "c.parquet")
    assert cat.row(0)["rumi:classes"][0]["values"] == [0, 1, 2, 3, 4]
    t = pq.read_table(tmp_path / "c.parquet")
    pq.write_table(t.drop(["rumi:classes"]), tmp_path / "old.parquet")
    old = rumi.Catalog.open(tmp_path / "old.parquet")
    assert old.row(0)["rumi:classes"] is None
    assert unpack_classes(None, [1, 1, 64, 64], [32, 32]) is None


def test_one_read_of_each_file(tmp_path, monkeypatch):
    """Every summary (valid, statistics, classes) comes from one read of each block."""
    a = np.random.default_rng(0).integers(0, 4, (3, 2, 100, 90)).astype(np.uint8)
    rumi.write(tmp_path / "m.rumi", a, bands=["c", "d"], times=["2020-01-01", "2020-02-01", "2020-03-01"], tile=32,
               nodata=3, **GEO)
    calls = []
    real = rumi.Dataset.read

    def counting(self, *args, **kw):
        calls.append(kw.get("window"))
        return real(self, *args, **kw)

    monkeypatch.setattr(rumi.Dataset, "read", counting)
    cat = rumi.Catalog.build([str(tmp_path / "m.rumi")], tmp_path / "c.parquet")
    assert sorted(counts_of(cat)) == [0, 1] and cat.row(0)["rumi:valid"] is not None
    assert len(calls) == 4  # one per tile row (4 rows of 32 over 100), all steps at once
