"""rumi.build's planning at scale (issue 40, item 4): the plan made from one compact row per item
(rumi._build.index; a stac-geoparquet table read by record batches, odc-stac parsing one item per
distinct grid) is the plan of the planner it replaced, kept here as the reference
(reference_plan: every item parsed, every cell grouping all the items, a file holding whole
groups): the same files, cells, ranges, time steps and times; each file's items are the
reference's that overlap its cell, and its fingerprint is the reference's wherever those are the
same items. A table's columns, the same table parsed item by item and the items as pystac
objects give one plan; a table outside what the columns give falls back to parsing; the
streaming paths hold a bounded number of items. Timings are in bench/build_bench.py --plan,
not here."""

from __future__ import annotations

import json
import weakref

import numpy as np
import pytest

from conftest import need

try:
    import odc.stac as odc_stac
    import pystac
    import stac_geoparquet.arrow  # noqa: F401
except ImportError as e:  # RUMI_PY_STRICT=1 (scripts/test-python.sh installs them): a failure
    need(False, f"rumi.build needs odc-stac, pystac and stac-geoparquet (pip install 'rumi[stac]'): {e}")

import shapely  # noqa: E402
from odc.geo.geobox import GeoboxTiles  # noqa: E402
from odc.geo.gridspec import GridSpec  # noqa: E402

import rumi  # noqa: E402
import stac_items as si  # noqa: E402
from rumi._build import cells as C  # noqa: E402
from rumi._build import index as I  # noqa: E402
from rumi._build import items as It  # noqa: E402
from rumi._build import plan_build, run_plan  # noqa: E402
from rumi._build.destination import fingerprint  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning", "ignore::DeprecationWarning")
S2 = ["blue", "green", "red", "nir"]


# --- the planner this one replaced ------------------------------------------------------------


def _old_groups(items, parsed, groupby, lon):
    """cells.groups before: every item keyed, sorted by (key, time, id), runs of one key."""
    if callable(groupby):
        key = groupby
    elif groupby == "time":
        key = lambda item, p, i: p.nominal_datetime  # noqa: E731
    elif groupby == "solar_day":
        key = lambda item, p, i: p.solar_date_at(lon).date()  # noqa: E731
    elif groupby in ("id", None):
        key = lambda item, p, i: i  # noqa: E731
    else:
        key = lambda item, p, i: item.properties.get(groupby, None)  # noqa: E731
    keys = {i: key(items[i], parsed[i], i) for i in range(len(items))}
    order = sorted(range(len(items)), key=lambda i: (keys[i], parsed[i].nominal_datetime, parsed[i].id))
    out = []
    for i in order:
        if out and keys[out[-1][0]] == keys[i]:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _scaling_param(items, ii, bands):
    """The fingerprint's "scaling" parameter of a file of the items ii: its bands' raster:bands
    scale, offset and unit as the items give them (one per band: they agree), none when every
    band has 1, 0 and no unit."""
    vals = {tuple((rb.get("scale", 1.0), rb.get("offset", 0.0), rb.get("unit", ""))
                  for rb in (items[int(i)].assets[b].extra_fields["raster:bands"][0] for b in bands)) for i in ii}
    (v,) = vals
    return {} if all(x == (1.0, 0.0, "") for x in v) else {"scaling": [list(x) for x in v]}


