"""Statistics of a selection from the catalogue (rumi:stats, Catalog.stats; issue 50 items 1, 3)
against a pixel pass with numpy over the same files: hypothesis-drawn files (sample types,
nodata, NaN, scale/offset, multi-step Cubes, tilings) under whole, time, box and box + time
selections, and the real rasters of ../shared/data read by rasterio."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import rumi

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
pytest.importorskip("shapely")
hyp = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

X0, Y0, RES = 500000.0, 5100000.0, 10.0
TIMES = ["2020-01-01", "2020-02-01", "2020-03-01", "2020-04-01"]


def oracle(files, bands, steps_of=None, box=None, scaled=False):
    """Per band (count, mean, std, min, max) of the valid samples (not nodata by GDAL's rule,
    not NaN) of files [(array (T, B, Y, X), nodata per band, scales, offsets, (x0, y0))] with
    numpy in float64: the pass a user writes."""
    out = []
    for k in range(len(bands)):
        vals = []
        for a, nd, sc, of, (x0, y0) in files:
            T, B, Y, X = a.shape
            ts = list(range(T)) if steps_of is None else steps_of(a)
            v = a[ts, k].astype(np.float64)
            m = ~np.isnan(v)
            if nd[k] is not None:
                if math.isnan(nd[k]):
                    pass
                elif a.dtype.kind == "f":
                    m &= ~((v == nd[k]) | (np.abs(v - nd[k]) < 2 * np.finfo(np.float32).eps * np.abs(v + nd[k])))
                else:
                    m &= v != nd[k]
            if box is not None:
                xs = x0 + (np.arange(X) + 0.5) * RES
                ys = y0 - (np.arange(Y) + 0.5) * RES
                inb = ((xs >= box[0]) & (xs <= box[2]))[None, :] & ((ys >= box[1]) & (ys <= box[3]))[:, None]
                m &= inb[None]
            x = v[m]
            if scaled:
                x = x * sc[k] + of[k]
            vals.append(x)
        x = np.concatenate(vals)
        out.append((x.size, x.mean() if x.size else np.nan, x.std() if x.size else np.nan,
                    x.min() if x.size else np.nan, x.max() if x.size else np.nan))
    return out


def check(got, want):
    for k, (n, mean, std, lo, hi) in enumerate(want):
        assert got.count[k] == n
        if n == 0:
            assert np.isnan(got.mean[k])
            continue
        scale = max(abs(mean), std, 1e-300)
        assert abs(got.mean[k] - mean) <= 1e-6 * scale, (k, got.mean[k], mean)  # relative to the values' size
        assert abs(got.std[k] - std) <= 1e-4 * std + 1e-9 * scale, (k, got.std[k], std)
        assert got.min[k] == lo and got.max[k] == hi


@st.composite
def scenes(draw):
    dtype = draw(st.sampled_from(["uint8", "int16", "uint16", "float32", "float64"]))
    B = draw(st.integers(1, 2))
    T = draw(st.integers(1, 4))
    tile = draw(st.sampled_from([8, 16, 32]))
    nfiles = draw(st.integers(1, 2))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    nodata_kind = draw(st.sampled_from(["none", "value", "nan"] if dtype.startswith("float") else ["none", "value"]))
    scaled = draw(st.booleans())
    files = []
    for f in range(nfiles):
        Y, X = int(rng.integers(5, 90)), int(rng.integers(5, 90))
        if dtype.startswith("float"):
            a = (rng.standard_normal((T, B, Y, X)) * 50 + draw(st.sampled_from([0.0, 1000.0]))).astype(dtype)
            if nodata_kind != "nan" and draw(st.booleans()):
                a[rng.random(a.shape) < 0.05] = np.nan  # NaN without NaN nodata: left out too
        else:
            info = np.iinfo(dtype)
            a = rng.integers(max(info.min, -3000), min(info.max, 3000), (T, B, Y, X), endpoint=True).astype(dtype)
        nd: list[float | None] = [None] * B
        if nodata_kind == "value":
            nd = [float(a.flat[0])] * B  # a value the samples take
            a[rng.random(a.shape) < 0.2] = a.flat[0]
            if draw(st.booleans()):
                a[0, 0, : Y // 2, : X // 2] = a.flat[0]  # whole tiles of nodata
        elif nodata_kind == "nan":
            nd = [float("nan")] * B
            a[rng.random(a.shape) < 0.2] = np.nan
        sc = [float(rng.choice([1.0, 0.0001, 2.75e-05, -0.5])) for _ in range(B)] if scaled else [1.0] * B
        of = [float(rng.choice([0.0, -0.2, 100.0])) for _ in range(B)] if scaled else [0.0] * B
        x0, y0 = X0 + f * 300 * RES, Y0 - f * 7 * RES
        files.append((a, nd, sc, of, (x0, y0), tile))
    return dtype, files


def write(tmp: Path, files):
    paths = []
    for i, (a, nd, sc, of, (x0, y0), tile) in enumerate(files):
        T, B = a.shape[:2]
        p = tmp / f"f{i}.rumi"
        nodata = None if all(v is None for v in nd) else nd
        rumi.write(p, a, bands=[f"b{k}" for k in range(B)], times=TIMES[:T], crs="EPSG:32633",
                   geotransform=(x0, RES, 0.0, y0, 0.0, -RES), tile=tile, nodata=nodata,
                   scales=sc if sc != [1.0] * B or of != [0.0] * B else None, offsets=of if sc != [1.0] * B or of != [0.0] * B else None)
        paths.append(str(p))
    return paths


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(scene=scenes(), sel=st.sampled_from(["all", "time", "box", "box+time"]), boxf=st.tuples(*[st.floats(0.05, 0.95)] * 4),
       apply_scale=st.booleans(), which=st.integers(0, 1))
def test_selection_stats_equal_a_pixel_pass(tmp_path_factory, scene, sel, boxf, apply_scale, which):
    dtype, files = scene
    tmp = tmp_path_factory.mktemp("s")
    paths = write(tmp, files)
    cat = rumi.Catalog.build(paths, tmp / "c.parquet")
    B = files[0][0].shape[1]
    bands = [f"b{k}" for k in range(B)]
    steps_of = box = None
    q = {}
    if "time" in sel:
        q["time"] = ("2020-02-01", "2020-03-15")
        steps_of = lambda a: [t for t in (1, 2) if t < a.shape[0]]  # noqa: E731
    if "box" in sel:
        a0 = files[which % len(files)][0]  # a box within the first or the second file's extent
        x0, y0 = files[which % len(files)][4]
        W, H = a0.shape[3] * RES, a0.shape[2] * RES
        # edges a quarter pixel off the pixel centres' lattice: no centre on an edge
        fx = sorted(boxf[:2])
        fy = sorted(boxf[2:])
        e = [x0 + (math.floor(fx[0] * W / RES) + 0.25) * RES, y0 - (math.floor(fy[1] * H / RES) + 0.25) * RES,
             x0 + (math.floor(fx[1] * W / RES) + 0.75) * RES, y0 - (math.floor(fy[0] * H / RES) + 0.75) * RES]
        box = (min(e[0], e[2]), min(e[1], e[3]), max(e[0], e[2]), max(e[1], e[3]))
        q["bbox"], q["crs"] = box, "EPSG:32633"
    s = cat.search(**q) if q else cat
    if len(s) == 0:
        return
    want_files = [(a, nd, sc, of, o) for a, nd, sc, of, o, _ in files]
    if steps_of is not None:  # the files the search kept (every one meets some step here)
        want_files = [f for f in want_files if steps_of(f[0])]
    want = oracle(want_files, bands, steps_of, box, scaled=apply_scale)
    got = s.stats(apply_scale=apply_scale)
    assert got.bands == bands
    check(got, want)
    if "box" in sel:
        loose = s.stats(apply_scale=apply_scale, exact=False)  # cells the edge crosses counted whole
        if sel == "box":
            assert loose.read_files == 0
        assert (loose.count >= got.count).all()


def test_stats_cells_and_steps_from_the_catalogue_read_no_pixel(tmp_path, monkeypatch):
    """A box made of whole cells and a time window over files wholly inside it: no file opened."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 5000, (3, 2, 128, 128)).astype(np.uint16)
    p = tmp_path / "a.rumi"
    rumi.write(p, a, bands=["r", "n"], times=TIMES[:3], crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=32)
    cat = rumi.Catalog.build([str(p)], tmp_path / "c.parquet")
    monkeypatch.setattr(rumi.Catalog, "dataset", lambda *a, **k: pytest.fail("a pixel was read"))
    whole = cat.search(time=("2020-02-01", "2020-02-01")).stats()
    check(whole, oracle([(a, [None, None], [1, 1], [0, 0], (X0, Y0))], ["r", "n"], lambda a: [1]))
    box = (X0 + 32 * RES + 1, Y0 - 96 * RES + 1, X0 + 128 * RES - 1, Y0 - 1)  # cells 1..3 across, 0..2 down
    got = cat.search(bbox=box, crs="EPSG:32633").stats()
    assert got.read_files == 0
    check(got, oracle([(a, [None, None], [1, 1], [0, 0], (X0, Y0))], ["r", "n"], None, box))


