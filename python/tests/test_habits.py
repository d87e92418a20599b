"""What a rasterio / xarray user types first: nodata as a property of the dataset on every surface,
rasterio's names on rumi.Dataset, boundless windows, numpy's protocols, sub-second times,
date-only searches, georeferencing that is never guessed, the package's version."""

import datetime as dt
import importlib
import importlib.metadata
import math
import sys
import warnings

import numpy as np
import pytest

import rumi

GT = (500000.0, 10.0, 0.0, 4100000.0, 0.0, -10.0)


def cube(shape=(2, 3, 70, 90), dtype=np.uint16, seed=0):
    return np.random.default_rng(seed).integers(1, 1000, shape).astype(dtype)


def write(path, a, **kw):
    kw.setdefault("bands", [f"b{i}" for i in range(a.shape[-3])])
    kw.setdefault("times", [f"2020-05-{18 + i:02d}" for i in range(a.shape[0] if a.ndim == 4 else 1)])
    kw.setdefault("crs", "EPSG:32633")
    kw.setdefault("geotransform", GT)
    rumi.write(path, a, tile=32, **kw)
    return str(path)


# --- nodata ------------------------------------------------------------------------------------


def test_nodata_is_a_property_of_the_dataset(tmp_path):
    a = cube()
    with rumi.open(write(tmp_path / "nd.rumi", a, nodata=[0, 65535, None])) as ds:
        assert ds.nodatavals == (0.0, 65535.0, None)
        assert ds.nodata == 0.0
        assert ds.profile["nodata"] == 0.0 and ds.meta["nodata"] == 0.0
    with rumi.open(write(tmp_path / "none.rumi", a)) as ds:
        assert ds.nodatavals == (None, None, None) and ds.nodata is None
    # a sidecar GDAL grew (statistics saved beside rumi's nodata) still gives the nodata
    p = write(tmp_path / "stats.rumi", a[:1, :1], nodata=7)
    text = open(p + ".aux.xml").read().replace(
        "</PAMRasterBand>", '  <Metadata><MDI key="STATISTICS_MEAN">3</MDI></Metadata>\n  </PAMRasterBand>', 1
    )
    open(p + ".aux.xml", "w").write(text)
    assert rumi.open(p).nodatavals == (7.0,)
    # a broken sidecar is an error naming it, not "no nodata"
    open(p + ".aux.xml", "w").write("<PAMDataset><PAMRasterBand band='1'><NoDataValue>x</NoDataValue>")
    with pytest.raises(rumi.FormatError, match=r"stats\.rumi\.aux\.xml"):
        rumi.open(p).nodatavals


def test_nodata_of_objects_on_s3(moto, tmp_path, monkeypatch):
    pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}.items():
        monkeypatch.setenv(k, v)
    import boto3

    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="nodata")
    a = cube((1, 2, 40, 40))
    rumi.write("s3://nodata/x.rumi", a, bands=["r", "g"], times=["2020-01-01"], crs="EPSG:32633", geotransform=GT,
               nodata=[3, None])
    with rumi.open("s3://nodata/x.rumi") as ds:
        assert ds.nodatavals == (3.0, None)
        assert np.array_equal(ds.read(), a)
    rumi.write("s3://nodata/y.rumi", a, bands=["r", "g"], times=["2020-01-01"])
    assert rumi.open("s3://nodata/y.rumi").nodatavals == (None, None)


# --- rasterio's names --------------------------------------------------------------------------


