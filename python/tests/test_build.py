"""rumi.build: STAC items (COGs cut from the shared data folder's real rasters with GDAL, served by
nginx on 127.0.0.1) -> rumi cubes per grid cell and time range. Every file read back with
rumi.open equals odc.stac.load of the same items with the same parameters at the cell's GeoBox,
time step by time step; re-runs skip what is up to date and rebuild what changed or failed; bad
input is refused by name with nothing written."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rumi

from conftest import need

try:
    import odc.stac as odc_stac
    import pystac
except ImportError as e:  # RUMI_PY_STRICT=1 (scripts/test-python.sh installs them): a failure
    need(False, f"rumi.build needs odc-stac and pystac (pip install 'rumi[stac]'): {e}")
from odc.geo.geobox import GeoBox  # noqa: E402
from odc.geo.gridspec import GridSpec  # noqa: E402

import stac_items as si  # noqa: E402

RGB = ["red", "green", "blue"]
# odc-geo's affine products warn under affine 3 (thousands of lines, none about rumi)
pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")


@pytest.fixture(scope="module")
def stac(data_dir, nginx, tmp_path_factory):
    """{'landsat': [Item], 's1': [Item], 'root': the served folder, 'url': nginx.url}: COGs cut
    from the real rasters with gdal_translate / gdalwarp, served by nginx."""
    need(shutil.which("gdal_translate") and shutil.which("gdalwarp"), "GDAL's command-line tools are not installed")
    for name in [si.LANDSAT, *si.S1]:
        if not (data_dir / name).exists():
            pytest.skip(f"{data_dir / name} is absent")
    cols = si.make_cogs(data_dir, nginx.root)
    base = nginx.url("")
    return {
        "landsat": si.make_items(nginx.root, base, cols["landsat"], "landsat"),
        "s1": si.make_items(nginx.root, base, cols["s1"], "s1"),
        "root": nginx.root,
        "url": nginx.url,
    }


def clone(items):
    return [it.clone() for it in items]


def valid(a, nodata):
    if np.issubdtype(a.dtype, np.floating):
        ok = ~np.isnan(a)
        return ok & (a != nodata) if nodata is not None and not np.isnan(nodata) else ok
    return a != (0 if nodata is None else nodata)


def check_against_odc(cat, items, bands, groupby="solar_day", ranges=None, **load):
    """Each catalogued file equals odc.stac.load(items, bands, geobox=<its grid>, groupby,
    chunks=<the file's, from the manifest>) at its time steps (times to the second); every
    reference time step with a valid pixel in a cell is in one file of that cell (ranges: {file
    id suffix -> (start, end)} to check the split). The same chunks as the build's: where source
    and output pixels are offset by exactly half a pixel (these Landsat pieces: origin 717345 on
    a 30 m grid anchored at 0), odc-stac's nearest pick at the tie depends on the chunking."""
    cells = {}
    for row in cat.table.to_pylist():
        path = Path(row["location"])
        chunks = json.loads((path.parent / "rumi-build.json").read_text())["files"][path.name]["chunks"]
        with rumi.open(path) as ds:
            assert ds.bands == list(bands)
            gbox = GeoBox((ds.height, ds.width), ds.transform, ds.crs)
            data = ds.read()
            times = ds.times.astype("datetime64[s]")
        key = (tuple(ds.transform)[:6], ds.shape[2:])
        ref = odc_stac.load(items, bands=list(bands), geobox=gbox, groupby=groupby, chunks=chunks, **load)
        ref_times = list(ref.time.values.astype("datetime64[s]"))
        seen = cells.setdefault(key, (ref, set()))[1]
        assert data.dtype == ref[bands[0]].dtype
        for t, when in enumerate(times):
            assert when in ref_times, f"{row['id']}: time {when} is not one of odc-stac's {ref_times}"
            k = ref_times.index(when)
            assert k not in seen, f"{row['id']}: time step {when} is in two files"
            seen.add(k)
            want = np.stack([ref[b].values[k] for b in bands])
            np.testing.assert_array_equal(data[t], want, err_msg=f"{row['id']} time {when}")
            if ranges:
                suffix = row["id"].rsplit("_", 1)[1]
                lo, hi = ranges[suffix]
                assert np.datetime64(lo) <= when < np.datetime64(hi), f"{row['id']}: {when} outside {lo}..{hi}"
    for (ref, seen) in cells.values():
        for k in range(ref.sizes["time"]):
            if k not in seen:
                for b in bands:
                    assert not valid(ref[b].values[k], ref[b].attrs.get("nodata")).any(), (
                        f"odc-stac has valid pixels at {ref.time.values[k]} that no file holds")
    return len(cells)


def listing(d):
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in Path(d).iterdir()}


# --- equality with odc.stac.load --------------------------------------------------------------


def test_grid_cells_and_months_equal_odc_stac(stac, tmp_path):
    items = stac["landsat"]
    out = tmp_path / "lc"
    grid = GridSpec("EPSG:32621", (512, 512), 30)
    cat = rumi.build(items, out, bands=RGB, crs="EPSG:32621", resolution=30, tiles=grid, time="P1M")
    r = cat.report
    assert not r.failed and not r.skipped and len(r.written) == len(cat) >= 10
    names = {n.removesuffix(".rumi") for n in r.written}
    assert names == set(cat.column("id"))
    assert {n.rsplit("_", 1)[1] for n in names} == {"2020-05", "2020-06", "2020-07"}  # lc-d (zone 22) gives July
    months = {"2020-05": ("2020-05-01", "2020-06-01"), "2020-06": ("2020-06-01", "2020-07-01"), "2020-07": ("2020-07-01", "2020-08-01")}
    ncells = check_against_odc(cat, items, RGB, ranges=months)
    assert ncells >= 6
    # the May mosaic holds lc-a and lc-c (halved values): one time step at lc-a's time
    may = [row for row in cat.table.to_pylist() if row["id"].endswith("2020-05")]
    assert all(len(row["rumi:times"]) == 1 for row in may)
    # the catalogue beside the cells is the returned one; files and sidecars only, no leftovers
    again = rumi.Catalog.open(out / "catalog.parquet")
    assert sorted(again.column("id")) == sorted(cat.column("id"))
    files = {p.name for p in out.iterdir()}
    assert files == {"catalog.parquet", "rumi-build.json"} | {n for w in r.written for n in (w, w + ".header")} | {
        w + ".aux.xml" for w in r.written if (out / (w + ".aux.xml")).exists()}
    # the built files' statistics recorded (rumi:stats): equal to a pass over their pixels
    st = cat.stats()
    px = [rumi.open(row["location"]).read(masked=True).astype("float64") for row in cat.table.to_pylist()]
    vals = [np.ma.concatenate([p[:, b].compressed() for p in px]) for b in range(len(RGB))]
    np.testing.assert_array_equal(st.count, [v.size for v in vals])
    np.testing.assert_allclose(st.mean, [v.mean() for v in vals], rtol=1e-6)
    np.testing.assert_allclose(st.std, [v.std() for v in vals], rtol=1e-4)
    # each cell is a GridSpec tile: its GeoBox is the grid's
    for row in cat.table.to_pylist():
        ix, iy = (int(v[1:]) for v in row["id"].split("_")[:2])
        with rumi.open(row["location"]) as ds:
            assert GeoBox((ds.height, ds.width), ds.transform, ds.crs) == grid.tile_geobox((ix, iy))