def reference_plan(items, *, bands, crs=None, resolution=None, tiles=None, time=None, groupby="solar_day", anchor=None):
    """plan_build's files as the planner before issue 40 made them: [{name, cell, range, items
    (whole groups), touching (the items overlapping the cell), steps, times (stored), grid,
    fingerprint}], and the empty cells."""
    out_crs = C.output_crs(tiles, crs, resolution)
    in_range = C.time_ranges(time)
    parsed = list(odc_stac.parse_items(items))
    geoms = [p.safe_geometry(out_crs) for p in parsed]
    union = None
    if tiles is None or not C.grid_given(tiles):
        union = odc_stac.output_geobox(parsed, bands=list(bands), crs=out_crs, resolution=resolution, anchor=anchor)
    cell_list = C.cells(tiles, union, out_crs, resolution, anchor, geoms)
    params = {
        "bands": list(bands), "crs": out_crs.epsg,
        "groupby": groupby if isinstance(groupby, str) else getattr(groupby, "__qualname__", repr(groupby)),
        "nodata": None, "dtype": None, "resampling": None, "tile": 256, "level": None, "frame_unit": None,
        "stac_cfg": None, "chunks": None, "rumi": rumi.CORE_VERSION,
    }
    tree = shapely.STRtree([g.geom for g in geoms])
    files, empty = [], []
    for name, gbox in cell_list:
        name = C.safe_name(name)
        ext = gbox.extent.to_crs(out_crs) if gbox.crs != out_crs else gbox.extent
        near = tree.query(ext.geom, predicate="intersects")
        touching = {int(i) for i in near if shapely.intersection(geoms[int(i)].geom, ext.geom).area > 0}
        if not touching:
            empty.append(name)
            continue
        ((lon, _),) = gbox.extent.centroid.to_crs("epsg:4326").points
        grid = [[float(v) for v in list(gbox.affine)[:6]], [int(v) for v in gbox.shape]]
        jobs = {}
        for grp in _old_groups(items, parsed, groupby, lon):
            if not touching.intersection(grp):
                continue
            t = C.whole_second(np.datetime64(parsed[grp[0]].nominal_datetime.replace(tzinfo=None), "us"))
            rng = ("", "") if in_range is None else in_range(t)
            if rng is None:
                continue
            out = f"{name}.rumi" if in_range is None else f"{name}_{rng[0]}.rumi"
            spec, ii, times, groups = jobs.get(out, (rng[1], [], [], []))
            jobs[out] = (spec, ii + grp, times + [t], groups + [grp])
        for out, (spec, ii, times, groups) in jobs.items():
            records = [It.item_record(items[i], list(bands), parsed[i]) for i in ii]
            files.append({"name": out, "cell": name, "range": spec, "items": sorted(ii), "touching": touching,
                          "steps": len(times), "times": times, "groups": groups, "grid": grid,
                          "fingerprint": fingerprint(records, dict(params, geobox=grid, range=spec,
                                                                   **_scaling_param(items, ii, bands))), "params": params})
    return files, empty


def assert_same_as_reference(plan, ref, empty, items):
    """The plan is the reference's: files, cells, ranges, steps and times; items the reference's
    that overlap the cell; the reference's fingerprint wherever the items are the same. Where
    they are fewer, the fingerprint is that of the file's own items, with the steps' times
    among its parameters when one comes from an item outside them. Returns (files with fewer
    items than the reference's, files with a time from outside)."""
    assert [f.name for f in plan.files] == [r["name"] for r in ref]
    assert list(plan.empty) == empty
    parsed = list(odc_stac.parse_items(items))
    fewer = outside = 0
    for f, r in zip(plan.files, ref):
        assert (f.cell, f.time_range, f.steps) == (r["cell"], r["range"], r["steps"]), f.name
        assert list(f.times) == r["times"], f.name
        assert list(f.items) == sorted(set(r["items"]) & r["touching"]), f.name
        if list(f.items) == r["items"]:
            assert f.fingerprint == r["fingerprint"], f.name
            continue
        fewer += 1
        mine = set(f.items.tolist())
        # each step's time as odc-stac gives it from the file's items alone: the earliest of them in its group
        own = [C.whole_second(np.datetime64(min((parsed[i] for i in g if i in mine), key=lambda p: (p.nominal_datetime, p.id))
                                            .nominal_datetime.replace(tzinfo=None), "us")) for g in r["groups"]]
        records = [It.item_record(items[i], list(plan.bands), parsed[i]) for i in f.items]
        params = dict(r["params"], geobox=r["grid"], range=r["range"], **_scaling_param(items, f.items, plan.bands))
        if own != r["times"]:
            outside += 1
            params["times"] = [str(t) for t in f.times]
        assert f.fingerprint == fingerprint(records, params), f.name
    return fewer, outside