def test_rasterio_names_on_a_dataset(tmp_path):
    a = cube((1, 3, 70, 90))
    with rumi.open(write(tmp_path / "r.rumi", a, nodata=0)) as ds:
        assert ds.count == 3 and ds.indexes == (1, 2, 3) and ds.dtypes == ("uint16",) * 3
        assert ds.res == (10.0, 10.0)
        assert ds.bounds == rumi.BoundingBox(500000.0, 4100000.0 - 700.0, 500000.0 + 900.0, 4100000.0)
        assert ds.bounds.left == 500000.0 and ds.bounds.top == 4100000.0
        assert ds.index(500000.0 + 25.0, 4100000.0 - 15.0) == (1, 2)
        assert ds.xy(1, 2) == (500025.0, 4099985.0)
        assert ds.xy(1, 2, offset="ul") == (500020.0, 4099990.0)
        rows, cols = ds.index(np.array([500001.0, 500899.0]), np.array([4099999.0, 4099301.0]))
        assert rows.tolist() == [0, 69] and cols.tolist() == [0, 89]
        p = ds.profile
        assert p["driver"] == "RUMI" and p["count"] == 3 and p["width"] == 90 and p["height"] == 70
        assert p["crs"] == "EPSG:32633" and p["transform"] == ds.transform and p["dtype"] == "uint16"
        assert (p["blockxsize"], p["blockysize"], p["tiled"]) == (32, 32, True)
        assert set(ds.meta) == {"driver", "dtype", "nodata", "width", "height", "count", "crs", "transform"}
        assert ds.name == ds.path and ds.descriptions == ("b0", "b1", "b2")
        w = ds.window(500000.0 + 25.0, 4100000.0 - 95.0, 500000.0 + 100.0, 4100000.0 - 10.0)
        assert w == rumi.Window(col_off=2, row_off=1, width=8, height=9)
        assert ds.window_transform(w) == ds.transform @ rumi_affine().translation(2, 1)
        assert ds.window_transform(w).c == 500020.0 and ds.window_transform(w).f == 4099990.0
    with rumi.open(write(tmp_path / "u.rumi", a, crs=None, geotransform=None)) as ds:
        with pytest.raises(rumi.RequestError, match="undefined georeferencing: no bounds"):
            ds.bounds


def rumi_affine():
    from affine import Affine

    return Affine


def test_read_takes_band_texts_and_refuses_rasterio_positionals(tmp_path):
    a = cube((2, 3, 40, 50))
    with rumi.open(write(tmp_path / "b.rumi", a, bands=["red", "green", "nir"])) as ds:
        assert np.array_equal(ds.read(b="nir"), a[:, 2:3])
        assert np.array_equal(ds.read(t=1, b=["nir", "red"]), a[1:2, [2, 0]])
        with pytest.raises(rumi.RequestError, match=r"b='swir': no band has that text; the bands are \['red'"):
            ds.read(b="swir")
        with pytest.raises(TypeError, match=r"rasterio's read\(1\) \(band 1\) is read\(b=0\)"):
            ds.read(1)
        with pytest.raises(TypeError, match="unexpected keyword argument 'indexes': bands are b="):
            ds.read(indexes=1)
        with pytest.raises(TypeError, match="rumi never casts"):
            ds.read(out_dtype="float32")


def test_boundless_windows_fill_outside(tmp_path):
    a = cube((1, 2, 40, 50))
    with rumi.open(write(tmp_path / "bl.rumi", a, nodata=[9, None])) as ds:
        with pytest.raises(rumi.RequestError, match="boundless=True"):
            ds.read(window=rumi.Window(-5, -3, 20, 10))
        got = ds.read(window=rumi.Window(-5, -3, 20, 10), boundless=True)
        assert got.shape == (1, 2, 10, 20)
        assert np.array_equal(got[:, :, 3:, 5:], a[:, :, :7, :15])
        assert (got[0, 0, :3] == 9).all() and (got[0, 0, :, :5] == 9).all()  # band 0's nodata
        assert (got[0, 1, :3] == 0).all()  # no nodata: 0, as rasterio
        got = ds.read(window=rumi.Window(45, 35, 10, 10), boundless=True, fill_value=7)
        assert np.array_equal(got[:, :, :5, :5], a[:, :, 35:, 45:]) and (got[:, :, 5:] == 7).all()
        assert (ds.read(window=rumi.Window(100, 100, 4, 4), boundless=True, fill_value=1) == 1).all()
        with pytest.raises(ValueError, match="fill_value is used only with boundless=True"):
            ds.read(fill_value=3)