def test_a_catalogue_without_statistics_names_its_files(tmp_path):
    a = np.arange(2 * 40 * 40, dtype=np.uint16).reshape(1, 2, 40, 40)
    p = tmp_path / "old.rumi"
    rumi.write(p, a, bands=["r", "n"], times=TIMES[:1], crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=16)
    cat = rumi.Catalog.build([str(p)], tmp_path / "c.parquet")
    t = cat.table
    old = t.drop_columns(["rumi:stats"])  # a catalogue written before the column
    rumi.catalog.write_table(old, tmp_path / "old.parquet")
    old_cat = rumi.Catalog.open(tmp_path / "old.parquet")
    assert len(old_cat.search(time="2020-01-01")) == 1  # still searched
    with pytest.raises(Exception, match=r"1 of the 1 files have no statistics \(rumi:stats: old\).*append them"):
        old_cat.stats()
    with pytest.raises(Exception, match=r"lacks some of the bands \['x'\]"):
        cat.stats(["x"])


def test_stats_values_and_layout(tmp_path):
    """The recorded pieces: the cells level sums to the steps level, counts are the valid samples."""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 9, (2, 1, 50, 70)).astype(np.int16)
    p = tmp_path / "a.rumi"
    rumi.write(p, a, bands=["c"], times=TIMES[:2], crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=8, nodata=0)
    cat = rumi.Catalog.build([str(p)], tmp_path / "c.parquet")
    row = cat.row(0)
    fs = rumi.catalog.unpack_stats(row["rumi:stats"], row["rumi:shape"], row["rumi:tile_shape"])
    assert (fs.cy, fs.cx) == (2, 3)  # 7 x 9 tiles of 8 -> at most 4 x 4 cells
    assert fs.cells.n.shape == (1, 4, 3)
    assert fs.steps.n.tolist() == [[int((a[0, 0] != 0).sum()), int((a[1, 0] != 0).sum())]]
    assert int(fs.cells.n.sum()) == int((a != 0).sum())
    assert fs.cells.n[0, 0, 0] == int((a[:, 0, :16, :24] != 0).sum())
    assert fs.cells.sum[0, 0, 0] == float(a[:, 0, :16, :24].sum())
    with pytest.raises(rumi.FormatError, match="rumi:stats(: the body| has)"):
        rumi.catalog.unpack_stats(row["rumi:stats"][:-8], row["rumi:shape"], row["rumi:tile_shape"])


