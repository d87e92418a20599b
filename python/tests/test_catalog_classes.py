"""The catalogue's class counts (rumi:classes, issue 50 item 1): per categorical band, time step
and tile, the count of each class, equal to numpy over the pixels (real rasters of the shared
data folder read by tifffile, skipped with the reason when absent; random files by hypothesis),
the detection rule, classes= declared, catalogues without the column, and one read of each
file for every summary."""

from __future__ import annotations

import itertools
import pathlib
import tempfile

import numpy as np
import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
pytest.importorskip("shapely")

import rumi  # noqa: E402
from conftest import DATA, tiff_pixels  # noqa: E402
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rumi.catalog.classes import CODE_DENOM, CODE_TABLES, DETECT_MAX, ClassCounts, counts_budget, decode_bounds, encode_counts, unpack_classes  # noqa: E402

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
    vals = got[0].values
    want_vals = np.unique(px[px != 32767])
    np.testing.assert_array_equal(vals, want_vals)
    assert len(vals) == 27 and 32767 not in vals
    want = oracle(px[None], (64, 64), vals)
    # 27 classes x 208 tiles of one step (a label map): exact, 3.5 KB, within a one-step file's budget
    blob = cat.row(0)["rumi:classes"][0]["counts"]
    assert blob[0] == 2 and 1280 < len(blob) <= counts_budget(1, 208) == 4096
    assert got[0].exact
    np.testing.assert_array_equal(got[0].lo, want)
    # the same counts as two steps of a Cube are over a Cube's budget: quantised (codec 4)
    two = np.concatenate([want, want])
    blob = encode_counts(two, _areas(799, 1013, 64, 64))
    assert blob[0] == 4 and len(blob) <= counts_budget(2, 208) == 1280
    cc = ClassCounts(vals, *decode_bounds(blob, (2, 1, 799, 1013), (64, 64), len(vals)))
    assert_bounds(cc, two, _areas(799, 1013, 64, 64))
    widest = np.diff(CODE_TABLES[blob[1]]).max() / CODE_DENOM
    assert not cc.exact and ((cc.hi.astype(np.int64) - cc.lo) <= 4096 * widest).all()
    assert cat.row(1)["rumi:classes"] == []  # elevation: no categorical band
    # the pass's own counts (class_counts): exact
    cc = rumi.catalog.class_counts(rumi.open(fbfm), nodata=32767)[0]
    np.testing.assert_array_equal(cc.values, want_vals)
    np.testing.assert_array_equal(cc.lo, want)
    assert cc.exact


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
    cc = counts_of(cat, 0)[0]
    np.testing.assert_array_equal(cc.values, [0, 1])
    assert_bounds(cc, oracle(px, (32, 32), [0, 1]), _areas(101, 100, 32, 32))
    bands = counts_of(cat, 1)  # 68 bands, one step, 256 x 256 tiles: one tile (exact: within the budget)
    assert sorted(bands) == list(range(68))
    for b in (0, 5, 67):
        assert bands[b].exact
        np.testing.assert_array_equal(bands[b].lo[0, 0, 0], [(px[b] == x).sum() for x in bands[b].values])


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
        np.testing.assert_array_equal(got[b].values, vals)
        assert_bounds(got[b], oracle(a[:, b], (tile, tile), vals, nd), _areas(Y, X, tile, tile))
    # declared: counted whatever the number of values; {band: values}: only those
    decl = counts_of(rumi.Catalog.build([str(d / "x.rumi")], d / "y.parquet", classes=["b0"]))
    assert sorted(decl) == [0]
    vals = np.unique(a[:, 0][a[:, 0] != nd] if nd is not None else a[:, 0])
    assert_bounds(decl[0], oracle(a[:, 0], (tile, tile), vals, nd), _areas(Y, X, tile, tile))
    some = [int(v) for v in pool[:2]] + [12345678]
    decl = counts_of(rumi.Catalog.build([str(d / "x.rumi")], d / "z.parquet", classes={"b0": some}))
    np.testing.assert_array_equal(decl[0].values, sorted(some))
    assert_bounds(decl[0], oracle(a[:, 0], (tile, tile), sorted(some), nd), _areas(Y, X, tile, tile))


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