def test_masked_reads_mask_nodata(tmp_path):
    a = cube((1, 2, 20, 30))
    a[0, 0, :4] = 5
    a[0, 1, :2] = 5
    with rumi.open(write(tmp_path / "m.rumi", a, nodata=[5, None])) as ds:
        m = ds.read(masked=True)
        assert isinstance(m, np.ma.MaskedArray) and m.dtype == np.uint16
        assert m.mask[0, 0, :4].all() and not m.mask[0, 0, 4:].any()
        assert not m.mask[0, 1].any()  # no nodata in band 1: nothing masked
        assert np.array_equal(m.data, a)
        m = ds.read(b=[1, 0], window=rumi.Window(-2, -2, 6, 6), boundless=True, masked=True)
        # as rasterio: beyond the raster every band is masked (band 1 = file band 0 has no nodata;
        # once left unmasked), inside only nodata samples; the data there is the fill
        outside = np.ones((6, 6), bool)
        outside[2:, 2:] = False
        assert np.array_equal(m.mask[0, 0], outside), m.mask[0, 0]
        expected = outside.copy()
        expected[2:, 2:] = a[0, 0, :4, :4] == 5
        assert np.array_equal(m.mask[0, 1], expected), m.mask[0, 1]
        assert (m.data[0, 0][outside] == 0).all() and (m.data[0, 1][outside] == 5).all()
        m = ds.read(b=[1], window=rumi.Window(28, 18, 4, 4), boundless=True, masked=True, fill_value=9)
        assert m.mask[0, 0, 2:].all() and m.mask[0, 0, :, 2:].all() and not m.mask[0, 0, :2, :2].any()
        assert (m.data[0, 0, 2:] == 9).all()


def test_numpy_protocols(tmp_path):
    a = cube((2, 3, 20, 30))
    with rumi.open(write(tmp_path / "np.rumi", a)) as ds:
        assert np.array_equal(np.asarray(ds), a) and np.asarray(ds).dtype == np.uint16
        assert np.asarray(ds, dtype="float32").dtype == np.float32
        assert len(ds) == 2 and len(list(ds)) == 2 and np.array_equal(list(ds)[1], a[1])
        with pytest.raises(IndexError, match="outside axis 0"):
            ds[2]
        with pytest.raises(IndexError, match="outside axis 1"):
            ds[0, 5]


# --- times -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given",
    [
        "2023-05-11T10:00:00.700",
        "2023-05-11T10:00:00.700Z",
        np.datetime64("2023-05-11T10:00:00.700000001", "ns"),
        dt.datetime(2023, 5, 11, 10, 0, 0, 700000),
    ],
)
def test_subsecond_times_round_with_a_warning(tmp_path, given):
    a = cube((1, 1, 8, 8))
    with pytest.warns(UserWarning, match=r"fraction of a second.*stored as 2023-05-11T10:00:01Z") as record:
        rumi.write(tmp_path / "t.rumi", a, bands=["b"], times=[given])
    # once, and pointing at the user's line (not at rumi's own files)
    assert len([w for w in record if "fraction of a second" in str(w.message)]) == 1
    assert record[0].filename == __file__
    assert rumi.open(str(tmp_path / "t.rumi")).times[0] == np.datetime64("2023-05-11T10:00:01")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # whole seconds: nothing to say
        write(tmp_path / "w.rumi", a, times=["2023-05-11T10:00:00.000"])
    assert rumi.open(str(tmp_path / "w.rumi")).times[0] == np.datetime64("2023-05-11T10:00:00")


def test_subsecond_times_through_to_rumi_and_pandas(tmp_path):
    xr = pytest.importorskip("xarray")
    pd = pytest.importorskip("pandas")
    da = xr.DataArray(cube((1, 1, 8, 8)), dims=("time", "band", "y", "x"),
                      coords={"time": [np.datetime64("2023-05-11T10:00:00.400", "ns")],
                              "x": 500005.0 + 10 * np.arange(8), "y": 4099995.0 - 10 * np.arange(8)},
                      attrs={"crs": "EPSG:32633"})
    with pytest.warns(UserWarning, match=r"stored as 2023-05-11T10:00:00Z"):
        rumi.to_rumi(da, tmp_path / "x.rumi", bands=["b"])
    assert rumi.open(str(tmp_path / "x.rumi")).times[0] == np.datetime64("2023-05-11T10:00:00")
    with pytest.warns(UserWarning, match=r"stored as 2023-05-11T10:00:01Z"):
        write(tmp_path / "p.rumi", cube((1, 1, 8, 8)), times=[pd.Timestamp("2023-05-11T10:00:00.5")])