def test_one_cube_over_the_items_equals_odc_stac(stac, tmp_path):
    """No tiles, no time ranges: one (T=2, B=1) float32 cube of the two Sentinel-1 dates at the
    grid odc-stac picks itself; nodata -99 from the raster extension."""
    items = stac["s1"]
    cat = rumi.build(items, tmp_path / "s1", bands="vv", crs="EPSG:32631", resolution=20)
    assert cat.column("id") == ["all"]
    ref = odc_stac.load(items, bands=["vv"], crs="EPSG:32631", resolution=20, groupby="solar_day")
    with rumi.open(tmp_path / "s1" / "all.rumi") as ds:
        assert ds.shape == (2, 1, ref.sizes["y"], ref.sizes["x"])
        assert ds.dtype == np.float32 and ds.bands == ["vv"] and ds.crs == "EPSG:32631"
        assert tuple(ds.transform)[:6] == tuple(ref.odc.geobox.affine)[:6]
        np.testing.assert_array_equal(ds.times, ref.time.values.astype("datetime64[s]"))
        np.testing.assert_array_equal(ds.read()[:, 0], ref.vv.values)
    assert (ref.vv.values == -99).any() and ref.vv.attrs["nodata"] == -99
    aux = (tmp_path / "s1" / "all.rumi.aux.xml").read_text()  # nodata for GDAL readers
    assert aux.count("<NoDataValue>-99.0</NoDataValue>") >= 2
    assert cat.row(0)["rumi:nodata"] == [-99.0]  # the catalogue's per-band nodata, from that sidecar
    # a parameter that changes the file rebuilds it; the same call again skips it
    kw = dict(bands="vv", crs="EPSG:32631", resolution=20)
    assert rumi.build(items, tmp_path / "s1", **kw).report.skipped == ["all.rumi"]
    again = rumi.build(items, tmp_path / "s1", frame_unit=0, level=1, **kw)
    assert again.report.written == ["all.rumi"]
    with rumi.open(tmp_path / "s1" / "all.rumi") as ds:
        assert ds.frame_unit == 0
        np.testing.assert_array_equal(ds.read()[:, 0], ref.vv.values)
    assert rumi.build(items, tmp_path / "s1", frame_unit=0, level=1, **kw).report.skipped == ["all.rumi"]
    # an item made in memory whose datetime changes (its properties hold no datetime text)
    import datetime as dt

    moved = clone(items)
    moved[0].datetime = moved[0].datetime + dt.timedelta(seconds=1)
    third = rumi.build(moved, tmp_path / "s1", frame_unit=0, level=1, **kw)
    assert third.report.written == ["all.rumi"]
    assert rumi.open(tmp_path / "s1" / "all.rumi").times[0] == np.datetime64("2015-03-09T17:30:18")
    check_against_odc(third, moved, ["vv"])
    # graph="fast" (the fastest decode): the file is rebuilt, the same pixels
    fast = rumi.build(items, tmp_path / "s1", graph="fast", **kw)
    assert fast.report.written == ["all.rumi"]
    with rumi.open(tmp_path / "s1" / "all.rumi") as ds:
        np.testing.assert_array_equal(ds.read()[:, 0], ref.vv.values)


def test_footprints_explicit_ranges_and_resampling_equal_odc_stac(stac, tmp_path):
    """Cells from a GeoDataFrame of footprints (EPSG:4326), 60 m with bilinear resampling, two
    explicit time ranges (end exclusive)."""
    gpd = pytest.importorskip("geopandas")
    import shapely

    items = stac["landsat"]
    union = shapely.unary_union([shapely.geometry.shape(it.geometry) for it in items])
    x0, y0, x1, y1 = union.bounds
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    fps = gpd.GeoDataFrame({"name": ["west", "east/1"]}, geometry=[
        shapely.box(x0, ym - 0.05, xm, ym + 0.08), shapely.box(xm - 0.02, y0, x1, ym)], crs="EPSG:4326")
    ranges = [("2020-05-01", "2020-06-01"), "2020-06-01/2020-08-01"]
    cat = rumi.build(items, tmp_path / "fp", bands=["blue", "red"], crs="EPSG:32621", resolution=60, tiles=fps,
                     time=ranges, resampling="bilinear")
    ids = set(cat.column("id"))
    assert ids <= {f"{c}_{r}" for c in ("west", "east-1") for r in ("20200501-20200601", "20200601-20200801")}
    assert {i.split("_")[0] for i in ids} == {"west", "east-1"}
    spans = {"20200501-20200601": ("2020-05-01", "2020-06-01"), "20200601-20200801": ("2020-06-01", "2020-08-01")}
    check_against_odc(cat, items, ["blue", "red"], ranges=spans, resampling="bilinear")


def test_geobox_tiles_and_named_geoboxes_equal_odc_stac(stac, tmp_path):
    """tiles= GeoboxTiles (files r{row}_c{col}, only tiles the items overlap) and {name: GeoBox}."""
    from odc.geo.geobox import GeoboxTiles

    items = stac["s1"]
    union = odc_stac.load(items, bands=["vv"], crs="EPSG:32631", resolution=20, chunks={}).odc.geobox
    big = union.pad(200)  # a grid larger than the items: its outer tiles are empty
    gbt = GeoboxTiles(big, (128, 128))
    cat = rumi.build(items, tmp_path / "gbt", bands="vv", tiles=gbt)
    ids = cat.column("id")
    want = {f"r{r}_c{c}" for r, c in gbt.tiles(union.extent)}
    assert set(ids) <= want and len(ids) >= 4
    assert "r0_c0" not in ids and set(cat.report.empty) <= want - set(ids)  # the padding's tiles: no file
    check_against_odc(cat, items, ["vv"])
    named = {"west": union[:, :120], "east": union[:, 120:]}
    cat2 = rumi.build(items, tmp_path / "named", bands="vv", tiles=named, time="P1Y")
    assert sorted(cat2.column("id")) == ["east_2015", "east_2017", "west_2015", "west_2017"]
    check_against_odc(cat2, items, ["vv"])


