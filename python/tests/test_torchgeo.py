"""rumi.torchgeo: TorchGeo 0.10 GeoDatasets over rumi catalogues (issue 24), with TorchGeo's own
samplers, IntersectionDataset and DataLoader workers; TorchGeo's RasterDataset on the GeoTIFFs
as the reference. TorchGeo 0.10 needs Python >= 3.12: scripts/test-torch.sh runs this file in
its python 3.12 venv."""

from __future__ import annotations

import multiprocessing as mp
import shutil
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torchgeo = pytest.importorskip("torchgeo", minversion="0.10")
pytest.importorskip("pyarrow")
import pandas as pd  # noqa: E402  (TorchGeo's dependency)

import rumi  # noqa: E402
import rumi.torchgeo as rtg  # noqa: E402
from conftest import CLI, DATA, tiff_geotransform, tiff_pixels  # noqa: E402
from torch.utils.data import DataLoader  # noqa: E402
from torchgeo.datasets import IntersectionDataset, RasterDataset, stack_samples  # noqa: E402
from torchgeo.samplers import GriddedPatchSampler, RandomPatchSampler  # noqa: E402


class _Tif(RasterDataset):
    filename_glob = "*.tif"


class _TifMask(RasterDataset):
    filename_glob = "*.tif"
    is_image = False


@pytest.fixture()
def landfire(converted, tmp_path):
    elev = converted("lf_elev_220_mt_hood_utm.tif")
    fbfm = converted("lf_fbfm40_220_mt_hood_utm.tif")
    cat = rumi.Catalog.build([str(elev)], tmp_path / "elev.parquet")
    return cat, fbfm


def _offsets(q, gt):
    """Pixel (row, col) of a query's top-left corner on the GeoTIFF grid gt (TorchGeo's samplers
    snap to the grid; a sample's "bounds" tensor is float32, too coarse for this)."""
    xmin, ymax = float(q[0].start), float(q[1].stop)
    c, r = (xmin - gt[0]) / gt[1], (ymax - gt[3]) / gt[5]
    assert abs(c - round(c)) < 1e-6 and abs(r - round(r)) < 1e-6, (r, c)
    return int(round(r)), int(round(c))


def _window(a, r, c, h, w, fill):
    """a[r:r + h, c:c + w] with what lies outside a filled."""
    out = np.full((h, w), fill, a.dtype)
    r0, r1, c0, c1 = max(r, 0), min(r + h, a.shape[0]), max(c, 0), min(c + w, a.shape[1])
    if r0 < r1 and c0 < c1:
        out[r0 - r:r1 - r, c0 - c:c1 - c] = a[r0:r1, c0:c1]
    return out


@pytest.mark.parametrize("workers", [0, 2])
def test_intersection_of_images_and_labels_with_torchgeo_samplers(landfire, workers, tmp_path):
    """LANDFIRE elevation & fuel classes as an IntersectionDataset of two rumi datasets: every
    sample of TorchGeo's random and gridded samplers equals the GeoTIFFs' pixels at its bounds
    and TorchGeo's own RasterDataset intersection read with the same query."""
    cat, fbfm = landfire
    images = rtg.RumiRasterDataset(cat)
    labels = rtg.RumiRasterDataset(fbfm, is_image=False)
    ds = images & labels
    assert isinstance(ds, IntersectionDataset) and images.res == (30.0, 30.0) and images.crs.to_epsg() == 26910
    gt = tiff_geotransform(DATA / "lf_elev_220_mt_hood_utm.tif")
    elev = tiff_pixels(DATA / "lf_elev_220_mt_hood_utm.tif")[0]
    fuel = tiff_pixels(DATA / "lf_fbfm40_220_mt_hood_utm.tif")[0]
    tifs = tmp_path / "tifs"
    (tifs / "i").mkdir(parents=True)
    (tifs / "m").mkdir()
    shutil.copy(DATA / "lf_elev_220_mt_hood_utm.tif", tifs / "i")
    shutil.copy(DATA / "lf_fbfm40_220_mt_hood_utm.tif", tifs / "m")
    ref = _Tif(str(tifs / "i")) & _TifMask(str(tifs / "m"))
    kw = {"multiprocessing_context": mp.get_context("fork")} if workers else {}
    for sampler in (RandomPatchSampler(ds, size=64, length=12, generator=0), GriddedPatchSampler(ds, size=200, stride=250)):
        queries = list(sampler)  # TorchGeo's queries, handed to the DataLoader in this order
        n = 0
        for bi, b in enumerate(DataLoader(ds, sampler=queries, batch_size=4, collate_fn=stack_samples,
                                          num_workers=workers, **kw)):
            assert b["image"].dtype == torch.float32 and b["mask"].dtype == torch.int64
            for i in range(len(b["image"])):
                q = queries[bi * 4 + i]
                h, w = b["mask"][i].shape
                r, c = _offsets(q, gt)
                # outside the rasters: their nodata, 32767
                np.testing.assert_array_equal(b["image"][i, 0].numpy(), _window(elev, r, c, h, w, 32767).astype(np.float32))
                np.testing.assert_array_equal(b["mask"][i].numpy(), _window(fuel, r, c, h, w, 32767))
                want = ref[q]
                np.testing.assert_array_equal(b["mask"][i].numpy(), want["mask"].numpy())
                np.testing.assert_array_equal(b["image"][i].numpy(), want["image"].numpy())
                n += 1
        assert n >= 8


