"""rumi.open / read / write: pixels, metadata, selections, out= buffers, errors, sidecars."""

import os
import pickle
import warnings

import numpy as np
import pytest

import rumi
from affine import Affine
from conftest import tiff_geotransform, tiff_pixels

GT = (500000.0, 10.0, 0.0, 5000000.0, 0.0, -10.0)


def cube(T=3, B=2, Y=70, X=90, dtype=np.int16, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype) == np.bool_:
        return rng.integers(0, 2, (T, B, Y, X)).astype(bool)
    if np.dtype(dtype).kind == "c":
        return (rng.normal(size=(T, B, Y, X)) + 1j * rng.normal(size=(T, B, Y, X))).astype(dtype)
    if np.dtype(dtype).kind == "f":
        return rng.normal(size=(T, B, Y, X)).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, (T, B, Y, X), dtype=dtype, endpoint=True)


def write_cube(path, a, unit=None, tile=32, **kw):
    T, B = a.shape[:2]
    times = [f"2020-01-{d + 1:02d}" for d in range(T)]
    rumi.write(path, a, bands=[f"b{i}" for i in range(B)], times=times, crs="EPSG:32633", geotransform=GT,
               tile=tile, frame_unit=unit, **kw)
    return path


def test_transform_forms_round_trip(tmp_path):
    """The two explicit forms write the same grid, and what rasterio's transform / STAC's
    proj:transform give (affine order) comes back exactly: north-up, south-up and rotated. A bare
    tuple in affine order was once taken as GDAL order (a rotated grid thousands of km wide)."""
    a = np.arange(2 * 30 * 20, dtype=np.uint16).reshape(2, 30, 20)
    good = dict(bands=["a", "b"], times="2020-01-01", crs="EPSG:32633", tile=16)
    for t in (Affine(10.0, 0.0, 500000.0, 0.0, -10.0, 5000000.0),   # north-up
              Affine(10.0, 0.0, 500000.0, 0.0, 10.0, 4000000.0),    # south-up
              Affine(8.0, 3.0, 500000.0, 2.0, -9.0, 5000000.0)):    # rotated
        p1, p2 = tmp_path / "aff.rumi", tmp_path / "gdal.rumi"
        rumi.write(p1, a, transform=t, **good)
        rumi.write(p2, a, geotransform=t.to_gdal(), **good)
        with rumi.open(p1) as d1, rumi.open(p2) as d2:
            assert d1.transform == t and d2.transform == t
            assert d1.geotransform == t.to_gdal()
        stac = list(t)[:6]  # proj:transform
        with pytest.raises(ValueError, match="order rumi never guesses"):
            rumi.write(p1, a, transform=stac, **good)
        with pytest.raises(ValueError, match="order rumi never guesses"):
            rumi.write(p1, a, transform=np.array(stac), **good)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
                                   "float16", "float32", "float64", "complex64", "complex128"])
def test_round_trip_every_numpy_type(tmp_path, dtype):
    a = cube(dtype=dtype)
    p = write_cube(str(tmp_path / "c.rumi"), a)
    ds = rumi.open(p)
    assert ds.dtype == np.dtype(dtype)
    full = ds.read()
    assert full.dtype == a.dtype and full.shape == a.shape
    assert np.array_equal(full, a, equal_nan=a.dtype.kind in "fc")
    w = ds.read(t=[2, 0], b=1, window=(5, 40, 33, 50))
    assert np.array_equal(w, a[[2, 0]][:, [1], 5:38, 40:90], equal_nan=a.dtype.kind in "fc")


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"])
def test_round_trip_ml_dtypes(tmp_path, name):
    ml = pytest.importorskip("ml_dtypes")
    a = cube(dtype=np.float32).astype(getattr(ml, name))
    p = write_cube(str(tmp_path / "c.rumi"), a)
    ds = rumi.open(p)
    assert ds.dtype == np.dtype(getattr(ml, name))
    got = ds.read()
    assert got.dtype == a.dtype
    assert np.array_equal(got.view(np.uint8), a.view(np.uint8))