def test_on_a_dask_cluster_of_two_worker_processes(stac, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    items = stac["landsat"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc):
        cat = rumi.build(items, tmp_path / "dist", bands=RGB, crs="EPSG:32621", resolution=30, chunks={"x": 512, "y": 512})
    assert len(cat) == 1 and rumi.open(cat.row(0)["location"]).shape[0] == 3  # three solar days
    entry = json.loads((tmp_path / "dist" / "rumi-build.json").read_text())["files"]["all.rumi"]
    assert entry["chunks"] == {"x": 512, "y": 512}
    check_against_odc(cat, items, RGB)


# --- item files and the command line ----------------------------------------------------------


def test_item_files_and_the_rumi_build_script(stac, tmp_path):
    """An ItemCollection JSON and a stac-geoparquet file give the same files as the items
    themselves; `rumi-build` (the console script) on a LocalCluster of 2 workers too, byte for byte."""
    sgp = pytest.importorskip("stac_geoparquet")
    import stac_geoparquet.arrow  # noqa: F401

    items = stac["landsat"]
    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    pq = tmp_path / "items.parquet"
    sgp.arrow.to_parquet(sgp.arrow.parse_stac_items_to_arrow([it.to_dict() for it in items]), pq)
    kw = dict(bands=["green"], crs="EPSG:32621", resolution=30, tiles=GridSpec("EPSG:32621", (600, 600), 30))
    a = rumi.build(items, tmp_path / "a", **kw)
    b = rumi.build(coll, tmp_path / "b", **kw)
    c = rumi.build(pq, tmp_path / "c", **kw)
    assert b.report.written == c.report.written == a.report.written and len(a) >= 2
    script = Path(sys.executable).parent / "rumi-build"
    need(script.exists(), f"the rumi-build console script is not installed beside {sys.executable}")
    r = subprocess.run([str(script), str(coll), str(tmp_path / "d"), "--bands", "green", "--crs", "EPSG:32621",
                        "--resolution", "30", "--tile-size", "600", "--workers", "2", "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert f"{len(a)} written" in r.stdout
    for other in ("b", "c", "d"):
        cat = rumi.Catalog.open(tmp_path / other / "catalog.parquet")
        assert sorted(cat.column("id")) == sorted(a.column("id"))
        for row in a.table.to_pylist():
            name = row["id"] + ".rumi"
            assert (tmp_path / other / (name + ".header")).read_bytes() == (tmp_path / "a" / (name + ".header")).read_bytes()
            np.testing.assert_array_equal(rumi.open(tmp_path / other / name).read(), rumi.open(row["location"]).read())
    bad = subprocess.run([str(script), str(coll), str(tmp_path / "e"), "--bands", "swir16", "--crs", "EPSG:32621",
                          "--resolution", "30"], capture_output=True, text=True)
    assert bad.returncode == 2 and "bands ['swir16'] are not in collection 'landsat'" in bad.stderr
    assert not (tmp_path / "e").exists()


# --- re-running -------------------------------------------------------------------------------


def test_rerun_skips_built_cells_and_rebuilds_changed_ones(stac, tmp_path):
    items = clone(stac["landsat"])
    out = tmp_path / "re"
    kw = dict(bands=RGB, crs="EPSG:32621", resolution=30, tiles=GridSpec("EPSG:32621", (512, 512), 30), time="P1M")
    first = rumi.build(items, out, **kw)
    n = len(first.report.written)
    before = listing(out)

    second = rumi.build(items, out, **kw)
    assert second.report.written == [] and len(second.report.skipped) == n
    after = listing(out)
    assert {k: v for k, v in after.items() if k.endswith((".rumi", ".header"))} == {
        k: v for k, v in before.items() if k.endswith((".rumi", ".header"))}  # not rewritten

    # lc-b (June) now points at other pixels: only the files built from lc-b are rebuilt
    manifest = json.loads((out / "rumi-build.json").read_text())["files"]
    with_b = {name for name, e in manifest.items() if "lc-b" in e["items"]}
    assert with_b and all(name.endswith("2020-06.rumi") for name in with_b)
    lcb = next(it for it in items if it.id == "lc-b")
    lcb.assets["red"].href = stac["url"]("lc-b_green.tif")
    lcb.properties["updated"] = "2026-02-01T00:00:00Z"
    third = rumi.build(items, out, **kw)
    assert set(third.report.written) == with_b and len(third.report.skipped) == n - len(with_b)
    check_against_odc(third, items, RGB)
    for name in with_b:
        with rumi.open(out / name) as ds:
            a = ds.read()
        np.testing.assert_array_equal(a[0, 0], a[0, 1])  # red is green now

    # a file removed or damaged (size differs) is rebuilt, alone
    victim = sorted(with_b)[0]
    (out / victim).unlink()
    other = next(n for n in first.report.written if n not in with_b)
    with open(out / other, "ab") as f:
        f.write(b"\0")
    fourth = rumi.build(items, out, **kw)
    assert sorted(fourth.report.written) == sorted([victim, other])
    check_against_odc(fourth, items, RGB)


def test_failed_cells_leave_nothing_and_are_built_by_the_next_run(stac, tmp_path):
    """lc-d's red COG is missing: the cells it touches fail, each named with its error and the
    unreachable href; the others are built and catalogued; fixing the href builds the rest."""
    items = clone(stac["landsat"])
    lcd = next(it for it in items if it.id == "lc-d")
    good = lcd.assets["red"].href
    lcd.assets["red"].href = stac["url"]("missing_red.tif")
    out = tmp_path / "fail"
    kw = dict(bands=RGB, crs="EPSG:32621", resolution=30, tiles=GridSpec("EPSG:32621", (512, 512), 30), time="P1M")
    with pytest.raises(rumi.BuildError) as ei:
        rumi.build(items, out, **kw)
    err = ei.value
    failed = set(err.report.failed)
    assert failed and all(n.endswith("_2020-07.rumi") for n in failed)
    for name in failed:
        assert name in str(err) and "missing_red.tif (HTTP response code: 404)" in err.report.failed[name]
        assert not any(p.name.startswith(name) for p in out.iterdir())  # no file, sidecar or temporary
    assert err.catalog is not None and sorted(err.catalog.column("id")) == sorted(n[:-5] for n in err.report.written)
    assert sorted(rumi.Catalog.open(out / "catalog.parquet").column("id")) == sorted(err.catalog.column("id"))
    assert not any(p.name.endswith(tuple(f".tmp{i}" for i in range(10))) or ".tmp" in p.name for p in out.iterdir())

    lcd.assets["red"].href = good
    cat = rumi.build(items, out, **kw)
    assert set(cat.report.written) == failed and len(cat.report.skipped) == len(err.report.written)
    check_against_odc(cat, items, RGB)


# --- bad input --------------------------------------------------------------------------------


def _bad(stac, tmp_path, match, items=None, exc=ValueError, **kw):
    args = dict(bands=["vv"], crs="EPSG:32631", resolution=20)
    args.update(kw)
    out = tmp_path / "bad"
    with pytest.raises(exc, match=match):
        rumi.build(stac["s1"] if items is None else items, out, **args)
    assert not out.exists(), f"{out} was created"


def test_bad_input_is_refused_by_name_and_nothing_is_written(stac, tmp_path):
    _bad(stac, tmp_path, r"no STAC items to build from", items=[])
    _bad(stac, tmp_path, r"bands \['hh'\] are not in collection 's1' \(its bands: \['vv'\]\)", bands=["vv", "hh"])
    _bad(stac, tmp_path, r"crs 'EPSG:999999' is not a CRS PROJ knows", crs="EPSG:999999")
    _bad(stac, tmp_path, r"crs 'ESRI:53030' has no EPSG code", crs="ESRI:53030")
    _bad(stac, tmp_path, r"crs= and resolution= are required", resolution=None)
    _bad(stac, tmp_path, r"time='P1Q': a period is", time="P1Q")
    _bad(stac, tmp_path, r"end must be after start", time=[("2020-02-01", "2020-01-01")])
    _bad(stac, tmp_path, r"tiles must be None, an odc.geo GridSpec", tiles=[1, 2], exc=TypeError)
    _bad(stac, tmp_path, r"STAC items file .*nope.json does not exist", items=str(tmp_path / "nope.json"), exc=FileNotFoundError)
    _bad(stac, tmp_path, r"items\[1\] is not a STAC Item", items=[stac["s1"][0].to_dict(), {"type": "Feature"}])
    (tmp_path / "junk.json").write_text('{"type": "FeatureCollection"}')
    _bad(stac, tmp_path, r"junk.json is neither a STAC Item nor an ItemCollection", items=str(tmp_path / "junk.json"))
    _bad(stac, tmp_path, r"differs from the CRS of tiles", tiles=GridSpec("EPSG:32632", (256, 256), 20))
    # no item overlaps the cell: nothing to build
    far = GeoBox.from_bbox((0, 0, 2560, 2560), "EPSG:32631", resolution=20)
    _bad(stac, tmp_path, r"no item overlaps any cell", tiles=far, crs=None, resolution=None)


def test_unreachable_hrefs_are_named_and_nothing_is_written(stac, tmp_path):
    items = clone(stac["s1"])
    items[1].assets["vv"].href = stac["url"]("gone/s1_vv.tif")
    out = tmp_path / "unreach"
    with pytest.raises(rumi.BuildError) as ei:
        rumi.build(items, out, bands="vv", crs="EPSG:32631", resolution=20)
    msg = str(ei.value)
    assert "1 of 1 files failed" in msg and "all.rumi" in msg
    assert f"unreachable: {stac['url']('gone/s1_vv.tif')} (HTTP response code: 404)" in msg
    assert ei.value.catalog is None and not out.exists()


# --- time ranges (no data needed) -------------------------------------------------------------


def test_time_periods_and_ranges_name_their_files():
    from rumi._build import _time_ranges

    t = np.datetime64("2020-05-18T13:45:20")
    assert _time_ranges("P1Y")(t) == ("2020", "P1Y")
    assert _time_ranges("2Y")(t) == ("2020", "P2Y") and _time_ranges("P2Y")(np.datetime64("2021-12-31T23:59:59"))[0] == "2020"
    assert _time_ranges("P1M")(t)[0] == "2020-05" and _time_ranges("m")(t)[0] == "2020-05"
    assert [_time_ranges("P3M")(np.datetime64(d))[0] for d in ("2020-01-01", "2020-03-31T23:59:59", "2020-04-01", "2020-12-31")] == [
        "2020-01", "2020-01", "2020-04", "2020-10"]
    assert _time_ranges("P1W")(t)[0] == "2020-05-18"  # a Monday
    assert _time_ranges("P1W")(np.datetime64("2020-05-24T23:00"))[0] == "2020-05-18"  # Sunday: same ISO week
    assert _time_ranges("P1D")(t)[0] == "2020-05-18"
    # 10-day periods counted from 1970-01-01 (2020-05-18 is day 18400)
    assert [_time_ranges("P10D")(np.datetime64(d))[0] for d in ("2020-05-17", "2020-05-18", "2020-05-27T23:59")] == [
        "2020-05-08", "2020-05-18", "2020-05-18"]
    ex = _time_ranges([("2020-05-01", "2020-06-01T12:00:00Z"), "2020-06-01T12:00:00/2021-01-01"])
    assert ex(t)[0] == "20200501-20200601T120000"
    assert ex(np.datetime64("2020-06-01T12:00:00"))[0] == "20200601T120000-20210101"  # start inclusive, end exclusive
    assert ex(np.datetime64("2021-01-01")) is None and ex(np.datetime64("2020-04-30T23:59:59")) is None
    with pytest.raises(ValueError, match="overlap"):
        _time_ranges([("2020-01-01", "2020-03-01"), ("2020-02-01", "2020-04-01")])
    with pytest.raises(ValueError, match="2020-13-01.* is not an ISO 8601 time"):
        _time_ranges([("2020-13-01", "2021-01-01")])


# --- the plan: decided from the items and the manifest, no pixel loaded -----------------------

#: (id, datetime, upper-left corner in EPSG:32633, (rows, cols)) at 10 m: a and b share a
#: footprint in May (two solar days), c is 5 km east in June
SYNTHETIC = [
    ("a", "2020-05-03T10:00:00Z", (500000.0, 5000000.0), (1000, 1000)),
    ("b", "2020-05-20T10:00:00Z", (500000.0, 5000000.0), (1000, 1000)),
    ("c", "2020-06-10T10:00:00Z", (505000.0, 5000000.0), (1000, 1000)),
]


def _refuse_loads(monkeypatch, files=True):
    """odc.stac.load (and with files, any rasterio open) raises: planning must not need them."""
    def refuse(*a, **k):
        raise AssertionError("odc.stac.load was called while planning")

    monkeypatch.setattr(odc_stac, "load", refuse)
    if files:
        import rasterio

        def no_open(*a, **k):
            raise AssertionError(f"a source file was opened while planning: {a}")

        monkeypatch.setattr(rasterio, "open", no_open)


def _synthetic_plan(out, items, **kw):
    from rumi._build import plan_build

    args = dict(bands=RGB, crs="EPSG:32633", resolution=10, tiles=GridSpec("EPSG:32633", (512, 512), 10), time="P1M")
    args.update(kw)
    return plan_build(items, out, **args)


def test_plan_gives_cells_time_steps_and_bytes_without_reading_a_source(tmp_path, monkeypatch):
    """512 x 512 GridSpec cells (5120 m) over the items, by month: each month's footprint touches 3 x 3
    cells, May's files hold a and b as two time steps, June's c; the plan loads nothing, opens no
    source file and writes nothing, and prints its counts."""
    from rumi._build import BuildPlan

    _refuse_loads(monkeypatch)
    out = tmp_path / "plan"
    plan = _synthetic_plan(out, si.synthetic_items(SYNTHETIC))
    assert isinstance(plan, BuildPlan) and not out.exists()
    may = [f for f in plan.files if f.name.endswith("_2020-05.rumi")]
    june = [f for f in plan.files if f.name.endswith("_2020-06.rumi")]
    assert len(may) == len(june) == 9 and len(plan.files) == 18 and not plan.empty
    # cells are 5120 m: a and b (x 500000..510000) touch columns 97..99, c (505000..515000) 98..100
    assert {f.cell.split("_")[0] for f in may} == {"x97", "x98", "x99"}
    assert {f.cell.split("_")[0] for f in june} == {"x98", "x99", "x100"}
    assert all(tuple(f.items) == (0, 1) and f.steps == 2 and f.time_range == "P1M" for f in may)
    assert all(tuple(f.items) == (2,) and f.steps == 1 for f in june)
    assert plan.to_build == plan.files and plan.to_skip == () and len({f.fingerprint for f in plan.files}) == 18
    assert all(plan.shape(f) == (f.steps, 3, 512, 512) for f in plan.files)
    assert plan.itemsize == 2 and plan.raw_bytes() == (9 * 2 + 9 * 1) * 3 * 512 * 512 * 2
    assert plan.epsg == 32633 and plan.bands == tuple(RGB) and plan.write.tile == 256
    text = str(plan)
    assert "18 files: 18 to build, 0 up to date" in text and "EPSG:32633" in text and "MB raw" in text
    assert f"build {may[0].name}  2x3x512x512" in text
    assert repr(plan).endswith("18 files, 18 to build, 0 up to date>")
    assert len(plan.describe(limit=3).splitlines()) == 3 + 3 + 1  # the counts, 3 files, "... and 15 more"
    # the same arguments give the same plan; any parameter that changes pixels, other fingerprints
    again = _synthetic_plan(out, si.synthetic_items(SYNTHETIC))
    assert [(f.name, f.fingerprint) for f in again.files] == [(f.name, f.fingerprint) for f in plan.files]
    other = _synthetic_plan(out, si.synthetic_items(SYNTHETIC), level=1)
    assert not {f.fingerprint for f in other.files} & {f.fingerprint for f in plan.files}
    # graph= (rumi.write's): another graph changes the fingerprints, the default keeps those of
    # files built before graph= existed; a name rumi does not know fails before anything is read
    fast = _synthetic_plan(out, si.synthetic_items(SYNTHETIC), graph="fast")
    assert fast.write.graph == "fast" and fast.write.kwargs()["graph"] == "fast"
    assert not {f.fingerprint for f in fast.files} & {f.fingerprint for f in plan.files}
    auto = _synthetic_plan(out, si.synthetic_items(SYNTHETIC), graph="auto")
    assert [f.fingerprint for f in auto.files] == [f.fingerprint for f in plan.files]
    with pytest.raises(ValueError, match=r"graph \"x\" is not one of: auto"):
        _synthetic_plan(out, si.synthetic_items(SYNTHETIC), graph="x")
    # one range over everything: one file per cell, all three items' groups
    whole = _synthetic_plan(out, si.synthetic_items(SYNTHETIC), time=None)
    assert len(whole.files) == 12 and max(f.steps for f in whole.files) == 3


def test_plan_skips_what_the_manifest_records_and_rebuilds_what_changed(tmp_path, monkeypatch):
    """Files the manifest records with this fingerprint, whose size and header sidecar match,
    are up to date; an item that changes ('updated') rebuilds its files only; a damaged sidecar
    rebuilds its file. No pixel is loaded and no source file opened."""
    import hashlib

    from rumi._build import BUILD_FORMAT, MANIFEST

    _refuse_loads(monkeypatch)
    out = tmp_path / "m"
    out.mkdir()
    items = si.synthetic_items(SYNTHETIC)
    first = _synthetic_plan(out, items)
    fps = {f.name: f.fingerprint for f in first.files}
    may = next(f for f in first.files if f.name.endswith("_2020-05.rumi"))
    june = next(f for f in first.files if f.name.endswith("_2020-06.rumi"))
    entries = {}
    for f in (may, june):  # as a build leaves them: the file, its header sidecar, its manifest entry
        (out / f.name).write_bytes(b"rumi" * 10)
        (out / (f.name + ".header")).write_bytes(f.name.encode())
        entries[f.name] = {"fingerprint": f.fingerprint, "size": 40, "header_sha256": hashlib.sha256(f.name.encode()).hexdigest()}
    (out / MANIFEST).write_text(json.dumps({"format": BUILD_FORMAT, "files": entries}))

    second = _synthetic_plan(out, items)
    assert {f.name for f in second.to_skip} == {may.name, june.name} and len(second.to_build) == 16
    assert {f.name: f.fingerprint for f in second.files} == fps and set(second.manifest) == {may.name, june.name}
    assert second.raw_bytes() == first.raw_bytes() - first.raw_bytes(may) - first.raw_bytes(june)
    text = str(second)
    assert "18 files: 16 to build, 2 up to date" in text and f"skip  {may.name}" in text

    items[1].properties["updated"] = "2026-02-01T00:00:00Z"  # b changed: May's files, not June's
    third = _synthetic_plan(out, items)
    assert {f.name for f in third.to_skip} == {june.name}
    assert {f.name for f in third.files if f.fingerprint != fps[f.name]} == {f.name for f in first.files if f.steps == 2}
    assert set(third.manifest) == {june.name}  # the entry of a file to rebuild is dropped

    (out / (june.name + ".header")).write_bytes(b"damaged")
    assert _synthetic_plan(out, items).to_skip == ()
    assert json.loads((out / MANIFEST).read_text())["files"] == entries  # planning writes nothing


def test_run_plan_builds_exactly_the_plan(stac, tmp_path, monkeypatch):
    """plan_build loads no pixel; run_plan writes its files to build in its order, with its
    fingerprints, items, shapes and raw bytes; the next plan finds them all up to date."""
    from rumi._build import plan_build, run_plan

    items = stac["landsat"]
    kw = dict(bands=["red"], crs="EPSG:32621", resolution=60, tiles=GridSpec("EPSG:32621", (256, 256), 60), time="P1M")
    out = tmp_path / "p"
    with monkeypatch.context() as m:
        _refuse_loads(m, files=False)  # the files' own nodata is read from their headers, not pixels
        plan = plan_build(items, out, **kw)
    assert plan.to_build == plan.files and len(plan.files) >= 4 and not out.exists()
    cat = run_plan(plan)
    r = cat.report
    assert r.written == [f.name for f in plan.files] and r.raw_bytes == plan.raw_bytes()
    manifest = json.loads((out / "rumi-build.json").read_text())["files"]
    for f in plan.files:
        e = manifest[f.name]
        assert e["fingerprint"] == f.fingerprint and e["shape"] == list(plan.shape(f))
        assert e["items"] == [plan.items[i].id for i in f.items]
    with monkeypatch.context() as m:
        _refuse_loads(m, files=False)
        again = plan_build(items, out, **kw)
    assert again.to_build == () and [f.name for f in again.to_skip] == [f.name for f in plan.files]
    assert run_plan(again).report.skipped == [f.name for f in plan.files]


# --- s3:// destination (moto) -----------------------------------------------------------------


def test_s3_destination_equals_the_local_build_and_reruns_skip(stac, moto, tmp_path, monkeypatch):
    """Cells uploaded by rumi.to_rumi, the manifest and catalogue put through the core's store: the objects
    are the local build's files byte for byte (header blobs, pixels), the catalogue opens from
    S3, a re-run skips everything, and no multipart upload is left pending."""
    boto3 = pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1"}.items():
        monkeypatch.setenv(k, v)
    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket="rumi-build")
    items = stac["landsat"]
    kw = dict(bands=RGB, crs="EPSG:32621", resolution=30, tiles=GridSpec("EPSG:32621", (600, 600), 30), time="P1M")
    local = rumi.build(items, tmp_path / "local", **kw)
    url = "s3://rumi-build/landsat/v1"
    cat = rumi.build(items, url + "/", **kw)
    assert cat.path == f"{url}/catalog.parquet"
    assert sorted(cat.report.written) == sorted(local.report.written)
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket="rumi-build", Prefix="landsat/v1/")["Contents"]}
    assert keys == {f"landsat/v1/{p.name}" for p in (tmp_path / "local").iterdir()}  # .rumi, .header, .aux.xml (July)
    assert any(k.endswith(".aux.xml") for k in keys)
    sizes = dict(zip(local.column("id"), local.column("rumi:file_size")))
    nodata = dict(zip(local.column("id"), local.column("rumi:nodata")))
    assert [0.0, 0.0, 0.0] in nodata.values()  # July: lc-d's warped collar
    for row in cat.table.to_pylist():
        name = row["id"] + ".rumi"
        assert row["location"] == f"{url}/{name}" and row["rumi:file_size"] == sizes[row["id"]]
        assert row["rumi:nodata"] == nodata[row["id"]]  # read from the .aux.xml object beside it
        body = s3.get_object(Bucket="rumi-build", Key=f"landsat/v1/{name}.header")["Body"].read()
        assert body == (tmp_path / "local" / (name + ".header")).read_bytes()
        with rumi.open(row["location"]) as ds:
            np.testing.assert_array_equal(ds.read(), rumi.open(tmp_path / "local" / name).read())
    again = rumi.build(items, url, **kw)
    assert again.report.written == [] and sorted(again.report.skipped) == sorted(local.report.written)
    assert not s3.list_multipart_uploads(Bucket="rumi-build").get("Uploads")