def test_labels_in_another_crs_through_intersection(landfire, tmp_path):
    """Labels warped to UTM zone 11: IntersectionDataset moves them to the images' CRS and the
    query reads them with nearest neighbour through pyproj, equal to gdalwarp -et 0's nearest
    warp onto the image grid."""
    cat, _ = landfire
    if shutil.which("gdalwarp") is None:
        pytest.skip("gdalwarp is not installed (gdal-bin)")
    z11 = tmp_path / "z11.tif"
    subprocess.run(["gdalwarp", "-q", "-t_srs", "EPSG:32611", "-r", "near", "-tr", "30", "30", "-dstnodata", "-1",
                    str(DATA / "lf_fbfm40_220_mt_hood_utm.tif"), str(z11)], check=True)
    lab = tmp_path / "z11.rumi"
    subprocess.run([str(CLI), "convert", str(z11), str(lab), "--time", "2020-05-18"], check=True, capture_output=True)
    gt = tiff_geotransform(DATA / "lf_elev_220_mt_hood_utm.tif")
    ref_tif = tmp_path / "ref.tif"
    Y, X = 799, 1013
    subprocess.run(["gdalwarp", "-q", "-t_srs", "EPSG:26910", "-te", str(gt[0]), str(gt[3] + Y * gt[5]), str(gt[0] + X * gt[1]),
                    str(gt[3]), "-ts", str(X), str(Y), "-r", "near", "-et", "0", "-dstnodata", "-1", str(z11), str(ref_tif)],
                   check=True)
    ref = tiff_pixels(ref_tif)[0]
    labels = rtg.RumiRasterDataset(lab, is_image=False)
    assert labels.crs.to_epsg() == 32611
    ds = rtg.RumiRasterDataset(cat) & labels
    assert labels.crs.to_epsg() == 26910  # moved by IntersectionDataset
    total = same = 0
    for q in GriddedPatchSampler(ds, size=128, stride=300):
        s = ds[q]
        r, c = _offsets(q, gt)
        h, w = s["mask"].shape
        eq = s["mask"].numpy() == _window(ref, r, c, h, w, -1)  # -1: the warps' nodata (outside)
        total += eq.size
        same += int(eq.sum())
    assert total > 50_000 and same / total >= 0.999, same / total


def test_time_series_stacks_the_steps(converted, tmp_path):
    ndvi = rumi.open(converted("eolearn_s2_ndvi_68t_float32.tif"))
    times = np.array(ndvi.bands, dtype="datetime64[s]")
    keep = np.concatenate([[True], np.diff(times) > np.timedelta64(0, "s")])
    a = ndvi.read()[0][keep][:, None]
    p = tmp_path / "series.rumi"
    rumi.write(p, a, bands=["ndvi"], times=[str(t) for t in times[keep]], crs=ndvi.crs, geotransform=ndvi.geotransform, tile=32)
    ds = rtg.RumiRasterDataset(rumi.Catalog.build([str(p)], tmp_path / "s.parquet"), time_series=True)
    gt = ndvi.geotransform
    q = next(iter(RandomPatchSampler(ds, size=32, length=1, generator=1)))  # inside the raster
    s = ds[q]
    assert s["image"].shape == (int(keep.sum()), 1, 32, 32)
    r, c = _offsets(q, gt)
    np.testing.assert_array_equal(s["image"].numpy(), a[:, :, r:r + 32, c:c + 32])
    # a time window selects the steps inside it
    t0, t1 = np.datetime64("2016-01-01"), np.datetime64("2016-06-30")
    import pandas as pd

    s = ds[q[0], q[1], slice(pd.Timestamp(str(t0)), pd.Timestamp(str(t1)))]
    sel = (times[keep] >= t0) & (times[keep] <= t1)
    np.testing.assert_array_equal(s["image"].numpy(), a[sel][:, :, r:r + 32, c:c + 32])


