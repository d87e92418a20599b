"""Scale, offset and unit per band (issue 47) in the Python package: the arguments rumi.write /
rumi.Writer take (rasterio's names, checked loudly), the PAM sidecar they write (read by the
core's one parser, _rumi.pam_parse, the same for nodata), Cubes (one value per band across time
steps), sidecars beside objects, and hostile sidecars. The comparisons with rasterio and
rioxarray are in differential/test_diff_scale.py."""

from __future__ import annotations

import numpy as np
import pytest

import rumi
from rumi import _rumi, _scale

KW = dict(times=["2020-01-01"], crs="EPSG:32633", transform=(10.0, 0.0, 500000.0, 0.0, -10.0, 4100000.0))


def write(p, a, **kw):
    from affine import Affine

    args = {**KW, "transform": Affine(*KW["transform"]), "bands": [f"b{i}" for i in range(a.shape[-3])], **kw}
    rumi.write(p, a, **args)
    return str(p)


def test_full_precision_and_both_keys(tmp_path):
    """Values come back bit for bit (shortest round-trip text), a scale alone is written with
    offset 0 (GDAL's PAM writes both), a unit alone without a scale."""
    a = np.zeros((3, 2, 2), np.uint16)
    vals = [2.75e-5, 1 / 3, 1.7976931348623157e308]
    p = write(tmp_path / "a.rumi", a, scales=vals, units=[None, "ft", ""])
    text = open(p + ".aux.xml").read()
    assert "<Scale>2.75e-5</Scale>" in text and "<Offset>0.0</Offset>" in text
    with rumi.open(p) as ds:
        assert ds.scales == tuple(vals) and ds.offsets == (0.0,) * 3 and ds.units == (None, "ft", None)
    assert [b for b, *_ in _rumi.pam_parse(text.encode())] == [1, 2, 3]
    # nothing recorded: no sidecar at all
    p = write(tmp_path / "b.rumi", a, scales=1.0, offsets=[0, 0.0, None], units=None)
    assert not (tmp_path / "b.rumi.aux.xml").exists()
    with rumi.open(p) as ds:
        assert (ds.scales, ds.offsets, ds.units) == ((1.0,) * 3, (0.0,) * 3, (None,) * 3)


@pytest.mark.parametrize("kw,err,match", [
    (dict(scales=[float("nan"), 1, 1]), ValueError, r"scales\[0\] = nan is not a finite number"),
    (dict(offsets=float("inf")), ValueError, r"offsets\[0\] = inf is not a finite number"),
    (dict(scales=[1.0, 2.0]), ValueError, "scales gives 2 values, the file has 3 bands"),
    (dict(scales="0.5"), TypeError, r"scales\[0\] = '0.5' is not a number"),
    (dict(offsets=[True, 0, 0]), TypeError, r"offsets\[0\] = True is not a number"),
    (dict(units=[1, "m", "m"]), TypeError, r"units\[0\] = 1 is not text"),
    (dict(units=5), TypeError, r"units\[0\] = 5 is not text"),
    (dict(units=object()), TypeError, "units must be one value or one per band"),
])
def test_bad_arguments_are_refused(tmp_path, kw, err, match):
    with pytest.raises(err, match=match):
        write(tmp_path / "x.rumi", np.zeros((3, 2, 2), np.uint8), **kw)
    assert not (tmp_path / "x.rumi").exists()


