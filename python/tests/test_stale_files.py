"""A file rewritten after it was catalogued is never read with its old catalogue row (issue 47,
item D): the row records the store's identity of the file (rumi:etag: a file's inode and times,
an object's ETag), and a file whose identity changed is opened only when its header is still the
catalogued blob (a copy); otherwise the error names what changed. Locally, over S3 (moto) and
over HTTP (nginx); through Catalog.dataset, open_row and ChipDataset."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")

import rumi  # noqa: E402
from affine import Affine  # noqa: E402
from rumi.catalog import open_row  # noqa: E402

BANDS = ["red", "nir"]
TRANSFORM = Affine(10, 0, 500000, 0, -10, 5100000)


def _write(path, *, time="2020-01-01", bands=BANDS, transform=TRANSFORM, seed=0):
    a = np.random.default_rng(seed).integers(0, 1000, (1, 2, 64, 64), dtype=np.uint16)
    rumi.write(path, a, bands=bands, times=[time], crs="EPSG:32633", transform=transform, tile=32)
    if os.path.exists(f"{path}.header"):
        os.unlink(f"{path}.header")
    return a


def _catalogued(tmp_path, name="f.rumi"):
    p = tmp_path / name
    a = _write(p)
    return p, a, rumi.Catalog.build([str(p)], tmp_path / "cat.parquet")


@pytest.mark.parametrize("change, what", [
    ({"time": "2020-01-02"}, r"the times \['2020-01-01T00:00:00'\] -> \['2020-01-02T00:00:00'\]"),
    ({"bands": ["red", "NIR"]}, r"the bands \['red', 'nir'\] -> \['red', 'NIR'\]"),
    ({"transform": Affine(10, 0, 500010, 0, -10, 5100000)},
     r"the georeferencing \[10\.0, 0\.0, 500000\.0, 0\.0, -10\.0, 5100000\.0\] -> \[10\.0, 0\.0, 500010\.0, "),
])
def test_a_file_rewritten_with_the_same_size_is_refused_naming_what_changed(tmp_path, change, what):
    """Rewritten by rumi.write with a corrected time (band text, transform), the same pixels and
    size: before, the chip came with the catalogue's old time."""
    p, a, cat = _catalogued(tmp_path)
    size = os.path.getsize(p)
    _write(p, **change)
    assert os.path.getsize(p) == size  # only the metadata differs
    msg = rf"{p} changed since it was catalogued: the same size, but {what}.*rebuild the catalogue, or append"
    with pytest.raises(rumi.FormatError, match=msg):
        cat.dataset(0)
    with pytest.raises(rumi.FormatError, match=msg):
        open_row(cat.row(0))


def test_a_copied_file_with_the_same_content_is_read(tmp_path):
    """A copy put in place (a new inode and mtime, the same bytes) is the file catalogued: read."""
    p, a, cat = _catalogued(tmp_path)
    before = cat.row(0)["rumi:etag"]
    shutil.copy(p, tmp_path / "copy")
    os.replace(tmp_path / "copy", p)
    assert rumi.Location.parse(str(p)).stat()[1] != before
    with cat.dataset(0) as ds:
        np.testing.assert_array_equal(ds.read(), a)
        assert str(ds.times[0]) == "2020-01-01T00:00:00"


def test_the_identity_is_recorded_and_an_older_catalogue_keeps_the_size_check(tmp_path):
    """rumi:etag holds the file's identity; a catalogue written before the column opens and
    reads as before (the size check alone)."""
    import pyarrow.parquet as pq

    p, a, cat = _catalogued(tmp_path)
    st = os.stat(p)
    assert cat.row(0)["rumi:etag"] == f"file:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}\n.aux.xml none"
    t = pq.read_table(tmp_path / "cat.parquet")
    pq.write_table(t.drop_columns(["rumi:etag"]).replace_schema_metadata(t.schema.metadata), tmp_path / "old.parquet")
    old = rumi.Catalog.open(tmp_path / "old.parquet")
    assert old.row(0)["rumi:etag"] is None
    with old.dataset(0) as ds:
        np.testing.assert_array_equal(ds.read(), a)


