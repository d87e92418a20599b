"""The GDAL command-line tools (Debian's gdal-bin, loading the plugin through GDAL_DRIVER_PATH
inherited from conftest.py) on converted real rasters, each asserted on what it produced."""

import json
import shutil
import subprocess

import numpy as np
import pytest
from osgeo import gdal

import clients_util as cu
from clients_util import run


@pytest.fixture(scope="module")
def tools_dir(work_dir):
    d = work_dir / "gdal_tools"
    d.mkdir(exist_ok=True)
    return d


@pytest.fixture(scope="module")
def fresh(real, tools_dir):
    """fresh(key) -> Real whose .rumi (+ .header) is a private copy, free of any .aux.xml or
    .ovr another test (QGIS computes statistics, gdaladdo builds overviews) left beside the
    shared one."""
    cache = {}

    def get(key):
        if key not in cache:
            r = real(key)
            d = tools_dir / key
            d.mkdir(exist_ok=True)
            for p in (r.rumi, r.header):
                shutil.copy2(p, d / p.name)
            cache[key] = cu.Real(r.key, d / r.rumi.name, r.sources, r.names, r.times, r.cli)
        return cache[key]

    return get


def test_gdalinfo_text(fresh):
    r = fresh("landsat")
    out = run(["gdalinfo", r.rumi]).stdout
    assert "Driver: RUMI/rumi stateless raster storage" in out
    assert "Size is 2041, 1860" in out
    assert 'ID["EPSG",32621]' in out
    assert "Origin = (717345.000000000000000,-2776995.000000000000000)" in out
    assert "Pixel Size = (30.000000000000000,-30.000000000000000)" in out
    for i, name in enumerate(r.names, 1):
        assert f"Band {i} Block=256x256 Type=UInt16" in out
        assert f"Description = {name}" in out
    assert "TIME=2020-05-18" in out
    assert "COMPRESSION=" not in out  # the codec is in the RUMI domain, not IMAGE_STRUCTURE
    rumi_md = run(["gdalinfo", "-mdd", "RUMI", r.rumi]).stdout.split("Metadata (RUMI):\n", 1)[1]
    assert "  COMPRESSION=OPENZL\n" in rumi_md.split("Image Structure Metadata:", 1)[0]
    files = out.split("Files: ", 1)[1].split("Size is", 1)[0].split()
    assert files == [str(r.rumi), str(r.header)]
    # -checksum equals the source's (known values in shared/data/MANIFEST.tsv)
    cs = run(["gdalinfo", "-checksum", r.rumi]).stdout
    assert [int(line.split("=")[1]) for line in cs.splitlines() if "Checksum=" in line] == [22699, 15286, 60831]


def test_gdalinfo_json(fresh):
    r = fresh("s1cube")
    info = json.loads(run(["gdalinfo", "-json", "-mdd", "all", "-stats", r.rumi]).stdout)
    src = json.loads(run(["gdalinfo", "-json", r.sources[0]]).stdout)
    assert info["driverShortName"] == "RUMI"
    assert info["size"] == src["size"] == [268, 217]
    assert info["geoTransform"] == src["geoTransform"]
    assert info["coordinateSystem"]["wkt"].rstrip().endswith('ID["EPSG",32631]]')
    assert info["cornerCoordinates"] == src["cornerCoordinates"]
    md = info["metadata"]
    assert md[""]["TIMES"] == ",".join(r.times) and md[""]["TIME_COUNT"] == "2"
    assert md["RUMI"]["FRAME_UNIT"] == "0" and md["RUMI"]["TIME_COUNT"] == "2"  # one band: a frame a date
    assert md["RUMI"]["SAMPLE_ENCODING"] == "float32"
    assert md["SUBDATASETS"]["SUBDATASET_2_NAME"] == f'RUMI:"{r.rumi}":1'
    assert [b["description"] for b in info["bands"]] == [f"VV @ {t}" for t in r.times]
    assert [b["metadata"][""]["TIME"] for b in info["bands"]] == r.times
    assert all(b["type"] == "Float32" and b["block"] == [256, 224] for b in info["bands"])  # 217 rows rounded up to 16
    # the statistics gdalinfo computed through the driver equal numpy's on the sources
    for b, s in zip(info["bands"], r.sources):
        a = cu.read_all(s)[0].astype("float64")
        st = b["metadata"][""]
        assert float(st["STATISTICS_MINIMUM"]) == pytest.approx(a.min(), rel=1e-12)
        assert float(st["STATISTICS_MAXIMUM"]) == pytest.approx(a.max(), rel=1e-12)
        assert float(st["STATISTICS_MEAN"]) == pytest.approx(a.mean(), rel=1e-9)