class _DatedTif(RasterDataset):
    filename_glob = "*.tif"
    filename_regex = r".*_(?P<date>\d{8})\.tif$"


class _DatedTifMask(_DatedTif):
    is_image = False


def test_static_labels_intersect_dated_images_as_torchgeo_does(tmp_path):
    """A land-cover map that does not change (the fuel classes, stored with the date they were
    made, 2019-01-01) beside elevation dated 2021-07-01: static=True, or an interval beyond
    pandas' range, spans all times, so `images & labels` and spatial_only=True queried by
    TorchGeo's GeoSamplers (which pass the images' times) give the samples of TorchGeo's own
    RasterDataset on the GeoTIFFs with an undated label file; a dated label does what
    TorchGeo's dated one does (no temporal intersection; spatial_only: IndexError, here naming
    static=True)."""
    from torchgeo.samplers import GridGeoSampler, RandomGeoSampler

    elev_tif, fuel_tif = DATA / "lf_elev_220_mt_hood_utm.tif", DATA / "lf_fbfm40_220_mt_hood_utm.tif"
    gt = tiff_geotransform(elev_tif)
    elev, fuel = tiff_pixels(elev_tif), tiff_pixels(fuel_tif)
    geo = dict(crs="EPSG:26910", geotransform=gt, tile=128, nodata=32767)  # the GeoTIFFs' nodata, as TorchGeo fills
    rumi.write(tmp_path / "elev.rumi", elev[None], bands=["elev"], times=["2021-07-01"], **geo)
    rumi.write(tmp_path / "fuel.rumi", fuel[None], bands=["fuel"], times=["2019-01-01"], **geo)
    rumi.write(tmp_path / "fuel_all.rumi", fuel[None], bands=["fuel"], times=[("0001-01-01", "9999-12-31")], **geo)
    for d, src, name in (("i", elev_tif, "elev_20210701.tif"), ("m", fuel_tif, "fuel.tif"), ("md", fuel_tif, "fuel_20190101.tif")):
        (tmp_path / d).mkdir()
        shutil.copy(src, tmp_path / d / name)
    ref_images = _DatedTif(str(tmp_path / "i"))
    ref_static = _TifMask(str(tmp_path / "m"))  # no date in the name: all times
    images = rtg.RumiRasterDataset(tmp_path / "elev.rumi")
    for labels in (rtg.RumiRasterDataset(tmp_path / "fuel.rumi", is_image=False, static=True),
                   rtg.RumiRasterDataset(tmp_path / "fuel_all.rumi", is_image=False)):
        assert (labels.index.index.left[0], labels.index.index.right[0]) == (pd.Timestamp.min, pd.Timestamp.max)
        assert labels.index.index.equals(ref_static.index.index)
        for spatial_only in (False, True):
            ds = IntersectionDataset(images, labels, spatial_only=spatial_only)
            ref = IntersectionDataset(ref_images, ref_static, spatial_only=spatial_only)
            queries = list(GridGeoSampler(ds, size=256, stride=300))
            queries += list(RandomGeoSampler(ds, size=128, length=6, generator=torch.Generator().manual_seed(0)))
            # these samplers (deprecated in 0.10, still shipped) pass the images' times; the patch
            # samplers pass none, which each dataset fills with its own span
            assert all(len(q) == 3 for q in queries)
            n = 0
            for b in DataLoader(ds, sampler=queries, batch_size=4, collate_fn=stack_samples):
                for i in range(len(b["image"])):
                    q = queries[n]
                    want = ref[q]
                    np.testing.assert_array_equal(b["image"][i].numpy(), want["image"].numpy())
                    np.testing.assert_array_equal(b["mask"][i].numpy(), want["mask"].numpy())
                    r, c = _offsets(q, gt)
                    h, w = b["mask"][i].shape
                    np.testing.assert_array_equal(b["mask"][i].numpy(), _window(fuel[0], r, c, h, w, 32767))
                    n += 1
            assert n == len(queries) >= 10
    # a dated label: what TorchGeo does with its dated GeoTIFF
    dated = rtg.RumiRasterDataset(tmp_path / "fuel.rumi", is_image=False)
    ref_dated = _DatedTifMask(str(tmp_path / "md"))
    for a, b in ((images, dated), (ref_images, ref_dated)):
        with pytest.raises(RuntimeError, match="Datasets have no temporal intersection"):
            IntersectionDataset(a, b)
    ds = IntersectionDataset(images, dated, spatial_only=True)
    q = next(iter(GridGeoSampler(ds, size=256, stride=300)))
    with pytest.raises(IndexError):
        IntersectionDataset(ref_images, ref_dated, spatial_only=True)[q]
    with pytest.raises(IndexError, match=r"the files there span 2019-01-01 00:00:00 to .* not the query's 2021-07-01.*"
                                         r"RumiRasterDataset\(\.\.\., static=True\) spans all times"):
        ds[q]


