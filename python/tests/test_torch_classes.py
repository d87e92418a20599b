"""Class- and cloud-aware sampling from the catalogue's class counts (issue 50 item 2):
min_class / max_class, cloud=Cloud(...), balance=ClassBalance(...). Every drawn chip is checked
against its actual pixels (the GeoTIFF's, read by tifffile; or the numpy array written), the
samplers decide without reading a pixel (patched readers; request counts over HTTP), impossible
limits are errors at construction naming the best bound. Real rasters of the shared data folder
(LANDFIRE fuel classes as labels, the eo-learn cloud masks) are skipped with the reason when
the folder is absent."""

from __future__ import annotations

import pathlib
import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
pytest.importorskip("shapely")

import rumi  # noqa: E402
import rumi.torch as rt  # noqa: E402
from conftest import DATA, tiff_pixels  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rumi.torch.contents import Contents, limits_of  # noqa: E402

GEO = dict(crs="EPSG:32633", geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0))


def _no_pixel_reads(m):
    def refuse(*a, **k):
        raise AssertionError("a sampler read pixels to decide")

    m.setattr(rumi.Dataset, "read_into", refuse)
    m.setattr(rumi.Dataset, "read", refuse)
    m.setattr(rumi, "open", refuse)


# --- LANDFIRE: elevation images, fuel-model classes as labels on the same grid -----------------------


@pytest.fixture()
def landfire(converted, tmp_path):
    elev = converted("lf_elev_220_mt_hood_utm.tif", "--tile", "64")
    fbfm = converted("lf_fbfm40_220_mt_hood_utm.tif", "--tile", "64")
    cat = rumi.Catalog.build([str(elev)], tmp_path / "elev.parquet")
    lcat = rumi.Catalog.build([str(fbfm)], tmp_path / "fuel.parquet")
    return cat, lcat, tiff_pixels(DATA / "lf_fbfm40_220_mt_hood_utm.tif")[0]


def test_landfire_min_and_max_class(landfire, monkeypatch):
    """Fuel class 165 (TU5, 16 % of the map) at least 30 % of every chip, class 99 (barren)
    at most 5 %: every chip of the three samplers meets both on the label GeoTIFF's pixels, and
    without the limits some chips do not (the assertions can fail). (The labels' counts are
    exact: 27 classes x 208 tiles of one step are within a label map's budget; docs/training.md
    draws 40 % and 2 % together, which quantised codes could not bound.)"""
    cat, lcat, fuel = landfire
    ds = rt.ChipDataset(cat, size=96, labels=lcat)
    size = 96

    def frac(k, c, size=size):
        _, r, col = k
        return float((fuel[r:r + size, col:col + size] == c).mean())

    plain = list(rt.RandomChipSampler(ds, length=300, seed=1))
    assert min(frac(k, 165) for k in plain) < 0.3 and max(frac(k, 99) for k in plain) > 0.05
    with monkeypatch.context() as m:
        _no_pixel_reads(m)
        lim = dict(min_class={"labels:band 0": {165: 0.3}}, max_class={"labels:band 0": {99: 0.05}})
        keys = {"random": list(rt.RandomChipSampler(ds, length=300, seed=1, **lim)),
                "grid": list(rt.GridChipSampler(ds, stride=32, **lim)),
                "tile": list(rt.TileChipSampler(rt.ChipDataset(cat, size=64, labels=lcat), shuffle=True, **lim))}
    for name, ks in keys.items():
        n = 64 if name == "tile" else size
        assert len(ks) > 5, name
        assert min(frac(k, 165, n) for k in ks) >= 0.3, name
        assert max(frac(k, 99, n) for k in ks) <= 0.05, name
    assert len(set(keys["random"])) > 100  # still many positions


def test_tile_aligned_chips_are_exact(landfire, tmp_path, monkeypatch):
    """A chip of the tile's size on the tile grid: its bound is its tile's count, exactly when
    the catalogue holds the exact counts (within their budget: a label map of one step), and for
    the quantised counts (here forced by a smaller budget) where a class is absent or fills the
    tile; otherwise the tile sampler keeps a subset of the chips whose pixels meet the limit
    (never one that does not)."""
    from rumi.catalog import classes

    cat, exact, fuel = landfire
    with monkeypatch.context() as m:
        m.setattr(classes, "CODES_BUDGET_ONE_STEP", 1280)
        lcat = rumi.Catalog.build([exact.row(0)["location"]], tmp_path / "quantised.parquet")
    assert lcat.row(0)["rumi:classes"][0]["counts"][0] == 4 and exact.row(0)["rumi:classes"][0]["counts"][0] == 2
    tiles = list(rt.TileChipSampler(rt.ChipDataset(cat, size=64, labels=lcat)))
    for lim, test, same in (
            ({"min_class": {"labels:band 0": {(161, 162, 165): 0.5}}}, lambda a: np.isin(a, (161, 162, 165)).mean() >= 0.5, False),
            ({"max_class": {"labels:band 0": {185: 0.25}}}, lambda a: (a == 185).mean() <= 0.25, False),
            ({"max_class": {"labels:band 0": {185: 0.0}}}, lambda a: (a == 185).mean() == 0, True),
            ({"max_class": {"labels:band 0": {99: 0.0}}}, lambda a: (a == 99).mean() == 0, True)):
        want = {k for k in tiles if test(fuel[k[1]:k[1] + 64, k[2]:k[2] + 64])}
        assert 0 < len(want) < len(tiles)
        assert set(rt.TileChipSampler(rt.ChipDataset(cat, size=64, labels=exact), **lim)) == want
        got = set(rt.TileChipSampler(rt.ChipDataset(cat, size=64, labels=lcat), **lim))
        assert got == want if same else (got <= want and len(got) > 0.5 * len(want)), (len(got), len(want))


def test_balance_moves_the_class_shares_to_the_target(landfire):
    """balance=ClassBalance: the drawn chips' pixel shares (counted on the GeoTIFF) are closer
    to the target than the plain sampler's, for a target that favours rare classes."""
    cat, lcat, fuel = landfire
    ds = rt.ChipDataset(cat, size=64, labels=lcat)
    target = {165: 0.25, 185: 0.25, 122: 0.25, 102: 0.25}  # 16 %, 39 %, 2.7 %, 1.2 % of the map

    def shares(keys):
        px = np.stack([fuel[r:r + 64, c:c + 64] for _, r, c in keys])
        n = {c: float((px == c).sum()) for c in target}
        tot = sum(n.values())
        return np.array([n[c] / tot for c in target])

    want = np.array(list(target.values()))
    plain = shares(list(rt.RandomChipSampler(ds, length=600, seed=0)))
    s = rt.RandomChipSampler(ds, length=600, seed=0, balance=rt.ClassBalance("labels:band 0", target))
    bal = shares(list(s))
    assert np.abs(bal - want).sum() < 0.5 * np.abs(plain - want).sum(), (plain, bal)
    assert bal[3] > 3 * plain[3]  # the rarest one
    _, _, classes, tgt, expected = s.balanced(np.arange(ds.index.num_files))
    assert set(target) <= set(classes.tolist())


def test_balance_jitter_checks_candidates_only_under_limits(landfire, monkeypatch):
    """balance=: each drawn lattice chip moves within a quarter chip. Without constraints (the
    fuel map's own band, no labels) no candidate is checked (each key one draw; before, 15 per
    key were drawn and bounded by chip_ok); with labels and min_class every key meets the limit
    on its pixels and lies within a quarter chip of a weighted candidate."""
    cat, lcat, fuel = landfire
    target = {165: 0.25, 185: 0.25, 122: 0.25, 102: 0.25}
    from rumi.torch import constraints

    with monkeypatch.context() as m:
        def refuse(*a, **k):
            raise AssertionError("chip_ok called without constraints")

        m.setattr(constraints, "chip_ok", refuse)
        keys = list(rt.RandomChipSampler(rt.ChipDataset(lcat, size=64), length=300, seed=3,
                                         balance=rt.ClassBalance("band 0", target)))
    assert len(set(keys)) > 250  # moved off the lattice
    ds = rt.ChipDataset(cat, size=64, labels=lcat)
    bal = rt.ClassBalance("labels:band 0", target)
    s = rt.RandomChipSampler(ds, length=300, seed=3, balance=bal, min_class={"labels:band 0": {165: 0.3}})
    keys = np.array(list(s))
    assert all((fuel[r:r + 64, c:c + 64] == 165).mean() >= 0.3 for _, r, c in keys)
    cands = s.balanced(np.arange(ds.index.num_files))[0]
    near = (np.abs(keys[:, None, 1] - cands[None, :, 1]) <= 16) & (np.abs(keys[:, None, 2] - cands[None, :, 2]) <= 16)
    assert near.any(1).all()
    assert len(set(map(tuple, keys))) > 200