def test_interval_texts_are_read_by_the_core_as_the_cli_reads_them(tmp_path, cli):
    """"START/END" texts go through the core's one interval parser in rumi.write as in the CLI's
    --interval: a reversed or empty one is refused before anything is written, in the same words
    (issue 49: Python split the text itself and the core's writer refused it later, otherwise)."""
    import subprocess

    rasterio = pytest.importorskip("rasterio")
    src = tmp_path / "src.tif"
    with rasterio.open(src, "w", driver="GTiff", width=4, height=4, count=1, dtype="uint8", crs="EPSG:32633",
                       transform=rasterio.Affine(10, 0, 500000, 0, -10, 4100000)) as d:
        d.write(np.zeros((1, 4, 4), np.uint8))
    for text in ("2020-01-02/2020-01-01", "2020-01-01/2020-01-01T00:00:00Z"):
        with pytest.raises(rumi.RequestError) as e:
            write(tmp_path / "t.rumi", cube((1, 1, 8, 8)), times=[text])
        r = subprocess.run([str(cli), "convert", "-q", "--interval", text, str(src), str(tmp_path / "c.rumi")],
                           capture_output=True, text=True)
        words = f"interval {text!r} is empty or reversed: START must be before END".replace("'", '"')
        assert r.returncode != 0 and words in r.stderr, r.stderr
        assert str(e.value) == f"times[0]: {words}"
        assert not (tmp_path / "t.rumi").exists()


def test_date_only_searches_cover_the_day(tmp_path):
    pytest.importorskip("pyarrow")
    pytest.importorskip("shapely")
    a = cube((1, 1, 8, 8))
    paths = [write(tmp_path / f"{i}.rumi", a, times=[t]) for i, t in
             enumerate(["2023-05-10T23:59:59", "2023-05-11T10:00:00", "2023-05-11T23:59:59", "2023-05-12T00:00:00"])]
    cat = rumi.Catalog.build(paths, tmp_path / "c.parquet")

    def ids(time):
        return sorted(str(p).rsplit("/", 1)[-1] for p in cat.search(time=time).table.column("location").to_pylist())

    assert ids("2023-05-11") == ["1.rumi", "2.rumi"]
    assert ids(("2023-05-10", "2023-05-11")) == ["0.rumi", "1.rumi", "2.rumi"]
    assert ids(("2023-05-11T10:00:00", None)) == ["1.rumi", "2.rumi", "3.rumi"]
    assert ids("2023-05-11T10:00:00") == ["1.rumi"]
    assert ids("2023-05") == ["0.rumi", "1.rumi", "2.rumi", "3.rumi"]
    assert ids(dt.date(2023, 5, 12)) == ["3.rumi"]


def test_version():
    assert rumi.__version__ == importlib.metadata.version("rumi")
    assert rumi.__version__[0].isdigit()


# --- xarray: nodata and georeferencing -------------------------------------------------------