# --- the quantised counts (codec 4) and the exact ones (codec 2) -------------------------------------


def _areas(Y, X, th, tw):
    """numpy: the samples of each tile (ny, nx)."""
    ny, nx = -(-Y // th), -(-X // tw)
    return np.array([[min(th, Y - i * th) * min(tw, X - j * tw) for j in range(nx)] for i in range(ny)], np.int64)


def assert_bounds(cc, want, area):
    """lo <= want <= hi, exact where the count is none or all of its tile's samples."""
    want = np.asarray(want, np.int64)
    assert cc.lo.shape == want.shape and cc.lo.dtype == np.uint32 and cc.hi.dtype == np.uint32
    assert (cc.lo <= want).all() and (want <= cc.hi).all()
    a = np.broadcast_to(np.asarray(area)[None, :, :, None], want.shape)
    np.testing.assert_array_equal(cc.hi[want == 0], 0)
    np.testing.assert_array_equal(cc.lo[want == a], a[want == a])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 4), Y=st.integers(1, 70), X=st.integers(1, 70),
       tile=st.sampled_from([1, 3, 16, 32]), K=st.integers(1, 5), fill=st.sampled_from(["full", "nodata", "pure"]),
       table=st.sampled_from([None, 0, 1, 2]))
def test_quantised_counts_bound_the_truth(seed, T, Y, X, tile, K, fill, table):
    """encode_counts / decode_bounds on random class maps (blobs, speckle, nodata or not, tiles
    of one class): for every table, each count lies within its bounds, none and all are exact
    (the whole-tile chips of absent and pure classes), the bounds are within the table's ranges
    of the tile (the fine table: a count's range at most an eighth of its tile), and the exact
    codec (table None: written when within the budget) gives lo == hi == the counts."""

    rng = np.random.default_rng(seed)
    blobs = rng.integers(0, K, (T, Y // 5 + 1, X // 5 + 1))
    a = np.repeat(np.repeat(blobs, 5, 1), 5, 2)[:, :Y, :X].copy()
    if fill != "pure":
        a[rng.random(a.shape) < 0.1] = rng.integers(0, K)
    if fill == "nodata":
        a[rng.random(a.shape) < 0.05] = -1
    want = oracle(a, (tile, tile), list(range(K)))
    area = _areas(Y, X, tile, tile)
    blob = encode_counts(want, area, table=table)
    assert blob[0] == 4 if table is not None else blob[0] in (2, 4)
    cc = ClassCounts(np.arange(K), *decode_bounds(blob, (T, 1, Y, X), (tile, tile), K))
    assert_bounds(cc, want, area)
    if blob[0] == 2:  # within the budget: exact
        assert cc.exact and len(blob) <= counts_budget(T, area.size)
        np.testing.assert_array_equal(cc.lo, want)
    else:
        e = np.array(CODE_TABLES[blob[1]])
        width = (cc.hi.astype(np.int64) - cc.lo) / area[None, :, :, None]
        assert (width <= np.diff(e).max() / CODE_DENOM + 1e-12).all()
        if blob[1] == 0:
            assert (width <= 1 / 8 + 1e-12).all()
        mid = cc.estimate()
        assert (mid >= cc.lo).all() and (mid <= cc.hi).all()


def test_two_classes_filling_their_tiles_keep_one_class():
    """A 2-class mask without nodata: the codes of one class (the other is the rest of each tile)
    and its bounds are the other's mirrored; a 3-class map keeps all three."""
    from rumi.catalog.classes import decode_bounds, encode_counts

    rng = np.random.default_rng(3)
    area = _areas(64, 64, 16, 16)
    one = rng.integers(0, 257, (6, 4, 4))
    two = np.stack([256 - one, one], -1)
    b2 = encode_counts(two, area, table=0)
    assert b2[2] & 2 and b2[3] == 1  # filled, class 0 (the larger) left out
    lo, hi = decode_bounds(b2, (6, 1, 64, 64), (16, 16), 2)
    np.testing.assert_array_equal(lo[..., 0], 256 - hi[..., 1])
    np.testing.assert_array_equal(hi[..., 0], 256 - lo[..., 1])
    assert (lo <= two).all() and (two <= hi).all()
    three = np.stack([256 - one, one // 2, one - one // 2], -1)
    b3 = encode_counts(three, area, table=0)
    assert b3[3] == 0 and len(b3) > len(b2)


def test_old_codec_2_catalogue_reads_exact_and_unknown_codec_is_loud(tmp_path):
    """A catalogue written before the quantised codes (every band's counts as codec 2: width,
    byte planes, zstd; written here by hand from the format's description) reads its exact
    counts; a codec this version does not know, or codec 3 (the quantised codes' first form, with
    other edges), is a FormatError naming it, never a guess."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(5)
    a = rng.integers(0, 3, (2, 1, 300, 300)).astype(np.uint8)  # 1,200+ bytes of counts: codec 4 today
    rumi.write(tmp_path / "m.rumi", a, bands=["c"], times=["2020-01-01", "2020-01-02"], tile=16, **GEO)
    cat = rumi.Catalog.build([str(tmp_path / "m.rumi")], tmp_path / "c.parquet")
    assert cat.row(0)["rumi:classes"][0]["counts"][0] == 4
    want = oracle(a[:, 0], (16, 16), [0, 1, 2])  # (T, ny, nx, K), values < 2**16
    planes = np.ascontiguousarray(np.moveaxis(want, -1, 0).astype("<u2").reshape(-1).view(np.uint8).reshape(-1, 2).T)
    old = bytes([2, 2]) + pa.Codec("zstd").compress(planes.tobytes(), asbytes=True)
    t = pq.read_table(tmp_path / "c.parquet")

    def with_counts(blob, name):
        v = t.column("rumi:classes").to_pylist()
        v[0][0]["counts"] = blob
        col = pa.array(v, t.schema.field("rumi:classes").type)
        pq.write_table(t.set_column(t.schema.get_field_index("rumi:classes"), t.schema.field("rumi:classes"), col),
                       tmp_path / name)
        return rumi.Catalog.open(tmp_path / name)

    cc = counts_of(with_counts(old, "old.parquet"))[0]
    assert cc.exact
    np.testing.assert_array_equal(cc.lo, want)
    np.testing.assert_array_equal(cc.hi, want)
    for bad, msg in ((bytes([5, 0, 0, 0]) + b"x", r"counts of codec \[5, 0, 0, 0\], this version reads codecs 2 and 4"),
                     (bytes([4, 7, 0, 0]), r"counts of codec \[4, 7, 0, 0\]"),
                     (bytes([3, 0, 0, 0]) + b"x", r"counts of codec 3, a development form of 2026-12-07 .* build the "
                                                  r"catalogue again"),
                     (old[:-3], r"do not decompress|bytes")):
        with pytest.raises(rumi.FormatError, match=msg):
            counts_of(with_counts(bad, "bad.parquet"))


def test_searches_leave_the_counts_unread_and_lazy_column_reads_them(tmp_path, monkeypatch):
    """A partitioned catalogue: a search reads no rumi:classes (its rows hold null there, as for
    rumi:stats), and lazy_column / table_with / read_shard give the selection's values, equal to
    the single-file catalogue's for the same files (the rows matched by their blobs' places)."""
    from rumi.catalog import parts as P

    rng = np.random.default_rng(2)
    paths = []
    for k in range(6):
        a = rng.integers(0, 3 + k, (2, 1, 40, 40)).astype(np.uint8)
        p = tmp_path / f"m{k}.rumi"
        rumi.write(p, a, bands=["c"], times=["2020-01-01", "2020-01-02"], tile=16, crs="EPSG:32633",
                   geotransform=(500000.0 + 1000 * k, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        paths.append(p)
    one = rumi.Catalog.build([str(p) for p in paths], tmp_path / "one.parquet")
    want = {r["id"]: r["rumi:classes"] for r in one.table.to_pylist()}
    assert all(want.values())
    rumi.catalog.write_parts(one.table, str(tmp_path / "cat") + "/", rows_per_group=2)
    cat = rumi.Catalog.open(str(tmp_path / "cat") + "/")
    read = []
    orig = P.Parts.read

    def spy(self, expr, columns, filters=()):
        read.append(list(columns))
        return orig(self, expr, columns, filters)

    monkeypatch.setattr(P.Parts, "read", spy)
    bbox = one.row(1)["bbox"]
    box = (bbox["xmin"], bbox["ymin"], one.row(4)["bbox"]["xmax"], bbox["ymax"])
    s = cat.search(box)
    ids = s.column("id")
    assert 2 <= len(ids) < 6
    assert read and all("rumi:classes" not in c and "rumi:stats" not in c for c in read)
    assert s.row(0)["rumi:classes"] is None and s.table.column("rumi:classes").null_count == len(ids)  # lazy
    read.clear()
    lazy = []
    orig_lazy = P.Parts.lazy_values
    monkeypatch.setattr(P.Parts, "lazy_values", lambda self, name, *a: lazy.append(name) or orig_lazy(self, name, *a))
    got = s.lazy_column("rumi:classes").to_pylist()
    assert got == [want[i] for i in ids]
    assert read == [] and lazy == ["rumi:classes"]  # no search again: the rows' places in their parts
    s.lazy_column("rumi:classes")
    assert len(lazy) == 1  # kept
    assert s.table_with(["rumi:classes"]).column("rumi:classes").to_pylist() == got
    sh = s.read_shard(s.shards()[0], ["id", "rumi:classes"])
    assert sh.table.column("rumi:classes").to_pylist() == [want[i] for i in sh.table.column("id").to_pylist()]
    # deferred, and the folder opened whole: the shards' own row groups hold them
    for c in (cat.search(box, defer=True), cat):
        for shard in c.shards():
            t = c.read_shard(shard, ["id", "rumi:classes"]).table
            assert t.column("rumi:classes").to_pylist() == [want[i] for i in t.column("id").to_pylist()]
    assert one.lazy_column("rumi:classes").to_pylist() == list(want.values())  # a single file: its column
    with pytest.raises(ValueError, match=r"'rumi:nodata' is not one of the columns searches leave unread"):
        s.lazy_column("rumi:nodata")


def test_exact_classes_keeps_the_counts_exact(converted, tmp_path):
    """exact_classes=True (Catalog.build, append, rumi-catalog build --exact-classes): the
    LANDFIRE fuel counts at tiles of 32, quantised by default (over a one-step file's budget), are exact
    (codec 2, equal to numpy); a non-bool is refused."""
    import subprocess
    import sys

    fbfm = converted("lf_fbfm40_220_mt_hood_utm.tif", "--tile", "32")
    px = tiff_pixels(DATA / "lf_fbfm40_220_mt_hood_utm.tif")[0]
    assert counts_of(rumi.Catalog.build([str(fbfm)], tmp_path / "q.parquet"))[0].exact is False
    cat = rumi.Catalog.build([str(fbfm)], tmp_path / "e.parquet", exact_classes=True)
    cc = counts_of(cat)[0]
    assert cat.row(0)["rumi:classes"][0]["counts"][0] == 2 and cc.exact
    np.testing.assert_array_equal(cc.lo, oracle(px[None], (32, 32), cc.values))
    parts = rumi.Catalog.build([str(fbfm)], str(tmp_path / "p") + "/").append([str(fbfm)], exact_classes=True)
    assert [r[0]["counts"][0] for r in parts.column("rumi:classes")] in ([4, 2], [2, 4])
    subprocess.run([sys.executable, "-m", "rumi.catalog.cli", "build", str(fbfm), "-o", str(tmp_path / "cli.parquet"),
                    "--exact-classes"], check=True, capture_output=True)
    assert counts_of(rumi.Catalog.open(tmp_path / "cli.parquet"))[0].exact
    with pytest.raises(TypeError, match=r"exact_classes must be True or False, not 'yes'"):
        rumi.Catalog.build([str(fbfm)], tmp_path / "x.parquet", exact_classes="yes")


def _true_counts(rng, T, area, K, fill):
    """Random true counts (T, ny, nx, K) of tiles of `area` samples: each tile's samples (all of
    them, or fewer: nodata) drawn over K classes of skewed shares, some tiles of one class."""
    m = np.broadcast_to(area, (T,) + area.shape).copy()
    if fill == "nodata":
        m = rng.integers(0, m + 1)
    if K == 0:
        return np.zeros(m.shape + (0,), np.int64)
    c = rng.multinomial(m, rng.dirichlet(np.full(K, 0.3)))
    pure = rng.random(m.shape) < (0.3 if fill == "pure" else 0.02)
    c[pure] = 0
    c[pure, rng.integers(0, K)] = m[pure]
    return c


def _pack4(codes):
    """The format's packed codes of 4 bits (the first in the low bits), written from its description."""
    q = np.concatenate([codes, np.zeros(len(codes) % 2, np.uint8)]).astype(np.uint8)
    return (q[0::2] | (q[1::2] << 4)).tobytes()


def _faulty(blob, fault, T, K, n):
    """A blob (of K classes, T steps, n counts) with a fault of the kind named, and the message
    that must name it."""
    head = 2 if blob[0] == 2 else 4
    if fault == "codec":
        return bytes([9]) + blob[1:], r"counts of codec \[9, .*this version reads codecs 2 and 4 .*newer rumi, or damaged"
    if fault == "dev":
        return bytes([3]) + blob[1:], r"counts of codec 3, a development form of 2026-12-07 .*build the catalogue again"
    if fault == "width":
        return bytes([2, 3]) + blob[2:], r"counts of codec \[2, 3\], codec 2 has widths 1, 2 or 4"
    if fault == "table":
        return bytes([4, 7, 0, 0]) + blob[head:], r"counts of codec \[4, 7, 0, 0\], this version reads codecs 2 and 4 \(tables 0-2\)"
    if fault == "left":  # class 0 left out: of 2 classes not filling their tiles (flag 2 clear), of K != 2 filling them
        return bytes([4, 0, 0 if K == 2 else 2, 1]), rf"counts leave class 0 out of a band of {K} classes that do not fill"
    if fault == "code":  # table 1 has codes 0-7: a code 8
        codes = np.zeros(n, np.uint8)
        codes[n // 2] = 8
        return bytes([4, 1, 0, 0]) + _pack4(codes), r"a count's code past table 1's 7"
    if fault == "contradict":  # flag 2 (the counts fill every tile), every code 0 (none)
        return bytes([4, 0, 2, 0]) + _pack4(np.zeros(n, np.uint8)), r"counts whose bounds contradict each other \(damaged\)"
    if fault == "garble" and blob[0] in (2, 4) and (blob[0] == 2 or blob[2] & 1):  # its zstd frame's block made garbage
        fhd = blob[head + 4]  # (RFC 8878: no dictionary id, as rumi writes them)
        at = head + 5 + (0 if fhd & 32 else 1) + ((1 if fhd & 32 else 0) if fhd >> 6 == 0 else 1 << (fhd >> 6))
        if blob[at] >> 1 & 3 == 2:  # a compressed block: its literals a table it has not (0xff)
            return blob[:at + 3] + b"\xff" * (len(blob) - at - 3), r"counts of \(.*\) do not decompress"
    assert fault in ("cut", "garble")
    if len(blob) == head:  # nothing to cut (no counts, no zstd): a byte more
        return blob + b"\0", rf"counts of 1 bytes, \({T}, .*\) needs 0"
    return blob[:max(head, len(blob) - 3)], r"counts of \(.*\) do not decompress|counts of \d+ bytes, \(.*\) needs \d+"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), G=st.integers(1, 6), T=st.integers(1, 3), Y=st.integers(1, 70),
       X=st.integers(1, 70), tile=st.sampled_from([1, 3, 16, 32]), K=st.sampled_from([0, 1, 2, 2, 3, 5]), big=st.sampled_from([False] * 4 + [True]),
       kinds=st.lists(st.sampled_from(["auto", "exact", 0, 1, 2]), min_size=1, max_size=4),
       fault=st.sampled_from([None, None, "codec", "dev", "width", "table", "left", "code", "contradict", "cut", "garble"]))
def test_many_blobs_decode_to_bounds_of_the_truth(seed, G, T, Y, X, tile, K, big, kinds, fault):
    """decode_bounds_many (the column's one decoder; decode_bounds its case of one blob) against
    the true counts: random counts (skewed shares, nodata or not, tiles of one class) encoded by
    encode_counts, exact (codec 2) and quantised (codec 4, every table, zstd'd or not, a 2-class
    band filling its tiles with one class left out) mixed in one call, the blobs apart in the
    buffer in another order, payloads under and (big) past zstd's block of 128 KiB: each count
    within its bounds, none and all exact, codec 2's exact (upper the lower array itself when every
    blob is); a faulty blob among good ones: a FormatError naming its fault, alone or among them."""
    import rumi.catalog.classes as cl

    if big:  # 24 x 63 x 63 x 3 counts: exact ones and table 0 / 1's codes are zstd frames of several blocks
        T, Y, X, tile, K, G = 24, 1000, 1000, 16, 3, min(G, 3)
    assume(K >= 1 or fault not in ("left", "code", "contradict"))
    rng = np.random.default_rng(seed)
    area = _areas(Y, X, tile, tile)
    shape, tiles = (T, 1, Y, X), (tile, tile)
    truth, blobs = [], []
    for g in range(G):
        c = _true_counts(rng, T, area, K, ["full", "nodata", "pure"][int(rng.integers(0, 3))])
        kind = kinds[g % len(kinds)]
        truth.append(c)
        blobs.append(encode_counts(c, area, **({} if kind == "auto" else {"exact": True} if kind == "exact" else {"table": kind})))

    def at_once(blobs):
        gap, order = rng.integers(0, 3, len(blobs)), rng.permutation(len(blobs))
        data, start, end = bytearray(), np.zeros(len(blobs), np.int64), np.zeros(len(blobs), np.int64)
        for g in order.tolist():
            data += bytes(int(gap[g]))
            start[g] = len(data)
            data += blobs[g]
            end[g] = len(data)
        return cl.decode_bounds_many(np.frombuffer(bytes(data + bytes(3)), np.uint8), start, end, shape, tiles, K)

    if fault is not None:
        k = int(rng.integers(0, G))
        bad, msg = _faulty(blobs[k], fault, T, K, K * T * area.size)
        with pytest.raises(rumi.FormatError, match=msg):
            decode_bounds(bad, shape, tiles, K)
        with pytest.raises(rumi.FormatError, match=msg):
            at_once(blobs[:k] + [bad] + blobs[k + 1:])
    lo, hi = at_once(blobs)
    assert lo.shape == (G, T) + area.shape + (K,) and lo.dtype == hi.dtype == np.uint32
    assert (hi is lo) == all(b[0] == 2 for b in blobs)
    for g, c in enumerate(truth):
        one = decode_bounds(blobs[g], shape, tiles, K)
        assert (one[1] is one[0]) == (blobs[g][0] == 2)
        for got in (ClassCounts(np.arange(K), lo[g], hi[g]), ClassCounts(np.arange(K), *one)):
            assert_bounds(got, c, area)
            if blobs[g][0] == 2:
                np.testing.assert_array_equal(got.lo, c)
                np.testing.assert_array_equal(got.hi, c)


def test_a_garbled_frame_among_frames_decompressed_at_once_is_named():
    """Exact counts of 5 files of one layout and width (their frames decompressed in one call),
    one garbled (its frame's block made garbage, the frame's header and sizes kept): the
    FormatError names it (the call failed, each decompressed alone), never another file's bytes
    read as its counts; without it, the others' counts exactly."""
    from rumi.catalog.classes import decode_bounds_many

    rng = np.random.default_rng(7)
    area = _areas(64, 64, 8, 8)  # counts < 256: width 1
    truth = [_true_counts(rng, 2, area, 3, "full") for _ in range(5)]
    blobs = [encode_counts(c, area, exact=True) for c in truth]
    bad, msg = _faulty(blobs[2], "garble", 2, 3, 3 * 2 * area.size)
    assert len(bad) == len(blobs[2]) and bad != blobs[2] and len({b[:2] for b in blobs}) == 1

    def at_once(blobs):
        off = np.cumsum([0] + [len(b) for b in blobs])
        return decode_bounds_many(np.frombuffer(b"".join(blobs), np.uint8), off[:-1], off[1:], (2, 1, 64, 64), (8, 8), 3)

    with pytest.raises(rumi.FormatError, match=msg):
        at_once(blobs[:2] + [bad] + blobs[3:])
    lo, hi = at_once(blobs)
    assert hi is lo
    np.testing.assert_array_equal(lo, np.stack(truth))


def test_classes_of_many_rows_equal_each_rows(tmp_path):
    """Rows.classes_many (the rows' rumi:classes decoded at once, per layout) gives each row's
    unpack_classes: two bands counted, files of two shapes and tiles, one file without categorical
    bands, the rows asked for in another order and twice; a row not recorded (a null) says so."""
    import pyarrow as pa
    from rumi.catalog import columns as Cn
    from rumi.catalog.decode import Rows

    rng = np.random.default_rng(11)
    paths = []
    for i, (Y, X, tile, T) in enumerate([(64, 64, 16, 1), (64, 64, 16, 1), (50, 70, 32, 2), (64, 64, 16, 1)]):
        a = rng.integers(0, 3 + i, (T, 2, Y, X)).astype(np.uint8)
        if i == 1:
            a = rng.integers(0, 60000, (T, 2, Y, X)).astype(np.uint16)  # no categorical band
        rumi.write(tmp_path / f"f{i}.rumi", a, bands=["a", "b"], times=[f"2020-01-0{k + 1}" for k in range(T)], tile=tile,
                   **GEO)
        paths.append(str(tmp_path / f"f{i}.rumi"))
    cat = rumi.Catalog.build(paths, tmp_path / "c.parquet")
    t = cat.table_with([Cn.CLASSES])
    col = t.column(Cn.CLASSES)
    v = col.to_pylist()
    v[3] = None  # not recorded
    t = t.set_column(t.schema.get_field_index(Cn.CLASSES), t.schema.field(Cn.CLASSES), pa.array(v, col.type))
    from unittest import mock

    import rumi.catalog.classes as cl

    rows = Rows(t)
    for ask, many in itertools.product((np.array([2, 0, 3, 1, 0]), np.arange(1, 4)), (cl.MANY_AT_ONCE, 1)):
        with mock.patch.object(cl, "MANY_AT_ONCE", many):  # each layout in one call; each band in one (a Cube's)
            recorded, batches = rows.classes_many(ask)  # (a run of rows: sliced, not taken)
        np.testing.assert_array_equal(recorded, ask != 3)
        got = {}
        for b in batches:
            for g in range(len(b.row)):
                got[(int(b.row[g]), int(b.band[g]))] = (b.values[g], b.lo[g], b.hi[g])
        _same_as_each_row(rows, ask, got, 6 if len(ask) == 5 else 2)


def _same_as_each_row(rows, ask, got, n):
    want = {}
    for p, i in enumerate(ask.tolist()):
        for band, cc in (rows.classes(i) or {}).items():
            want[(p, band)] = cc
    assert set(got) == set(want) and len(want) == n  # rows 2, 0 (and 0 again): 2 bands each (1: none, 3: null)
    for k, cc in want.items():
        np.testing.assert_array_equal(got[k][0], cc.values)
        np.testing.assert_array_equal(got[k][1], cc.lo)
        np.testing.assert_array_equal(got[k][2], cc.hi)