def test_balance_estimate_of_some_classes(landfire):
    """Contents.estimate(classes=): the columns of those classes of the estimate of every class
    (balance= estimates its target's classes alone); a target the band lacks is an error naming
    the classes it has."""
    cat, lcat, _ = landfire
    ds = rt.ChipDataset(cat, size=64, labels=lcat)
    c = Contents(ds.index, [], rt.ClassBalance("labels:band 0"))
    r0, c0 = np.array([0, 100, 300, 700]), np.array([0, 64, 250, 600])
    vals, e = c.estimate(0, "labels:band 0", r0, c0)
    some, es = c.estimate(0, "labels:band 0", r0, c0, classes=[102, 165, 99999])
    assert some.tolist() == [102, 165]
    np.testing.assert_array_equal(es, e[:, np.searchsorted(vals, some)])
    with pytest.raises(ValueError, match=r"none of the target classes \[99999\] occurs in band 'labels:band 0' of these "
                                         r"files \(it has \[.*165.*\]\)"):
        list(rt.RandomChipSampler(ds, length=5, balance=rt.ClassBalance("labels:band 0", {99999: 1.0})))


def test_impossible_limits_name_the_best_bound(landfire, tmp_path, monkeypatch):
    cat, lcat, fuel = landfire
    ds = rt.ChipDataset(cat, size=96, labels=lcat)
    with pytest.raises(rumi.RequestError, match=r"min_class: labels:band 0 class 102 >= 0.95: the best lower bound 0\.\d+ "
                                                 r"\(file lf_elev_220_mt_hood_utm_tile_64 at row \d+, col \d+\); ") as e:
        rt.RandomChipSampler(ds, length=10, min_class={"labels:band 0": {102: 0.95}})
    assert "exact_classes" not in str(e.value)  # the counts are exact
    # from quantised counts the error says how to get exact ones
    from rumi.catalog import classes

    with monkeypatch.context() as m:
        m.setattr(classes, "CODES_BUDGET_ONE_STEP", 1280)
        qcat = rumi.Catalog.build([lcat.row(0)["location"]], tmp_path / "quantised.parquet")
    with pytest.raises(rumi.RequestError, match=r"the best lower bound 0\.\d+ \(file \S+ at row \d+, col \d+\) from quantised "
                                                 r"counts of 'labels:band 0' \(a catalogue built with exact_classes=True"):
        rt.RandomChipSampler(rt.ChipDataset(cat, size=96, labels=qcat), length=10, min_class={"labels:band 0": {102: 0.95}})
    for cls in (rt.GridChipSampler, rt.TileChipSampler):
        with pytest.raises(rumi.RequestError, match=r"min_class: labels:band 0 class 102 >= 0.95: the best lower bound"):
            cls(ds, min_class={"labels:band 0": {102: 0.95}})
    with pytest.raises(rumi.RequestError, match=r"no image or label file has a band 'SCL'"):
        rt.RandomChipSampler(ds, length=10, max_class={"SCL": {8: 0.1}})
    with pytest.raises(ValueError, match=r"max_class: the fraction of labels:band 0 99 must be in \[0, 1\]"):
        rt.RandomChipSampler(ds, length=10, max_class={"labels:band 0": {99: 2}})
    with pytest.raises(TypeError, match=r"cloud must be a rumi.torch.Cloud"):
        rt.RandomChipSampler(ds, length=10, cloud=("labels:band 0", 0.1))
    # elevation is not categorical (int16 with many values): its counts were not recorded
    with pytest.raises(rumi.RequestError, match=r"band 'band 0' of lf_elev\S* has no class counts .* classes=\['band 0'\]"):
        rt.RandomChipSampler(ds, length=10, min_class={"images:band 0": {1000: 0.1}})
    with pytest.raises(rumi.RequestError, match=r"'band 0' is a band of the images and of the labels: say which, "
                                                 r"'labels:band 0' or 'images:band 0'"):
        rt.RandomChipSampler(ds, length=10, min_class={"band 0": {165: 0.1}})


def test_no_pixel_read_over_http(converted, tmp_path, nginx):
    """Request counts at the server while sampling with class limits and balance: none."""
    for name in ("lf_elev_220_mt_hood_utm.tif", "lf_fbfm40_220_mt_hood_utm.tif"):
        src = converted(name, "--tile", "64")
        for suffix in ("", ".aux.xml"):
            shutil.copy(f"{src}{suffix}", nginx.root / f"h4_{src.name}{suffix}")
    cat = rumi.Catalog.build([nginx.url("h4_lf_elev_220_mt_hood_utm_tile_64.rumi")], tmp_path / "e.parquet")
    lcat = rumi.Catalog.build([nginx.url("h4_lf_fbfm40_220_mt_hood_utm_tile_64.rumi")], tmp_path / "f.parquet")
    since = nginx.mark()
    ds = rt.ChipDataset(cat, size=64, labels=lcat)
    keys = list(rt.RandomChipSampler(ds, length=100, seed=2, min_class={"labels:band 0": {165: 0.3}}))
    keys += list(rt.GridChipSampler(ds, max_class={"labels:band 0": {99: 0.01}}))
    keys += list(rt.RandomChipSampler(ds, length=100, seed=2, balance=rt.ClassBalance("labels:band 0")))
    assert nginx.requests(since) == []
    ds.__getitems__(keys[:4])
    assert len(nginx.requests(since)) > 0  # reading the chips does request


# --- clouds: the eo-learn NDVI Cube and its 68-date cloud masks --------------------------------------


@pytest.fixture()
def ndvi_clouds(converted, tmp_path):
    """The eo-learn NDVI stack and its cloud masks as 67-step Cubes (one 2015-12-08 dropped: it
    appears twice), 16 x 16 tiles; catalogues of each."""
    ndvi = rumi.open(converted("eolearn_s2_ndvi_68t_float32.tif"))
    clm = rumi.open(converted("eolearn_s2_clm_68t_uint8.tif"))
    times = np.array(ndvi.bands, dtype="datetime64[s]")
    keep = np.concatenate([[True], np.diff(times) > np.timedelta64(0, "s")])
    times = [str(t) for t in times[keep]]
    geo = dict(crs=ndvi.crs, geotransform=ndvi.geotransform, tile=16)
    rumi.write(tmp_path / "ndvi.rumi", ndvi.read()[0][keep][:, None], bands=["ndvi"], times=times, **geo)
    m = clm.read()[0][keep][:, None]
    rumi.write(tmp_path / "clm.rumi", m, bands=["clouds"], times=times, **geo)
    cat = rumi.Catalog.build([str(tmp_path / "ndvi.rumi")], tmp_path / "ndvi.parquet")
    lcat = rumi.Catalog.build([str(tmp_path / "clm.rumi")], tmp_path / "clm.parquet")
    return cat, lcat, m[:, 0], np.array(times, dtype="datetime64[s]")


def test_cloud_limit_per_step_and_clear_steps(ndvi_clouds, monkeypatch):
    """cloud=Cloud("clouds", max=0.05): every step of every chip at most 5 % cloudy (the
    masks' pixels) in a window of steps; min_clear_steps=37 over all 67 steps: at least 37 such
    steps in every chip. Decided without reading a pixel."""
    cat, lcat, m, times = ndvi_clouds
    size = 32

    def cloudy(k, steps):
        _, r, c = k
        return m[steps, r:r + size, c:c + size].mean(axis=(1, 2))

    ds = rt.ChipDataset(cat, size=size, labels=lcat, time=("2016-05-01", "2016-06-10"))
    steps = np.flatnonzero((times >= np.datetime64("2016-05-01")) & (times < np.datetime64("2016-06-11")))
    plain = list(rt.RandomChipSampler(ds, length=200, seed=0))
    assert max(cloudy(k, steps).max() for k in plain) > 0.05
    with monkeypatch.context() as mp:
        _no_pixel_reads(mp)
        keys = list(rt.RandomChipSampler(ds, length=200, seed=0, cloud=rt.Cloud("clouds", max=0.05)))
        grid = list(rt.GridChipSampler(ds, stride=8, cloud=rt.Cloud("clouds", max=0.05)))
    assert keys and grid
    assert max(cloudy(k, steps).max() for k in keys + grid) <= 0.05
    # a minimum number of clear steps over the whole series
    ds = rt.ChipDataset(cat, size=size, labels=lcat)
    allsteps = np.arange(len(times))
    clear = lambda k: int((cloudy(k, allsteps) <= 0.05).sum())  # noqa: E731
    assert min(clear(k) for k in rt.RandomChipSampler(ds, length=200, seed=1)) < 37
    keys = list(rt.RandomChipSampler(ds, length=200, seed=1, cloud=rt.Cloud("clouds", max=0.05, min_clear_steps=37)))
    assert min(clear(k) for k in keys) >= 37
    # the whole series clear everywhere: impossible, and the error names the best count
    with pytest.raises(rumi.RequestError, match=r"cloud: clouds every class but 0 <= 0.05 in every step: the best "
                                                 r"clear steps \d+ \(file ndvi at row \d+, col \d+\)"):
        rt.RandomChipSampler(ds, length=10, cloud=rt.Cloud("clouds", max=0.05))