def test_writer_of_a_cube_writes_every_time_step(tmp_path):
    a = np.arange(2 * 2 * 4 * 4, dtype=np.int16).reshape(2, 2, 4, 4)
    from affine import Affine

    with rumi.Writer(tmp_path / "c.rumi", shape=a.shape, dtype=a.dtype, bands=["x", "y"],
                     times=["2020-01-01", "2020-01-02"], crs="EPSG:32633", transform=Affine(*KW["transform"]),
                     tile=4, scales=[0.1, 0.2], offsets=[1.0, 2.0], units=["m", None]) as w:
        w.write(a)
    parsed = _rumi.pam_parse((tmp_path / "c.rumi.aux.xml").read_bytes())
    # GDAL's numbering of a Cube opened whole: t * B + b + 1
    assert [(n, s, o, u) for n, _, s, o, u in parsed] == [
        (1, 0.1, 1.0, "m"), (2, 0.2, 2.0, None), (3, 0.1, 1.0, "m"), (4, 0.2, 2.0, None)]
    with rumi.open(tmp_path / "c.rumi") as ds:
        assert (ds.scales, ds.offsets, ds.units) == ((0.1, 0.2), (1.0, 2.0), ("m", None))
    # a sidecar whose time steps disagree for one band is an error naming it, never the first one
    aux = tmp_path / "c.rumi.aux.xml"
    aux.write_text(aux.read_text().replace("<Scale>0.2</Scale>", "<Scale>0.25</Scale>", 1))
    with pytest.raises(rumi.FormatError, match=r"band 1 has scale 0.25 at one time step and 0.2 at another"):
        rumi.open(tmp_path / "c.rumi").scales


@pytest.mark.parametrize("body,match", [
    ("<Offset>0</Offset><Scale>nan</Scale>", r'band 1: the scale "nan" is not a finite number'),
    ("<Offset>x</Offset><Scale>1</Scale>", r'band 1: the offset "x" is not a number'),
    ("<NoDataValue>0</NoDataValue", "not a GDAL PAM sidecar"),
])
def test_hostile_sidecars_are_errors_naming_the_file(tmp_path, body, match):
    p = write(tmp_path / "h.rumi", np.zeros((1, 2, 2), np.uint8))
    with open(p + ".aux.xml", "w") as f:
        f.write(f'<PAMDataset><PAMRasterBand band="1">{body}</PAMRasterBand></PAMDataset>')
    with pytest.raises(rumi.FormatError, match=match) as e:
        rumi.open(p).scales
    assert "h.rumi.aux.xml" in str(e.value)
    with pytest.raises(rumi.FormatError, match="h.rumi.aux.xml"):
        rumi.open(p).nodatavals
    # not UTF-8
    with open(p + ".aux.xml", "wb") as f:
        f.write(b"<PAMDataset>\xff</PAMDataset>")
    with pytest.raises(rumi.FormatError, match="not UTF-8"):
        rumi.open(p).units


def test_a_sidecar_gdal_grew_still_gives_them(tmp_path):
    """GDAL saves statistics (and its own %.16g texts) into the sidecar: the values still read."""
    p = write(tmp_path / "g.rumi", np.zeros((1, 2, 2), np.uint16), scales=2.75e-5, offsets=-0.2)
    with open(p + ".aux.xml", "w") as f:
        f.write('<PAMDataset><Metadata><MDI key="A">1</MDI></Metadata><PAMRasterBand band="1">'
                '<Description>sr</Description><UnitType>m&#178;</UnitType><Offset>-0.2</Offset>'
                '<Scale>2.75e-05</Scale><Metadata><MDI key="STATISTICS_MEAN">3</MDI></Metadata>'
                '</PAMRasterBand></PAMDataset>')
    with rumi.open(p) as ds:
        assert (ds.scales, ds.offsets, ds.units) == ((2.75e-5,), (-0.2,), ("m\u00b2",))


def test_apply_is_rioxarrays_arithmetic():
    """_scale.apply (the engine's and ChipDataset's) computes in rioxarray's float type."""
    a = np.array([[[0, 1, 65535]], [[7, 8, 9]]], np.uint16)
    sc = _scale.Scaling((2.75e-5, 0.5), (-0.2, 100.0), (None, "m"))
    got = _scale.apply(a, sc, 0)
    assert got.dtype == np.float32
    want = a.astype(np.float32)
    want[0] = want[0] * 2.75e-5 + -0.2
    want[1] = want[1] * 0.5 + 100.0
    assert np.array_equal(got, want)
    assert _scale.apply(a.astype(np.int32), sc, 0).dtype == np.float64
    assert sc.select([1]) == _scale.Scaling((0.5,), (100.0,), ("m",))
    with pytest.raises(ValueError, match="2 bands along axis 0, 3 scales"):
        _scale.apply(a, _scale.Scaling.none(3), 0)