@pytest.mark.parametrize("key", ["elev", "s1cube", "landsat"])
def test_gdal_translate_cog(fresh, tools_dir, key):
    r = fresh(key)
    cog = tools_dir / f"{key}_cog.tif"
    run(["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=DEFLATE", r.rumi, cog])
    ds = gdal.Open(str(cog))
    assert ds.GetDriver().ShortName == "GTiff"
    assert ds.GetMetadataItem("LAYOUT", "IMAGE_STRUCTURE") == "COG"
    np.testing.assert_array_equal(cu.read_all(cog), cu.source_stack(r))
    assert ds.GetGeoTransform() == cu.geotransform(r.source)
    assert cu.epsg(cog) == cu.epsg(r.source)
    descs = [ds.GetRasterBand(b).GetDescription() for b in range(1, ds.RasterCount + 1)]
    if key == "s1cube":
        assert descs == [f"VV @ {t}" for t in r.times]
        assert ds.GetMetadataItem("TIMES") == ",".join(r.times)
        assert [ds.GetRasterBand(b).GetMetadataItem("TIME") for b in (1, 2)] == r.times
    else:
        assert descs == r.names
        if "/" in r.times[0]:
            start, end = r.times[0].split("/")
            assert (ds.GetMetadataItem("TIME_START"), ds.GetMetadataItem("TIME_END")) == (start, end)
        else:
            assert ds.GetMetadataItem("TIME") == r.times[0]
    ds = None


def test_gdalwarp_to_another_crs(fresh, tools_dir):
    r = fresh("s2")
    outs = {}
    for name, path in (("rumi", r.rumi), ("source", r.source)):
        outs[name] = tools_dir / f"s2_4326_{name}.tif"
        run(["gdalwarp", "-q", "-overwrite", "-t_srs", "EPSG:4326", "-r", "bilinear", "-ts", "400", "0",
             path, outs[name]])
    ds = gdal.Open(str(outs["rumi"]))
    assert cu.epsg(outs["rumi"]) == 4326
    assert ds.RasterXSize == 400 and ds.RasterCount == 4
    gt = ds.GetGeoTransform()
    # the warped extent holds the source's centre, transformed to lon/lat
    src_gt = cu.geotransform(r.source)
    ct = gdal.osr.CoordinateTransformation(gdal.osr.SpatialReference(wkt=gdal.Open(str(r.source)).GetProjection()),
                                           ds.GetSpatialRef())
    lon, lat, _ = ct.TransformPoint(src_gt[0] + 150 * src_gt[1], src_gt[3] + 100 * src_gt[5])
    assert gt[0] < lon < gt[0] + ds.RasterXSize * gt[1]
    assert gt[3] + ds.RasterYSize * gt[5] < lat < gt[3]
    assert -72 < lon < -66 and -80 < lat < 0  # UTM zone 19S
    assert gt == gdal.Open(str(outs["source"])).GetGeoTransform()
    a, b = cu.read_all(outs["rumi"]), cu.read_all(outs["source"])
    np.testing.assert_array_equal(a, b)
    assert (a > 0).mean() > 0.5
    ds = None


def test_gdallocationinfo(fresh):
    r = fresh("landsat")
    src = cu.read_all(r.source)
    for col, row in ((0, 0), (1000, 900), (2040, 1859), (517, 1301)):
        vals = run(["gdallocationinfo", "-valonly", r.rumi, col, row]).stdout.split()
        assert [int(v) for v in vals] == src[:, row, col].tolist(), (col, row)
    # by georeferenced coordinates, XML report
    gt = cu.geotransform(r.source)
    x, y = gt[0] + 1234.5 * gt[1], gt[3] + 777.5 * gt[5]
    xml = run(["gdallocationinfo", "-xml", "-geoloc", r.rumi, x, y]).stdout
    assert '<Report pixel="1234" line="777">' in xml
    for b in range(3):
        assert f"<Value>{src[b, 777, 1234]}</Value>" in xml
    # a Cube's time-step subdataset
    c = fresh("s1cube")
    want = cu.read_all(c.sources[1])[0, 100, 200]
    got = float(run(["gdallocationinfo", "-valonly", f'RUMI:"{c.rumi}":1', 200, 100]).stdout)
    assert got == pytest.approx(float(want), rel=1e-6)


def test_gdal_translate_srcwin(fresh, tools_dir):
    r = fresh("landsat")
    out = tools_dir / "landsat_srcwin.tif"
    xo, yo, xs, ys = 700, 500, 333, 257  # spans tiles, not aligned to them
    run(["gdal_translate", "-q", "-srcwin", xo, yo, xs, ys, r.rumi, out])
    np.testing.assert_array_equal(cu.read_all(out), cu.read_all(r.source, window=(xo, yo, xs, ys)))
    gt, src_gt = cu.geotransform(out), cu.geotransform(r.source)
    assert gt == (src_gt[0] + xo * src_gt[1], src_gt[1], 0.0, src_gt[3] + yo * src_gt[5], 0.0, src_gt[5])
    ds = gdal.Open(str(out))
    assert [ds.GetRasterBand(b).GetDescription() for b in (1, 2, 3)] == r.names
    ds = None