def s2_items(n, keep=None):
    """pystac Items of the first n Sentinel-2-like acquisitions (stac_items.s2_dicts), those
    whose tile keep(tile code) takes."""
    ds = [d for d in si.s2_dicts(n) if keep is None or keep(d["properties"]["grid:code"])]
    return ds, [pystac.Item.from_dict(json.loads(json.dumps(d))) for d in ds]


# --- the plan is the reference's ----------------------------------------------------------------


@pytest.mark.parametrize("time,groupby", [("P1M", "solar_day"), (None, "solar_day"), ("P1W", "time"),
                                          (["2023-01-01/2023-01-12", "2023-01-20/2023-03-01"], "platform"),
                                          ("P1M", "id")])
def test_grid_plans_equal_the_reference(tmp_path, time, groupby):
    """Sentinel-2-like items over 100 tiles in two UTM zones (milliseconds in their times; a
    solar day's group spans tiles far apart) on a GridSpec of 40.96 km cells in EPSG:32633: the
    plan equals the reference's under calendar periods, explicit ranges, and every grouping."""
    _, items = s2_items(200)
    grid = GridSpec("EPSG:32633", (4096, 4096), 10)
    with pytest.warns(UserWarning, match="fraction of a second"):
        plan = plan_build(items, tmp_path / "o", bands=S2, tiles=grid, time=time, groupby=groupby)
    ref, empty = reference_plan(items, bands=S2, tiles=grid, time=time, groupby=groupby)
    assert len(plan.files) > 100
    fewer, outside = assert_same_as_reference(plan, ref, empty, items)
    if groupby in ("solar_day", "platform"):
        # a group spans the region: most cells hold part of it, and some step's time is that of
        # an item elsewhere (the group's earliest)
        assert fewer > len(plan.files) // 2 and outside > 0
    if groupby in ("id", "time"):
        assert fewer == outside == 0


def test_one_cube_footprints_and_geobox_tiles_equal_the_reference(tmp_path):
    """tiles=None (the union's GeoBox: odc-stac's output_geobox), a GeoboxTiles and named
    footprints (a GeoDataFrame) give the reference's plans."""
    geopandas = pytest.importorskip("geopandas")
    _, items = s2_items(60, keep=lambda c: c[-2:] in ("BL", "CL", "BM", "CM"))
    assert 4 <= len(items) <= 60
    whole = odc_stac.output_geobox(list(odc_stac.parse_items(items)), crs="EPSG:32633", resolution=60)
    for kw in ({"crs": "EPSG:32633", "resolution": 60, "time": "P1M"},
               {"tiles": GeoboxTiles(whole, (1000, 1000)), "time": "P1M"}):
        plan = plan_build(items, tmp_path / "o", bands=S2, **kw)
        ref, empty = reference_plan(items, bands=S2, **kw)
        assert plan.files
        assert_same_as_reference(plan, ref, empty, items)
    from shapely.geometry import box

    frame = geopandas.GeoDataFrame({"name": ["west", "east"]}, geometry=[box(300000, 5100000, 400000, 5200000),
                                                                        box(600000, 5000000, 700000, 5100000)], crs="EPSG:32633")
    kw = {"tiles": frame, "crs": "EPSG:32633", "resolution": 100, "time": "P1M"}
    plan = plan_build(items, tmp_path / "o", bands=S2, **kw)
    ref, empty = reference_plan(items, bands=S2, **kw)
    assert_same_as_reference(plan, ref, empty, items)


# --- a table's columns, parsing, pystac objects: one plan ----------------------------------------


def _plans_equal(a, b):
    assert [(f.name, f.cell, f.time_range, f.steps, f.fingerprint) for f in a.files] == \
        [(f.name, f.cell, f.time_range, f.steps, f.fingerprint) for f in b.files]
    for f, g in zip(a.files, b.files):
        np.testing.assert_array_equal(f.items, g.items)
        np.testing.assert_array_equal(f.times, g.times)
    assert (a.empty, a.itemsize, dict(a.rounded)) == (b.empty, b.itemsize, dict(b.rounded))