def test_the_loader_refuses_a_rewritten_file(tmp_path):
    """ChipDataset (through its index's rows and the reader pool) refuses the rewritten file
    rather than give its chips the old time; a copy of the same content is read."""
    torch = pytest.importorskip("torch")
    import rumi.torch as rt

    p, a, cat = _catalogued(tmp_path)
    for parts in (False, True):
        src = cat
        if parts:
            from rumi.catalog import write_parts

            write_parts(cat.table, str(tmp_path / "parts"), rows_per_group=1)
            src = rumi.Catalog.open(str(tmp_path / "parts") + "/")
        shutil.copy(p, tmp_path / "copy")
        os.replace(tmp_path / "copy", p)
        ds = rt.ChipDataset(src, size=32)
        b = ds.__getitems__([(0, 0, 0)])
        np.testing.assert_array_equal(b["image"][0].numpy(), a[:, :, :32, :32])
        assert ds.index.times[0][0] == np.datetime64("2020-01-01")
        _write(p, time="2020-01-02")
        ds = rt.ChipDataset(src, size=32, dtype=torch.float32)
        with pytest.raises(rumi.FormatError, match=r"f\.rumi changed since it was catalogued: the same size, but other "
                                                   r"metadata \(the catalogued digest rumi:digest differs\)"):
            ds.__getitems__([(0, 0, 0)])
        _write(p)  # back as catalogued (a new identity, the catalogued header)


def _s3(moto, monkeypatch):
    boto3 = pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}.items():
        monkeypatch.setenv(k, v)
    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket="stale")
    return s3


def test_an_object_rewritten_on_s3_is_refused_and_a_copy_is_read(moto, monkeypatch, tmp_path):
    """Over S3 the identity is the object's ETag, from the HEAD that gets its size (one request)."""
    s3 = _s3(moto, monkeypatch)
    a = _write(tmp_path / "f.rumi")
    s3.upload_file(str(tmp_path / "f.rumi"), "stale", "x/f.rumi")
    cat = rumi.Catalog.build(["s3://stale/x/f.rumi"], tmp_path / "cat.parquet")
    etag = s3.head_object(Bucket="stale", Key="x/f.rumi")["ETag"]
    assert cat.row(0)["rumi:etag"] == f"etag:{etag}\n.aux.xml none"  # and the sidecar's: none
    # the same bytes put again (moto's ETag is the content's MD5: the same)
    s3.upload_file(str(tmp_path / "f.rumi"), "stale", "x/f.rumi")
    with cat.dataset(0) as ds:
        np.testing.assert_array_equal(ds.read(), a)
    _write(tmp_path / "g.rumi", time="2020-01-02")
    assert os.path.getsize(tmp_path / "g.rumi") == os.path.getsize(tmp_path / "f.rumi")
    s3.upload_file(str(tmp_path / "g.rumi"), "stale", "x/f.rumi")
    with pytest.raises(rumi.FormatError, match=r"s3://stale/x/f\.rumi changed since it was catalogued: the same size, "
                                               r"but the times"):
        cat.dataset(0)