def test_apply_scale_gives_each_files_values_and_a_band_of_two_scales_is_refused_raw(tmp_path):
    """Two files side by side with one band of two scales and offsets (Landsat C2 L2's and
    Sentinel-2 L2A's): raw, refused (a mosaic of raw samples would mix them); apply_scale=True,
    each file's values equal rasterio's read of its GeoTIFF times src.scales plus src.offsets,
    nodata NaN, and a pixel no file has NaN."""
    import rasterio
    from affine import Affine

    rng = np.random.default_rng(3)
    files = {}
    for k, (name, sc, of) in enumerate((("landsat", 2.75e-5, -0.2), ("s2", 1e-4, -0.1))):
        a = rng.integers(7000, 40000, (1, 1, 64, 64), dtype=np.uint16)
        a[0, 0, :, :5] = 0
        tr = Affine(30, 0, 500000 + 64 * 30 * k, 0, -30, 5100000)
        rumi.write(tmp_path / f"{name}.rumi", a, bands=["red"], times=["2021-05-01"], crs="EPSG:32633", transform=tr,
                   tile=32, nodata=0, scales=sc, offsets=of)
        with rasterio.open(tmp_path / f"{name}.tif", "w", driver="GTiff", width=64, height=64, count=1, dtype="uint16",
                           crs="EPSG:32633", transform=tr, nodata=0) as dst:
            dst.write(a[0])
            dst.scales, dst.offsets = (sc,), (of,)
        files[name] = tr
    cat = rumi.Catalog.build([str(tmp_path / "landsat.rumi"), str(tmp_path / "s2.rumi")], tmp_path / "cat.parquet")
    with pytest.raises(rumi.RequestError, match=r"band red has scale 2\.75e-05, offset -0\.2 in landsat and scale "
                                                r"0\.0001, offset -0\.1 in s2.*apply_scale=True"):
        rtg.RumiRasterDataset(cat)
    ds = rtg.RumiRasterDataset(cat, apply_scale=True)
    t = slice(pd.Timestamp("2021-04-01"), pd.Timestamp("2021-06-01"))
    for name, tr in files.items():
        x0, y1 = tr.c, tr.f
        got = ds[x0:x0 + 64 * 30:30, y1 - 64 * 30:y1:30, t]["image"].numpy()
        with rasterio.open(tmp_path / f"{name}.tif") as src:
            m = src.read(masked=True)
            want = m.data.astype(np.float64) * np.array(src.scales)[:, None, None] + np.array(src.offsets)[:, None, None]
        want[np.ma.getmaskarray(m)] = np.nan
        np.testing.assert_array_equal(got, want.astype(np.float32), err_msg=name)
    x0, y1 = files["s2"].c, files["s2"].f  # half over s2, half over nothing
    got = ds[x0 + 32 * 30:x0 + 96 * 30:30, y1 - 64 * 30:y1:30, t]["image"].numpy()
    assert np.isnan(got[:, :, 32:]).all() and not np.isnan(got[:, :, 5:32]).any()