def test_xarray_engine_nodata_follows_xarray_and_rioxarray(tmp_path):
    xr = pytest.importorskip("xarray")
    pytest.importorskip("rioxarray")
    a = cube((1, 2, 40, 50))
    a[0, :, :5, :7] = 0
    p = write(tmp_path / "nd.rumi", a, nodata=0)
    # xarray's default (mask_and_scale): NaN where nodata, the fill value and stored type in encoding
    masked = xr.open_dataset(p, engine="rumi")["band_data"]
    assert masked.dtype == np.float32
    assert np.isnan(masked.values[0, :, :5, :7]).all() and not np.isnan(masked.values[0, :, 5:]).any()
    assert masked.encoding["_FillValue"] == 0 and masked.encoding["dtype"] == np.uint16
    assert masked.rio.encoded_nodata == 0 and math.isnan(masked.rio.nodata)
    raw = xr.open_dataset(p, engine="rumi", mask_and_scale=False)["band_data"]
    assert raw.dtype == np.uint16 and np.array_equal(raw.values, a)
    assert raw.attrs["_FillValue"] == 0 and raw.rio.nodata == 0
    # a rewrite keeps the nodata and the exact samples, from either form
    for name, da in (("m.rumi", masked), ("r.rumi", raw)):
        rumi.to_rumi(da, tmp_path / name)
        with rumi.open(str(tmp_path / name)) as ds:
            assert ds.nodatavals == (0.0, 0.0) and ds.dtype == np.uint16
            assert np.array_equal(ds.read(), a) and ds.geotransform == GT
    # no nodata: exact samples whatever mask_and_scale says
    plain = xr.open_dataset(write(tmp_path / "p.rumi", a), engine="rumi")["band_data"]
    assert plain.dtype == np.uint16 and "_FillValue" not in plain.encoding and plain.rio.nodata is None
    # bands with different nodata: no single _FillValue; masking them is refused, raw reads list them
    q = write(tmp_path / "q.rumi", a, nodata=[0, 5])
    with pytest.raises(ValueError, match=r"different nodata values \[0.0, 5.0\].*mask_and_scale=False"):
        xr.open_dataset(q, engine="rumi")
    raw = xr.open_dataset(q, engine="rumi", mask_and_scale=False)["band_data"]
    assert raw.attrs["nodatavals"] == (0.0, 5.0)
    rumi.to_rumi(raw, tmp_path / "q2.rumi")
    assert rumi.open(str(tmp_path / "q2.rumi")).nodatavals == (0.0, 5.0)


def latlon_array(coords=True, dims=("lat", "lon")):
    xr = pytest.importorskip("xarray")
    pytest.importorskip("rioxarray")
    a = cube((1, 1, 30, 40))[0, 0]
    c = {dims[0]: 46.0 - 0.0005 - 0.001 * np.arange(30), dims[1]: 7.0 + 0.0005 + 0.001 * np.arange(40)} if coords else {}
    da = xr.DataArray(a, dims=dims, coords=c)
    return da.rio.write_crs("EPSG:4326"), a


@pytest.mark.parametrize("dims", [("lat", "lon"), ("latitude", "longitude"), ("y", "x")])
def test_to_rumi_finds_spatial_dims_by_name(tmp_path, dims):
    da, a = latlon_array(dims=dims)
    da = da.rio.write_nodata(0)
    rumi.to_rumi(da, tmp_path / "g.rumi", times=["2020-01-01"])
    with rumi.open(str(tmp_path / "g.rumi")) as ds:
        assert ds.crs == "EPSG:4326" and ds.crs_type == "geographic"
        assert np.allclose(ds.geotransform, (7.0, 0.001, 0.0, 46.0, 0.0, -0.001), rtol=0, atol=1e-9)
        assert np.array_equal(ds.read()[0, 0], a) and ds.nodata == 0.0
    # the README's explicit mapping gives the same grid
    if dims == ("lat", "lon"):
        rumi.to_rumi(da, tmp_path / "m.rumi", times=["2020-01-01"], dims={"y": "lat", "x": "lon"})
        assert rumi.open(str(tmp_path / "m.rumi")).geotransform == rumi.open(str(tmp_path / "g.rumi")).geotransform


def test_to_rumi_never_writes_a_guessed_grid(tmp_path):
    da, _ = latlon_array(coords=False)
    with pytest.raises(ValueError, match=r"identity \(1, 0, 0, 0, 1, 0\).*never guesses"):
        rumi.to_rumi(da, tmp_path / "bad.rumi", times=["2020-01-01"])
    assert not (tmp_path / "bad.rumi").exists() and list(tmp_path.iterdir()) == []
    # an explicit transform is taken as given
    rumi.to_rumi(da, tmp_path / "ok.rumi", times=["2020-01-01"], geotransform=(7.0, 0.001, 0.0, 46.0, 0.0, -0.001))
    assert rumi.open(str(tmp_path / "ok.rumi")).geotransform == (7.0, 0.001, 0.0, 46.0, 0.0, -0.001)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="TorchGeo installs on Python >= 3.12")