def test_a_killed_build_resumes_where_it_stopped(stac, tmp_path):
    """rumi-build killed with SIGKILL after a few files: the next run skips exactly the files
    the manifest had recorded, builds the rest, and the folder holds the files, their sidecars,
    the manifest and the catalogue, and nothing else (no temporary, no spool, no partial file)."""
    import signal
    import time

    items = stac["landsat"]
    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    out = tmp_path / "killed"
    script = Path(sys.executable).parent / "rumi-build"
    need(script.exists(), f"the rumi-build console script is not installed beside {sys.executable}")
    args = ["--bands", *RGB, "--crs", "EPSG:32621", "--resolution", "30", "--tile-size", "512", "--time", "P1M"]
    proc = subprocess.Popen([str(script), str(coll), str(out), *args, "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    done_at_kill = None
    while time.time() < deadline and proc.poll() is None:
        try:
            files = json.loads((out / "rumi-build.json").read_text())["files"]
        except (OSError, ValueError):
            files = {}
        if len(files) >= 3:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            done_at_kill = set(json.loads((out / "rumi-build.json").read_text())["files"])
            break
        time.sleep(0.05)
    else:
        proc.kill()
        proc.wait()
        pytest.fail(f"rumi-build ended (rc {proc.returncode}) before 3 files were built: {proc.stderr.read().decode()[-2000:]}")
    cat = rumi.build(items, out, bands=RGB, crs="EPSG:32621", resolution=30,
                     tiles=GridSpec("EPSG:32621", (512, 512), 30), time="P1M")
    r = cat.report
    assert set(r.skipped) == done_at_kill and len(r.written) + len(r.skipped) == len(cat) >= 10
    assert not set(r.written) & done_at_kill
    names = {p.name for p in out.iterdir()}
    allowed = {"catalog.parquet", "rumi-build.json"} | {n + s for n in r.written + r.skipped for s in ("", ".header", ".aux.xml")}
    assert names <= allowed, f"left behind: {sorted(names - allowed)}"
    check_against_odc(cat, items, RGB)


def test_anchor_center_keeps_landsat_pixels_as_they_are(stac, tmp_path):
    """Landsat's pixel edges sit at 15 m offsets: with anchor='center' (rumi-build --anchor
    center) the output grid is the source grid, and a file holds the COG's own samples, checked
    against the COG read with rasterio (no odc-stac on this side)."""
    import rasterio

    items = stac["landsat"]
    cat = rumi.build(items, tmp_path / "c", bands=["red"], crs="EPSG:32621", resolution=30, anchor="center")
    with rumi.open(cat.row(0)["location"]) as ds:
        a, (x0, y0) = ds.read(), (ds.transform.c, ds.transform.f)
        times = list(ds.times.astype("datetime64[s]"))
    assert x0 % 30 == 15 and y0 % 30 == 15
    june = times.index(np.datetime64("2020-06-03T13:45:10"))  # lc-b alone
    with rasterio.open(stac["root"] / "lc-b_red.tif") as f:
        src, t = f.read(1), f.transform
    r0, c0 = round((y0 - t.f) / 30), round((t.c - x0) / 30)
    np.testing.assert_array_equal(a[june, 0, r0:r0 + src.shape[0], c0:c0 + src.shape[1]], src)
    outside = np.ones(a.shape[2:], bool)
    outside[r0:r0 + src.shape[0], c0:c0 + src.shape[1]] = False
    assert not a[june, 0][outside].any()  # nothing but lc-b in June
    # the script: a GridSpec whose cells line up the same way
    script = Path(sys.executable).parent / "rumi-build"
    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    r = subprocess.run([str(script), str(coll), str(tmp_path / "g"), "--bands", "red", "--crs", "EPSG:32621",
                        "--resolution", "30", "--tile-size", "512", "--anchor", "center", "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for p in (tmp_path / "g").glob("*.rumi"):
        with rumi.open(p) as ds:
            assert ds.transform.c % 30 == 15 and ds.transform.f % 30 == 15


def test_an_interrupt_stops_the_build_before_the_next_cell(stac, tmp_path):
    """Ctrl-C (here raised by the progress callback once the first file is written): no further
    cell starts, the interrupt propagates, and the next run builds everything not recorded."""
    items = stac["landsat"]
    out = tmp_path / "intr"
    kw = dict(bands=["red"], crs="EPSG:32621", resolution=30, tiles=GridSpec("EPSG:32621", (512, 512), 30))

    def stop(line):
        if " MB -> " in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        rumi.build(items, out, cells_in_flight=1, progress=stop, **kw)
    assert len(list(out.glob("*.rumi"))) == 1 and not (out / "rumi-build.json").exists()
    cat = rumi.build(items, out, **kw)
    assert len(cat.report.written) == len(cat) >= 6 and not cat.report.skipped


def test_items_without_a_sample_type_are_loaded_as_float32_and_said_so(stac, tmp_path):
    """Items without raster:bands data_type (made by hand, as a new user does): odc-stac loads
    their bands as float32, so rumi.build warns, naming the bands and the files' own type; with
    dtype= the files keep it and nothing is said."""
    import warnings

    items = clone(stac["landsat"][:1])
    for it in items:
        for a in it.assets.values():
            a.extra_fields.pop("raster:bands", None)
    kw = dict(bands=["blue", "red"], crs="EPSG:32621", resolution=120)
    with pytest.warns(UserWarning, match=r"no sample type for bands blue, red .*as float32.*the first item's blue "
                                         r"is uint16.*dtype='uint16'"):
        cat = rumi.build(items, tmp_path / "f", **kw)
    with rumi.open(cat.row(0)["location"]) as ds:
        assert ds.dtype == np.float32
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        cat = rumi.build(items, tmp_path / "u", dtype="uint16", **kw)
        rumi.build(stac["landsat"][:1], tmp_path / "typed", **kw)  # the raster extension: no warning
    assert not [w for w in seen if "no sample type" in str(w.message)], [str(w.message) for w in seen]
    with rumi.open(cat.row(0)["location"]) as ds:
        assert ds.dtype == np.uint16


# --- any output CRS ---------------------------------------------------------------------------


@pytest.mark.parametrize("crs,res", [("EPSG:32621", 60), ("EPSG:4326", 0.0006)], ids=["utm", "geographic"])
def test_any_output_crs_equals_odc_stac(stac, tmp_path, crs, res):
    """A projected and a geographic output CRS (odc-stac names the latter's dims latitude and
    longitude): one cube over the items has odc.stac.load's own grid (CRS, transform, shape) and
    pixels; GridSpec cells in that CRS are the grid's tiles and equal odc.stac.load on each;
    the rumi-build script writes the same files."""
    items = stac["landsat"]
    one = rumi.build(items, tmp_path / "one", bands=RGB, crs=crs, resolution=res)
    ref = odc_stac.load(items, bands=RGB, crs=crs, resolution=res, groupby="solar_day", chunks={})  # lazy: its grid
    with rumi.open(one.row(0)["location"]) as ds:
        assert ds.crs == crs and (ds.height, ds.width) == ref.odc.geobox.shape
        assert tuple(ds.transform)[:6] == pytest.approx(tuple(ref.odc.geobox.affine)[:6], rel=0, abs=1e-12)
        assert ds.shape[:2] == (ref.sizes["time"], 3)
    check_against_odc(one, items, RGB)

    grid = GridSpec(crs, (256, 256), res)
    cells = rumi.build(items, tmp_path / "grid", bands=RGB, crs=crs, resolution=res, tiles=grid, time="P1M")
    assert len(cells) >= 4 and not cells.report.failed
    for row in cells.table.to_pylist():
        ix, iy = (int(v[1:]) for v in row["id"].split("_")[:2])
        with rumi.open(row["location"]) as ds:
            assert GeoBox((ds.height, ds.width), ds.transform, ds.crs) == grid.tile_geobox((ix, iy))
    check_against_odc(cells, items, RGB)

    script = Path(sys.executable).parent / "rumi-build"
    need(script.exists(), f"the rumi-build console script is not installed beside {sys.executable}")
    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    r = subprocess.run([str(script), str(coll), str(tmp_path / "cli"), "--bands", *RGB, "--crs", crs, "--resolution",
                        str(res), "--tile-size", "256", "--time", "P1M", "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for row in cells.table.to_pylist():
        name = row["id"] + ".rumi"
        assert (tmp_path / "cli" / (name + ".header")).read_bytes() == (tmp_path / "grid" / (name + ".header")).read_bytes()
        np.testing.assert_array_equal(rumi.open(tmp_path / "cli" / name).read(), rumi.open(row["location"]).read())


# --- nodata from the source files -------------------------------------------------------------


def _aux_nodata(text):
    import xml.etree.ElementTree as ET

    return {int(b.get("band")): b.findtext("NoDataValue") for b in ET.fromstring(text).findall("PAMRasterBand")}


def test_nodata_comes_from_the_source_files_when_the_items_give_none(stac, moto, tmp_path, monkeypatch):
    """Items without raster:bands (so odc-stac knows no nodata) built with dtype='uint16': the
    nodata is the COGs' own, read from their headers (red 65535, green 9, set by gdalwarp
    -dstnodata; lc-a's COGs have none, so the value comes from the next item). odc-stac fills
    with it, so each band equals odc.stac.load(..., nodata=<the COGs'>), where the plain load
    leaves 0 outside the footprints; the .aux.xml sidecar (local, and beside an s3:// object)
    and the catalogue hold it; a rewrite keeps it."""
    root = Path(stac["root"])
    for band, nd in (("red", 65535), ("green", 9)):
        si.warp(root / f"lc-b_{band}.tif", root / f"nd-b_{band}.tif", nodata=nd)
    lcb = next(it for it in stac["landsat"] if it.id == "lc-b")
    entries = [("nd-b", lcb.datetime.isoformat(), {"red": "nd-b_red.tif", "green": "nd-b_green.tif"})]
    warped = si.make_items(root, stac["url"](""), entries, "landsat")
    lca = next(it for it in stac["landsat"] if it.id == "lc-a")
    items = si.strip_raster_bands(clone([lca]) + warped)  # lc-a first: a file without nodata is passed over
    bands = ["red", "green"]
    kw = dict(bands=bands, crs="EPSG:32621", resolution=60, dtype="uint16")
    out = tmp_path / "nd"
    cat = rumi.build(items, out, **kw)
    assert cat.row(0)["rumi:nodata"] == [65535.0, 9.0]
    aux = _aux_nodata((out / "all.rumi.aux.xml").read_text())
    assert set(aux.values()) == {"65535", "9"} and aux[1] == "65535" and aux[2] == "9"

    chunks = json.loads((out / "rumi-build.json").read_text())["files"]["all.rumi"]["chunks"]
    with rumi.open(out / "all.rumi") as ds:
        data, gbox = ds.read(), GeoBox((ds.height, ds.width), ds.transform, ds.crs)
        assert ds.dtype == np.uint16 and ds.shape[0] == 2
    plain = odc_stac.load(items, bands=bands, geobox=gbox, groupby="solar_day", chunks=chunks, dtype="uint16")
    for k, (b, nd) in enumerate((("red", 65535), ("green", 9))):
        ref = odc_stac.load(items, bands=[b], geobox=gbox, groupby="solar_day", chunks=chunks, dtype="uint16", nodata=nd)
        np.testing.assert_array_equal(data[:, k], ref[b].values, err_msg=b)
        # where the plain load has 0: no source pixel (now nd) or lc-a's own zeros (its COGs have no nodata)
        zero = data[:, k][plain[b].values == 0]
        assert np.isin(zero, [0, nd]).all() and (zero == nd).mean() > 0.5
        assert (data[:, k] != nd).any()

    # a rewrite (another OpenZL level) keeps the sidecar and the catalogue's nodata; a re-run skips
    again = rumi.build(items, out, level=1, **kw)
    assert again.report.written == ["all.rumi"] and again.row(0)["rumi:nodata"] == [65535.0, 9.0]
    assert _aux_nodata((out / "all.rumi.aux.xml").read_text()) == aux
    assert rumi.build(items, out, level=1, **kw).report.skipped == ["all.rumi"]

    # the script, and an s3:// destination: the .aux.xml object beside the file, the same catalogue
    boto3 = pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1"}.items():
        monkeypatch.setenv(k, v)
    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket="rumi-build-nodata")
    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    script = Path(sys.executable).parent / "rumi-build"
    need(script.exists(), f"the rumi-build console script is not installed beside {sys.executable}")
    r = subprocess.run([str(script), str(coll), "s3://rumi-build-nodata/v1", "--bands", *bands, "--crs", "EPSG:32621",
                        "--resolution", "60", "--dtype", "uint16", "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    body = s3.get_object(Bucket="rumi-build-nodata", Key="v1/all.rumi.aux.xml")["Body"].read()
    assert _aux_nodata(body) == aux
    remote = rumi.Catalog.open("s3://rumi-build-nodata/v1/catalog.parquet")
    assert remote.row(0)["rumi:nodata"] == [65535.0, 9.0]
    with rumi.open("s3://rumi-build-nodata/v1/all.rumi") as ds:
        np.testing.assert_array_equal(ds.read(), data)


def test_source_nodata_the_output_type_cannot_hold_is_refused(stac, tmp_path):
    """The Sentinel-1 COGs' own nodata is -99 (float32): without raster:bands, dtype='uint16'
    cannot hold it, and the build is refused by name (file, value, type, what to pass) before
    anything is written, by rumi.build and by rumi-build; int16 holds it; a float32 output keeps
    odc-stac's NaN, onto which odc-stac maps the files' -99, and records it."""
    items = si.strip_raster_bands(clone(stac["s1"]))
    kw = dict(bands="vv", crs="EPSG:32631", resolution=40)
    msg = (r"band vv: .*/s1-2015-03-09_vv.tif has nodata -99, which a uint16 output cannot hold .*pass nodata= "
           r"\(rumi-build --nodata\) with a uint16 value, or a dtype= that holds -99")
    _bad(stac, tmp_path, msg, items=items, dtype="uint16", **kw)
    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    script = Path(sys.executable).parent / "rumi-build"
    need(script.exists(), f"the rumi-build console script is not installed beside {sys.executable}")
    r = subprocess.run([str(script), str(coll), str(tmp_path / "cli"), "--bands", "vv", "--crs", "EPSG:32631",
                        "--resolution", "40", "--dtype", "uint16"], capture_output=True, text=True)
    assert r.returncode == 2 and "which a uint16 output cannot hold" in r.stderr and not (tmp_path / "cli").exists()
    # given nodata= wins over the files'
    cat = rumi.build(items, tmp_path / "given", dtype="uint16", nodata=0, **kw)
    assert cat.row(0)["rumi:nodata"] == [0.0]

    cat = rumi.build(items, tmp_path / "i16", dtype="int16", **kw)
    assert cat.row(0)["rumi:nodata"] == [-99.0]
    ref = odc_stac.load(items, bands=["vv"], crs="EPSG:32631", resolution=40, groupby="solar_day", dtype="int16", nodata=-99)
    with rumi.open(cat.row(0)["location"]) as ds:
        np.testing.assert_array_equal(ds.read()[:, 0], ref.vv.values)
    assert (ref.vv.values == -99).any()

    with pytest.warns(UserWarning, match="no sample type"):
        cat = rumi.build(items, tmp_path / "f32", **kw)
    (nd,) = cat.row(0)["rumi:nodata"]
    assert np.isnan(nd)
    ref = odc_stac.load(items, bands=["vv"], crs="EPSG:32631", resolution=40, groupby="solar_day")
    with rumi.open(cat.row(0)["location"]) as ds:
        np.testing.assert_array_equal(ds.read()[:, 0], ref.vv.values)
    assert np.isnan(ref.vv.values).any() and not (ref.vv.values == -99).any()


# --- times ------------------------------------------------------------------------------------


def test_sub_second_item_times_are_rounded_with_a_warning(stac, tmp_path):
    """rumi files store whole seconds: an item time of 17:30:17.700 is stored as 17:30:18 (the
    nearest second) with a warning naming the change, never cut to 17:30:17; its time range is
    the stored time's."""
    items = clone(stac["s1"])
    items[0].datetime = items[0].datetime.replace(microsecond=700000)
    kw = dict(bands="vv", crs="EPSG:32631", resolution=40)
    change = r"fraction of a second.*stored rounded to the nearest second: 2015-03-09T17:30:17\.700000 -> 2015-03-09T17:30:18"
    with pytest.warns(UserWarning, match=change):
        cat = rumi.build(items, tmp_path / "t", **kw)
    with rumi.open(cat.row(0)["location"]) as ds:
        assert list(ds.times.astype("datetime64[s]")) == [np.datetime64("2015-03-09T17:30:18"),
                                                          np.datetime64("2017-03-09T05:43:56")]
    with pytest.warns(UserWarning, match=change):
        cat = rumi.build(items, tmp_path / "r", time=[("2015-03-09T17:30:18", "2016-01-01")], **kw)
    with rumi.open(cat.row(0)["location"]) as ds:
        assert list(ds.times.astype("datetime64[s]")) == [np.datetime64("2015-03-09T17:30:18")]


# --- the script's --workers -------------------------------------------------------------------


def test_workers_without_distributed_is_a_clear_error(tmp_path, monkeypatch, capsys):
    """rumi-build --workers N runs a dask.distributed LocalCluster: without the distributed
    package the script says so and what to install (exit status 2), and writes nothing."""
    from rumi._build import main

    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    out = tmp_path / "w"
    rc = main([str(tmp_path / "items.json"), str(out), "--bands", "vv", "--crs", "EPSG:32631", "--resolution", "20",
               "--workers", "2"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "--workers" in err and "distributed" in err and "pip install 'rumi[stac]'" in err
    assert not out.exists()


# --- a year of dates: blocks of tiles ---------------------------------------------------------


def test_a_year_of_dates_plans_blocks_of_tiles_whatever_the_cell_width():
    """A cell of T = 192 dates x 4 bands: a tile row of 256 x 2048 is 805 MB raw, so blocks (and
    odc-stac load chunks) are single tiles of all dates and bands, 100 MB whatever the width;
    cells whose tile rows fit keep blocks of tile rows."""
    from rumi._build.run import block_chunks

    tile = 192 * 4 * 256 * 256 * 2
    for X in (2048, 4096, 10980):
        assert block_chunks(192, 4, 2048, X, 2, 256, None, 256) == ({"time": 192, "x": 256, "y": 256}, tile)
    # 512-pixel tiles: one tile is the block
    assert block_chunks(192, 4, 2048, 2048, 2, 512, None, 512) == ({"time": 192, "x": 512, "y": 512}, 4 * tile)
    # 16 dates: four tiles fit in 32 MiB; 3 dates: whole tile rows, as before
    assert block_chunks(16, 4, 2048, 2048, 2, 256, None, 256) == ({"time": 16, "x": 1024, "y": 256}, 4 * 16 * 4 * 256 * 256 * 2)
    assert block_chunks(3, 4, 2048, 2048, 2, 256, None, 256) == ({"x": 2048, "y": 512}, 3 * 4 * 2048 * 2 * 512)
    # chunks given: the user's, blocks of tile rows
    assert block_chunks(192, 4, 2048, 2048, 2, 256, {"x": 512, "y": 256}, 256) == ({"x": 512, "y": 256}, 192 * 4 * 2048 * 2 * 256)


def _spy_blocks(monkeypatch):
    """The shapes of the blocks rumi.to_rumi encodes (dask's threads)."""
    import rumi._to_rumi as tr

    seen = []
    real = tr.encode_block

    def spy(block, spec, row, col=None):
        seen.append((np.shape(block), row, col))
        return real(block, spec, row, col)

    monkeypatch.setattr(tr, "encode_block", spy)
    return seen


def test_blocks_of_tiles_write_the_file_of_blocks_of_tile_rows(monkeypatch, tmp_path):
    """to_rumi of a dask cube whose tile row exceeds block_bytes encodes blocks of tiles (the
    largest handed to the writer: 2 tiles of all T and B) and writes, byte for byte, the file of
    one tile row per block; frame units 9 (tiles) and 4 (cells)."""
    da_ = pytest.importorskip("dask.array")
    xr = pytest.importorskip("xarray")
    T, B, Y, X = 12, 2, 80, 100  # tiles of 16: 5 tile rows, 7 tile columns (the last 4 wide)
    rng = np.random.default_rng(3)
    base = rng.integers(0, 3000, (1, B, Y, X))
    cube = (base + np.arange(T)[:, None, None, None] * 40 + rng.integers(0, 30, (T, B, Y, X))).astype("uint16")
    da = xr.DataArray(da_.from_array(cube, chunks=(1, 1, 16, 50)), dims=("time", "band", "y", "x"))
    kw = dict(bands=["a", "b"], times=[f"2021-01-{d + 1:02d}" for d in range(T)], crs="EPSG:32633",
              geotransform=(500000, 10, 0, 4100000, 0, -10), tile=16)
    row = T * B * 16 * X * 2  # one tile row
    for unit in (9, 4):
        seen = _spy_blocks(monkeypatch)
        rumi.to_rumi(da, tmp_path / f"rows{unit}.rumi", block_bytes=row, frame_unit=unit, **kw)
        assert {(s, c) for s, _, c in seen} == {((T, B, 16, X), None)}
        seen.clear()
        rumi.to_rumi(da, tmp_path / f"tiles{unit}.rumi", block_bytes=2 * T * B * 16 * 16 * 2, frame_unit=unit, **kw)
        assert max(int(np.prod(s)) * 2 for s, _, _ in seen) == 2 * T * B * 16 * 16 * 2
        assert sorted((r, c) for _, r, c in seen) == [(r, c) for r in range(0, Y, 16) for c in range(0, X, 32)]
        assert (tmp_path / f"tiles{unit}.rumi").read_bytes() == (tmp_path / f"rows{unit}.rumi").read_bytes()
        with rumi.open(tmp_path / f"tiles{unit}.rumi") as ds:
            np.testing.assert_array_equal(ds.read(), cube)


def test_a_cell_whose_tile_row_exceeds_the_block_size_is_built_in_tiles(stac, tmp_path, monkeypatch):
    """rumi.build of a cell whose tile row is larger than BLOCK_BYTES (here lowered to two tiles
    of all dates and bands, as a year of dates makes a real one) loads and encodes blocks of two
    tiles: the manifest's load chunks say so, no block handed to the writer is larger, and the
    file is byte for byte the build of one tile row per block. The items of one UTM zone, pixels
    aligned (anchor center): odc-stac's reprojected pixels (lc-d) depend on its chunks."""
    import rumi._to_rumi as tr

    items = [it for it in stac["landsat"] if it.id != "lc-d"]
    kw = dict(bands=RGB, crs="EPSG:32621", resolution=30, anchor="center")
    from rumi._build import plan_build

    plan = plan_build(items, tmp_path / "p", **kw)
    T, (Y, X) = plan.to_build[0].steps, plan.to_build[0].geobox.shape
    tiles2 = 2 * T * 3 * 256 * 256 * 2
    seen = _spy_blocks(monkeypatch)
    monkeypatch.setattr(tr, "BLOCK_BYTES", T * 3 * 256 * X * 2)  # one tile row per block
    rows = rumi.build(items, tmp_path / "rows", **kw)
    assert all(c is None and s[:2] == (T, 3) and s[2] <= 256 and s[3] == X for s, _, c in seen)
    assert len(seen) == -(-Y // 256)
    seen.clear()
    monkeypatch.setattr(tr, "BLOCK_BYTES", tiles2)
    cat = rumi.build(items, tmp_path / "tiles", **kw)
    entry = json.loads((tmp_path / "tiles" / "rumi-build.json").read_text())["files"]["all.rumi"]
    assert entry["chunks"] == {"time": T, "x": 512, "y": 256}
    assert max(int(np.prod(s)) * 2 for s, _, _ in seen) == tiles2
    assert len(seen) == -(-Y // 256) * -(-X // 512) and all(c is not None for _, _, c in seen)
    assert (tmp_path / "tiles" / "all.rumi").read_bytes() == (tmp_path / "rows" / "all.rumi").read_bytes()
    check_against_odc(cat, items, RGB)
    assert rows.column("id") == cat.column("id")


def test_a_date_range_over_built_cubes_reads_only_its_dates(stac, tmp_path):
    """The catalogue of a build records each Cube's dates (rumi:times): a ChipDataset asking for a
    date range gets those dates only and decodes only their frames (frame unit 9, the Cubes'
    default: one frame per tile, date and band)."""
    pytest.importorskip("torch")
    import rumi.torch as rt

    cat = rumi.build(stac["landsat"], tmp_path / "year", bands=RGB, crs="EPSG:32621", resolution=30)
    with rumi.open(cat.row(0)["location"]) as ds:
        assert ds.frame_unit == 9
        times = ds.times.astype("datetime64[s]")
        T = len(times)
        want = ds.read(window=(0, 0, 256, 256))
    assert T == 3 and [str(t) for t in np.asarray(cat.row(0)["rumi:times"], "datetime64[s]")] == [str(t) for t in times]
    day = str(times[1])[:10]
    full = rt.ChipDataset(cat, size=256)
    one = rt.ChipDataset(cat, size=256, time=(day, day))
    assert [str(t) for t in one.times[0]] == [str(times[1])]
    a, b = full.__getitems__([(0, 0, 0)]), one.__getitems__([(0, 0, 0)])
    assert (a["stats"]["frames"], b["stats"]["frames"]) == (T * 3, 3)  # a tile: all dates' frames, then one date's
    np.testing.assert_array_equal(b["image"][0].numpy(), want[1:2])
    np.testing.assert_array_equal(a["image"][0].numpy(), want)


def test_classes_declared_are_counted_and_false_records_none(stac, tmp_path, capsys):
    """rumi.build(classes=) as Catalog.build's: False records no class counts (an empty list a
    row); {band: [values]} counts those values of that band per step and tile (bounds that hold
    numpy's counts over the built file's pixels, exact where a value is absent from a tile), the
    files themselves up to date (only the catalogue changes); a declared band the build does not
    write is refused by name, nothing written."""
    items = stac["landsat"]
    kw = dict(bands=["red", "green"], crs="EPSG:32621", resolution=60)
    out = tmp_path / "cls"
    cat = rumi.build(items, out, classes=False, **kw)
    assert len(cat) >= 1 and all(r == [] for r in cat.column("rumi:classes"))
    with rumi.open(cat.row(0)["location"]) as ds:
        px = ds.read()[:, 1]  # green (T, Y, X)
        tile = ds.tile_shape
    v, n = np.unique(px[px != 0], return_counts=True)
    vals = sorted(int(x) for x in v[np.argsort(n)[-3:]]) + [65535 - 7]  # three frequent values and an absent one
    again = rumi.build(items, out, classes={"green": vals}, **kw)
    assert again.report.written == [] and again.report.skipped
    r = again.row(0)
    [e] = r["rumi:classes"]
    assert e["band"] == 1 and e["values"] == vals
    from rumi.catalog.classes import unpack_classes

    cc = unpack_classes(r["rumi:classes"], r["rumi:shape"], r["rumi:tile_shape"])[1]
    T, Y, X = px.shape
    th, tw = tile
    for ty in range(-(-Y // th)):
        for tx in range(-(-X // tw)):
            blk = px[:, ty * th:(ty + 1) * th, tx * tw:(tx + 1) * tw]
            want = np.stack([(blk == x).sum(axis=(1, 2)) for x in vals], -1)  # (T, K)
            assert (cc.lo[:, ty, tx] <= want).all() and (want <= cc.hi[:, ty, tx]).all()
            np.testing.assert_array_equal(cc.hi[:, ty, tx][want == 0], 0)
    assert cc.hi[..., 3].max() == 0 and cc.lo[..., :3].sum() > 0
    assert rumi.plan_build(items, out, classes={"green": vals}, exact_classes=True, **kw).classes.exact  # kept for the catalogue
    # the console script's --classes: 'none' as classes=False (a fresh folder), a band by name as ["green"]
    from rumi._build.cli import main

    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    args = [str(coll), "--bands", "red", "green", "--crs", "EPSG:32621", "--resolution", "60", "-q"]
    assert main([*args[:1], str(tmp_path / "cli"), *args[1:], "--classes", "none"]) == 0
    assert all(r == [] for r in rumi.Catalog.open(tmp_path / "cli" / "catalog.parquet").column("rumi:classes"))
    # green declared categorical: counted, so refused for its thousands of values (the option reached the build)
    assert main([*args[:1], str(tmp_path / "cli2"), *args[1:], "--classes", "green", "--exact-classes"]) == 2
    assert "band 1 is declared categorical (classes=) but has more than 1024 distinct values" in capsys.readouterr().err
    _bad(stac, tmp_path, r"rumi.build: classes= declares the bands \['nir'\] categorical, the files' bands are \['vv'\]",
         classes=["nir"])