def test_a_file_across_180_degrees_in_a_lon_lat_dataset(tmp_path):
    """A RumiRasterDataset in EPSG:4326 over a file in EPSG:32660 that crosses 180 degrees
    (issue 47 A's file): its index outline is the catalogue's footprint cut at 180 degrees, not
    a band around the globe, so a query over Europe finds nothing, one at 179.9 E (and -179.95)
    reads the file's pixels; the catalogue's exact search (brute force on the file's own grid)
    agrees for each query box."""
    from affine import Affine

    from rumi import Grid

    grid = Grid("EPSG:32660", Affine(1000, 0, 700000, 0, -1000, 5050000), (100, 100))
    a = (np.arange(100 * 100, dtype=np.uint16).reshape(1, 1, 100, 100) % 1000) + 1
    f = tmp_path / "f.rumi"
    rumi.write(f, a, bands=["b"], times=["2020-01-01"], crs=grid.crs, transform=grid.transform, nodata=0)
    cat = rumi.Catalog.build([str(f)], tmp_path / "c.parquet")
    ds = rtg.RumiRasterDataset(cat, crs="EPSG:4326", res=0.005)
    for (w, s, e, n), hit in (((0, 40, 10, 50), False), ((-100, 40, -90, 50), False),
                              ((179.8, 44.9, 179.95, 45.05), True), ((-179.99, 44.9, -179.95, 45.0), True)):
        assert (len(cat.search(bbox=(w, s, e, n))) == 1) == hit, (w, s, e, n)
        assert (len(ds.index.cx[w:e, s:n]) == 1) == hit, (w, s, e, n)
        q = (slice(w, e, 0.005), slice(s, n, 0.005), slice(pd.Timestamp.min, pd.Timestamp.max, 1))
        if not hit:
            with pytest.raises(IndexError, match="not found"):
                ds[q]
            continue
        got = ds[q]["image"].numpy()[0]
        # nearest neighbour: each covered pixel centre's value is the file's pixel under it
        H, W = got.shape
        xs = w + 0.005 * (np.arange(W) + 0.5)
        ys = n - 0.005 * (np.arange(H) + 0.5)
        lon, lat = np.meshgrid(xs, ys)
        from rumi._grid import transformer

        x, y = transformer("EPSG:4326", "EPSG:32660").transform(lon, lat)
        c, r = np.floor((x - 700000) / 1000).astype(int), np.floor((5050000 - y) / 1000).astype(int)
        inside = (r >= 0) & (r < 100) & (c >= 0) & (c < 100)
        assert inside.sum() > 10
        np.testing.assert_array_equal(got[inside], a[0, 0][r[inside], c[inside]])
    lo, hi = ds.index.total_bounds[[0, 2]]
    assert lo < -179.9 and hi > 179.9  # both pieces


def test_stats_and_normalize_from_the_catalogue(converted, tmp_path):
    """RumiRasterDataset.stats(): the bands' mean/std of its files from the catalogue (no pixel
    read), equal to numpy over the GeoTIFF's valid pixels; its Normalize (torchvision's and
    kornia's, TorchGeo's) turns a sample into (x - mean) / std."""
    name = "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"
    cat = rumi.Catalog.build([str(converted(name))], tmp_path / "c.parquet")
    ds = rtg.RumiRasterDataset(cat)
    s = ds.stats()
    px = tiff_pixels(DATA / name).astype(np.float64)
    nd = cat.row(0)["rumi:nodata"]
    for k in range(px.shape[0]):
        x = px[k][px[k] != nd[k]] if nd and nd[k] is not None else px[k].ravel()
        assert s.count[k] == x.size
        assert abs(s.mean[k] - x.mean()) <= 1e-6 * abs(x.mean())
        assert abs(s.std[k] - x.std()) <= 1e-4 * x.std()
    img = torch.arange(3 * 4 * 5, dtype=torch.float32).reshape(3, 4, 5) * 100
    want = (img - torch.tensor(s.mean, dtype=torch.float32)[:, None, None]) / torch.tensor(s.std, dtype=torch.float32)[:, None, None]
    torch.testing.assert_close(s.normalize()(img), want)
    torch.testing.assert_close(s.normalize("kornia")(img[None])[0], want)
    mean, std = s.tensors()
    torch.testing.assert_close(mean, torch.tensor(s.mean, dtype=torch.float32))