def test_torchgeo_on_an_older_python_says_what_it_needs():
    with pytest.raises(ImportError, match=r"needs Python >= 3.12 \(this is 3\.\d+\): make a Python 3.12 venv"):
        importlib.import_module("rumi.torchgeo")


def test_gdal_types_come_from_the_core():
    from rumi._dtypes import ENCODINGS, gdal_type

    assert [gdal_type(e) for e in ("bool", "uint8", "int8", "uint16", "float16", "bfloat16", "complex32", "complex64")] \
        == ["Byte", "Byte", "Int8", "UInt16", "Float32", "Float32", "CFloat32", "CFloat32"]
    assert all(gdal_type(e[0]) for e in ENCODINGS)  # every encoding has one
    with pytest.raises(ValueError, match="no rumi sample encoding 'uint12'"):
        gdal_type("uint12")


def test_masked_array_write_stores_nodata(tmp_path):
    """rumi.write / rumi.Writer of a numpy masked array store the masked samples as their band's
    nodata, as rasterio's write does (once the mask was ignored and the values under it stored);
    a masked sample in a band without nodata is refused (rasterio would store fill_value)."""
    a = cube((1, 2, 20, 30))
    m = np.ma.masked_array(a, mask=np.zeros(a.shape, bool))
    m.mask[0, 0, 3:5, 7:9] = True
    m.mask[0, 1, 0, 0] = True
    p = write(tmp_path / "m.rumi", m[0], nodata=[7, 9])
    with rumi.open(p) as ds:
        got = ds.read()
        assert (got[0, 0, 3:5, 7:9] == 7).all() and got[0, 1, 0, 0] == 9
        assert np.array_equal(np.where(m.mask, 0, got), np.where(m.mask, 0, a))
        r = ds.read(masked=True)
        assert np.array_equal(np.ma.getmaskarray(r) & m.mask, m.mask)
    with pytest.raises(ValueError, match="band 1 has 1 masked samples and no nodata value"):
        write(tmp_path / "n.rumi", m[0], nodata=[7, None])
    assert not (tmp_path / "n.rumi").exists()
    with pytest.raises(ValueError, match="no nodata value"):
        write(tmp_path / "n.rumi", m[0])
    with rumi.Writer(tmp_path / "w.rumi", shape=a.shape, dtype=a.dtype, bands=["a", "b"], times=["2020-01-01"],
                     crs="EPSG:32633", geotransform=GT, tile=16, nodata=7) as w:
        w.write(m[:, :, :16], row=0)
        w.write(m[:, :, 16:], row=16)
    with rumi.open(tmp_path / "w.rumi") as ds:
        got = ds.read()
        assert (got[0, 0, 3:5, 7:9] == 7).all() and got[0, 1, 0, 0] == 7
    rasterio = pytest.importorskip("rasterio")
    from rasterio.transform import Affine as RAffine

    tif = tmp_path / "m.tif"
    with rasterio.open(tif, "w", driver="GTiff", width=30, height=20, count=2, dtype="uint16", nodata=7,
                       transform=RAffine.from_gdal(*GT), crs="EPSG:32633") as dst:
        dst.write(m[0])
    p = write(tmp_path / "m7.rumi", m[0], nodata=7)
    with rasterio.open(tif) as src, rumi.open(p) as ds:
        assert np.array_equal(src.read(), ds.read()[0])


