"""rumi.Catalog: GeoParquet 1.1 catalogue of rumi files (issue 16)."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rumi

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pyproj = pytest.importorskip("pyproj")
shapely = pytest.importorskip("shapely")

REPO = Path(__file__).resolve().parents[2]


def make_files(d: Path):
    """Three files written by rumi.write: two uint16 Cubes in EPSG:32633 (2020 and 2021), one
    float32 Image in EPSG:4326. Returns {name: (path, array)}."""
    rng = np.random.default_rng(7)
    out = {}
    a = rng.integers(0, 60000, size=(3, 2, 300, 520), dtype=np.uint16)
    p = d / "a.rumi"
    rumi.write(p, a, bands=["red", "nir"], times=["2020-01-01", "2020-02-01", "2020-03-01"], crs="EPSG:32633",
               geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), tile=64)
    out["a"] = (p, a)
    b = rng.integers(0, 60000, size=(3, 2, 260, 300), dtype=np.uint16)
    p = d / "b.rumi"
    rumi.write(p, b, bands=["red", "nir"], times=["2021-01-01", "2021-02-01", "2021-03-01"], crs="EPSG:32633",
               geotransform=(505200.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), tile=64)
    out["b"] = (p, b)
    c = rng.standard_normal(size=(1, 1, 90, 120)).astype(np.float32)
    p = d / "c.rumi"
    rumi.write(p, c, bands=["dem"], times=[("2019-01-01", "2020-01-01")], crs="EPSG:4326",
               geotransform=(10.0, 0.01, 0.0, 46.0, 0.0, -0.01), tile=32)
    out["c"] = (p, c)
    for _, (p, _) in out.items():
        os.unlink(f"{p}.header")  # the catalogue carries the blobs
    return out


@pytest.fixture()
def files(tmp_path):
    return make_files(tmp_path)


@pytest.fixture()
def cat(files, tmp_path):
    return rumi.Catalog.build([str(p) for p, _ in files.values()], tmp_path / "cat.parquet")


def test_schema_and_geoparquet_metadata(cat, files, tmp_path):
    t = pq.read_table(tmp_path / "cat.parquet")
    from rumi.catalog import schema

    assert t.schema.remove_metadata().equals(schema())
    assert t.column("id").to_pylist() == ["a", "b", "c"]
    geo = json.loads(t.schema.metadata[b"geo"])
    assert geo["version"] == "1.1.0" and geo["primary_column"] == "geometry"
    col = geo["columns"]["geometry"]
    assert col["encoding"] == "WKB" and pyproj.CRS.from_json_dict(col["crs"]).to_epsg() == 4326
    assert col["covering"]["bbox"]["xmin"] == ["bbox", "xmin"]
    # STAC-style columns
    assert t.column("proj:code").to_pylist() == ["EPSG:32633", "EPSG:32633", "EPSG:4326"]
    assert t.column("proj:shape").to_pylist() == [[300, 520], [260, 300], [90, 120]]
    assert t.column("proj:transform").to_pylist()[0] == [10.0, 0.0, 500000.0, 0.0, -10.0, 5100000.0]
    assert t.column("rumi:file_size").to_pylist() == [os.path.getsize(p) for p, _ in files.values()]
    assert t.column("rumi:bands").to_pylist() == [["red", "nir"], ["red", "nir"], ["dem"]]
    assert t.column("rumi:shape").to_pylist()[0] == [3, 2, 300, 520]
    assert t.column("rumi:dtype").to_pylist() == ["uint16", "uint16", "float32"]
    assert t.column("rumi:tile_shape").to_pylist() == [[64, 64], [64, 64], [32, 32]]
    for (p, _), blob in zip(files.values(), t.column("rumi:header").to_pylist()):
        ds = rumi.open(p)
        # the spec's size: a 32-byte header and N packed counts of count_bits (byte 31) each
        assert blob == ds.header
        assert len(blob) == 32 + -(-ds.frame_count * blob[31] // 8)
        assert len(blob) < os.path.getsize(p) // 10
    # a T=1 instant has datetime; Cubes and intervals have start/end
    dt = t.column("datetime").to_pylist()
    assert dt == [None, None, None]
    assert str(t.column("start_datetime")[0].as_py())[:10] == "2020-01-01"
    assert str(t.column("end_datetime")[0].as_py())[:10] == "2020-03-01"
    assert str(t.column("end_datetime")[2].as_py())[:10] == "2020-01-01"
    # footprint = the grid corners projected with pyproj
    tr = pyproj.Transformer.from_crs(32633, 4326, always_xy=True)
    poly = shapely.from_wkb(t.column("geometry")[0].as_py())
    for x, y in [(500000, 5100000), (505200, 5100000), (505200, 5097000), (500000, 5097000)]:
        lon, lat = tr.transform(x, y)
        assert poly.exterior.distance(shapely.Point(lon, lat)) < 1e-9
    bb = t.column("bbox")[2].as_py()
    assert bb == pytest.approx({"xmin": 10.0, "ymin": 45.1, "xmax": 11.2, "ymax": 46.0})


def test_geopandas_reads_it(cat, tmp_path):
    gpd = pytest.importorskip("geopandas")
    g = gpd.read_parquet(tmp_path / "cat.parquet")
    assert g.crs.to_epsg() == 4326 and len(g) == 3
    assert g.geometry.iloc[2].bounds == pytest.approx((10.0, 45.1, 11.2, 46.0))
    assert list(g["id"]) == ["a", "b", "c"]


def test_search(cat):
    assert len(cat) == 3
    # bbox in EPSG:4326 around file c only
    assert cat.search(bbox=(10.5, 45.5, 10.6, 45.6)).column("id") == ["c"]
    # bbox in the files' UTM CRS: inside a only, inside b only, straddling both
    assert cat.search(bbox=(500100, 5099000, 500200, 5099100), crs="EPSG:32633").column("id") == ["a"]
    assert cat.search(bbox=(506000, 5099000, 506100, 5099100), crs="EPSG:32633").column("id") == ["b"]
    assert cat.search(bbox=(505000, 5099000, 505400, 5099100), crs="EPSG:32633").column("id") == ["a", "b"]
    assert len(cat.search(bbox=(-10, -10, -9, -9))) == 0
    # time: an instant, a range, an interval file
    assert cat.search(time="2020-02-01").column("id") == ["a"]
    assert cat.search(time=("2020-02-15", "2021-01-01")).column("id") == ["a", "b"]
    assert cat.search(time="2019-06-01").column("id") == ["c"]
    assert cat.search(time=("2022-01-01", None)).column("id") == []
    # a swapped window is an error, not an empty answer (which would pass for "no such files")
    with pytest.raises(rumi.RequestError, match=r"time window \('2021-01-01', '2020-02-15'\): its start is after its end"):
        cat.search(time=("2021-01-01", "2020-02-15"))
    assert cat.search(time=("2020-02-01", "2020-02-01")).column("id") == ["a"]  # one day: start = end is a window
    # bands, and combinations
    assert cat.search(bands=["nir"]).column("id") == ["a", "b"]
    assert cat.search(bands=["dem", "red"]).column("id") == []
    assert cat.search(bands=["red"]).search(time="2021-03-01").column("id") == ["b"]
    assert cat.filter_crs("EPSG:4326").column("id") == ["c"]


def test_dataset_from_row_reads_the_pixels(cat, files):
    for i, (p, arr) in enumerate(files.values()):
        ds = cat.dataset(i)
        np.testing.assert_array_equal(ds.read(), arr)
        np.testing.assert_array_equal(ds.read(t=[1 % arr.shape[0]], b=[0], window=(5, 7, 20, 30)),
                                      arr[[1 % arr.shape[0]]][:, [0], 5:25, 7:37])


def test_changed_or_moved_file_is_reported(cat, files):
    p, arr = files["a"]
    with open(p, "ab") as f:
        f.write(b"\0")
    with pytest.raises(rumi.FormatError, match=r"a\.rumi changed since it was catalogued: \d+ bytes, the catalogue recorded \d+"):
        cat.dataset(0)
    os.unlink(p)
    with pytest.raises(rumi.RumiIOError, match="a.rumi"):
        cat.dataset(0)
    # the other rows are untouched
    np.testing.assert_array_equal(cat.dataset(1).read(), files["b"][1])


def test_pickle_is_small_whatever_the_size(cat, tmp_path):
    from rumi.catalog import Catalog, write_table

    big = pa.concat_tables([cat.table] * 4000)  # 12,000 rows
    write_table(big, tmp_path / "big.parquet")
    bigcat = Catalog.open(tmp_path / "big.parquet")
    assert len(bigcat) == 12000
    sel = bigcat.search(bands=["red"], time=("2020-01-01", "2020-12-31"))
    assert len(sel) == 4000
    blob = pickle.dumps(sel)
    assert len(blob) < 1000, len(blob)
    back = pickle.loads(blob)
    assert len(back) == 4000 and back.column("id")[:2] == ["a", "a"]
    # a catalogue that changed on disk since is refused, not silently replayed
    write_table(cat.table, tmp_path / "big.parquet")
    with pytest.raises(rumi.FormatError, match="changed since it was opened"):
        pickle.loads(blob)


def test_not_a_catalogue(tmp_path):
    pq.write_table(pa.table({"x": [1]}), tmp_path / "x.parquet")
    with pytest.raises(rumi.FormatError, match="not a rumi catalogue"):
        rumi.Catalog.open(tmp_path / "x.parquet")
    with pytest.raises(rumi.RumiIOError, match="nope.parquet"):
        rumi.Catalog.open(tmp_path / "nope.parquet")


def test_build_rejects_a_bad_file(files, tmp_path):
    bad = tmp_path / "bad.rumi"
    bad.write_bytes(b"RUMI" + b"\0" * 20)
    with pytest.raises(rumi.FormatError, match="bad.rumi"):
        rumi.Catalog.build([str(bad)], tmp_path / "x.parquet")
    assert not (tmp_path / "x.parquet").exists()
    cat = rumi.Catalog.build([str(files["a"][0]), str(bad)], tmp_path / "x.parquet", on_error="skip")
    assert cat.column("id") == ["a"]


def test_console_script_build_search_vrt(files, tmp_path):
    """`rumi-catalog` (the package's console script, [project.scripts]): the same table as
    rumi.Catalog.build; errors on stderr with exit code 1."""
    exe = Path(sys.executable).parent / "rumi-catalog"
    assert exe.exists(), f"{exe}: the rumi package installs a rumi-catalog script"
    cmd = [str(exe)]
    out = tmp_path / "cli.parquet"
    r = subprocess.run(cmd + ["build", *(str(p) for p, _ in files.values()), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "3 files" in r.stdout
    t = pq.read_table(out)
    from rumi.catalog import schema

    assert t.schema.remove_metadata().equals(schema())
    assert t.drop_columns(["rumi:header"]).equals(
        rumi.Catalog.build([str(p) for p, _ in files.values()], tmp_path / "api.parquet").table.drop_columns(["rumi:header"]))
    r = subprocess.run(cmd + ["search", str(out), "--bands", "nir", "--time", "2021-01-01", "2021-12-31"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.split() == ["b"], (r.stdout, r.stderr)
    r = subprocess.run(cmd + ["vrt", str(out), "-o", str(tmp_path / "m.vrt")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "one CRS" in r.stderr, r.stderr  # a (32633) and c (4326): no mosaic
    r = subprocess.run(cmd + ["build", str(tmp_path / "missing.rumi"), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 1 and "missing.rumi" in r.stderr and r.stderr.startswith("rumi-catalog: ")
    r = subprocess.run(cmd + ["--help"], capture_output=True, text=True)
    assert r.returncode == 0 and all(c in r.stdout for c in ("build", "search", "vrt"))


# --- GDAL: VRT mosaic through the plugin, GTI where GDAL has it ---------------------------------

PLUGIN = REPO / "target" / "release" / "libgdal_rumi.so"
SYS_PY = "/usr/bin/python3"


@pytest.fixture()
def plugin_env(tmp_path):
    if not PLUGIN.exists():
        pytest.skip(f"{PLUGIN} is not built (cargo build --release --lib)")
    if not shutil.which("gdal_translate"):
        pytest.skip("gdal_translate is not installed (gdal-bin)")
    d = tmp_path / "plugin"
    d.mkdir()
    shutil.copy2(PLUGIN, d / "gdal_RUMI.so")
    return dict(os.environ, GDAL_DRIVER_PATH=str(d))


def test_vrt_mosaic_opens_in_gdal(cat, files, tmp_path, plugin_env):
    sel = cat.search(bands=["red"])
    vrt = tmp_path / "m.vrt"
    sel.vrt(vrt, time_index=1, bands=["nir"])
    info = subprocess.run(["gdalinfo", "-json", str(vrt)], capture_output=True, text=True, env=plugin_env)
    assert info.returncode == 0, info.stderr
    j = json.loads(info.stdout)
    assert j["size"] == [820, 300] and j["geoTransform"] == [500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0]
    out = tmp_path / "m.tif"
    r = subprocess.run(["gdal_translate", "-q", str(vrt), str(out)], capture_output=True, text=True, env=plugin_env)
    assert r.returncode == 0, r.stderr
    tifffile = pytest.importorskip("tifffile")
    m = tifffile.imread(out)
    a, b = files["a"][1], files["b"][1]
    np.testing.assert_array_equal(m[:, :520], a[1, 1])
    np.testing.assert_array_equal(m[:260, 520:], b[1, 1])
    assert (m[260:, 520:] == 0).all()
    with pytest.raises(rumi.RequestError, match="one CRS"):
        cat.vrt(tmp_path / "x.vrt")


def _gti_python():
    """A python whose rasterio's GDAL has the GTI driver (>= 3.9): RUMI_GTI_PYTHON, else None."""
    p = os.environ.get("RUMI_GTI_PYTHON")
    if not p or not os.path.exists(p):
        return None
    r = subprocess.run([p, "-c", "import rasterio; from rasterio.drivers import raster_driver_extensions; "
                        "from rasterio.env import Env\nwith Env() as e: print('GTI' in e.drivers())"],
                       capture_output=True, text=True)
    return p if r.stdout.strip() == "True" else None


def _gti_index(py, sel, tmp_path):
    """The selection's catalogue file as the GTI index; when py's GDAL has GTI but no (Arrow)
    Parquet driver (the rasterio wheels), the same rows as a GeoPackage index."""
    from rumi.catalog import write_table

    idx = tmp_path / "idx.parquet"
    write_table(sel.table, idx)
    has_parquet = subprocess.run([py, "-c", "from rasterio.env import Env\nwith Env() as e: print('Parquet' in e.drivers())"],
                                 capture_output=True, text=True).stdout.strip() == "True"
    if not has_parquet:
        gpd = pytest.importorskip("geopandas")
        gpd.read_parquet(idx)[["id", "location", "geometry"]].to_file(tmp_path / "idx.gpkg", driver="GPKG")
        idx = tmp_path / "idx.gpkg"
    return idx


def test_gti_tile_index(cat, files, tmp_path):
    """The catalogue is a GDAL GTI tile index as it is: GeoParquet geometry + `location` field.
    Opening checks the index (extent, CRS, band count, type); reading pixels through GTI needs
    the plugin built for that GDAL (scripts/plugin-for-python.sh, RUMI_GTI_PLUGIN_DIR)."""
    py = _gti_python()
    if py is None:
        pytest.skip("no python whose GDAL has the GTI driver (>= 3.9): set RUMI_GTI_PYTHON "
                    "(scripts/test-wheels.sh runs this test with the rasterio 1.5 wheel's venv, python 3.12)")
    sel = cat.search(bands=["red"])
    idx = _gti_index(py, sel, tmp_path)
    code = f"""
import rasterio
with rasterio.Env():
    with rasterio.open("GTI:{idx}", RESX="0.0001", RESY="0.0001", BAND_COUNT="6", DATA_TYPE="UInt16") as ds:
        print(ds.driver, ds.crs.to_epsg(), ds.count, ds.dtypes[0], " ".join("%.6f" % v for v in ds.bounds))
"""
    env = dict(os.environ)
    env.pop("GDAL_DRIVER_PATH", None)
    if os.environ.get("RUMI_GTI_PLUGIN_DIR"):
        env["GDAL_DRIVER_PATH"] = os.environ["RUMI_GTI_PLUGIN_DIR"]
    r = subprocess.run([py, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    drv, epsg, count, dtype, *bounds = r.stdout.split()
    assert (drv, epsg, count, dtype) == ("GTI", "4326", "6", "uint16")
    bb = [sel.table.column("bbox").to_pylist()[i] for i in range(2)]
    want = (min(b["xmin"] for b in bb), min(b["ymin"] for b in bb), max(b["xmax"] for b in bb), max(b["ymax"] for b in bb))
    assert [float(v) for v in bounds] == pytest.approx(want, abs=2e-4)


def test_gti_reads_pixels(cat, files, tmp_path):
    """Pixels through GDAL's GTI driver with the catalogue as its tile index and the rumi plugin
    built for that GDAL (RUMI_GTI_PLUGIN_DIR, e.g. scripts/test-wheels.sh's plugin of the
    rasterio 1.5 wheel): a window across the seam of files a and b, every raster band (time t,
    band b of a file is GDAL band t * B + b + 1), equal to rumi's own read of the same area."""
    py = _gti_python()
    plugin = os.environ.get("RUMI_GTI_PLUGIN_DIR")
    if py is None or not plugin:
        pytest.skip("needs RUMI_GTI_PYTHON (a GDAL >= 3.9 with GTI) and RUMI_GTI_PLUGIN_DIR (the rumi plugin built "
                    "for that GDAL by scripts/plugin-for-python.sh; scripts/test-wheels.sh sets both)")
    # GTI selects tiles by the index's geometries in the index's CRS and mosaics a catalogue in
    # EPSG:4326 in that CRS (reprojecting each file); for an exact comparison the index is the
    # catalogue's rows (id, location) with the footprints in the files' CRS, EPSG:32633
    gpd = pytest.importorskip("geopandas")
    sel = cat.search(bands=["red"])  # a and b: EPSG:32633, 2 bands x 3 times
    idx = tmp_path / "idx32633.gpkg"
    sel.to_geopandas()[["id", "location", "geometry"]].to_crs(32633).to_file(idx, driver="GPKG")
    # the mosaic's grid: the files' CRS and resolution over their joint extent (no resampling)
    code = f"""
import sys, numpy as np, rasterio
from rasterio.windows import Window
opts = dict(SRS="EPSG:32633", RESX="10", RESY="10", MINX="500000", MINY="5097000", MAXX="508200", MAXY="5100000",
            BAND_COUNT="6", DATA_TYPE="UInt16")
with rasterio.open("GTI:{idx}", **opts) as ds:
    a = ds.read(window=Window(470, 90, 100, 120))  # cols 470..570 cross the seam at 520
    print(ds.driver, ds.width, ds.height, file=sys.stderr)
np.save("{tmp_path / 'gti.npy'}", a)
"""
    env = dict(os.environ, GDAL_DRIVER_PATH=plugin)
    r = subprocess.run([py, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stderr.split()[-3:] == ["GTI", "820", "300"], r.stderr
    got = np.load(tmp_path / "gti.npy")
    a, b = (rumi.open(files[n][0]).read(window=w) for n, w in (("a", (90, 470, 120, 50)), ("b", (90, 0, 120, 50))))
    want = np.concatenate([a, b], axis=3).reshape(6, 120, 100)  # (T, B) -> T * B + b bands
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


# --- nodata and the valid-fraction summary (issue 24) -------------------------------------------


def _floor255(valid, total):
    """The rumi:valid codes by search: 255 when all valid, else the largest c <= 254 with
    2**(-c/16) >= the nodata fraction."""
    def one(v, n):
        if v == n:
            return 255
        c = 254
        while 2.0 ** (-c / 16) * n < n - v:
            c -= 1
        return c

    return np.vectorize(one, otypes=[np.uint8])(np.asarray(valid, np.int64), np.asarray(total, np.int64))


def _tile_counts(a, nodata, tile):
    """(B, ty, tx) valid and total sample counts of a (T, B, Y, X) array, computed naively."""
    T, B, Y, X = a.shape
    ny, nx = -(-Y // tile[0]), -(-X // tile[1])
    v = np.zeros((B, ny, nx), np.int64)
    n = np.zeros((B, ny, nx), np.int64)
    for b in range(B):
        for i in range(ny):
            for j in range(nx):
                blk = a[:, b, i * tile[0]:(i + 1) * tile[0], j * tile[1]:(j + 1) * tile[1]]
                n[b, i, j] = blk.size
                v[b, i, j] = blk.size if nodata[b] is None else (np.count_nonzero(~np.isnan(blk)) if np.isnan(nodata[b])
                                                                 else np.count_nonzero(blk != nodata[b]))
    return v, n


def test_nodata_from_the_pam_sidecar_and_valid_summary(converted, tmp_path):
    """`rumi convert` keeps the source's nodata in <out>.aux.xml; the catalogue records it per
    band and the valid fraction per band and tile, floored to 1/255, equal to a count made on the
    GeoTIFF's own pixels (tifffile, no rumi)."""
    from conftest import DATA, tiff_pixels
    from rumi.catalog import unpack_valid, valid_fractions

    rgb = converted("rasterio_RGB.byte.tif")
    assert "<NoDataValue>0</NoDataValue>" in open(f"{rgb}.aux.xml").read()
    cat = rumi.Catalog.build([str(rgb)], tmp_path / "rgb.parquet")
    row = cat.row(0)
    assert row["rumi:nodata"] == [0.0, 0.0, 0.0]
    px = tiff_pixels(DATA / "rasterio_RGB.byte.tif")[np.newaxis]  # (1, 3, 718, 791)
    v, n = _tile_counts(px, [0, 0, 0], row["rumi:tile_shape"])
    got = unpack_valid(row["rumi:valid"], row["rumi:shape"], row["rumi:tile_shape"])
    assert got.shape == (3, 3, 4)
    np.testing.assert_array_equal(got, _floor255(v, n))
    assert got[:, :, 3].max() <= 1 and 140 < got[0, 1, 1] < 255  # the collar's east tiles; a centre tile
    from rumi.catalog import nodata_bound

    assert np.all(1 - nodata_bound(got) <= v / n)  # never more valid than it is
    assert np.all((1 - nodata_bound(got[:, 1, 1])) > 0.999)  # 99.91 % valid reads as > 99.9 %
    np.testing.assert_allclose(valid_fractions(rumi.open(rgb), [0, 0, 0]), v / n, rtol=0, atol=0)
    # LANDFIRE int16 with nodata 32767 (an irregular edge of the mapped area)
    elev = converted("lf_elev_220_mt_hood_utm.tif")
    r = rumi.Catalog.build([str(elev)], tmp_path / "e.parquet").row(0)
    assert r["rumi:nodata"] == [32767.0]
    v, n = _tile_counts(tiff_pixels(DATA / "lf_elev_220_mt_hood_utm.tif")[np.newaxis], [32767], r["rumi:tile_shape"])
    got = unpack_valid(r["rumi:valid"], r["rumi:shape"], r["rumi:tile_shape"])
    np.testing.assert_array_equal(got, _floor255(v, n))
    assert got.min() < 255 and got.max() == 255


def test_nodata_given_to_build_overrides_and_is_checked(files, tmp_path):
    from rumi.catalog import unpack_valid

    p, a = files["a"]
    # a sidecar saying 7 for band 0: overridden by nodata=
    with open(f"{p}.aux.xml", "w") as f:
        f.write('<PAMDataset><PAMRasterBand band="1"><NoDataValue>7</NoDataValue></PAMRasterBand></PAMDataset>')
    assert rumi.Catalog.build([str(p)], tmp_path / "s.parquet").row(0)["rumi:nodata"] == [7.0, None]
    nd = int(a[0, 1, 0, 0])  # a value that occurs in band 1
    row = rumi.Catalog.build([str(p)], tmp_path / "o.parquet", nodata=[None, nd]).row(0)
    assert row["rumi:nodata"] == [None, float(nd)]
    v, n = _tile_counts(a, [None, nd], (64, 64))
    got = unpack_valid(row["rumi:valid"], row["rumi:shape"], row["rumi:tile_shape"])
    np.testing.assert_array_equal(got, _floor255(v, n))
    assert got[0].min() == 255 and got[1, 0, 0] < 255  # band 0 has none; (0, 0) holds the value
    row = rumi.Catalog.build([str(p)], tmp_path / "n.parquet", nodata=nd).row(0)
    assert row["rumi:nodata"] == [float(nd), float(nd)]
    with pytest.raises(ValueError, match="nodata gives 3 values, the file has 2 bands"):
        rumi.Catalog.build([str(p)], tmp_path / "x.parquet", nodata=[1, 2, 3])
    with pytest.raises(ValueError, match="must be numbers or None"):
        rumi.Catalog.build([str(p)], tmp_path / "x.parquet", nodata=["a", 1])
    # a file without a sidecar and no nodata=: both columns null
    row = rumi.Catalog.build([str(files["b"][0])], tmp_path / "b.parquet").row(0)
    assert row["rumi:nodata"] is None and row["rumi:valid"] is None


def test_pam_sidecar_of_a_cube_and_bad_sidecars(files, tmp_path):
    """GDAL numbers a Cube's bands t * B + b + 1: band 3 of a 2-band file is band 0 at time 1;
    values that differ between time steps, and a sidecar that is not PAM, are clear errors."""
    from rumi.catalog import pam_nodata

    p = str(files["a"][0])
    aux = f"{p}.aux.xml"
    with open(aux, "w") as f:
        f.write('<PAMDataset><PAMRasterBand band="4"><NoDataValue>-5</NoDataValue></PAMRasterBand>'
                '<Subdataset name="1"><PAMDataset><PAMRasterBand band="1"><NoDataValue>9</NoDataValue>'
                '</PAMRasterBand></PAMDataset></Subdataset></PAMDataset>')
    assert pam_nodata(p, 2) == [None, -5.0]
    with open(aux, "w") as f:
        f.write('<PAMDataset><PAMRasterBand band="1"><NoDataValue>1</NoDataValue></PAMRasterBand>'
                '<PAMRasterBand band="3"><NoDataValue>2</NoDataValue></PAMRasterBand></PAMDataset>')
    with pytest.raises(rumi.FormatError, match=r"band 0 has nodata 1.0 at one time step and 2.0 at another"):
        rumi.Catalog.build([p], tmp_path / "x.parquet")
    with open(aux, "w") as f:
        f.write("<PAMDataset><PAMRasterBand band='1'><NoDataValue>x</NoDataValue></PAMRasterBand></PAMDataset>")
    with pytest.raises(rumi.FormatError, match="has nodata 'x', not a number"):
        rumi.Catalog.build([p], tmp_path / "x.parquet")
    with open(aux, "w") as f:
        f.write("<PAMDataset><unclosed>")
    with pytest.raises(rumi.FormatError, match="not a GDAL PAM sidecar"):
        rumi.Catalog.build([p], tmp_path / "x.parquet")


def test_nan_nodata_and_float16(tmp_path):
    from rumi.catalog import unpack_valid

    a = np.arange(2 * 40 * 50, dtype=np.float32).reshape(1, 2, 40, 50)
    a[0, 0, :25, :10] = np.nan
    a[0, 1, 30:, 40:] = -1
    rumi.write(tmp_path / "f.rumi", a.astype(np.float16), bands=["x", "y"], times=["2020-01-01"], crs="EPSG:32633",
               geotransform=(0.0, 1.0, 0.0, 0.0, 0.0, -1.0), tile=16)
    row = rumi.Catalog.build([str(tmp_path / "f.rumi")], tmp_path / "f.parquet", nodata=[float("nan"), -1]).row(0)
    assert np.isnan(row["rumi:nodata"][0]) and row["rumi:nodata"][1] == -1.0
    v, n = _tile_counts(a, [np.nan, -1.0], (16, 16))
    np.testing.assert_array_equal(unpack_valid(row["rumi:valid"], row["rumi:shape"], row["rumi:tile_shape"]),
                                  _floor255(v, n))


def test_old_catalogue_without_nodata_columns_opens(cat, tmp_path):
    from rumi.catalog import Catalog, write_table

    old = cat.table.drop_columns(["rumi:nodata", "rumi:valid"])
    write_table(old, tmp_path / "old.parquet")
    back = Catalog.open(tmp_path / "old.parquet")
    assert back.column("rumi:nodata") == [None] * 3 and back.column("rumi:valid") == [None] * 3
    assert back.search(bands=["red"]).column("id") == ["a", "b"]


def test_console_script_nodata(files, tmp_path):
    exe = Path(sys.executable).parent / "rumi-catalog"
    if not exe.exists():
        pytest.skip(f"{exe} is not installed")
    out = tmp_path / "nd.parquet"
    r = subprocess.run([str(exe), "build", str(files["b"][0]), "-o", str(out), "--nodata", "0", "5"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert pq.read_table(out).column("rumi:nodata").to_pylist() == [[0.0, 5.0]]


def test_rows_are_converted_once_and_copied(cat):
    n = len(cat)
    want = [cat.table.slice(i, 1).to_pylist()[0] for i in range(n)]
    assert [cat.row(i) for i in range(n)] == want
    assert cat.row(-1) == want[-1]
    cat.row(0)["location"] = "changed"  # a copy: the catalogue's row is not touched
    assert cat.row(0) == want[0]
    with pytest.raises(IndexError, match=f"row {n} of a catalogue of {n} rows"):
        cat.row(n)
    # past the cache's size, the row asked for alone
    big = rumi.Catalog(cat.table)
    big.ROWS_CACHED = 0
    assert big.row(n - 1) == want[-1] and big._rows is None


def test_objects_on_s3_record_their_size_and_are_checked(files, moto, monkeypatch, tmp_path):
    """An s3:// row records the object's size (one HEAD, as for http(s)), open_row checks it, the
    catalogue itself is written to and opened from s3, and a VRT names the object /vsis3/."""
    boto3 = pytest.importorskip("boto3")
    from rumi.catalog import Catalog, describe, write_table

    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}.items():
        monkeypatch.setenv(k, v)
    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket="cat")
    (pa_, _), (pb, b) = files["a"], files["b"]
    s3.upload_file(str(pa_), "cat", "x/a.rumi")
    s3.upload_file(str(pb), "cat", "x/b.rumi")
    row = describe("s3://cat/x/a.rumi")
    assert row["rumi:file_size"] == os.path.getsize(pa_) and row["location"] == "s3://cat/x/a.rumi" and row["id"] == "a"
    cat = Catalog.build(["s3://cat/x/a.rumi", "s3://cat/x/b.rumi"], "s3://cat/cat.parquet")
    assert cat.path == "s3://cat/cat.parquet" and cat.column("rumi:file_size") == [os.path.getsize(pa_), os.path.getsize(pb)]
    np.testing.assert_array_equal(cat.dataset(1).read(), b)
    sel = cat.search(bands=["red"])
    assert pickle.loads(pickle.dumps(sel)).column("id") == ["a", "b"]
    sel.vrt(tmp_path / "m.vrt")
    assert "/vsis3/cat/x/a.rumi</SourceFilename>" in (tmp_path / "m.vrt").read_text()
    write_table(cat.table, tmp_path / "copy.parquet")
    assert Catalog.open(tmp_path / "copy.parquet").table.equals(cat.table)
    # the object replaced by another of a different size: refused before its blob is used
    s3.upload_file(str(pb), "cat", "x/a.rumi")
    with pytest.raises(rumi.FormatError, match=r"s3://cat/x/a\.rumi changed since it was catalogued"):
        cat.dataset(0)
    s3.delete_object(Bucket="cat", Key="x/a.rumi")
    with pytest.raises(rumi.RumiIOError, match="a.rumi"):
        cat.dataset(0)


def test_vrt_band_types_are_the_drivers(tmp_path):
    """A VRT band has the data type the GDAL driver gives the encoding's bands (the core's table):
    float16 and float8 promoted to Float32."""
    types = {"uint8": "Byte", "int8": "Int8", "float16": "Float32", "float64": "Float64"}
    arrays = {k: np.zeros((1, 1, 16, 16), k) for k in types}
    try:
        import ml_dtypes as ml
    except ImportError:
        ml = None
    if ml is not None:
        arrays["float8_e4m3fn"] = np.zeros((1, 1, 16, 16), ml.float8_e4m3fn)
        types["float8_e4m3fn"] = "Float32"
    for name, a in arrays.items():
        p = tmp_path / f"{name}.rumi"
        rumi.write(p, a, bands=["x"], times=["2020-01-01"], crs="EPSG:32633",
                   geotransform=(0.0, 1.0, 0.0, 0.0, 0.0, -1.0), tile=16)
        rumi.Catalog.build([str(p)], tmp_path / f"{name}.parquet").vrt(tmp_path / f"{name}.vrt")
        assert f'dataType="{types[name]}"' in (tmp_path / f"{name}.vrt").read_text(), name


def test_vrt_carries_nodata_scale_offset_unit(tmp_path, plugin_env):
    """A VRT of rumi files keeps what GDAL reads of each file (the plugin): each band's nodata
    (the sources' nodata samples left out, as gdalbuildvrt does), scale, offset and unit; rows
    that give a band two of them are refused by name (the VRT dropped all four without a word)."""
    kw = dict(bands=["red", "nir"], times=["2020-01-01"], crs="EPSG:32633", tile=16)
    a = np.full((1, 2, 16, 16), 9000, np.uint16)
    a[:, :, :, 8:] = 0  # the right half of a is nodata: b's samples show under it
    b = np.full((1, 2, 16, 16), 7000, np.uint16)
    sc = dict(scales=[2.75e-5, 1e-4], offsets=[-0.2, -0.1], units=["1", None])
    rumi.write(tmp_path / "a.rumi", a, geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), nodata=0, **sc, **kw)
    rumi.write(tmp_path / "b.rumi", b, geotransform=(500080.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), nodata=0, **sc, **kw)
    cat = rumi.Catalog.build([str(tmp_path / "a.rumi"), str(tmp_path / "b.rumi")], tmp_path / "c.parquet")
    cat.vrt(tmp_path / "m.vrt")
    gi = json.loads(subprocess.run(["gdalinfo", "-json", str(tmp_path / "m.vrt")], capture_output=True, text=True,
                                   env=plugin_env, check=True).stdout)
    one = json.loads(subprocess.run(["gdalinfo", "-json", str(tmp_path / "a.rumi")], capture_output=True, text=True,
                                    env=plugin_env, check=True).stdout)
    for k in ("noDataValue", "scale", "offset", "unit"):
        assert [bd.get(k) for bd in gi["bands"]] == [bd.get(k) for bd in one["bands"]], k
    assert [bd.get("scale") for bd in gi["bands"]] == [2.75e-5, 1e-4]
    r = subprocess.run(["gdal_translate", "-q", str(tmp_path / "m.vrt"), str(tmp_path / "m.tif")], capture_output=True,
                       text=True, env=plugin_env)
    assert r.returncode == 0, r.stderr
    m = pytest.importorskip("tifffile").imread(tmp_path / "m.tif")
    np.testing.assert_array_equal(m[:, :8, 0], 9000)  # a's valid half
    np.testing.assert_array_equal(m[:, 8:, 0], 7000)  # b under a's nodata half
    np.testing.assert_array_equal(m[:, 24:, 0], 7000)
    rumi.write(tmp_path / "b.rumi", b, geotransform=(500080.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), nodata=0,
               scales=[2.75e-5, 2.75e-5], offsets=[-0.2, -0.2], units=["1", None], **kw)
    cat = rumi.Catalog.build([str(tmp_path / "a.rumi"), str(tmp_path / "b.rumi")], tmp_path / "d.parquet")
    with pytest.raises(rumi.RequestError, match=r"band nir has scale 0\.0001, offset -0\.1, unit '' in a and scale "
                                                r"2\.75e-05, offset -0\.2, unit '' in b: a VRT band has one"):
        cat.vrt(tmp_path / "x.vrt")
    cat.vrt(tmp_path / "red.vrt", bands=["red"])  # red agrees


def test_build_takes_a_folder_and_a_glob(files, tmp_path):
    """Catalog.build("folder/") and Catalog.build("folder/*.rumi") catalogue the folder's rumi
    files, as the CLI's shell expands them (once: "Is a directory"); an empty match is an error
    naming it."""
    want = sorted(str(p) for p, _ in files.values())
    sub = tmp_path / "nested"
    sub.mkdir()
    (tmp_path / "notes.txt").write_text("not a raster")
    for src in (str(tmp_path), str(tmp_path) + "/", str(tmp_path / "*.rumi"), tmp_path):
        cat = rumi.Catalog.build(src, tmp_path / "dir.parquet")
        assert sorted(cat.table.column("location").to_pylist()) == want, src
    with pytest.raises(ValueError, match="holds no .rumi file"):
        rumi.Catalog.build(sub, tmp_path / "none.parquet")
    with pytest.raises(ValueError, match="matches no file"):
        rumi.Catalog.build(str(tmp_path / "*.tif"), tmp_path / "none.parquet")