# --- the bounds against the pixels, on random files ----------------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), tile=st.sampled_from([8, 16, 24]), size=st.integers(4, 40),
       K=st.integers(1, 6), T=st.integers(1, 3), nodata=st.booleans(), table=st.sampled_from([None, 0, 1, 2]))
def test_bounds_hold_the_pixels(tmp_path, seed, tile, size, K, T, nodata, table):
    """For random class maps (blobs of classes, nodata 255 or none) and random chips: lower
    bound <= the chip's class count <= upper bound for every class, step and chip, from the
    exact counts (table None: these small files are within the budget) and from each table of
    the quantised ones (codec 4); equal for chips of whole tiles with the exact counts, and
    with the codes where the class is absent from the chip or fills it."""
    from rumi.catalog import classes

    rng = np.random.default_rng(seed)
    Y, X = int(rng.integers(size, 90)), int(rng.integers(size, 90))
    coarse = rng.integers(0, K, (T, 1, Y // 7 + 1, X // 7 + 1)).astype(np.uint8)
    a = np.repeat(np.repeat(coarse, 7, 2), 7, 3)[:, :, :Y, :X].copy()
    a[rng.random(a.shape) < 0.1] = rng.integers(0, K)  # speckle
    if nodata:
        a[rng.random(a.shape) < 0.05] = 255
    import tempfile

    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    times = [f"2020-01-{k + 1:02d}" for k in range(T)]
    rumi.write(d / "x.rumi", a, bands=["c"], times=times, tile=tile, nodata=255 if nodata else None, **GEO)
    with pytest.MonkeyPatch.context() as m:
        if table is not None:
            enc = classes.encode_counts
            m.setattr(classes, "encode_counts", lambda c, a, **kw: enc(c, a, table=table))
        cat = rumi.Catalog.build([str(d / "x.rumi")], d / "x.parquet")
    assert all(e["counts"][0] == (2 if table is None else 4) for e in cat.row(0)["rumi:classes"])
    ds = rt.ChipDataset(cat, size=size)
    cont = Contents(ds.index, limits_of({"c": {0: 0.0}}, None, None))
    r0 = rng.integers(0, Y - size + 1, 50)
    c0 = rng.integers(0, X - size + 1, 50)
    for cls in range(K):
        lo, hi = cont.bounds(0, "c", (cls,), r0, c0)
        for i, (r, c) in enumerate(zip(r0, c0)):
            n = (a[:, 0, r:r + size, c:c + size] == cls).sum(axis=(1, 2))
            assert (lo[i] <= n).all() and (n <= hi[i]).all(), (cls, r, c, lo[i], n, hi[i])
            whole = r % tile == 0 and c % tile == 0 and ((r + size) % tile == 0 or r + size == Y) and \
                ((c + size) % tile == 0 or c + size == X)
            if whole:
                pinned = np.ones(T, bool) if table is None else (n == 0) | (n == size * size)
                np.testing.assert_array_equal(lo[i][pinned], n[pinned])
                np.testing.assert_array_equal(hi[i][pinned], n[pinned])


def test_catalogue_without_class_counts_is_refused_naming_the_rebuild(tmp_path):
    """A catalogue written before rumi:classes: a class limit is an error saying to build it
    again, never a guess; without limits it samples as before."""
    import pyarrow.parquet as pq

    a = np.zeros((1, 1, 64, 64), np.uint8)
    a[0, 0, :32] = 1
    rumi.write(tmp_path / "m.rumi", a, bands=["mask"], times=["2020-01-01"], tile=32, **GEO)
    cat = rumi.Catalog.build([str(tmp_path / "m.rumi")], tmp_path / "c.parquet")
    pq.write_table(pq.read_table(tmp_path / "c.parquet").drop(["rumi:classes"]), tmp_path / "old.parquet")
    ds = rt.ChipDataset(rumi.Catalog.open(tmp_path / "old.parquet"), size=32)
    with pytest.raises(rumi.RequestError, match=r"needs the catalogue's class counts \(rumi:classes\), which the catalogue "
                                                 r"of m did not record \(built before them\): build it again"):
        rt.RandomChipSampler(ds, length=4, min_class={"mask": {1: 0.5}})
    assert len(list(rt.RandomChipSampler(ds, length=4))) == 4
    # the new catalogue: exactly the top half's chips
    ds = rt.ChipDataset(cat, size=32)
    assert set(rt.TileChipSampler(ds, min_class={"mask": {1: 0.5}})) == {(0, 0, 0), (0, 0, 32)}
    assert set(rt.TileChipSampler(ds, max_class={"mask": {1: 0.0}})) == {(0, 32, 0), (0, 32, 32)}


def test_searched_partitioned_catalogues_fetch_the_counts(tmp_path):
    """A search of a partitioned catalogue leaves rumi:classes unread (null in its rows); the
    samplers read it for the selection's rows, as images and as labels=: the same chips as from
    the single-file catalogue of the same files."""
    rng = np.random.default_rng(4)
    paths = []
    for k in range(4):
        a = np.repeat(np.repeat(rng.integers(0, 3, (1, 1, 4, 4)), 16, 2), 16, 3).astype(np.uint8)
        p = tmp_path / f"m{k}.rumi"
        rumi.write(p, a, bands=["mask"], times=["2020-01-01"], tile=16, crs="EPSG:32633",
                   geotransform=(500000.0 + 1000 * k, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        paths.append(p)
    one = rumi.Catalog.build([str(p) for p in paths], tmp_path / "one.parquet")
    rumi.catalog.write_parts(one.table, str(tmp_path / "cat") + "/", rows_per_group=1)
    cat = rumi.Catalog.open(str(tmp_path / "cat") + "/")
    s = cat.search(time=("2020-01-01", "2020-01-01"))
    assert s.row(0)["rumi:classes"] is None
    lim = {"min_class": {"mask": {2: 0.75}}}
    want = {(one.row(j)["id"], r, c) for j, r, c in rt.TileChipSampler(rt.ChipDataset(one, size=32), **lim)}
    assert want
    ds = rt.ChipDataset(s, size=32)
    assert {(ds.index.ids[j], r, c) for j, r, c in rt.TileChipSampler(ds, **lim)} == want
    lab = {"min_class": {"labels:mask": {2: 0.75}}}
    ds = rt.ChipDataset(one, size=32, labels=cat.search(time=("2020-01-01", "2020-01-01")))
    assert {(ds.index.ids[j], r, c) for j, r, c in rt.TileChipSampler(ds, **lab)} == want


def test_scl_band_of_the_images_per_step(tmp_path, monkeypatch):
    """A scene classification band inside the image Cube (classes 4, 5 clear, 8, 9 cloud, 0
    nodata): cloud=Cloud("scl", classes=(8, 9), max=0.1) keeps only chips whose every step read
    is at most 10 % cloud on the written pixels, min_clear_steps=2 those with two such steps;
    the band constrains chips of the other band (bands=["red"])."""
    rng = np.random.default_rng(5)
    T, Y, X = 4, 96, 128
    scl = np.repeat(np.repeat(rng.choice([4, 5, 8, 9], (T, 6, 8), p=[0.5, 0.4, 0.06, 0.04]), 16, 1), 16, 2).astype(np.uint16)
    scl[:, :8, :] = 0
    red = rng.integers(1, 5000, (T, Y, X)).astype(np.uint16)
    rumi.write(tmp_path / "s.rumi", np.stack([red, scl], 1), bands=["red", "scl"], tile=16, nodata=[None, 0],
               times=[f"2021-0{k + 1}-01" for k in range(T)], **GEO)
    cat = rumi.Catalog.build([str(tmp_path / "s.rumi")], tmp_path / "s.parquet")
    ds = rt.ChipDataset(cat, size=32, bands=["red"])

    def cloud(k):
        _, r, c = k
        return np.isin(scl[:, r:r + 32, c:c + 32], (8, 9)).mean(axis=(1, 2))

    assert max(cloud(k).max() for k in rt.RandomChipSampler(ds, length=200, seed=0)) > 0.1
    with monkeypatch.context() as m:
        _no_pixel_reads(m)
        every = list(rt.RandomChipSampler(ds, length=200, seed=0, cloud=rt.Cloud("scl", max=0.1, classes=(8, 9))))
        two = list(rt.GridChipSampler(ds, stride=4, cloud=rt.Cloud("scl", max=0.1, classes=(8, 9), min_clear_steps=2)))
        tiles = set(rt.TileChipSampler(ds, cloud=rt.Cloud("scl", max=0.1, classes=(8, 9), min_clear_steps=2)))
    assert every and two
    assert max(cloud(k).max() for k in every) <= 0.1
    assert min(int((cloud(k) <= 0.1).sum()) for k in two) >= 2
    # tile-aligned chips of whole tiles: exactly those whose pixels meet it
    assert tiles == {k for k in rt.TileChipSampler(ds) if int((cloud(k) <= 0.1).sum()) >= 2}
    # a max_steps window reads the newest 2 steps: the limit is decided on those
    ds2 = rt.ChipDataset(cat, size=32, bands=["red"], max_steps=2)
    keys = list(rt.RandomChipSampler(ds2, length=100, seed=0, cloud=rt.Cloud("scl", max=0.1, classes=(8, 9))))
    assert max(cloud(k)[2:].max() for k in keys) <= 0.1
    with pytest.raises(rumi.RequestError, match=r"time_steps='random' draws them per chip"):
        rt.RandomChipSampler(rt.ChipDataset(cat, size=32, max_steps=2, time_steps="random"), length=4,
                             cloud=rt.Cloud("scl", max=0.1, classes=(8, 9)))


def test_balance_weights_meet_a_target_they_can():
    """balance_weights: the expected shares equal a target the chips can give (chips of one
    class each, in unequal numbers), with every chip of a class equally likely; a target they
    cannot give (a class only beside another) is approached keeping `spread` chips in play."""
    from rumi.torch.contents import balance_weights

    M = np.zeros((100, 3))
    M[:70, 0] = 1.0
    M[70:95, 1] = 1.0
    M[95:, 2] = 1.0
    p, got = balance_weights(M, np.array([0.5, 0.3, 0.2]), 64)
    np.testing.assert_allclose(got, [0.5, 0.3, 0.2], atol=1e-6)
    np.testing.assert_allclose(p[95:], 0.2 / 5, rtol=1e-6)
    mixed = np.column_stack([np.full(100, 0.9), np.full(100, 0.1)])  # class 1 only beside class 0
    mixed[:10] = [0.5, 0.5]
    p, got = balance_weights(mixed, np.array([0.5, 0.5]), 40)
    assert 0.1 < got[1] < 0.5 and 1.0 / np.sum(p * p) >= 25  # moved toward the target, min(40, 100 / 4) chips


def test_partitioned_catalogue_and_append(tmp_path):
    """A partitioned catalogue (row groups read as shards, a deferred search) gives the samplers
    the same class counts; Catalog.append records them for the files it adds (classes= as
    build's)."""
    rng = np.random.default_rng(1)
    paths = []
    for k in range(4):
        a = np.repeat(np.repeat(rng.integers(0, 3, (1, 1, 4, 4)), 16, 2), 16, 3).astype(np.uint8)
        p = tmp_path / f"m{k}.rumi"
        rumi.write(p, a, bands=["mask"], times=["2020-01-01"], tile=16, crs="EPSG:32633",
                   geotransform=(500000.0 + 1000 * k, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        paths.append(p)
    one = rumi.Catalog.build([str(p) for p in paths], tmp_path / "one.parquet")
    rumi.catalog.write_parts(one.table, str(tmp_path / "cat") + "/", rows_per_group=1)
    cat = rumi.Catalog.open(str(tmp_path / "cat") + "/")
    lim = {"min_class": {"mask": {2: 0.75}}}
    want = set(rt.TileChipSampler(rt.ChipDataset(one, size=32), **lim))
    for c in (cat, cat.search(time=("2020-01-01", "2020-01-01"), defer=True)):
        ds = rt.ChipDataset(c, size=32)
        got = set(rt.TileChipSampler(ds, **lim))
        assert {(ds.index.ids[j], r, col) for j, r, col in got} == {(one.row(j)["id"], r, col) for j, r, col in want}
    assert want
    # append: the added part's rows hold their counts (none with classes=False)
    extra = tmp_path / "m9.rumi"
    rumi.write(extra, np.ones((1, 1, 64, 64), np.uint8), bands=["mask"], times=["2020-01-01"], tile=16, **GEO)
    cat = cat.append([str(extra)], classes=False)
    assert [r["rumi:classes"] == [] for r in (cat.row(i) for i in range(len(cat)))].count(True) == 1


# --- the per-file offset maps (RandomChipSampler's pools) against chip_ok on every offset ----------------


def _blobs(rng, shape, K, cell=6):
    """A class map of blobs of `cell` pixels (classes 0 .. K-1), shape (T, 1, Y, X), uint8."""
    T, _, Y, X = shape
    coarse = rng.integers(0, K, (T, 1, Y // cell + 1, X // cell + 1)).astype(np.uint8)
    return np.repeat(np.repeat(coarse, cell, 2), cell, 3)[:, :, :Y, :X].copy()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), tile=st.sampled_from([8, 16, 24]), ltile=st.sampled_from([8, 16]),
       size=st.integers(4, 28), T=st.integers(1, 3), labels=st.sampled_from([0, 1, 2]), step=st.sampled_from([1, 1, 2, 3]))
def test_offset_map_is_chip_ok_on_every_offset(tmp_path, seed, tile, ltile, size, T, labels, step):
    """constraints.offset_map (decided in blocks of offsets) holds exactly the offsets on the
    step whose chips chip_ok admits, each bound taken per offset (tile_bounds, valid_bound,
    label coverage), for random class maps, limits (min / max class, clouds per step,
    min_valid), tiles, chip sizes and one or two label files that cover parts of the image (a
    chip's counts: the first that covers it); and every chip RandomChipSampler draws is one of
    them and (one label file) meets the limits on its pixels."""
    import tempfile

    from rumi.torch import constraints

    rng = np.random.default_rng(seed)
    Y, X = int(rng.integers(size, 64)), int(rng.integers(size, 64))
    a = _blobs(rng, (T, 1, Y, X), 4)
    a[(rng.random(a.shape) < 0.3) & (a == 3)] = 255  # nodata in some blobs
    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    times = [f"2020-01-{k + 1:02d}" for k in range(T)]
    rumi.write(d / "x.rumi", a, bands=["c"], times=times, tile=tile, nodata=255, **GEO)
    cat = rumi.Catalog.build([str(d / "x.rumi")], d / "x.parquet")
    band, px, off = "c", a, (0, 0)
    if labels:  # label files on the image grid over parts of it (chips outside them are skipped)
        paths = []
        for i in range(labels):
            lr, lc = int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1))
            Yl, Xl = int(rng.integers(size, Y - lr + 1)), int(rng.integers(size, X - lc + 1))
            lab = _blobs(rng, (T, 1, Yl, Xl), 3, cell=5)
            x0, dx, _, y0, _, dy = GEO["geotransform"]
            rumi.write(d / f"l{i}.rumi", lab, bands=["lab"], times=times, tile=ltile, crs=GEO["crs"],
                       geotransform=(x0 + lc * dx, dx, 0.0, y0 + lr * dy, 0.0, dy))
            paths.append(str(d / f"l{i}.rumi"))
        ds = rt.ChipDataset(cat, size=size, labels=rumi.Catalog.build(paths, d / "l.parquet"))
        band, px, off = "lab", lab, (lr, lc)
    else:
        ds = rt.ChipDataset(cat, size=size)
    k1, k2 = (int(v) for v in rng.integers(0, 3, 2))
    lim = {"min_class": {band: {k1: round(float(rng.random()) * 0.5, 2)}} if rng.random() < 0.7 else None,
           "max_class": {band: {k2: round(0.3 + float(rng.random()) * 0.7, 2)}} if rng.random() < 0.5 else None,
           "cloud": rt.Cloud(band, max=round(float(rng.random()), 2), classes=(2,),
                             min_clear_steps=None if rng.random() < 0.5 else int(rng.integers(1, T + 1)))
           if rng.random() < 0.4 else None}
    mv = round(float(rng.random()) * 0.9, 2) if rng.random() < 0.4 else None
    cont = Contents(ds.index, limits_of(lim["min_class"], lim["max_class"], lim["cloud"]))
    m = constraints.offset_map(ds.index, 0, (step, step), mv, cont)
    R, C = (v.ravel() for v in np.meshgrid(np.arange(0, Y - size + 1, step), np.arange(0, X - size + 1, step),
                                           indexing="ij"))
    ok = constraints.chip_ok(ds.index, 0, R, C, mv, cont)
    want = set(zip(R[ok].tolist(), C[ok].tolist()))
    r, c, sure = m.at(np.arange(m.total))
    got = list(zip(r.tolist(), c.tolist()))
    assert sure.all() and len(got) == len(set(got)) and set(got) == want, (len(got), len(want))
    assert m.certain == len(want)

    def meets(k):
        _, r0, c0 = k
        v = a[:, 0, r0:r0 + size, c0:c0 + size]
        p = px[:, 0, r0 - off[0]:r0 - off[0] + size, c0 - off[1]:c0 - off[1] + size]
        out = mv is None or (v != 255).mean() >= mv
        if lim["min_class"]:
            out &= (p == k1).mean() >= lim["min_class"][band][k1]
        if lim["max_class"]:
            out &= (p == k2).mean() <= lim["max_class"][band][k2]
        if lim["cloud"]:
            clear = int(((p == 2).reshape(T, -1).mean(1) <= lim["cloud"].max).sum())
            out &= clear >= (T if lim["cloud"].min_clear_steps is None else lim["cloud"].min_clear_steps)
        return bool(out)

    try:
        keys = list(rt.RandomChipSampler(ds, length=60, seed=seed % 1000, align=step, min_valid=mv, **lim))
    except rumi.RequestError as e:  # no lattice chip meets them (the constructor's check)
        assert "meets" in str(e) or "valid fraction" in str(e) or "inside a label file" in str(e)
        return
    assert want or keys  # a file with chips on the step draws them
    for k in keys:
        assert (k[1], k[2]) in want or not want, k
        assert labels == 2 or meets(k), k


def test_random_chips_are_uniform_over_the_offsets_that_meet_the_limits(tmp_path):
    """A limit that 0.5 % of the offsets meet: RandomChipSampler draws each of them about as
    often (within 5 standard deviations of 20,000 / their number), and no other (before the
    pools, keys that 64 random offsets missed went to the lattice's and near them)."""
    from rumi.torch import constraints

    a = np.zeros((1, 1, 120, 120), np.uint8)
    a[0, 0, 30:56, 40:70] = 1
    rumi.write(tmp_path / "u.rumi", a, bands=["c"], times=["2020-01-01"], tile=10, **GEO)
    ds = rt.ChipDataset(rumi.Catalog.build([str(tmp_path / "u.rumi")], tmp_path / "u.parquet"), size=20)
    lim = {"min_class": {"c": {1: 0.9}}}
    R, C = (v.ravel() for v in np.meshgrid(np.arange(101), np.arange(101), indexing="ij"))
    ok = constraints.chip_ok(ds.index, 0, R, C, None, Contents(ds.index, limits_of(lim["min_class"], None, None)))
    want = set(zip(R[ok].tolist(), C[ok].tolist()))
    assert 10 <= len(want) < 0.01 * len(R)
    keys = list(rt.RandomChipSampler(ds, length=20_000, seed=3, **lim))
    n = {}
    for _, r, c in keys:
        n[(r, c)] = n.get((r, c), 0) + 1
    assert set(n) == want
    e = len(keys) / len(want)
    assert all(abs(v - e) < 5 * e ** 0.5 for v in n.values()), sorted(n.values())


def test_limited_random_keys_split_over_ranks_streams_and_resume(tmp_path):
    """With class limits (the pools), the epoch's keys depend only on the seed and epoch: ranks
    1, 2 and 4 split the same sequence, a fresh sampler gives the same keys, another epoch
    others, a resumed one the rest; streams=2 draws each stream from its own files; every key
    meets the limit on its pixels."""
    rng = np.random.default_rng(5)
    files, px = [], {}
    for k in range(4):
        a = _blobs(rng, (1, 1, 70, 90), 3, cell=9)
        rumi.write(tmp_path / f"f{k}.rumi", a, bands=["c"], times=["2020-01-01"], tile=16, **GEO)
        files.append(str(tmp_path / f"f{k}.rumi"))
        px[f"f{k}"] = a[0, 0]
    cat = rumi.Catalog.build(files, tmp_path / "c.parquet")
    ds = rt.ChipDataset(cat, size=20)
    lim = {"min_class": {"c": {1: 0.3}}}
    whole = list(rt.RandomChipSampler(ds, length=40, seed=9, **lim))
    assert whole == list(rt.RandomChipSampler(ds, length=40, seed=9, **lim))
    for w in (2, 4):
        parts = [list(rt.RandomChipSampler(ds, length=40, seed=9, rank=r, world_size=w, **lim)) for r in range(w)]
        assert [parts[i % w][i // w] for i in range(40)] == whole
    s = rt.RandomChipSampler(ds, length=40, seed=9, **lim)
    s.set_epoch(1)
    assert list(s) != whole
    s = rt.RandomChipSampler(ds, length=40, seed=9, **lim)
    it = iter(s)
    first = [next(it) for _ in range(15)]
    again = rt.RandomChipSampler(ds, length=40, seed=9, **lim)
    again.load_state_dict(s.state_dict())
    assert first + list(again) == whole
    streamed = list(rt.RandomChipSampler(ds, length=40, seed=9, streams=2, **lim))
    assert len(streamed) == 40
    ids = ds.index.ids
    for j, r, c in whole + streamed:
        assert (px[ids[j]][r:r + 20, c:c + 20] == 1).mean() >= 0.3


def test_offset_map_past_its_memory_bound_checks_each_drawn_offset(tmp_path, monkeypatch):
    """With MAP_BLOCKS small the map stops refining and leaves blocks undecided (bounded memory,
    huge files); RandomChipSampler then checks each offset drawn in them (chip_ok) and draws
    again: the same keys' property, every one meets the limit, and the draws stay uniform over
    the offsets that meet it (all of them drawn, none far from the mean)."""
    from rumi.torch import constraints

    a = np.zeros((1, 1, 60, 60), np.uint8)
    a[0, 0, 10:40, 15:45] = 1
    rumi.write(tmp_path / "m.rumi", a, bands=["c"], times=["2020-01-01"], tile=8, **GEO)
    ds = rt.ChipDataset(rumi.Catalog.build([str(tmp_path / "m.rumi")], tmp_path / "m.parquet"), size=16)
    lim = {"min_class": {"c": {1: 0.75}}}
    cont = Contents(ds.index, limits_of(lim["min_class"], None, None))
    full = constraints.offset_map(ds.index, 0, (1, 1), None, cont)
    want = set(zip(*(v.tolist() for v in full.at(np.arange(full.total))[:2])))
    monkeypatch.setattr(constraints, "MAP_BLOCKS", 2)
    small = constraints.offset_map(ds.index, 0, (1, 1), None, cont)
    assert small.total > small.certain and len(small.r) < len(full.r)  # undecided blocks left
    keys = list(rt.RandomChipSampler(ds, length=6000, seed=1, **lim))
    n = {}
    for _, r, c in keys:
        assert (a[0, 0, r:r + 16, c:c + 16] == 1).mean() >= 0.75
        n[(r, c)] = n.get((r, c), 0) + 1
    assert set(n) == want
    e = len(keys) / len(want)
    assert all(abs(v - e) < 5 * e ** 0.5 for v in n.values()), sorted(n.values())


def test_offset_map_for_few_keys_leaves_blocks_to_check_and_refines(tmp_path, monkeypatch):
    """offset_map(keys=) stops splitting where checking the few keys drawn in the undecided
    blocks costs less (a large file's first keys): its certain offsets meet the limit, its
    undecided blocks hold the rest of them; refine decides them (to single offsets: the exact
    map's set). RandomChipSampler draws from such a map, refined as keys are drawn: every key
    meets the limit and each offset that does is drawn about as often. (A map this small is
    decided whole with the default MAP_CHECK_CALL: its last blocks cost less than a call that
    checks draws; without that cost it stops early, as a large file's does.)"""
    from rumi.torch import constraints

    rng = np.random.default_rng(4)
    a = _blobs(rng, (1, 1, 150, 150), 3, cell=23)
    rumi.write(tmp_path / "k.rumi", a, bands=["c"], times=["2020-01-01"], tile=16, **GEO)
    ds = rt.ChipDataset(rumi.Catalog.build([str(tmp_path / "k.rumi")], tmp_path / "k.parquet"), size=24)
    lim = {"min_class": {"c": {1: 0.6}}}
    cont = Contents(ds.index, limits_of(lim["min_class"], None, None))
    full = constraints.offset_map(ds.index, 0, (1, 1), None, cont)
    want = set(zip(*(v.tolist() for v in full.at(np.arange(full.total))[:2])))
    whole = constraints.offset_map(ds.index, 0, (1, 1), None, cont, keys=0)
    assert whole.sure.all() and whole.certain == len(want)
    monkeypatch.setattr(constraints, "MAP_CHECK_CALL", 0)
    few = constraints.offset_map(ds.index, 0, (1, 1), None, cont, keys=0)
    assert few.certain and few.total > few.certain and len(few.r) < len(full.r)
    r, c, sure = few.at(np.arange(few.total))
    got = set(zip(r.tolist(), c.tolist()))
    assert set(zip(r[sure].tolist(), c[sure].tolist())) <= want <= got
    more = constraints.refine(few, ds.index, 0, None, cont, 1000)
    assert few.certain < more.certain <= more.total < few.total
    exact = constraints.refine(few, ds.index, 0, None, cont)
    r, c, sure = exact.at(np.arange(exact.total))
    assert sure.all() and len(r) == len(want) and set(zip(r.tolist(), c.tolist())) == want
    s = rt.RandomChipSampler(ds, length=20 * len(want), seed=2, **lim)
    keys = list(s)
    assert len(s.pool(0).r) > len(few.r)  # refined for the keys drawn
    n = {}
    for _, r0, c0 in keys:
        n[(r0, c0)] = n.get((r0, c0), 0) + 1
    assert set(n) == want
    e = len(keys) / len(want)
    assert all(abs(v - e) < 5 * e ** 0.5 for v in n.values()), sorted(n.values())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), labels=st.booleans(), kind=st.sampled_from(["min", "max", "both"]))
def test_chips_ok_of_many_files_is_chip_ok_of_each(tmp_path, seed, labels, kind):
    """constraints.chips_ok (chips of several files in one walk: Contents.ok_many) decides each chip
    as chip_ok on its file decides it: files of several shapes, label files over parts of them (or
    none: skipped chips) and chips partly outside them."""
    import tempfile

    from rumi.torch import constraints

    rng = np.random.default_rng(seed)
    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    imgs, labs = [], []
    for i in range(6):
        Y, X = (40, 48) if i % 2 else (56, 40)
        x0 = 500000.0 + i * 1000
        a = _blobs(rng, (1, 1, Y, X), 3)
        rumi.write(d / f"i{i}.rumi", a, bands=["c"], times=["2020-01-01"], tile=8, crs=GEO["crs"],
                   geotransform=(x0, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        imgs.append(str(d / f"i{i}.rumi"))
        if labels and i != 3:  # file 3 without labels; the others' cover a part of the image
            lr, lc = int(rng.integers(0, 8)), int(rng.integers(0, 8))
            lab = _blobs(rng, (1, 1, Y - lr - int(rng.integers(0, 8)), X - lc), 3, cell=5)
            rumi.write(d / f"l{i}.rumi", lab, bands=["lab"], times=["2020-01-01"], tile=8, crs=GEO["crs"],
                       geotransform=(x0 + lc * 10.0, 10.0, 0.0, 5100000.0 - lr * 10.0, 0.0, -10.0))
            labs.append(str(d / f"l{i}.rumi"))
    cat = rumi.Catalog.build(imgs, d / "i.parquet")
    ds = rt.ChipDataset(cat, size=16, labels=rumi.Catalog.build(labs, d / "l.parquet")) if labels else \
        rt.ChipDataset(cat, size=16)
    band = "lab" if labels else "c"
    mn = {band: {1: 0.3}} if kind != "max" else None
    mx = {band: {0: 0.4}} if kind != "min" else None
    cont = Contents(ds.index, limits_of(mn, mx, None))
    js = rng.integers(0, 6, 3000)
    r0, c0 = rng.integers(-4, 44, 3000), rng.integers(-4, 36, 3000)
    got = constraints.chips_ok(ds.index, js, r0, c0, None, cont)
    want = np.zeros(len(js), bool)
    for j in range(6):
        m = js == j
        want[m] = constraints.chip_ok(ds.index, j, r0[m], c0[m], None, cont)
    assert (got == want).all() and want.any() and not want.all()


def _five_images(d, rng, labels):
    """Five class-map images (classes 0-2, tiles of 8) of two shapes and, beside image i, labels[i] label files
    (blobs of 5 pixels) over parts of it, the k-th 20 k rows further down: the paths of each."""
    imgs, labs = [], []
    for i in range(5):
        Y, X = (40, 48) if i % 2 else (56, 40)
        x0 = 500000.0 + i * 1000
        rumi.write(d / f"i{i}.rumi", _blobs(rng, (1, 1, Y, X), 3), bands=["c"], times=["2020-01-01"], tile=8,
                   crs=GEO["crs"], geotransform=(x0, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        imgs.append(str(d / f"i{i}.rumi"))
        for k in range(labels[i]):
            lr, lc = int(rng.integers(0, 8)) + 20 * k, int(rng.integers(0, 8))
            lab = _blobs(rng, (1, 1, Y - lr - int(rng.integers(0, 8)), X - lc), 3, cell=5)
            rumi.write(d / f"l{i}_{k}.rumi", lab, bands=["lab"], times=["2020-01-01"], tile=8, crs=GEO["crs"],
                       geotransform=(x0 + lc * 10.0, 10.0, 0.0, 5100000.0 - lr * 10.0, 0.0, -10.0))
            labs.append(str(d / f"l{i}_{k}.rumi"))
    return imgs, labs


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), labels=st.booleans(), kind=st.sampled_from(["min", "max", "both", "cloud"]))
def test_blocks_of_many_files_hold_their_chips(tmp_path, seed, labels, kind):
    """Contents.ok_range_many (blocks of chips of several files decided at once from the limits'
    FlatBanks, which RandomChipSampler's rejection draws its candidates within): a block it calls
    sure has every chip meeting the limits (Contents.ok chip by chip), one it rules out has none,
    and a block of one chip is decided as that chip: files of several shapes, label files over
    parts of them (or none), blocks partly outside them."""
    import tempfile

    rng = np.random.default_rng(seed)
    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    imgs, labs = _five_images(d, rng, [1, 1, 1, 0, 1] if labels else [0] * 5)
    cat = rumi.Catalog.build(imgs, d / "i.parquet")
    ds = rt.ChipDataset(cat, size=12, labels=rumi.Catalog.build(labs, d / "l.parquet")) if labels else \
        rt.ChipDataset(cat, size=12)
    band = "lab" if labels else "c"
    mn = {band: {1: 0.3}} if kind in ("min", "both") else None
    mx = {band: {0: 0.4}} if kind in ("max", "both") else None
    cl = rt.Cloud(band, max=0.2, classes=(2,)) if kind == "cloud" else None
    cont = Contents(ds.index, limits_of(mn, mx, cl))
    n = 400
    js = rng.integers(0, 5, n)
    r1, c1 = rng.integers(-4, 40, n), rng.integers(-4, 32, n)
    one = rng.random(n) < 0.5
    r2 = np.where(one, r1, r1 + rng.integers(0, 12, n))
    c2 = np.where(one, c1, c1 + rng.integers(0, 12, n))
    sure, maybe = cont.ok_range_many(js, r1, r2, c1, c2)
    assert not (sure & ~maybe).any()
    for i in range(n):
        R, C = (v.ravel() for v in np.meshgrid(np.arange(r1[i], r2[i] + 1), np.arange(c1[i], c2[i] + 1), indexing="ij"))
        ok = cont.ok(int(js[i]), R, C)
        if sure[i]:
            assert ok.all(), i
        if not maybe[i]:
            assert not ok.any(), i
        if one[i] and (labels is False or int(js[i]) != 3):  # one chip of a file in the banks: its decision
            assert sure[i] == maybe[i] == bool(ok[0]), i


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from([None, "min", "max", "both"]), step=st.sampled_from([1, 1, 3]),
       levels=st.sampled_from([0, 1, 2, 4]), band=st.sampled_from(["lab", "c"]))
def test_the_blocks_rejection_draws_from_hold_every_chip_that_meets_the_constraints(tmp_path, monkeypatch, seed, kind,
                                                                                    step, levels, band):
    """rumi.torch.cells.Cells.decide (the cells RandomChipSampler's rejection draws candidates from, every file's at once): they
    hold every offset on the step whose chip chip_ok admits (brute force over each file's offsets), each offset once,
    and every offset of a block marked sure is one (a candidate drawn there is not checked): label files over parts of
    the images (chips outside them skipped: the blocks lie inside the label rectangle), a file without one, a file
    with two label files (never sure: checked chip by chip), with and without class limits (of the labels or of the
    images), any number of levels."""
    import tempfile

    from rumi.torch import cells, constraints

    monkeypatch.setattr(cells, "MAYBE_LEVELS", levels)
    rng = np.random.default_rng(seed)
    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    imgs, labs = _five_images(d, rng, [1, 1, 1, 0, 2])  # file 3: no label; file 4: two label files
    ds = rt.ChipDataset(rumi.Catalog.build(imgs, d / "i.parquet"), size=12,
                        labels=rumi.Catalog.build(labs, d / "l.parquet"))
    mn = {band: {1: 0.3}} if kind in ("min", "both") else None  # limits on the labels or on the images' band
    mx = {band: {0: 0.4}} if kind in ("max", "both") else None
    s = rt.RandomChipSampler(ds, length=10, align=step if step > 1 else False, min_class=mn, max_class=mx)
    files = np.arange(5)
    st_ = s._steps(files)
    shapes = np.asarray(ds.index.shapes, np.int64)
    P = np.stack([(shapes[:, 2] - 12) // st_[:, 0] + 1, (shapes[:, 3] - 12) // st_[:, 1] + 1], 1)
    count, cell, end, lo, ncx, idx, sure = s._cells_of().decide(files, P, st_)
    fc = np.repeat(files, count)
    r_0, c_0 = lo[fc, 0] + idx // ncx[fc] * cell[fc, 0], lo[fc, 1] + idx % ncx[fc] * cell[fc, 1]
    assert count[3] == 0 and (kind is not None or (count[:3] > 0).all())  # no label: no block
    assert (end <= P).all()
    at = 0
    for j in range(5):
        R, C = (v.ravel() for v in np.meshgrid(np.arange(P[j, 0]), np.arange(P[j, 1]), indexing="ij"))
        ok = constraints.chip_ok(ds.index, j, R * st_[j, 0], C * st_[j, 1], None, s.contents)
        held = np.zeros((P[j, 0], P[j, 1]), np.int64)
        for b in range(at, at + count[j]):  # a cell's offsets past the file's end are not drawn
            rows = np.arange(r_0[b], min(r_0[b] + cell[j, 0], end[j, 0]))
            cols = np.arange(c_0[b], min(c_0[b] + cell[j, 1], end[j, 1]))
            assert len(rows) and len(cols)
            held[np.ix_(rows, cols)] += 1
            if sure[b]:
                assert ok.reshape(held.shape)[np.ix_(rows, cols)].all(), (j, b)
                assert j != 4  # two label files: chip by chip
        at += count[j]
        assert held.max(initial=0) <= 1  # each offset once
        assert not (ok & (held.ravel() == 0)).any(), j  # every offset that meets them is in a block
    assert sure.any() or kind is not None


def test_many_small_files_draw_by_rejection_without_maps(tmp_path, monkeypatch):
    """Many small files drawn few keys each (RandomChipSampler's _rejected: candidates of every
    file checked at once): no file's offset map is made, every key meets the limit on its pixels,
    an epoch's keys depend on the seed and epoch alone (a fresh sampler at epoch 1 gives the keys
    of one that drew epoch 0 first: before, the pools it had built changed them), and the offsets
    of a file are drawn uniformly among those that meet the limit (chi-square over 80 epochs)."""
    from rumi.torch import constraints

    rng = np.random.default_rng(11)
    files, px = [], {}
    for k in range(12):  # class 1 in a band on the left and one at the bottom, of each file's own widths
        a = np.zeros((1, 1, 40, 40), np.uint8)
        a[0, 0, :, :int(rng.integers(8, 24))] = 1
        a[0, 0, int(rng.integers(20, 36)):, :] = 1
        rumi.write(tmp_path / f"s{k}.rumi", a, bands=["c"], times=["2020-01-01"], tile=8, crs=GEO["crs"],
                   geotransform=(500000.0 + k * 1000, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        files.append(str(tmp_path / f"s{k}.rumi"))
        px[f"s{k}"] = a[0, 0]
    ds = rt.ChipDataset(rumi.Catalog.build(files, tmp_path / "s.parquet"), size=16)
    lim = {"min_class": {"c": {1: 0.45}}}
    cont = Contents(ds.index, limits_of(lim["min_class"], None, None))
    R, C = (v.ravel() for v in np.meshgrid(np.arange(25), np.arange(25), indexing="ij"))
    oks = [constraints.chip_ok(ds.index, j, R, C, None, cont) for j in range(12)]
    assert all(0.15 < ok.mean() < 0.9 for ok in oks), [round(ok.mean(), 2) for ok in oks]
    made = []
    real = constraints.offset_map
    monkeypatch.setattr(constraints, "offset_map", lambda *a, **k: made.append(a[1]) or real(*a, **k))
    s = rt.RandomChipSampler(ds, length=240, seed=4, **lim)
    made.clear()  # (the constructor's check of a file)
    first = list(s)
    s.set_epoch(1)
    second = list(s)
    assert made == []
    fresh = rt.RandomChipSampler(ds, length=240, seed=4, **lim)
    fresh.set_epoch(1)
    assert list(fresh) == second != first
    ids = ds.index.ids
    n = np.zeros(625)
    for e in range(80):
        s.set_epoch(e)
        for j, r, c in s:
            assert (px[ids[j]][r:r + 16, c:c + 16] == 1).mean() >= 0.45
            if j == 0:
                n[r * 25 + c] += 1
    ok = oks[0]
    assert n[~ok].sum() == 0 and (n[ok] > 0).mean() > 0.9
    e = n[ok].sum() / ok.sum()
    chi2, dof = float(((n[ok] - e) ** 2 / e).sum()), int(ok.sum()) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof)


def _mixed_files(d, rng):
    """Twelve images (bands x and the class map c, c first or second or absent, one or two steps, one of
    24 classes in tiles of 4: quantised counts) and label files on their grid, shifted (none, one, two
    over an image; static, or with the image's two steps): the catalogues' paths."""
    imgs, labs = [], []
    for i in range(12):
        Y, X, tile, K = [(40, 48, 8, 3), (56, 40, 16, 4), (128, 128, 4, 24)][i % 3]
        T = 2 if i % 4 == 0 else 1
        x0 = 500000.0 + i * 2000
        times = ["2020-01-01", "2020-02-01"][:T]
        c = rng.integers(0, K, (T, 1, Y, X)).astype(np.uint8) if K == 24 else _blobs(rng, (T, 1, Y, X), K, cell=5)
        x = rng.integers(0, 99, (T, 1, Y, X)).astype(np.uint8)
        bands, a = [(["x", "c"], [x, c]), (["c", "x"], [c, x]), (["x"], [x])][[0, 1, 0, 0, 2][i % 5]]
        rumi.write(d / f"i{i}.rumi", np.concatenate(a, 1), bands=bands, times=times, tile=tile, crs=GEO["crs"],
                   geotransform=(x0, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        imgs.append(str(d / f"i{i}.rumi"))
        for k in range([1, 1, 2, 0][i % 4]):
            lr, lc = int(rng.integers(0, 6)) + 16 * k, int(rng.integers(0, 6))
            LT = 2 if T == 2 and i % 8 == 0 else 1
            lab = _blobs(rng, (LT, 1, Y - lr - int(rng.integers(0, 6)), X - lc), 3, cell=5)
            rumi.write(d / f"l{i}_{k}.rumi", lab, bands=["lab"], times=times[:LT], tile=[8, 16][k], crs=GEO["crs"],
                       geotransform=(x0 + lc * 10.0, 10.0, 0.0, 5100000.0 - lr * 10.0, 0.0, -10.0))
            labs.append(str(d / f"l{i}_{k}.rumi"))
    return rumi.Catalog.build(imgs, d / "i.parquet"), rumi.Catalog.build(labs, d / "l.parquet")


@pytest.mark.parametrize("steps", [{}, {"max_steps": 1, "time_steps": "newest"}])
def test_flat_banks_of_many_files_are_each_files_flat_counts(tmp_path, monkeypatch, steps):
    """Contents.flat_many (a limit's class sums of many files at once: where each file's counts lie
    found as columns, their rows decoded at once, the sums of every class and of the limit's in one
    product) holds each file's flat_counts (the file-by-file path: sources, steps, _class_steps),
    and exactly the files whose chips read one step of one source with a rectangle (the others
    left file by file): images' bands (the class map first, second or absent), quantised and exact
    counts, one and two steps (max_steps=1: the newest, of a label file with steps too), label
    files shifted on the image grid (none, one, two over an image), files asked in two calls and
    out of order, every limit's classes (an absent one, several, every class but 0), the limits
    filled in turn as ok_range_many fills them: a band's rows decoded once for all its limits."""
    from rumi.catalog.decode import Rows

    from rumi.catalog import columns as Cn

    cat, lcat = _mixed_files(tmp_path, np.random.default_rng(4))
    codecs = {e["counts"][0] for v in cat.table_with([Cn.CLASSES]).column(Cn.CLASSES).to_pylist() for e in v}
    assert codecs == {2, 4}  # exact and quantised counts
    order = np.random.default_rng(1).permutation(12)
    many, asked = Rows.classes_many, []

    def counted(self, rows):
        asked.append(id(self))
        return many(self, rows)

    monkeypatch.setattr(Rows, "classes_many", counted)
    kinds = set()
    for labels in (False, True):
        ds = rt.ChipDataset(cat, size=12, bands=["x"], labels=lcat if labels else None, **steps)
        bands = ["c", "lab"] if labels else ["c"]
        mn = {b: {1: 0.3} for b in bands}
        mx = {b: {(0, 2, 30): 0.4} for b in bands}
        lims = limits_of(mn, mx, rt.Cloud(bands[-1], max=0.2))
        cont = Contents(ds.index, lims)
        for files in (order[:3], order):
            first = set()
            for lim in lims:
                asked.clear()
                cont.flat_many(files, lim)
                assert len(asked) <= 1 and (not asked or lim.band not in first)  # the band's rows decoded once
                first.add(lim.band)
            assert not cont._decoded  # (none kept past the band's limits)
        for lim in lims:
            bank = cont._banks[(lim.band, lim.classes)]
            for j in range(12):
                fc = cont.flat_counts(j, lim)
                banked = bank.gid[j] >= 0
                assert banked == (fc is not None and ds.index.steps_count(j) == 1), (lim, j)
                kinds.add((lim.band, bool(banked), fc is None))
                if banked:
                    g, p = bank.groups[bank.gid[j]], bank.pos[j]
                    tiles, shape, grid, shift, rect, lo, hi = fc
                    assert (g.tiles, g.shape, g.grid) == (tiles, shape, grid)
                    assert tuple(g.shift[p]) == tuple(shift) and tuple(g.rect[p]) == tuple(rect)
                    np.testing.assert_array_equal(g.lo[p], lo)
                    np.testing.assert_array_equal(g.hi[p], hi)
    assert {(b, True, False) for b in ("c", "lab")} <= kinds and {(b, False, True) for b in ("c", "lab")} <= kinds


def test_flat_banks_name_a_file_whose_counts_exceed_its_tiles(tmp_path, monkeypatch):
    """A row whose class counts hold more samples in a tile than it has (damaged): Contents.flat_many
    refuses it naming the file (the bounds rely on it), as the file-by-file path does."""
    from rumi.catalog.decode import Rows

    cat, lcat = _mixed_files(tmp_path, np.random.default_rng(4))
    ds = rt.ChipDataset(cat, size=12, bands=["x"], labels=lcat)
    many = Rows.classes_many

    def inflated(self, rows):  # the label file of image 5 (label row 5) counts one more sample of a class
        recorded, batches = many(self, rows)
        out = []
        for b in batches:
            lo = b.lo.copy()
            lo[np.asarray(rows)[b.row] == 5, 0, 0, 0, 0] += 1
            out.append(b._replace(lo=lo, hi=lo if b.hi is b.lo else b.hi))
        return recorded, out

    monkeypatch.setattr(Rows, "classes_many", inflated)
    assert ds.index.label.matches[5][0].label == 5 and len(ds.index.label.matches[5]) == 1
    lims = limits_of({"lab": {1: 0.3}}, None, None)
    with pytest.raises(rumi.RequestError, match=r"rumi:classes of i5 counts more samples in a tile than it has: build "
                                                  r"the catalogue again"):
        Contents(ds.index, lims).flat_many(np.arange(12), lims[0])
    monkeypatch.setattr(Rows, "classes_many", many)
    Contents(ds.index, lims).flat_many(np.arange(12), lims[0])


def test_many_files_keys_do_not_depend_on_the_kept_counts_and_blocks(tmp_path, monkeypatch):
    """The class sums (FlatBank) and the cells of offsets (rumi.torch.cells) a sampler keeps across
    epochs are functions of the files and the constraints: with budgets of 0 (made again at every
    call) the keys of every epoch are the same, labels on the images' grid and two limits."""
    from rumi.torch import cells, contents

    rng = np.random.default_rng(21)
    imgs, labs = [], []
    for k in range(10):
        gt = (500000.0 + k * 1000, 10.0, 0.0, 5100000.0, 0.0, -10.0)
        rumi.write(tmp_path / f"i{k}.rumi", rng.integers(0, 99, (1, 1, 48, 48)).astype(np.uint8), bands=["v"],
                   times=["2020-01-01"], tile=8, crs=GEO["crs"], geotransform=gt)
        rumi.write(tmp_path / f"l{k}.rumi", _blobs(rng, (1, 1, 48, 48), 3, cell=6), bands=["lab"], times=["2020-01-01"],
                   tile=8, crs=GEO["crs"], geotransform=gt)
        imgs.append(str(tmp_path / f"i{k}.rumi"))
        labs.append(str(tmp_path / f"l{k}.rumi"))
    ds = rt.ChipDataset(rumi.Catalog.build(imgs, tmp_path / "i.parquet"), size=12,
                        labels=rumi.Catalog.build(labs, tmp_path / "l.parquet"))
    lim = {"min_class": {"lab": {1: 0.3}}, "max_class": {"lab": {2: 0.5}}}

    def epochs():
        s = rt.RandomChipSampler(ds, length=300, seed=5, **lim)
        out = []
        for e in range(3):
            s.set_epoch(e)
            out.append(list(s))
        return out

    kept = epochs()
    monkeypatch.setattr(contents, "FLAT_BYTES", 0)
    monkeypatch.setattr(cells, "MAYBE_KEPT", 0)
    assert epochs() == kept
    assert kept[0] != kept[1]


def test_tile_walk_of_many_chips_is_each_chips_walk():
    """tiling.tile_overlaps of many chips over few distinct offsets (each axis' tiles and samples
    computed once per offset and looked up) gives every chip the tiles and samples of its own
    walk (one chip: computed directly), offsets before, inside and past the raster."""
    from rumi.torch.tiling import tile_overlaps

    rng = np.random.default_rng(8)
    for _ in range(30):
        th, tw = (int(v) for v in rng.integers(3, 20, 2))
        Y, X = (int(v) for v in rng.integers(10, 90, 2))
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        grid = (-(-Y // th), -(-X // tw))
        n = int(rng.integers(100, 600))
        r0, c0 = rng.integers(-h, Y + 5, n), rng.integers(-w, X + 5, n)
        many = list(tile_overlaps((th, tw), (Y, X), grid, r0, c0, h, w))
        for i in rng.choice(n, 25, replace=False):
            one = list(tile_overlaps((th, tw), (Y, X), grid, r0[i:i + 1], c0[i:i + 1], h, w))
            assert len(one) == len(many)
            for (a, b, v), (A, B, V) in zip(one, many):
                assert (a[0], b[0], v[0]) == (A[i], B[i], V[i]) and V.dtype == np.float64
        total = sum(v for _, _, v in many)  # every chip's samples inside the raster, once
        inside = (np.clip(r0 + h, 0, Y) - np.clip(r0, 0, Y)) * (np.clip(c0 + w, 0, X) - np.clip(c0, 0, X))
        assert (total == inside).all()


def test_offset_maps_as_first_made_are_kept_across_epochs(tmp_path, monkeypatch):
    """Files drawn many keys each take them from their offset maps (pools), a file with none that
    meets the limit is drawn again among the others: the maps as first made (for no keys) are kept
    across epochs, so a later epoch makes none again (before: every file's made again each epoch),
    and its keys are still those of a fresh sampler at that epoch (the refinements an epoch made
    are not kept), meet the limit on their pixels and never fall in the file without one."""
    from rumi.torch import constraints

    rng = np.random.default_rng(5)
    files, px = [], {}
    for k in range(3):
        a = _blobs(rng, (1, 1, 64, 64), 3, cell=6) if k < 2 else np.zeros((1, 1, 64, 64), np.uint8)
        rumi.write(tmp_path / f"p{k}.rumi", a, bands=["c"], times=["2020-01-01"], tile=8, crs=GEO["crs"],
                   geotransform=(500000.0 + k * 1000, 10.0, 0.0, 5100000.0, 0.0, -10.0))
        files.append(str(tmp_path / f"p{k}.rumi"))
        px[f"p{k}"] = a[0, 0]
    ds = rt.ChipDataset(rumi.Catalog.build(files, tmp_path / "p.parquet"), size=12)
    lim = {"min_class": {"c": {1: 0.4}}}
    made = []
    real = constraints.offset_map
    monkeypatch.setattr(constraints, "offset_map", lambda *a, **k: made.append(a[1]) or real(*a, **k))
    # the pools' way (the native draw takes such files' keys by rejection: test_torch_native_draw.py)
    monkeypatch.setattr(rt.RandomChipSampler, "_bank_combos", lambda self, f: np.full(len(f), -1, np.int64))
    s = rt.RandomChipSampler(ds, length=1500, seed=3, **lim)
    first = list(s)
    assert sorted(set(made)) == [0, 1, 2]  # every file's map (file 2's has no offset)
    made.clear()
    s.set_epoch(1)
    second = list(s)
    assert made == []
    fresh = rt.RandomChipSampler(ds, length=1500, seed=3, **lim)
    fresh.set_epoch(1)
    assert list(fresh) == second != first
    ids = ds.index.ids
    for j, r, c in first + second:
        assert j != 2 and (px[ids[j]][r:r + 12, c:c + 12] == 1).mean() >= 0.4


def test_keys_of_an_epoch_do_not_depend_on_the_epochs_drawn_before(landfire):
    """Keys drawn from a file's offset map (one file, thousands of keys: not by rejection) are a
    function of the seed, the epoch and the constraints: a fresh sampler at epoch 2 (a restart,
    load_state_dict at another world size) gives the keys of one that drew epochs 0 and 1 first
    (its maps refined by them), with min_valid and class limits, and with streams."""
    cat, lcat, fuel = landfire
    ds = rt.ChipDataset(cat, size=96, labels=lcat)
    for lim in ({"min_class": {"labels:band 0": {165: 0.4}}, "max_class": {"labels:band 0": {99: 0.02}}},
                {"min_class": {"labels:band 0": {165: 0.3}}, "min_valid": 0.99},
                {"max_class": {"labels:band 0": {99: 0.05}}, "streams": 2}):
        s = rt.RandomChipSampler(ds, length=3_000, seed=7, **lim)
        for e in (0, 1):
            s.set_epoch(e)
            list(s)
        s.set_epoch(2)
        after = list(s)
        fresh = rt.RandomChipSampler(ds, length=3_000, seed=7, **lim)
        fresh.set_epoch(2)
        assert list(fresh) == after, lim
        # and the keys meet the limits on the label pixels
        for _, r, c in after[:200]:
            px = fuel[r:r + 96, c:c + 96]
            if "min_class" in lim:
                (cls, f), = lim["min_class"]["labels:band 0"].items()
                assert (px == cls).mean() >= f