def test_rewrite_with_derived_sidecars(tmp_path):
    """A Python rewrite replaces the file and its sidecars as `rumi convert` does (the core's
    plan_rewrite): gdaladdo's .ovr or GDAL's saved statistics of the old pixels refuse it,
    naming them, unless force=True, which removes them (they once stayed, and GDAL served the
    old pixels at reduced resolution); rumi's own nodata sidecar is simply replaced."""
    a = cube((1, 1, 20, 30))
    p = tmp_path / "r.rumi"
    write(p, a, nodata=1)
    write(p, a, nodata=2)  # our own .aux.xml: replaced without a word
    with rumi.open(p) as ds:
        assert ds.nodata == 2.0
    ovr = tmp_path / "r.rumi.ovr"
    ovr.write_bytes(b"II*\x00old overviews")
    for call in (lambda **k: write(p, a + 1, **k),
                 lambda **k: rumi.Writer(p, shape=a.shape, dtype=a.dtype, bands=["b0"], times=["2020-01-01"], **k)):
        with pytest.raises(rumi.RequestError, match=r"r\.rumi\.ovr \(overviews\).*Pass force=True"):
            call()
        with rumi.open(p) as ds:
            assert np.array_equal(ds.read(), a) and ovr.exists()  # nothing written
    write(p, a + 1, force=True)
    assert not ovr.exists()
    with rumi.open(p) as ds:
        assert np.array_equal(ds.read(), a + 1)
    stats = tmp_path / "r.rumi.aux.xml"
    stats.write_text('<PAMDataset><PAMRasterBand band="1"><Metadata><MDI key="STATISTICS_MEAN">3</MDI>'
                     "</Metadata></PAMRasterBand></PAMDataset>")
    with pytest.raises(rumi.RequestError, match="saved statistics"):
        write(p, a)
    write(p, a, force=True)
    assert not stats.exists()


def test_open_errors_name_the_path(tmp_path):
    """Opening what is not a rumi file says which path and what it is."""
    (tmp_path / "empty.rumi").write_bytes(b"")
    (tmp_path / "x.tif").write_bytes(b"II*\x00" + bytes(400))
    cases = [(tmp_path, rumi.RumiIOError, "is a folder, not a rumi file"),
             (tmp_path / "empty.rumi", rumi.FormatError, r"is empty \(0 bytes\)"),
             (tmp_path / "x.tif", rumi.FormatError, "is a TIFF.*rumi convert"),
             (tmp_path / "missing.rumi", rumi.RumiIOError, "No such file")]
    for path, cls, text in cases:
        with pytest.raises(cls, match=text) as e:
            rumi.open(path)
        assert str(path) in str(e.value)


def test_broken_distributed_is_reported_as_broken(monkeypatch):
    """rumi-build --workers: an installed but failing distributed (e.g. 2021.4.1 beside a current
    dask) is reported as broken with both versions, not as "not installed"."""
    import importlib.util

    from rumi._build.cli import _distributed_problem

    msg = _distributed_problem(ImportError("cannot import name 'x' from 'dask.utils'"))
    assert ("installed but broken" in msg) == (importlib.util.find_spec("distributed") is not None)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    assert "is not installed" in _distributed_problem(ImportError("No module named 'distributed'"))


# --- the package's rooms ----------------------------------------------------------------------

#: lazily loaded submodules held to the import rule
RULED = ("catalog", "_build", "torch", "torchgeo.py")


def private_imports(path, package):
    """(line, what) of each import in the module at `path` (in `package`, e.g. "rumi.catalog") of
    a private name from outside its own package other than rumi._internal: a private module
    (rumi._nodata, rumi._rumi) or a name starting with "_" of any module, its own package's
    modules included (a private submodule of its own package may be imported); names of
    rumi.__all__ may be imported from their home."""
    import ast

    public = set(rumi.__all__)
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                if any(p.startswith("_") for p in a.name.split(".")[1:]) and a.name != "rumi._internal":
                    out.append((node.lineno, a.name))
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        if not module.startswith("rumi") or module == "rumi._internal":
            continue
        if package != "rumi" and (module == package or module.startswith(package + ".")):
            # its own package's modules: their public names, and its private submodules
            out += [(node.lineno, f"{module}.{a.name}") for a in node.names
                    if a.name.startswith("_") and not (path.parent / f"{a.name}.py").exists()]
            continue
        private_module = any(p.startswith("_") for p in module.split(".")[1:])
        for a in node.names:
            if a.name.startswith("_") or (private_module and a.name not in public):
                out.append((node.lineno, f"{module}.{a.name}"))
    return out