def test_gdaladdo(fresh, tools_dir):
    r = fresh("s2")
    run(["gdaladdo", "-q", "-r", "average", r.rumi, 2, 4])
    ovr = r.rumi.with_name(r.rumi.name + ".ovr")
    assert ovr.is_file()
    # the same external overviews of a copy of the source
    src_copy = tools_dir / "s2_source_copy.tif"
    shutil.copy2(r.source, src_copy)
    run(["gdaladdo", "-q", "-ro", "-r", "average", src_copy, 2, 4])
    ds, sds = gdal.Open(str(r.rumi)), gdal.Open(str(src_copy))
    for b in range(1, 5):
        band, sband = ds.GetRasterBand(b), sds.GetRasterBand(b)
        assert band.GetOverviewCount() == 2
        for i, size in enumerate([(150, 100), (75, 50)]):
            o = band.GetOverview(i)
            assert (o.XSize, o.YSize) == size
            np.testing.assert_array_equal(o.ReadAsArray(), sband.GetOverview(i).ReadAsArray())
    # GDAL reads the overview instead of the full resolution for a downsampled read
    assert ds.GetRasterBand(1).ReadAsArray(buf_xsize=75, buf_ysize=50).tolist() == \
        ds.GetRasterBand(1).GetOverview(1).ReadAsArray().tolist()
    ds = sds = None
    # a Cube's time step gets its own overview file
    c = fresh("s1cube")
    run(["gdaladdo", "-q", "-r", "nearest", f'RUMI:"{c.rumi}":1', 2])
    assert c.rumi.with_name(c.rumi.name + ".t1.ovr").is_file()
    s1_copy = tools_dir / "s1d_source_copy.tif"
    shutil.copy2(c.sources[1], s1_copy)
    run(["gdaladdo", "-q", "-ro", "-r", "nearest", s1_copy, 2])
    sub, ssub = gdal.Open(f'RUMI:"{c.rumi}":1'), gdal.Open(str(s1_copy))
    assert sub.GetRasterBand(1).GetOverviewCount() == 1
    np.testing.assert_array_equal(sub.GetRasterBand(1).GetOverview(0).ReadAsArray(),
                                  ssub.GetRasterBand(1).GetOverview(0).ReadAsArray())
    assert gdal.Open(str(c.rumi)).GetRasterBand(2).GetOverviewCount() == 0  # the whole Cube has none
    sub = ssub = None


def test_gdalbuildvrt_over_rumi_files(real, tools_dir):
    r = real("landsat")
    d = tools_dir / "mosaic"
    d.mkdir(exist_ok=True)
    # cut the source into 4 pieces at x=1000, y=900 (not tile-aligned), convert each to rumi
    pieces = []
    w, h = 2041, 1860
    for xo, xs in ((0, 1000), (1000, w - 1000)):
        for yo, ys in ((0, 900), (900, h - 900)):
            tif = d / f"piece_{xo}_{yo}.tif"
            run(["gdal_translate", "-q", "-srcwin", xo, yo, xs, ys, r.source, tif])
            out = d / f"piece_{xo}_{yo}.rumi"
            run([cu.RUMI, "convert", "-q", "--time", "2020-05-18", *sum((["--band-text", n] for n in r.names), []),
                 tif, out])
            tif.unlink()
            pieces.append(out)
    vrt = d / "mosaic.vrt"
    run(["gdalbuildvrt", "-q", vrt, *pieces])
    ds = gdal.Open(str(vrt))
    assert (ds.RasterXSize, ds.RasterYSize, ds.RasterCount) == (w, h, 3)
    assert ds.GetGeoTransform() == cu.geotransform(r.source)
    assert sorted(ds.GetFileList()) == sorted([str(vrt)] + [str(p) for p in pieces])
    ds = None
    np.testing.assert_array_equal(cu.read_all(vrt), cu.read_all(r.source))
    # -separate: the two single-date Sentinel-1 Images as a 2-band stack
    a, b = real("s1a"), real("s1d")
    sep = d / "s1_separate.vrt"
    run(["gdalbuildvrt", "-q", "-separate", sep, a.rumi, b.rumi])
    np.testing.assert_array_equal(cu.read_all(sep), np.concatenate([cu.read_all(a.source), cu.read_all(b.source)]))
    # the VRT translated to GeoTIFF by gdal_translate reads the rumi files behind it
    tif = d / "mosaic.tif"
    run(["gdal_translate", "-q", vrt, tif])
    cs = run(["gdalinfo", "-checksum", tif]).stdout
    assert [int(line.split("=")[1]) for line in cs.splitlines() if "Checksum=" in line] == [22699, 15286, 60831]


def test_tools_report_a_broken_file(fresh, tools_dir):
    """A truncated rumi file: the tools fail with the driver's message, not a crash."""
    r = fresh("elev")
    bad = tools_dir / "truncated.rumi"
    data = r.rumi.read_bytes()
    bad.write_bytes(data[: len(data) // 2])
    p = subprocess.run(["gdalinfo", "-checksum", str(bad)], capture_output=True, text=True)
    assert p.returncode != 0
    assert "RUMI" in p.stderr, p.stderr
