"""rumi.Grid (a raster's pixel grid and what the package asks of it) and rumi.Location (a path or
URL parsed once: read, size, atomic put)."""

import os

import numpy as np
import pytest
from affine import Affine

import rumi
from rumi import Grid, Location

UTM = Grid.from_gdal("EPSG:32633", (500000.0, 10.0, 0.0, 4100000.0, 0.0, -10.0), (700, 900))


def test_grid_coordinates_and_bounds():
    assert UTM.bounds == rumi.BoundingBox(500000.0, 4093000.0, 509000.0, 4100000.0)
    assert UTM.res == (10.0, 10.0) and UTM.is_rectilinear and UTM.shape == (700, 900)
    x, y = UTM.xy([0.5, 900], [0.5, 700])
    assert x.tolist() == [500005.0, 509000.0] and y.tolist() == [4099995.0, 4093000.0]
    c, r = UTM.colrow(500025.0, 4099985.0)
    assert (float(c), float(r)) == (2.5, 1.5)
    assert UTM.window_transform(1, 2) == Affine(10.0, 0.0, 500020.0, 0.0, -10.0, 4099990.0)
    assert UTM.window_bounds(1, 2, 3, 4) == rumi.BoundingBox(500020.0, 4099960.0, 500060.0, 4099990.0)
    assert Grid.from_affine(32633, (10.0, 0.0, 500000.0, 0.0, -10.0, 4100000.0), (700, 900)) == UTM
    # a CRS text that is an EPSG CRS exactly is taken (crs= as rasterio users pass it); one
    # with no EPSG code is refused naming what to pass
    assert Grid.from_gdal("WGS84", (0, 1, 0, 0, 0, -1), (1, 1)).crs == "EPSG:4326"
    with pytest.raises(ValueError, match="'EPSG:<code>' or an int"):
        Grid.from_gdal("+proj=merc +lon_0=3", (0, 1, 0, 0, 0, -1), (1, 1))


def test_grid_outline_in_another_crs():
    pyproj = pytest.importorskip("pyproj")
    ring = UTM.outline("EPSG:4326", densify=4)
    assert ring.shape == (20, 2)
    tr = pyproj.Transformer.from_crs(32633, 4326, always_xy=True)
    assert np.allclose(ring[0], tr.transform(500000.0, 4100000.0))
    assert np.allclose(ring[5], tr.transform(509000.0, 4100000.0))  # the top-right corner
    assert np.array_equal(UTM.outline(), UTM.outline("EPSG:32633"))
    far = Grid.from_gdal("EPSG:32633", (5e7, 10.0, 0.0, 4100000.0, 0.0, -10.0), (10, 10))
    with pytest.raises(rumi.FormatError, match="does not project to EPSG:4326"):
        far.outline(4326)


def test_grid_alignment():
    same = Grid.from_gdal("EPSG:32633", (500100.0, 10.0, 0.0, 4099900.0, 0.0, -10.0), (50, 50))
    assert UTM.aligned(same) == ((1, 1), (-10, -10))  # our (row, col) is its (row - 10, col - 10)
    coarse = Grid.from_gdal("EPSG:32633", (499980.0, 30.0, 0.0, 4100020.0, 0.0, -30.0), (50, 50))
    assert UTM.aligned(coarse) == ((3, 3), (2, 2))
    assert UTM.aligned(Grid.from_gdal("EPSG:32633", (500005.0, 10.0, 0.0, 4100000.0, 0.0, -10.0), (5, 5))) is None
    assert UTM.aligned(Grid.from_gdal("EPSG:32634", (500000.0, 10.0, 0.0, 4100000.0, 0.0, -10.0), (5, 5))) is None
    assert UTM.aligned(Grid.from_gdal("EPSG:32633", (500000.0, 15.0, 0.0, 4100000.0, 0.0, -10.0), (5, 5))) is None


def test_grid_nearest_neighbour():
    pyproj = pytest.importorskip("pyproj")
    coarse = Grid.from_gdal("EPSG:32633", (499980.0, 30.0, 0.0, 4100020.0, 0.0, -30.0), (10, 10))
    R, C, out = UTM.nearest(coarse, np.array([[0, 0], [40, 1]]), np.array([[0, 1], [0, 40]]))
    # our (0, 0) centre (500005, 4099995) is 25 m into coarse (0, 0); our (0, 1) 35 m: coarse col 1
    assert R.tolist() == [[0, 0], [0, 0]] and C.tolist() == [[0, 1], [0, 0]]
    assert out.tolist() == [[False, False], [True, True]]  # row 40 / col 40 lie beyond its 10 pixels
    geo = Grid.from_gdal("EPSG:4326", (14.99, 0.001, 0.0, 37.1, 0.0, -0.001), (100, 200))
    R, C, out = UTM.nearest(geo, np.arange(3), np.zeros(3, int))
    x, y = pyproj.Transformer.from_crs(32633, 4326, always_xy=True).transform(
        np.full(3, 500005.0), 4099995.0 - 10.0 * np.arange(3))
    assert C.tolist() == np.floor((x - 14.99) / 0.001).astype(int).tolist()
    assert R.tolist() == np.floor((37.1 - y) / 0.001).astype(int).tolist() and not out.any()


def test_location_parse_read_size_put(tmp_path):
    p = tmp_path / "a.bin"
    loc = Location.parse(p)
    assert loc.scheme == "file" and not loc.is_remote and loc.writable and loc.name == "a.bin"
    assert loc.read(missing_ok=True) is None and loc.size() is None
    with pytest.raises(rumi.RumiIOError, match="a.bin: no such file"):
        loc.read()
    loc.put(b"old")
    loc.put(b"new contents")  # replaced whole: the old or the new, never a part
    assert p.read_bytes() == b"new contents" and loc.size() == 12 and loc.read() == b"new contents"
    assert sorted(os.listdir(tmp_path)) == ["a.bin"]  # no temporary left behind
    assert loc.sidecar(".header").text == str(p) + ".header"
    assert Location.parse(tmp_path).child("x.rumi").text == str(tmp_path / "x.rumi")
    u = Location.parse("s3://bucket/prefix/")
    assert u.scheme == "s3" and u.is_remote and u.writable and u.child("x.rumi").text == "s3://bucket/prefix/x.rumi"
    h = Location.parse("https://host/x.rumi")
    assert h.scheme == "https" and not h.writable
    with pytest.raises(rumi.RequestError, match="HTTP\\(S\\) servers are read-only"):
        h.put(b"x")
    with pytest.raises(rumi.RequestError, match="unsupported URL scheme 'gs'"):
        Location.parse("gs://bucket/x")
    with pytest.raises(rumi.RumiIOError, match="nowhere"):
        Location.parse(tmp_path / "nowhere" / "x").put(b"x")


def test_location_on_s3(moto, monkeypatch):
    boto3 = pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}.items():
        monkeypatch.setenv(k, v)
    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="loc")
    loc = Location.parse("s3://loc/a/b.bin")
    assert loc.size() is None and loc.read(missing_ok=True) is None
    loc.put(b"12345")
    assert loc.size() == 5 and loc.read() == b"12345"