REAL = [
    "lf_elev_220_mt_hood_utm.tif",
    "rasterio_RGB.byte.tif",
    "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif",
    "eolearn_dem_float32.tif",
    "eolearn_s2_ndvi_68t_float32.tif",
    "xrspatial_s2_4band_10m_uint16.tif",
]


@pytest.mark.parametrize("name", REAL)
def test_real_rasters_against_rasterio(converted, data_dir, name, tmp_path):
    """Whole-file and box statistics of real rasters (rumi convert) equal rasterio's masked pixels
    in float64 (nodata from the GeoTIFF, as the sidecar carries it)."""
    rasterio = pytest.importorskip("rasterio")
    path = converted(name)
    cat = rumi.Catalog.build([str(path)], tmp_path / "c.parquet")
    with rasterio.open(data_dir / name) as src:
        px = src.read(masked=True).astype(np.float64)
        tr = src.transform
        crs = src.crs.to_string()
        B, H, W = px.shape
        bands = cat.row(0)["rumi:bands"]
        assert len(bands) == B
        xs = tr.c + (np.arange(W) + 0.5) * tr.a
        ys = tr.f + (np.arange(H) + 0.5) * tr.e

    def want(inb=None):
        out = []
        for k in range(B):
            m = ~np.ma.getmaskarray(px[k]) & ~np.isnan(px[k].filled(0))
            if inb is not None:
                m &= inb
            x = px[k].data[m]
            out.append((x.size, x.mean(), x.std(), x.min(), x.max()))
        return out

    check(cat.stats(), want())
    # a box over the middle of the raster, edges a quarter pixel off the centres
    bx = (tr.c + (W // 4 + 0.25) * tr.a, tr.f + (3 * H // 4 + 0.25) * tr.e, tr.c + (3 * W // 4 + 0.75) * tr.a, tr.f + (H // 4 + 0.75) * tr.e)
    box = (min(bx[0], bx[2]), min(bx[1], bx[3]), max(bx[0], bx[2]), max(bx[1], bx[3]))
    inb = ((xs >= box[0]) & (xs <= box[2]))[None, :] & ((ys >= box[1]) & (ys <= box[3]))[:, None]
    check(cat.search(bbox=box, crs=crs).stats(), want(inb))


def test_values_past_float32_keep_their_spread(tmp_path):
    """m2 is stored as float32 unless a value passes its range: then as float64 (flag 2)."""
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((2, 1, 30, 40)) * 1e25 + 3e25).astype(np.float64)
    p = tmp_path / "big.rumi"
    rumi.write(p, a, bands=["v"], times=TIMES[:2], crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=16)
    cat = rumi.Catalog.build([str(p)], tmp_path / "c.parquet")
    check(cat.stats(), oracle([(a, [None], [1], [0], (X0, Y0))], ["v"]))
    check(cat.search(time="2020-02-01").stats(), oracle([(a, [None], [1], [0], (X0, Y0))], ["v"], lambda a: [1]))


def test_partitioned_searches_leave_the_statistics_unread(tmp_path):
    """A partitioned catalogue's search does not read rumi:stats (null in its rows); stats()
    reads it for the selection and equals the single-file catalogue's."""
    rng = np.random.default_rng(9)
    paths, arrays = [], []
    for i in range(3):
        a = rng.integers(1, 4000, (2, 1, 40, 48)).astype(np.uint16)
        p = tmp_path / f"p{i}.rumi"
        rumi.write(p, a, bands=["r"], times=TIMES[i:i + 2], crs="EPSG:32633",
                   geotransform=(X0 + i * 480 * RES, RES, 0.0, Y0, 0.0, -RES), tile=16)
        paths.append(str(p))
        arrays.append(a)
    parts = rumi.Catalog.build(paths, str(tmp_path / "parts") + "/")
    one = rumi.Catalog.build(paths, tmp_path / "one.parquet")
    sel = parts.search(time=("2020-02-01", "2020-02-15"))
    assert len(sel) == 2 and sel.table.column("rumi:stats").null_count == 2
    got = sel.stats()
    ref = one.search(time=("2020-02-01", "2020-02-15")).stats()
    for f in ("count", "mean", "std", "min", "max"):
        np.testing.assert_array_equal(getattr(got, f), getattr(ref, f))
    check(got, oracle([(arrays[k], [None], [1], [0], (0, 0)) for k in (0, 1)], ["r"], lambda a: [1 if a is arrays[0] else 0]))


@pytest.mark.parametrize("nodata", [None, 7])
def test_a_file_cut_by_box_and_time_is_read_for_those_steps(tmp_path, nodata):
    """A Cube cut by the box and by the time window: its cells in the box read for the steps
    selected (the catalogue has no per-step, per-cell piece), equal to the pixel pass."""
    rng = np.random.default_rng(11)
    a = rng.integers(0, 50, (4, 2, 70, 90)).astype(np.int16)
    p = tmp_path / "cube.rumi"
    rumi.write(p, a, bands=["r", "n"], times=TIMES, crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=16,
               nodata=nodata)
    cat = rumi.Catalog.build([str(p)], tmp_path / "c.parquet")
    box = (X0 + 13.25 * RES, Y0 - 51.75 * RES, X0 + 66.75 * RES, Y0 - 4.25 * RES)
    got = cat.search(bbox=box, crs="EPSG:32633", time=("2020-02-01", "2020-03-01")).stats()
    assert got.read_files == 1
    check(got, oracle([(a, [nodata, nodata], [1, 1], [0, 0], (X0, Y0))], ["r", "n"], lambda a: [1, 2], box))


def test_stats_false_reads_headers_only(tmp_path, monkeypatch):
    """build(stats=False) (rumi-catalog build --no-stats): no pixel read for a file without
    nodata (nor class bands), rumi:stats null and stats() saying so."""
    a = np.arange(40 * 40, dtype=np.uint16).reshape(1, 1, 40, 40)
    p = tmp_path / "h.rumi"
    rumi.write(p, a, bands=["r"], times=TIMES[:1], crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=16)
    import rumi.catalog.scan as scan

    calls = []
    real = rumi.Dataset.read
    monkeypatch.setattr(rumi.Dataset, "read", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    cat = rumi.Catalog.build([str(p)], tmp_path / "c.parquet", stats=False, classes=False)  # classes: no band
    assert calls == [] and cat.row(0)["rumi:stats"] is None
    with pytest.raises(rumi.RequestError, match="no statistics"):
        cat.stats()
    assert rumi.catalog.main(["build", str(p), "-o", str(tmp_path / "d.parquet"), "--no-stats", "--classes", "none"]) == 0
    assert calls == [] and rumi.Catalog.open(tmp_path / "d.parquet").row(0)["rumi:stats"] is None
    rumi.Catalog.build([str(p)], tmp_path / "e.parquet")
    assert calls and scan.SCAN_BYTES > 0


def test_first_encoding_values_still_decode():
    """RST1, the first encoding (count int64, sum float64, m2 float32, min and max float64, plain
    or byte-shuffled: flag 4), still reads back as written; an unknown encoding is named."""
    from rumi.catalog.stats import _HEAD, FIELDS, MAGIC_V1, Pieces, unpack_stats

    rng = np.random.default_rng(2)
    steps = Pieces(rng.integers(0, 99, (2, 3)), rng.random((2, 3)) * 1e6, rng.random((2, 3)).astype(np.float32).astype(float),
                   rng.random((2, 3)), rng.random((2, 3)))
    cells = Pieces(*(a[:, :, None].repeat(2, 2)[:, :2, :] for a in steps))  # (2, 2, 2)

    def v1(flags):
        head = np.zeros(1, _HEAD)
        head["magic"], head["cy"], head["cx"], head["flags"] = MAGIC_V1, 1, 1, flags
        arrs = [np.ascontiguousarray(a, dt).reshape(-1).view(np.uint8) for lv in (steps, cells) for a, (_, dt) in zip(lv, FIELDS)]
        if flags & 4:
            arrs = [np.ascontiguousarray(b.reshape(-1, int(np.dtype(dt).itemsize)).T) for b, (_, dt) in zip(arrs, FIELDS * 2)]
        return head.tobytes() + b"".join(a.tobytes() for a in arrs)

    plain, shuffled = v1(1), v1(1 | 4)
    assert plain != shuffled and len(plain) == len(shuffled)
    for blob in (plain, shuffled):
        got = unpack_stats(blob, (3, 2, 20, 20), (10, 10))
        for x, want in zip(got.steps + got.cells, steps + cells):
            np.testing.assert_array_equal(x, want)
    with pytest.raises(rumi.FormatError, match=r"begins with b'RST9'"):
        unpack_stats(b"RST9" + plain[4:], (3, 2, 20, 20), (10, 10))


def _pieces_of_samples(x, m):
    """Pieces (B, cells...) of samples x (B, n...) where m, each reduced over its last axis."""
    from rumi.catalog.stats import pieces_of

    return pieces_of(x.astype(np.float64), m, (x.ndim - 1,))


@pytest.mark.parametrize("kind", ["uint16", "int16", "float32", "wide"])
def test_encoding_round_trips_within_its_bounds(kind):
    """RST2: counts (full pieces take no byte), min and max exact; integer sums exact while n x std
    is under 2**22, else within 2**-23 x n x std; m2 within 2**-16 (float64 when past float32's
    range: exact); float samples' sums exact. Checked against the pieces numpy gives."""
    from rumi.catalog.stats import _HEAD2, SUM_BITS, encode_stats, unpack_stats

    rng = np.random.default_rng(5)
    T, B, Y, X, tile = 3, 2, 40, 24, 8  # 5 x 3 tiles: cells of one tile
    ny, nx = 5, 3
    if kind == "float32":
        a = rng.normal(100, 30, (T, B, Y, X)).astype(np.float32)
    elif kind == "wide":
        a = (rng.normal(0, 1, (T, B, Y, X)) * 1e30).astype(np.float64)
    else:
        lo, hi = (0, 60000) if kind == "uint16" else (-30000, 30000)
        a = rng.integers(lo, hi, (T, B, Y, X)).astype(kind)
        a[0, 0, :8, :8] = 7  # a constant cell in step 0
    valid = np.ones(a.shape, bool)
    valid[1, 1, 8:16, :] = False  # a row of cells with holes in step 1
    valid[:, 1, 32:, 16:] = False  # an empty cell in band 1
    x = np.asarray(a, np.float64)
    steps = _pieces_of_samples(x.transpose(1, 0, 2, 3).reshape(B, T, -1), valid.transpose(1, 0, 2, 3).reshape(B, T, -1))
    cx = x.transpose(1, 2, 3, 0).reshape(B, ny, tile, nx, tile, T).transpose(0, 1, 3, 2, 4, 5).reshape(B, ny, nx, -1)
    cv = valid.transpose(1, 2, 3, 0).reshape(B, ny, tile, nx, tile, T).transpose(0, 1, 3, 2, 4, 5).reshape(B, ny, nx, -1)
    cells = _pieces_of_samples(cx, cv)
    blob = encode_stats((T, B, Y, X), (tile, tile), 1, 1, steps, cells)
    head = np.frombuffer(blob[: _HEAD2.itemsize], _HEAD2)[0]
    assert blob[:4] == b"RST2" and bool(head["flags"] & 8) == (kind in ("uint16", "int16"))
    got = unpack_stats(blob, (T, B, Y, X), (tile, tile))
    for g, w in ((got.steps, steps), (got.cells, cells)):
        np.testing.assert_array_equal(g.n, w.n)
        np.testing.assert_array_equal(g.min, w.min)
        np.testing.assert_array_equal(g.max, w.max)
        if kind == "wide":
            np.testing.assert_array_equal(g.m2, w.m2)
        else:
            np.testing.assert_allclose(g.m2, np.asarray(w.m2, np.float32), rtol=2.0**-16, atol=0)
        if kind in ("float32", "wide"):
            np.testing.assert_array_equal(g.sum, w.sum)
        else:
            spread = np.sqrt(np.asarray(w.n, np.float64) * np.maximum(w.m2, 0))  # n x std
            exact = spread < 2.0**SUM_BITS
            np.testing.assert_array_equal(g.sum[exact], w.sum[exact])
            assert (np.abs(g.sum - w.sum) <= 2.0 ** -(SUM_BITS + 1) * spread * (1 + 1e-5)).all()
    if kind == "uint16":  # a corrupt sum (its top byte plane set): named, not a wrong mean
        m, w = B * T, (int(head["wdef"]), int(head["wsum"]))
        bad = bytearray(blob)
        top = _HEAD2.itemsize + 8 + w[0] * m + (w[1] - 1) * m
        bad[top:top + m] = b"\xff" * m
        with pytest.raises(rumi.FormatError, match="outside its min and max"):
            unpack_stats(bytes(bad), (T, B, Y, X), (tile, tile))
    # no missing sample: the counts take no byte
    full = encode_stats((T, B, Y, X), (tile, tile), 1, 1, steps._replace(n=np.full(steps.n.shape, Y * X)),
                        cells._replace(n=np.full(cells.n.shape, tile * tile * T)))
    assert np.frombuffer(full[: _HEAD2.itemsize], _HEAD2)[0]["wdef"] == 0
    assert np.frombuffer(blob[: _HEAD2.itemsize], _HEAD2)[0]["wdef"] > 0


def test_large_sums_keep_the_mean_and_std():
    """Pieces of 4096 x 4096 uint16 samples whose spread is far below their mean (the sums stored
    to 2**-22 of n x std, here in units of 2**4): the combined mean and std of 40 of them
    against the pieces' own, with a quarter of the tolerance the selection tests allow."""
    from rumi.catalog.stats import Pieces, encode_stats, total, unpack_stats

    rng = np.random.default_rng(9)
    B, T = 1, 40
    n = np.full((B, T), 4096 * 4096, np.int64)
    mean = 60000 + rng.uniform(-0.5, 0.5, (B, T))  # means 60000 +- 0.5, std 5
    std = np.full((B, T), 5.0)
    s = np.round(mean * n)
    m2 = (std**2 * n).astype(np.float32).astype(np.float64)
    steps = Pieces(n, s, m2, np.full((B, T), 59970.0), np.full((B, T), 60030.0))
    cells = total(steps, axis=1)
    cells = Pieces(*(np.asarray(a).reshape(B, 1, 1) for a in cells))
    cells = cells._replace(m2=np.asarray(cells.m2, np.float32).astype(np.float64))
    got = unpack_stats(encode_stats((T, B, 4096, 4096), (4096, 4096), 1, 1, steps, cells), (T, B, 4096, 4096), (4096, 4096))
    assert (got.steps.sum != steps.sum).any()  # stored in units of 2**4
    want, have = total(steps), total(got.steps)
    N = float(want.n)
    assert abs(have.sum / N - want.sum / N) <= 1e-6 * np.sqrt(want.m2 / N) * 0.25
    assert abs(np.sqrt(have.m2 / N) - np.sqrt(want.m2 / N)) <= 1e-4 * np.sqrt(want.m2 / N) * 0.25


def test_a_lon_lat_box_over_utm_files(tmp_path):
    """A box in EPSG:4326 over files in UTM: a pixel counts when its centre, in lon/lat, lies in
    the box (the oracle carries every pixel centre with pyproj); files wholly inside from the
    catalogue, those the box cuts read at its edge."""
    import pyproj

    rng = np.random.default_rng(4)
    files, paths = [], []
    for i in range(3):
        a = rng.integers(0, 1000, (1, 1, 60, 80)).astype(np.uint16)
        a[a < 100] = 0  # nodata
        x0 = 500000.0 + i * 800 * RES
        p = tmp_path / f"u{i}.rumi"
        rumi.write(p, a, bands=["v"], times=TIMES[:1], crs="EPSG:32633", geotransform=(x0, RES * 10, 0.0, Y0, 0.0, -RES * 10), tile=16,
                   nodata=0)
        files.append((a, x0))
        paths.append(str(p))
    cat = rumi.Catalog.build(paths, tmp_path / "c.parquet")
    to_ll = pyproj.Transformer.from_crs("EPSG:32633", "EPSG:4326", always_xy=True)
    # around the middle file, cutting the outer two
    lon0, lat0 = to_ll.transform(500000.0 + 800 * RES, Y0)
    box = (lon0 - 0.05, lat0 - 0.06, lon0 + 0.15, lat0 + 0.01)
    got = cat.search(bbox=box).stats()
    vals = []
    for a, x0 in files:
        xs = x0 + (np.arange(80) + 0.5) * RES * 10
        ys = Y0 - (np.arange(60) + 0.5) * RES * 10
        X, Y = np.meshgrid(xs, ys)
        lon, lat = to_ll.transform(X, Y)
        inb = (lon >= box[0]) & (lon <= box[2]) & (lat >= box[1]) & (lat <= box[3])
        vals.append(a[0, 0][inb & (a[0, 0] != 0)].astype(np.float64))
    x = np.concatenate(vals)
    assert got.read_files >= 1
    check(got, [(x.size, x.mean(), x.std(), x.min(), x.max())])


def test_complex_files_are_named(tmp_path):
    a = (np.arange(2 * 30 * 40).reshape(1, 2, 30, 40) + 1j).astype(np.complex64)
    p = tmp_path / "z.rumi"
    rumi.write(p, a, bands=["a", "b"], times=TIMES[:1], crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=16)
    cat = rumi.Catalog.build([str(p)], tmp_path / "z.parquet")
    assert cat.row(0)["rumi:stats"] is None
    with pytest.raises(rumi.RequestError, match=r"1 of the 1 files have complex samples \(z, complex64\)"):
        cat.stats()


@pytest.mark.parametrize("missing, backend, text", [
    ("torchvision.transforms.v2", "torchvision", r"needs torchvision .*pip install torchvision \(or \.tensors\(\)"),
    ("kornia.augmentation", "kornia", r"needs kornia .*pip install kornia"),
])
def test_normalize_without_its_package_says_what_to_install(tmp_path, monkeypatch, missing, backend, text):
    a = np.arange(2 * 40 * 40, dtype=np.uint16).reshape(1, 2, 40, 40)
    p = tmp_path / "a.rumi"
    rumi.write(p, a, bands=["r", "n"], times=TIMES[:1], crs="EPSG:32633", geotransform=(X0, RES, 0.0, Y0, 0.0, -RES), tile=16)
    st_ = rumi.Catalog.build([str(p)], tmp_path / "c.parquet").stats()
    monkeypatch.setitem(__import__("sys").modules, missing, None)  # importing it raises ImportError
    with pytest.raises(ImportError, match=text):
        st_.normalize(backend)