def test_lazy_submodules_import_public_names_or_the_internal_module(tmp_path):
    """catalog/, _build/, torch/ and torchgeo.py import public names (rumi.__all__, public submodules)
    or rumi._internal, the one declared internal module, never another private name (issue 49,
    item 7): what they lean on is listed in one place."""
    import pathlib

    root = pathlib.Path(rumi.__file__).parent
    found = []
    for name in RULED:
        target = root / name
        files = sorted(target.glob("*.py")) if target.is_dir() else [target]
        package = f"rumi.{name}" if target.is_dir() else "rumi"
        for f in files:
            found += [f"{f.relative_to(root)}:{line}: {what}" for line, what in private_imports(f, package)]
    assert not found, "private names imported outside rumi._internal:\n" + "\n".join(found)
    # the rule itself sees what it forbids
    probe = tmp_path / "probe.py"
    probe.write_text("from .. import _nodata\nfrom .._grid import transformer\nfrom .._errors import FormatError\n"
                     "from .columns import deps\nfrom .._internal import valid_mask\nimport rumi._dataset\n"
                     "from .search import _box\n")
    assert [w for _, w in private_imports(probe, "rumi.catalog")] == [
        "rumi._nodata", "rumi._grid.transformer", "rumi._dataset", "rumi.catalog.search._box"]


def module_graph(root):
    """{module: the package's modules it imports} for the package at `root` (its folder), read
    from the sources: every import statement, at any depth (TYPE_CHECKING blocks and functions
    included); `from m import name` leads to where `name` is defined, following the re-exports
    of package __init__ files (`from rumi import Grid` is an arrow to rumi._grid); the root
    package itself (the public face, which lists everything) is no node."""
    import ast

    top = root.name
    mods = {}
    for f in root.rglob("*.py"):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        mods[".".join(parts)] = (ast.parse(f.read_text(), str(f)), ".".join(parts if is_pkg else parts[:-1]))

    def imports(m):
        return [n for n in ast.walk(mods[m][0]) if isinstance(n, (ast.Import, ast.ImportFrom))]

    def source(node, pkg):
        if not node.level:
            return node.module or ""
        base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))

    def home(m, name, seen=()):
        if f"{m}.{name}" in mods:
            return f"{m}.{name}"
        if m not in mods or m in seen:
            return m
        for node in imports(m):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if (a.asname or a.name) == name:
                        return home(source(node, mods[m][1]), a.name, seen + (m,))
        return m

    graph = {}
    for m in mods:
        if m == top:
            continue
        out = set()
        for node in imports(m):
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names if a.name in mods}
            else:
                src = source(node, mods[m][1])
                out |= {h for a in node.names if (h := home(src, a.name)) in mods}
        graph[m] = out - {m, top}
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (each an import circle)."""
    import itertools

    order, low, stack, on, found, counter = {}, {}, [], set(), [], itertools.count()

    def visit(v):
        order[v] = low[v] = next(counter)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in order:
            visit(v)
    return found


def test_no_import_circle_inside_the_package(tmp_path):
    """The package's modules import one another without a circle (issue 49, item 7: torch/ had
    dataset -> loader -> samplers -> dataset): every import counts, also one under TYPE_CHECKING
    or in a function, so that the modules stand in layers, each using only those below it."""
    import pathlib

    graph = module_graph(pathlib.Path(rumi.__file__).parent)
    assert {"rumi.torch.dataset", "rumi._window", "rumi.catalog.table"} <= set(graph)
    assert "rumi._grid" in graph["rumi.torch.labels"]  # `from rumi import Grid`: an arrow to its home
    found = cycles(graph)
    assert not found, "import circles:\n" + "\n".join(
        " <-> ".join(c) + ": " + "; ".join(f"{m} -> {sorted(graph[m] & set(c))}" for m in c) for c in found)
    # the check itself sees a circle, one made by a TYPE_CHECKING import too
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import A\n")
    (pkg / "a.py").write_text("from .sub import b\nA = 1\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import A\n")
    assert cycles(module_graph(pkg)) == [["pkg.a", "pkg.sub.b"]]
    (pkg / "sub" / "b.py").write_text("import pkg\n")  # the face alone: no arrow
    assert cycles(module_graph(pkg)) == []