@pytest.mark.parametrize("unit", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
def test_every_frame_unit_reads_the_same_pixels(tmp_path, unit):
    a = cube(T=2, B=3, Y=50, X=40, dtype=np.uint16)
    try:
        p = write_cube(str(tmp_path / f"u{unit}.rumi"), a, unit=unit, tile=16)
    except ValueError as e:
        assert "frame_unit" in str(e)
        return
    ds = rumi.open(p)
    assert ds.frame_unit == unit
    assert np.array_equal(ds.read(), a)
    assert np.array_equal(ds.read(t=1, b=[2, 0, 2], window=(3, 7, 40, 30)), a[[1]][:, [2, 0, 2], 3:43, 7:37])


def test_write_picks_pixel_interleaved_cells_where_the_bands_share_their_texture(tmp_path):
    """rumi.write's frame unit, as rumi convert's: a multi-band image whose bands share their
    texture (the same noise, each band with its own offset and a little noise of its own) gets
    pixel-interleaved cells, independent bands keep band-planar ones; what is asked for and
    shapes that are not sampled keep the unit of their shape."""
    rng = np.random.default_rng(9)
    noise = rng.integers(0, 256, (200, 300), dtype=np.uint8)
    own = rng.integers(0, 3, (3, 200, 300), dtype=np.uint8)
    shared = noise[np.newaxis] + np.array([0, 40, 80], dtype=np.uint8)[:, np.newaxis, np.newaxis] + own
    independent = rng.integers(0, 256, (3, 200, 300), dtype=np.uint8)
    for name, a, unit in (("shared", shared, 2), ("independent", independent, 1), ("shared16", shared.astype(np.uint16) * 7, 2)):
        p = write_cube(str(tmp_path / f"{name}.rumi"), a[np.newaxis], tile=64)
        ds = rumi.open(p)
        assert ds.frame_unit == unit, name
        assert np.array_equal(ds.read()[0], a)
    # asked for, a cube, one band, 32-bit samples: the shape's unit, nothing sampled
    assert rumi.open(write_cube(str(tmp_path / "asked.rumi"), shared[np.newaxis], unit=1, tile=64)).frame_unit == 1
    assert rumi.open(write_cube(str(tmp_path / "cube.rumi"), np.stack([shared, shared]), tile=64)).frame_unit == 9
    assert rumi.open(write_cube(str(tmp_path / "one.rumi"), shared[np.newaxis, :1], tile=64)).frame_unit == 0
    wide = shared.astype(np.float32)[np.newaxis]
    assert rumi.open(write_cube(str(tmp_path / "f32.rumi"), wide, tile=64)).frame_unit == 1
    # a spec the writer refuses is still its message, not the sampler's
    with pytest.raises(ValueError, match="tile"):
        write_cube(str(tmp_path / "bad.rumi"), shared[np.newaxis], tile=0)


def test_metadata(tmp_path):
    a = cube(T=3, B=2)
    p = write_cube(str(tmp_path / "m.rumi"), a)
    ds = rumi.open(p)
    assert ds.shape == (3, 2, 70, 90)
    assert ds.bands == ["b0", "b1"]
    assert list(ds.times) == [np.datetime64("2020-01-01T00:00:00"), np.datetime64("2020-01-02T00:00:00"),
                              np.datetime64("2020-01-03T00:00:00")]
    assert ds.times.dtype == np.dtype("datetime64[s]")
    assert ds.crs == "EPSG:32633" and ds.crs_type == "projected" and ds.epsg == 32633
    assert ds.geotransform == GT
    assert ds.transform == Affine.from_gdal(*GT) and ds.transform.to_gdal() == GT
    assert ds.tile_shape == (32, 32)
    assert ds.frame_count == 3 * 3 * (6 if ds.frame_unit in (0, 9) else 1)  # tiles per (t, b), or cells
    with open(p + ".header", "rb") as f:
        assert ds.header == f.read()


def test_intervals_point_and_undefined(tmp_path):
    a = cube(T=2, B=1, dtype=np.float32)
    p = str(tmp_path / "i.rumi")
    rumi.write(p, a, bands=["dem"], times=[("2000-02-11", "2000-02-22"), "2000-03-01T12:00:00Z/2000-03-02"],
               crs=("EPSG:2056", "projected"), geotransform=GT, pixel_is_point=True)
    ds = rumi.open(p)
    assert ds.times.shape == (2, 2)
    assert ds.times[1, 0] == np.datetime64("2000-03-01T12:00:00")
    assert ds.pixel_is_point and ds.geotransform == GT  # GDAL's corner-based report of the same grid
    assert ds.transform == Affine.from_gdal(*GT)
    q = str(tmp_path / "u.rumi")
    rumi.write(q, a[0], bands=["x"], times=np.datetime64("2021-06-01T10:20:30"))
    u = rumi.open(q)
    assert u.crs is None and u.transform is None and u.geotransform is None and u.shape == (1, 1, 70, 90)
    assert u.times[0] == np.datetime64("2021-06-01T10:20:30")


def test_selections_getitem_and_out(tmp_path):
    a = cube(T=4, B=3, dtype=np.float32)
    ds = rumi.open(write_cube(str(tmp_path / "s.rumi"), a))
    assert np.array_equal(ds.read(t=slice(1, 4, 2), b=slice(None, None, -1)), a[1:4:2, ::-1])
    assert np.array_equal(ds.read(t=-1, b=[-1]), a[[-1]][:, [-1]])
    assert np.array_equal(ds[1, 2, 10:20, 30:35], a[1, 2, 10:20, 30:35])
    assert np.array_equal(ds[:, 0], a[:, 0])
    assert np.array_equal(ds[2, :, 5, 6:9], a[2, :, 5, 6:9])
    out = np.zeros((2, 3, 16, 16), np.float32)
    r = ds.read(t=[0, 3], window=(1, 2, 16, 16), out=out)
    assert r is out and np.array_equal(out, a[[0, 3], :, 1:17, 2:18])
    ba = bytearray(4 * 3 * 8 * 8)
    ds.read(t=0, window=(0, 0, 8, 8), out=ba)
    assert np.array_equal(np.frombuffer(ba, np.float32).reshape(1, 3, 8, 8), a[:1, :, :8, :8])
    with pytest.raises(TypeError, match="never casts"):
        ds.read(window=(0, 0, 8, 8), out=np.zeros((4, 3, 8, 8), np.float64))
    with pytest.raises(ValueError, match="bytes"):
        ds.read(window=(0, 0, 8, 8), out=bytearray(10))
    with pytest.raises(ValueError):
        ds.read(window=(0, 0, 8, 8), out=bytes(4 * 4 * 3 * 64))
    with pytest.raises(rumi.RequestError, match="outside"):
        ds.read(window=(60, 0, 20, 5))
    with pytest.raises(ValueError, match="outside"):
        ds.read(t=4)
    with pytest.raises(TypeError):
        ds.read(b=[0.5])
    assert ds.read(t=[], window=(0, 0, 3, 3)).shape == (0, 3, 3, 3)


def test_real_geotiffs_converted_by_the_cli(converted, data_dir):
    for name in ["naip_m_3607824_se_17_1_20160620_sub.tif", "rasterio_RGB.byte.tif",
                 "xrspatial_s2_4band_10m_uint16.tif", "eolearn_dem_float32.tif",
                 "S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif"]:
        extra = ("--allow-nodata-loss",) if name.startswith(("rasterio", "S1A")) else ()
        p = converted(name, *extra)
        src = tiff_pixels(data_dir / name)
        ds = rumi.open(str(p))
        assert ds.shape == (1,) + src.shape, name
        assert ds.dtype == src.dtype, name
        assert np.array_equal(ds.read()[0], src, equal_nan=True), name
        B, Y, X = src.shape
        win = (Y // 3, X // 4, min(100, Y - Y // 3), min(120, X - X // 4))
        got = ds.read(b=list(range(B))[::-1], window=win)
        r, c, h, w = win
        assert np.array_equal(got[0], src[::-1, r:r + h, c:c + w], equal_nan=True), name
        assert np.allclose(ds.geotransform, tiff_geotransform(data_dir / name)), name
        assert ds.crs.startswith("EPSG:"), name
        assert ds.times[0] == np.datetime64("2020-05-18T00:00:00")


def test_write_rejects_bad_arguments_and_leaves_nothing(tmp_path):
    a = cube(T=2, B=2, dtype=np.uint8)
    p = str(tmp_path / "bad.rumi")
    good = dict(bands=["a", "b"], times=["2020-01-01", "2020-01-02"])
    cases = [
        (ValueError, "bands", dict(good, bands=["a"])),
        (ValueError, "bands", dict(good, bands=["a", ""])),
        (ValueError, "times", dict(good, times=["2020-01-01"])),
        (ValueError, "not an ISO", dict(good, times=["2020-01-01", "yesterday"])),
        (ValueError, "mixes", dict(good, times=["2020-01-01", ("2020-01-02", "2020-01-03")])),
        (ValueError, "before", dict(good, times=["2020-01-02", "2020-01-01"])),
        (ValueError, "EPSG:9999 is not a CRS in PROJ's EPSG database", dict(good, crs="EPSG:9999", geotransform=GT)),
        (ValueError, "EPSG:1024 is not a CRS in PROJ's EPSG database", dict(good, crs=1024, geotransform=GT)),
        (ValueError, "EPSG:9999 is not a CRS", dict(good, crs=("EPSG:9999", "projected"), geotransform=GT)),
        (ValueError, "EPSG:4978 is a geocentric CRS", dict(good, crs="EPSG:4978", geotransform=GT)),
        (ValueError, "'projected' or 'geographic'", dict(good, crs=(4326, "flat"), geotransform=GT)),
        (ValueError, "go together", dict(good, crs="EPSG:4326")),
        (ValueError, "EPSG", dict(good, crs="+proj=merc +lon_0=3", geotransform=GT)),
        (ValueError, "tile", dict(good, tile=0)),
        (ValueError, "frame_unit", dict(good, frame_unit=0 + 12)),
        (ValueError, "finite", dict(good, crs="EPSG:4326", geotransform=(0, 1, 0, 0, 0, float("nan")))),
        (ValueError, "degenerate", dict(good, crs="EPSG:4326", geotransform=(0, 0, 0, 0, 0, -1))),
        (ValueError, r"bare numbers, whose order rumi never guesses.*affine\.Affine.*geotransform=",
         dict(good, crs="EPSG:32633", transform=GT)),
        (ValueError, "not both", dict(good, crs="EPSG:32633", transform=Affine.from_gdal(*GT), geotransform=GT)),
        (ValueError, "an affine.Affine goes to transform=", dict(good, crs="EPSG:32633", geotransform=Affine.from_gdal(*GT))),
    ]
    for exc, text, kw in cases:
        with pytest.raises(exc, match=text):
            rumi.write(p, a, **kw)
        assert os.listdir(tmp_path) == [], (text, os.listdir(tmp_path))
    with pytest.raises(TypeError, match="big-endian"):
        rumi.write(p, a.astype(">u2"), **good)
    with pytest.raises(TypeError, match="no sample encoding"):
        rumi.write(p, a.astype("U1"), **good)
    with pytest.raises(TypeError):
        rumi.write(p, a.tolist(), **good)
    assert os.listdir(tmp_path) == []


def test_write_replaces_atomically(tmp_path):
    p = str(tmp_path / "x.rumi")
    a = cube(T=1, B=1, dtype=np.uint8)
    rumi.write(p, a, bands=["a"], times="2020-01-01")
    before = open(p, "rb").read()
    with pytest.raises(ValueError):
        rumi.write(p, a, bands=["a"], times="2020-01-01", tile=0)
    assert open(p, "rb").read() == before and sorted(os.listdir(tmp_path)) == ["x.rumi", "x.rumi.header"]


def test_header_blob_sidecar_and_stale_sidecar(tmp_path):
    a = cube(T=2, B=2, dtype=np.int32)
    p = write_cube(str(tmp_path / "h.rumi"), a)
    blob = open(p + ".header", "rb").read()
    # explicit blob as bytes and as a path
    assert np.array_equal(rumi.open(p, header=blob).read(), a)
    assert np.array_equal(rumi.open(p, header=p + ".header").read(), a)
    # a sidecar of another file: warn naming the sidecar, parse the file, right pixels
    other = write_cube(str(tmp_path / "o.rumi"), cube(T=1, B=1, Y=20, X=20, dtype=np.int32))
    os.replace(other + ".header", p + ".header")
    with pytest.warns(RuntimeWarning, match=r"h\.rumi\.header"):
        ds = rumi.open(p)
    assert np.array_equal(ds.read(), a)
    # garbage sidecar: same
    with open(p + ".header", "wb") as f:
        f.write(b"LOVE" + os.urandom(60))
    with pytest.warns(RuntimeWarning, match="sidecar"):
        assert np.array_equal(rumi.open(p).read(), a)
    # an explicit header that does not match is an error naming the blob
    with pytest.raises(rumi.FormatError, match="header"):
        rumi.open(p, header=open(other + ".rumi.header", "rb").read() if os.path.exists(other + ".rumi.header") else b"LOVE" + bytes(28))
    bad = tmp_path / "bad.header"
    bad.write_bytes(open(p + ".header", "rb").read())
    with pytest.raises(rumi.FormatError, match="bad.header"):
        rumi.open(p, header=str(bad))
    # a valid sidecar: no warning
    rumi.write(p, a, bands=["b0", "b1"], times=["2020-01-01", "2020-01-02"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.array_equal(rumi.open(p).read(), a)


def test_errors_never_crash(tmp_path):
    a = cube(T=2, B=2, dtype=np.uint16)
    p = write_cube(str(tmp_path / "e.rumi"), a)
    raw = open(p, "rb").read()
    os.remove(p + ".header")
    rng = np.random.default_rng(1)
    q = str(tmp_path / "f.rumi")
    kinds = set()
    for i in range(150):
        b = bytearray(raw)
        if i % 3 == 0:
            b = b[: int(rng.integers(0, len(b)))]
        else:
            for _ in range(int(rng.integers(1, 8))):
                b[int(rng.integers(0, len(b)))] = int(rng.integers(0, 256))
        open(q, "wb").write(bytes(b))
        try:
            ds = rumi.open(q)
            got = ds.read()
            ds.bands, ds.times, ds.transform
        except rumi.RumiError as e:
            kinds.add(type(e).__name__)
            assert str(e)
        else:
            assert got.shape == a.shape
    assert "FormatError" in kinds
    with pytest.raises(rumi.RumiIOError, match="cannot open"):
        rumi.open(str(tmp_path / "missing.rumi"))
    with pytest.raises(rumi.FormatError, match="magic"):
        open(q, "wb").write(b"GIF89a" + bytes(300))
        rumi.open(q)


def test_limits_per_open(tmp_path):
    a = cube(T=2, B=2, dtype=np.uint16)
    p = write_cube(str(tmp_path / "l.rumi"), a)
    with pytest.raises(rumi.LimitError, match="max_read_bytes"):
        rumi.open(p, limits={"max_read_bytes": 1000}).read()
    assert rumi.open(p, limits={"max_read_bytes": 1000}).read(window=(0, 0, 5, 5)).shape == (2, 2, 5, 5)
    with pytest.raises(rumi.LimitError, match="frame"):
        rumi.open(p, limits={"max_frames": 2})
    with pytest.raises(ValueError, match="unknown limit"):
        rumi.open(p, limits={"max_cats": 2})


def test_pickle_is_small_and_reopens_statelessly(tmp_path):
    a = cube(T=3, B=2, Y=300, X=300, dtype=np.float32)
    p = write_cube(str(tmp_path / "p.rumi"), a)
    ds = rumi.open(p)
    s = pickle.dumps(ds)
    assert len(s) < len(p) + len(ds.header) + 400
    ds2 = pickle.loads(s)
    assert np.array_equal(ds2.read(window=(100, 100, 50, 50)), a[:, :, 100:150, 100:150])


def test_threads_give_identical_pixels(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    a = cube(T=2, B=3, Y=400, X=300, dtype=np.uint16)
    p = write_cube(str(tmp_path / "t.rumi"), a)
    ds = rumi.open(p, threads=2)
    rng = np.random.default_rng(3)
    wins = [(int(rng.integers(0, 300)), int(rng.integers(0, 200)), 100, 100) for _ in range(64)]

    def job(w):
        return ds.read(window=w, threads=int(1 + w[0] % 2))

    with ThreadPoolExecutor(8) as ex:
        outs = list(ex.map(job, wins))
    for (r, c, h, w), o in zip(wins, outs):
        assert np.array_equal(o, a[:, :, r:r + h, c:c + w])


def test_each_frame_fetched_and_decoded_once(tmp_path):
    a = cube(T=3, B=4, Y=200, X=200, dtype=np.uint16)
    for unit in (0, 4):
        ds = rumi.open(write_cube(str(tmp_path / f"o{unit}.rumi"), a, unit=unit, tile=64))
        ds.set_cache_bytes(0)
        got = ds.read(t=[2, 0], b=[3, 1, 3], window=(30, 50, 100, 120))
        assert np.array_equal(got, a[[2, 0]][:, [3, 1, 3], 30:130, 50:170])
        need = set(ds.frames_for(t=[2, 0], b=[3, 1, 3], window=(30, 50, 100, 120)))
        s = ds.last_stats
        assert s == {"frames": len(need), "cache_hits": 0, "decoded": len(need), "batches": 1,
                     "bytes_fetched": sum(ds.frame_range(f)[1] for f in need)}, (unit, s)


def test_crs_type_from_proj_database(tmp_path):
    """spec "Georeferencing": the type comes from the EPSG registry (PROJ's database through
    pyproj), never from the code's range; an explicit (code, type) is recorded as given."""
    a = cube(T=1, B=1, Y=16, X=16, dtype=np.uint8)
    p = str(tmp_path / "c.rumi")
    good = dict(bands=["a"], times=["2020-01-01"])
    for crs, kind in [("EPSG:2056", "projected"), ("EPSG:4326", "geographic"), (32633, "projected"),
                      ("epsg:4258", "geographic"), (3857, "projected"), (("EPSG:4326", "projected"), "projected")]:
        rumi.write(p, a, crs=crs, geotransform=(10, 0.1, 0, 50, 0, -0.1), **good)
        with rumi.open(p) as ds:
            assert (ds.crs_type, ds.epsg) == (kind, int(str(crs[0] if isinstance(crs, tuple) else crs).split(":")[-1])), crs
    assert rumi.crs_type(2056) == "projected" and rumi.crs_type(4326) == "geographic"
    with pytest.raises(ValueError, match="EPSG:9999"):
        rumi.crs_type(9999)


def test_crs_objects_naming_an_epsg_code_exactly(tmp_path):
    """crs=src.crs (a rasterio CRS) or a pyproj CRS is taken when it is an EPSG CRS exactly (the
    file then records the code rasterio reads from the GeoTIFF), by rumi.write and Writer alike; a
    custom CRS with no EPSG code is refused naming it, though rasterio's to_epsg() guesses the UTM
    zone it resembles."""
    rasterio = pytest.importorskip("rasterio")
    pyproj = pytest.importorskip("pyproj")
    a = cube(T=1, B=1, Y=16, X=16, dtype=np.uint8)
    good = dict(bands=["a"], times=["2020-01-01"], transform=Affine(10, 0, 500000, 0, -10, 5000000))
    for code in (32633, 4326):
        tif = str(tmp_path / f"s{code}.tif")
        with rasterio.open(tif, "w", driver="GTiff", width=16, height=16, count=1, dtype="uint8",
                           crs=f"EPSG:{code}", transform=good["transform"]) as dst:
            dst.write(a[0])
        with rasterio.open(tif) as src:
            given = [src.crs, pyproj.CRS.from_user_input(src.crs)]
            want = src.crs.to_epsg()
        for i, crs in enumerate(given):
            p = str(tmp_path / f"c{code}_{i}.rumi")
            rumi.write(p, a, crs=crs, **good)
            with rumi.open(p) as ds:
                assert ds.epsg == want == code, (code, crs)
            with rumi.Writer(p, shape=a.shape, dtype=a.dtype, crs=crs, **good) as w:
                w.write(a)
            with rumi.open(p) as ds:
                assert ds.epsg == code
    # UTM 33N's parameters and datum under no name: PROJ finds EPSG:32633 equivalent, so it is that CRS
    same = pyproj.CRS.from_proj4("+proj=tmerc +lat_0=0 +lon_0=15 +k=0.9996 +x_0=500000 +y_0=0 +datum=WGS84 +units=m")
    for i, crs in enumerate((rasterio.crs.CRS.from_wkt(same.to_wkt()), same, same.to_wkt())):
        rumi.write(str(tmp_path / f"same{i}.rumi"), a, crs=crs, **good)
        with rumi.open(str(tmp_path / f"same{i}.rumi")) as ds:
            assert ds.epsg == 32633
    # near matches: pyproj's to_epsg(min_confidence=70) names 25833 (3045 and 3006 match as well) for a UTM
    # zone of no datum, 32633 for one on the WGS 84 ellipsoid without its datum; rasterio's to_epsg() guesses
    near = {"+proj=utm +zone=33 +ellps=GRS80 +units=m": 25833, "+proj=utm +zone=33 +ellps=WGS84 +units=m": 32633}
    for proj4, guess in near.items():
        odd = pyproj.CRS.from_proj4(proj4)
        assert odd.to_epsg(min_confidence=70) == guess  # the guess rumi must not take
        for crs in (rasterio.crs.CRS.from_wkt(odd.to_wkt()), odd, odd.to_wkt()):
            with pytest.raises(ValueError, match="'unknown', which has no EPSG code.*EPSG:<code>"):
                rumi.write(str(tmp_path / "x.rumi"), a, crs=crs, **good)
    custom = pyproj.CRS.from_proj4("+proj=tmerc +lat_0=0 +lon_0=15 +k=0.9996 +x_0=500100 +y_0=0 +datum=WGS84 +units=m")
    with pytest.raises(ValueError, match="'unknown', which has no EPSG code.*EPSG:<code>"):
        rumi.write(str(tmp_path / "x.rumi"), a, crs=custom, **good)
    assert not os.path.exists(tmp_path / "x.rumi")


def test_reading_checks_the_code_against_proj_database(tmp_path):
    """A file whose EPSG code PROJ's database lacks (written here by the native writer, which
    does not look codes up) is a FormatError naming the code when the georeferencing is read;
    the pixels still read."""
    from rumi import _rumi

    a = cube(T=1, B=1, Y=16, X=16, dtype=np.uint8)
    p = str(tmp_path / "u.rumi")
    w = _rumi.NativeWriter(p, ((1, 1, 16, 16), "uint8", ["a"], "instant", [0],
                           (9999, "projected", "area", [10.0, 0.0, 0.0, 0.0, -10.0, 0.0]), (16, 16), None), ("auto", 7), 1)
    w.write_rows(0, a.reshape(-1).view(np.uint8))
    w.close()
    ds = rumi.open(p)
    assert np.array_equal(ds.read(), a)
    for attr in ("crs", "transform", "crs_type", "epsg"):
        with pytest.raises(rumi.FormatError, match="EPSG:9999 is not a CRS in PROJ's EPSG database"):
            getattr(ds, attr)


def test_close_and_context_manager(tmp_path):
    a = cube(T=2, B=2, dtype=np.uint16)
    p = write_cube(str(tmp_path / "c.rumi"), a)
    with rumi.open(p) as ds:
        assert not ds.closed
        assert np.array_equal(ds.read(), a)
        bands = ds.bands
    assert ds.closed and "closed" in repr(ds)
    # metadata already read stays; reads and the blob need the reader
    assert ds.shape == a.shape and ds.bands == bands == ["b0", "b1"]
    for call in (lambda: ds.read(), lambda: ds.read_tensor(), lambda: ds.header, lambda: ds[0],
                 lambda: ds.read_into(np.empty_like(a))):
        with pytest.raises(rumi.RequestError, match=r"rumi\.Dataset\('.*c\.rumi'\) is closed"):
            call()
    ds.close()  # twice: no-op
    with pytest.raises(ValueError, match="closed"):  # RequestError is a ValueError, as closed files
        pickle.dumps(ds)


def test_window_type_and_affine_transform(tmp_path):
    a = cube(T=2, B=3, Y=70, X=90, dtype=np.int16)
    ds = rumi.open(write_cube(str(tmp_path / "w.rumi"), a))
    w = rumi.Window(col_off=40, row_off=5, width=50, height=33)
    assert np.array_equal(ds.read(window=w), a[:, :, 5:38, 40:90])
    assert np.array_equal(ds.read(window=w), ds.read(window=(5, 40, 33, 50)))  # tuples: (row_off, col_off, height, width)
    assert w.toslices() == (slice(5, 38), slice(40, 90))
    assert rumi.Window.from_slices(slice(5, 38), slice(40, 90)) == w
    with pytest.raises(rumi.RequestError, match=r"Window\(col_off=60, row_off=0, width=40, height=10\) is outside the 70x90"):
        ds.read(window=rumi.Window(60, 0, 40, 10))
    with pytest.raises(TypeError, match="rumi.Window"):
        ds.read(window="all")
    stats = ds.read_into(out := np.empty((1, 1, 10, 10), np.int16), t=1, b=2, window=rumi.Window(0, 0, 10, 10))
    assert np.array_equal(out, a[1:2, 2:3, :10, :10]) and stats["frames"] >= 1 and stats == ds.last_stats
    # rasterio users: transform is an affine.Affine; pixel (col, row) -> map (x, y)
    t = ds.transform
    assert isinstance(t, Affine) and t @ (0, 0) == (GT[0], GT[3]) and t @ (90, 70) == (GT[0] + 900, GT[3] - 700)
    assert tuple(t)[:6] == (10.0, 0.0, GT[0], 0.0, -10.0, GT[3])
    # rumi.write takes the Affine back
    q = str(tmp_path / "a.rumi")
    rumi.write(q, a[0], bands=["x", "y", "z"], times="2020-01-01", crs="EPSG:32633", transform=t)
    assert rumi.open(q).transform == t


def test_native_results_are_typed(tmp_path):
    from rumi import _rumi

    ds = rumi.open(write_cube(str(tmp_path / "n.rumi"), cube(T=2, B=3, Y=20, X=30), unit=9, tile=16))
    info = ds.native.info()
    assert isinstance(info, _rumi.Info)
    assert (info.times, info.bands, info.length, info.width, info.frame_unit, info.frame_is_one_plane) == (2, 3, 20, 30, 9, True)
    g = ds.native.georef()
    assert isinstance(g, _rumi.GeoInfo) and (g.epsg, g.crs_type, g.raster_type) == (32633, "projected", "area")
    assert g.affine == (10.0, 0.0, GT[0], 0.0, -10.0, GT[3])
    tr = ds.native.trailer()
    assert tr.band_texts == ["b0", "b1", "b2"] and tr.time_kind == "instant" and len(tr.seconds) == 2
    with pytest.raises(AttributeError):
        info.width = 3  # frozen


def test_frame_planes_per_unit(tmp_path):
    """Units 0 and 9 hold one tile of one (band, time) plane per frame; the others every plane
    of their tile (spec "frame_unit")."""
    a = cube(T=2, B=3, Y=20, X=20, dtype=np.uint8)
    for unit in range(10):
        ds = rumi.open(write_cube(str(tmp_path / f"u{unit}.rumi"), a, unit=None if unit in (1, 2) else unit, tile=16))
        if unit in (1, 2):
            continue  # need B == 1 or T == 1
        assert ds.frame_holds_all_planes == (unit not in (0, 9)), unit
        assert ds.frame_count == 4 * (6 if unit in (0, 9) else 1), unit


def test_submodules_load_lazily_without_import_circles():
    import subprocess
    import sys

    code = ("import sys, rumi; assert 'rumi.catalog' not in sys.modules and 'rumi.xarray_backend' not in sys.modules; "
            "assert rumi.xarray_backend.RumiBackendEntrypoint and rumi.catalog.Catalog is rumi.Catalog; "
            "assert 'rumi.torch' not in sys.modules; print('ok')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    for mod in ("rumi.catalog", "rumi.xarray_backend", "rumi._write", "rumi._dataset"):
        r = subprocess.run([sys.executable, "-c", f"import {mod}"], capture_output=True, text=True)
        assert r.returncode == 0, (mod, r.stderr)


def test_without_pyproj(tmp_path):
    """pyproj hidden: writing a georeferenced file is an ImportError naming `pip install pyproj`;
    undefined georeferencing writes; reading reports the recorded code without the registry check."""
    import subprocess
    import sys

    a = cube(T=1, B=1, Y=16, X=16, dtype=np.uint8)
    p = write_cube(str(tmp_path / "g.rumi"), a)
    code = f"""
import sys
sys.modules["pyproj"] = None
import numpy as np, rumi
a = np.zeros((1, 8, 8), np.uint8)
try:
    rumi.write({str(tmp_path / "x.rumi")!r}, a, bands=["a"], times="2020-01-01", crs="EPSG:2056", geotransform=(0, 1, 0, 0, 0, -1))
except ImportError as e:
    print("ImportError:", e)
rumi.write({str(tmp_path / "u.rumi")!r}, a, bands=["a"], times="2020-01-01")
ds = rumi.open({p!r})
print(ds.crs, ds.crs_type, "pyproj" in sys.modules and sys.modules["pyproj"] is not None)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("ImportError: rumi.write needs pyproj") and "pip install pyproj" in lines[0]
    assert lines[1] == "EPSG:32633 projected False"
    assert not os.path.exists(tmp_path / "x.rumi") and os.path.exists(tmp_path / "u.rumi")


@pytest.mark.parametrize("text,want", [
    ("2015-03-09T17:30:17", "2015-03-09T17:30:17"), ("2015-03-09T17:30:17Z", "2015-03-09T17:30:17"),
    ("2015-03-09T19:30:17+02:00", "2015-03-09T17:30:17"), ("2015-03-09 17:30:17", "2015-03-09T17:30:17"),
    ("2015-03", "2015-03-01T00:00:00"), ("2015", "2015-01-01T00:00:00"),
])
def test_time_texts_are_the_cores(tmp_path, text, want):
    """Python's time strings go through the core's one parser (the CLI's --time/--times): no zone
    is UTC, offsets are converted, reduced dates are their first instant."""
    p = tmp_path / "t.rumi"
    rumi.write(p, np.zeros((1, 2, 2), np.uint8), bands=["a"], times=[text])
    with rumi.open(p) as ds:
        assert str(ds.times[0]) == want


def test_time_texts_agree_with_the_cli(tmp_path, data_dir, cli):
    """The same text gives the same stored second through `rumi convert --time` and rumi.write
    (one parser: the core's); a text neither reads is refused by both, naming it. A fraction of a
    second: the CLI refuses a --time that has one, rumi.write rounds it with a warning."""
    import subprocess

    src = data_dir / "gdal_byte.tif"
    for text in ("2015-03-09T17:30:17", "2015-03-09", "2015-03-09T18:30:17+01:00", "2015-03-09 17:30:17z"):
        out = tmp_path / "c.rumi"
        r = subprocess.run([str(cli), "convert", str(src), str(out), "--time", text, "--force"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        p = tmp_path / "p.rumi"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rumi.write(p, np.zeros((1, 2, 2), np.uint8), bands=["a"], times=[text])
        with rumi.open(out) as a, rumi.open(p) as b:
            assert a.times[0] == b.times[0], text
    r = subprocess.run([str(cli), "convert", str(src), str(tmp_path / "x.rumi"), "--time", "2015-03-09T17:30:17.5"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "fraction of a second" in r.stderr
    with pytest.warns(UserWarning, match="stored as 2015-03-09T17:30:18Z"):
        rumi.write(tmp_path / "f.rumi", np.zeros((1, 2, 2), np.uint8), bands=["a"], times=["2015-03-09T17:30:17.5"])
    r = subprocess.run([str(cli), "convert", str(src), str(tmp_path / "x.rumi"), "--time", "2015-02-30"], capture_output=True, text=True)
    assert r.returncode != 0 and "2015-02-30" in r.stderr
    with pytest.raises(ValueError, match="2015-02-30"):
        rumi.write(tmp_path / "y.rumi", np.zeros((1, 2, 2), np.uint8), bands=["a"], times=["2015-02-30"])