def _indexes_equal(a, b):
    assert (a.ids, a.collections, a.records, a.keys, a.untyped, a.itemsize) == (b.ids, b.collections, b.records, b.keys, b.untyped, b.itemsize)
    np.testing.assert_array_equal(a.wall, b.wall)
    np.testing.assert_array_equal(a.utc, b.utc)
    np.testing.assert_array_equal(a.rank, b.rank)
    assert [a.footprints[k].wkt for k in a.fp] == [b.footprints[k].wkt for k in b.fp]
    assert a.nodata_todo == b.nodata_todo
    assert [a.scalings[k] for k in a.scaling] == [b.scalings[k] for k in b.scaling]  # raster:bands scale, offset, unit


@pytest.fixture(scope="module")
def s2_table(tmp_path_factory):
    """260 items as a stac-geoparquet file of row groups of 100, their dicts, their pystac Items."""
    ds, items = s2_items(260)
    path = tmp_path_factory.mktemp("s2") / "items.parquet"
    si.make_s2_table(0, path, chunk=100, dicts=ds)
    return path, ds, items


@pytest.mark.parametrize("groupby", ["solar_day", "platform"])
def test_a_tables_columns_give_the_plan_of_its_items_parsed(s2_table, tmp_path, monkeypatch, groupby):
    """The table read from its columns (several record batches across row groups), the table
    parsed item by item and the pystac Items give the same compact rows and the same plan."""
    path, _, items = s2_table
    monkeypatch.setattr(I, "BATCH_ROWS", 37)  # batches that straddle row groups
    src = I.source_of(path)
    fast = I.index_items(src, S2, C.odc_crs("EPSG:32633"), groupby=groupby)
    slow = I.index_items(src, S2, C.odc_crs("EPSG:32633"), groupby=groupby, fast=False)
    listed = I.index_items(I.ListSource(items), S2, C.odc_crs("EPSG:32633"), groupby=groupby)
    assert fast.fast and not slow.fast and not listed.fast
    assert {fast.scalings[k] for k in fast.scaling} == {((0.0001, -0.1, ""),) * len(S2)}  # the items' raster:bands
    _indexes_equal(fast, slow)
    _indexes_equal(fast, listed)
    assert len(fast.footprints) < len(fast) // 2  # a footprint per distinct grid, not per item
    grid = GridSpec("EPSG:32633", (4096, 4096), 10)
    with pytest.warns(UserWarning, match="fraction of a second"):
        a = plan_build(path, tmp_path / "o", bands=S2, tiles=grid, time="P1M", groupby=groupby)
    with pytest.warns(UserWarning, match="fraction of a second"):
        b = plan_build(items, tmp_path / "o", bands=S2, tiles=grid, time="P1M", groupby=groupby)
    assert a.index.fast and not b.index.fast
    _plans_equal(a, b)
    assert a.items[5].id == items[5].id and [it.id for it in a.items.take([250, 3, 120])] == [items[k].id for k in (250, 3, 120)]


def test_a_table_whose_rows_differ_in_band_metadata_is_parsed_item_by_item(s2_table, tmp_path):
    """One row whose red band gives another nodata: odc-stac's collection metadata would change
    along the stream, so the columns are not used; the plan is that of the items."""
    _, ds, items = s2_table
    ds = json.loads(json.dumps(ds))
    ds[150]["assets"]["red"]["raster:bands"][0]["nodata"] = 7
    items = [pystac.Item.from_dict(json.loads(json.dumps(d))) for d in ds]
    path = tmp_path / "odd.parquet"
    si.make_s2_table(0, path, chunk=100, dicts=ds)
    grid = GridSpec("EPSG:32633", (4096, 4096), 10)
    with pytest.warns(UserWarning, match="fraction of a second"):
        a = plan_build(path, tmp_path / "o", bands=S2, tiles=grid, time="P1M")
    with pytest.warns(UserWarning, match="fraction of a second"):
        b = plan_build(items, tmp_path / "o", bands=S2, tiles=grid, time="P1M")
    assert not a.index.fast
    _plans_equal(a, b)