def test_a_file_rewritten_on_an_http_server_is_refused(nginx, tmp_path):
    """Over HTTP the identity is nginx's ETag (its mtime and size): one HEAD at open for the
    file, one for its PAM sidecar; a rewritten file is refused, the catalogued one read."""
    a = _write(nginx.root / "stale.rumi")
    cat = rumi.Catalog.build([nginx.url("stale.rumi")], tmp_path / "cat.parquet")
    assert cat.row(0)["rumi:etag"].startswith("etag:")
    since = nginx.mark()
    with cat.dataset(0) as ds:
        np.testing.assert_array_equal(ds.read(), a)
    heads = [r["uri"] for r in nginx.requests(since) if r["method"] == "HEAD"]
    assert sorted(heads) == ["/stale.rumi", "/stale.rumi.aux.xml"], heads
    st = os.stat(nginx.root / "stale.rumi")
    _write(nginx.root / "stale.rumi", time="2020-01-02")
    os.utime(nginx.root / "stale.rumi", ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    with pytest.raises(rumi.FormatError, match=r"stale\.rumi changed since it was catalogued: the same size, but the "
                                               r"times"):
        cat.dataset(0)


def _scaled(tmp_path, name="s.rumi", **kw):
    p = tmp_path / name
    a = np.random.default_rng(0).integers(1, 1000, (1, 2, 64, 64), dtype=np.uint16)
    rumi.write(p, a, bands=BANDS, times=["2020-01-01"], crs="EPSG:32633", transform=TRANSFORM, tile=32,
               scales=[0.5, 2.0], offsets=[100.0, 0.0], units=["metre", None], **kw)
    return p, a, rumi.Catalog.build([str(p)], tmp_path / "cat.parquet")


def test_a_hand_edited_sidecar_is_refused_naming_it_and_a_copy_is_read(tmp_path):
    """The catalogue snapshots each file's PAM sidecar (rumi:scales, rumi:nodata...): a sidecar
    edited by hand after cataloguing (band 1's scale 0.5 -> 0.25) is refused by open_row,
    Catalog.dataset and ChipDataset(apply_scale=True), naming the sidecar and the change (before,
    chips came scaled by the catalogue's 0.5, rasterio read 0.25); an identical copy put in its
    place is read; a removed sidecar, or one added to a file catalogued without, is refused."""
    p, a, cat = _scaled(tmp_path)
    aux = tmp_path / "s.rumi.aux.xml"
    assert cat.row(0)["rumi:scales"] == [0.5, 2.0]
    text = aux.read_text()
    # an identical copy (a new inode and times): read, the catalogue's values still the file's
    shutil.copy(aux, tmp_path / "copy")
    os.replace(tmp_path / "copy", aux)
    with open_row(cat.row(0)) as ds:
        assert ds.scales == (0.5, 2.0)
        np.testing.assert_array_equal(ds.read(), a)
    assert "<Scale>0.5</Scale>" in text
    aux.write_text(text.replace("<Scale>0.5</Scale>", "<Scale>0.25</Scale>"))
    with rumi.open(p) as ds:  # the file's values now: the sidecar's
        assert ds.scales == (0.25, 2.0)
    msg = (rf"{p}\.aux\.xml, the file's PAM sidecar, changed since it was catalogued: the scales \[0\.5, 2\.0\] -> "
           r"\[0\.25, 2\.0\]: the catalogue's row no longer gives the file's values \(rebuild the catalogue")
    with pytest.raises(rumi.FormatError, match=msg):
        open_row(cat.row(0))
    with pytest.raises(rumi.FormatError, match=msg):
        cat.dataset(0)
    torch = pytest.importorskip("torch")
    import rumi.torch as rt

    ds = rt.ChipDataset(cat, size=32, dtype=torch.float32, apply_scale=True)
    with pytest.raises(rumi.FormatError, match=rf"{p}\.aux\.xml, the file's PAM sidecar, changed since it was catalogued"):
        ds.__getitems__([(0, 0, 0)])
    aux.write_text(text)  # back as catalogued: read, scaled by the sidecar's values
    b = rt.ChipDataset(cat, size=32, dtype=torch.float32, apply_scale=True).__getitems__([(0, 0, 0)])
    want = a[0, :, :32, :32] * np.array([0.5, 2.0])[:, None, None] + np.array([100.0, 0.0])[:, None, None]
    np.testing.assert_allclose(b["image"][0].numpy(), want[None].astype(np.float32))
    aux.unlink()
    with pytest.raises(rumi.FormatError, match=r"PAM sidecar, changed since it was catalogued: the scales \[0\.5, 2\.0\] -> "
                                               r"\[\]"):
        cat.dataset(0)
    # a file catalogued without a sidecar, given one with a scale since
    plain = tmp_path / "plain"
    plain.mkdir()
    q, _, cat2 = _catalogued(plain)
    with cat2.dataset(0):
        pass
    (plain / "f.rumi.aux.xml").write_text(text)
    with pytest.raises(rumi.FormatError, match=r"f\.rumi\.aux\.xml, the file's PAM sidecar, changed since it was "
                                               r"catalogued: the scales \[\] -> \[0\.5, 2\.0\]; the offsets"):
        cat2.dataset(0)


def test_a_sidecar_whose_nodata_was_given_and_older_rows(tmp_path):
    """A row whose nodata was given (Catalog.build(nodata=)) is not refused for the sidecar's
    nodata, only for what it took from it (the scales); a row written before the sidecar's
    identity (rumi:etag of the file alone, the older digest) opens without looking at it."""
    from rumi.catalog import rows

    p, a, _ = _scaled(tmp_path, nodata=7)
    cat = rumi.Catalog.build([str(p)], tmp_path / "given.parquet", nodata=9)
    aux = tmp_path / "s.rumi.aux.xml"
    text = aux.read_text()
    assert "<NoDataValue>7</NoDataValue>" in text
    aux.write_text(text.replace("<NoDataValue>7</NoDataValue>", "<NoDataValue>8</NoDataValue>"))
    with cat.dataset(0) as ds:
        np.testing.assert_array_equal(ds.read(), a)
    aux.write_text(text.replace("<Offset>100.0</Offset>", "<Offset>101.0</Offset>"))
    with pytest.raises(rumi.FormatError, match=r"the offsets \[100\.0, 0\.0\] -> \[101\.0, 0\.0\]"):
        cat.dataset(0)
    old = dict(cat.row(0))
    with rumi.open(p) as ds:
        old["rumi:etag"] = old["rumi:etag"].split(rows.AUX_MARK)[0]
        old["rumi:digest"] = rows.metadata_digest(ds)
    with open_row(old) as ds:
        np.testing.assert_array_equal(ds.read(), a)