def test_objects_on_s3_carry_them(moto, tmp_path, monkeypatch):
    pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}.items():
        monkeypatch.setenv(k, v)
    import boto3

    boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1").create_bucket(Bucket="scales")
    url = "s3://scales/a.rumi"
    write(url, np.zeros((2, 2, 2), np.uint16), scales=[1e-4, 2.75e-5], offsets=[-0.1, -0.2], units=["1", None])
    with rumi.open(url) as ds:
        assert (ds.scales, ds.offsets, ds.units) == ((1e-4, 2.75e-5), (-0.1, -0.2), ("1", None))


@pytest.mark.parametrize("body", ["<Scale>2.5</Scale>", "<Offset>-7</Offset>", "<Offset>-7</Offset><Scale>2.5</Scale>",
                                  "<Scale>0.5</Scale><UnitType>ft</UnitType>"])
def test_a_lone_scale_or_offset_reads_as_gdal_reads_it(tmp_path, body):
    """A sidecar written by hand or another tool with <Scale> and no <Offset> (or the reverse):
    GDAL's PAM reads it with the other's default; so does rumi (it refused the sidecar). The
    oracle: rasterio reading a GeoTIFF with the same sidecar."""
    rasterio = pytest.importorskip("rasterio")
    a = np.zeros((1, 2, 2), np.uint8)
    p = write(tmp_path / "h.rumi", a)
    tif = tmp_path / "h.tif"
    with rasterio.open(tif, "w", driver="GTiff", width=2, height=2, count=1, dtype="uint8") as dst:
        dst.write(a)
    for path in (p, str(tif)):
        with open(path + ".aux.xml", "w") as f:
            f.write(f'<PAMDataset><PAMRasterBand band="1">{body}</PAMRasterBand></PAMDataset>')
    with rasterio.open(tif) as src, rumi.open(p) as ds:
        assert (ds.scales, ds.offsets, ds.units) == (src.scales, src.offsets, src.units)



@pytest.mark.parametrize("name,value,err,text", [
    ("nodata", [1, 2], ValueError, "nodata gives 2 values, the file has 3 bands"),
    ("offsets", [1, 2], ValueError, "offsets gives 2 values, the file has 3 bands"),
    ("nodata", 5j, TypeError, "nodata must be a number or one per band, not 5j"),
    ("scales", 5j, TypeError, "scales must be one value or one per band, not 5j"),
])
def test_one_value_or_one_per_band_is_expanded_in_one_place(tmp_path, name, value, err, text):
    """nodata= (as samplers and the catalogue take it) and scales=, offsets=, units= are one
    value for every band or one per band, by one helper (rumi._pam.each_band, issue 49: _scale
    and _nodata each had their own), whose errors name the argument and the caller."""
    from rumi import _nodata, _pam

    def expand() -> object:
        if name == "nodata":
            return _nodata.normalize(value, 3, "here")
        return _scale.normalize(**{"scales": None, "offsets": None, "units": None, name: value}, bands=3, what="here")

    with pytest.raises(err) as e:
        expand()
    assert str(e.value) == f"here: {text}"
    one = _nodata._is_number if name == "nodata" else (lambda v: isinstance(v, (str, bytes, int, float)))
    with pytest.raises(err) as e:
        _pam.each_band(value, 3, name, "here", one, "a number" if name == "nodata" else "one value")
    assert str(e.value) == f"here: {text}"
    if name != "nodata":  # the writers say it so too
        with pytest.raises(err, match=f": {text}$"):
            write(tmp_path / "x.rumi", np.zeros((3, 2, 2), np.uint8), **{name: value})
        assert not (tmp_path / "x.rumi").exists()
    assert _pam.each_band(None, 2, name, "w", bool, "x") == [None, None]
    assert _pam.each_band(7, 2, name, "w", lambda v: isinstance(v, int), "x") == [7, 7]
    assert _pam.each_band((7, None), 2, name, "w", lambda v: isinstance(v, int), "x") == [7, None]