def test_the_streaming_paths_hold_a_bounded_number_of_items(s2_table, monkeypatch):
    """From a table's columns, odc-stac parses one item per distinct grid; parsed item by item
    (a table the columns cannot give), at most a record batch of items is alive at once."""
    path, _, _ = s2_table
    made, alive, most = [0], [0], [0]
    real = I._pystac_item

    def counted(d, where):
        it = real(d, where)
        made[0] += 1
        alive[0] += 1
        most[0] = max(most[0], alive[0])
        weakref.finalize(it, lambda: alive.__setitem__(0, alive[0] - 1))
        return it

    monkeypatch.setattr(I, "_pystac_item", counted)
    monkeypatch.setattr(I, "BATCH_ROWS", 40)
    src = I.source_of(path)
    fast = I.index_items(src, S2, C.odc_crs("EPSG:32633"))
    assert fast.fast and made[0] == len(fast.footprints) < 120
    made[0], alive[0], most[0] = 0, 0, 0
    slow = I.index_items(src, S2, C.odc_crs("EPSG:32633"), fast=False)
    assert made[0] == len(slow) == 260
    assert most[0] <= 40 + 2, f"{most[0]} items alive at once"


def test_a_step_whose_time_comes_from_outside_its_cell_keeps_that_time(stac, tmp_path):
    """Landsat pieces: lc-a (13:45:00) and lc-c (13:45:20.25) share a solar day; a cell that only
    lc-c overlaps loads lc-c alone, and its May step keeps the group's time, lc-a's (odc-stac's
    time over all the items)."""
    items = stac["landsat"]
    grid = GridSpec("EPSG:32621", (512, 512), 30)
    plan = plan_build(items, tmp_path / "lc", bands=["red"], tiles=grid, time="P1M")
    a = next(i for i, it in enumerate(items) if it.id == "lc-a")
    c = next(i for i, it in enumerate(items) if it.id == "lc-c")
    only_c = [f for f in plan.files if f.name.endswith("2020-05.rumi") and a not in f.items]
    assert only_c and all(c in f.items for f in only_c)
    cat = run_plan(plan)
    for f in only_c:
        with rumi.open(tmp_path / "lc" / f.name) as ds:
            assert list(ds.times.astype("datetime64[s]")) == [np.datetime64("2020-05-18T13:45:00")]
        entry = json.loads((tmp_path / "lc" / "rumi-build.json").read_text())["files"][f.name]
        assert entry["items"] == ["lc-c"]
    assert len(cat) == len(plan.files)


from test_build import stac  # noqa: E402,F401  (the COGs behind nginx)


def test_hrefs_from_the_columns_are_pystacs_absolute_hrefs():
    """The columns' band hrefs are what pystac's Asset.get_absolute_href gives (a URL as it is,
    whatever the item's self link); a relative href or a local path is left to the parser."""
    import datetime as dt

    import pyarrow as pa

    urls = ["https://a.b/c/d.tif", "s3://bucket/k.tif", "s3:///x.tif", "HTTP://a/b.tif", "http://a/b.tif?x=1", "http://h",
            "http://h/a b.tif", "gs://b/p%20q.tif", "https://h/a/../b.tif"]
    item = pystac.Item("x", None, None, dt.datetime(2020, 1, 1), {})
    item.set_self_href("https://example.com/items/x.json")
    want = []
    for k, u in enumerate(urls):
        item.add_asset(f"a{k}", pystac.Asset(href=u))
        want.append(item.assets[f"a{k}"].get_absolute_href())
    assert I._absolute_all(pa.array(urls), urls) == want
    assert want == urls
    for local in ("/data/x.tif", "file:///data/x.tif", "FILE://data/x.tif", "x.tif", "../x.tif", "http://h\\x.tif"):
        with pytest.raises(I._Unsupported):
            I._absolute_all(pa.array([local]), [local])
