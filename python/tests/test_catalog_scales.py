"""Scale, offset and unit per band in the catalogue (issue 47): the rumi:scales, rumi:offsets and
rumi:units columns, written by Catalog.build / append and `rumi-catalog build`, equal what
rasterio reports of the same files written as GeoTIFFs (src.scales, src.offsets, src.units).

The files (fixture `scaled`) are a Landsat Collection 2 Level-2 surface reflectance piece
(uint16, scale 2.75e-5, offset -0.2, nodata 0), a Sentinel-2 L2A piece of processing baseline
04.00 (uint16, BOA_ADD_OFFSET -1000 on reflectance x 10000: scale 1e-4, offset -0.1 in GDAL's
value = raw * scale + offset, nodata 0), a DEM in feet (int16, unit "ft", no scale), one in
decimetres (scale 0.1, unit "metre") and a file
with none of them; each written with rasterio as a GeoTIFF (the oracle) and with rumi.write."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
rasterio = pytest.importorskip("rasterio")

import rumi  # noqa: E402
import rumi.catalog  # noqa: E402
from rumi.catalog import band_scaling  # noqa: E402

# name -> (dtype, scales, offsets, units, nodata, the pixel values' range)
KINDS = {
    "landsat": ("uint16", (2.75e-5, 2.75e-5), (-0.2, -0.2), ("", ""), 0, (7000, 40000)),
    "s2": ("uint16", (1e-4, 1e-4), (-0.1, -0.1), ("", ""), 0, (900, 12000)),
    "dem": ("int16", (1.0, 1.0), (0.0, 0.0), ("ft", "ft"), -32768, (-50, 9000)),
    "dem_m": ("int16", (0.1, 0.1), (0.0, 0.0), ("metre", "metre"), -32768, (-500, 30000)),
    "plain": ("uint16", (1.0, 1.0), (0.0, 0.0), ("", ""), None, (0, 3000)),
}
BANDS = ["red", "nir"]
SHAPE = (2, 2, 80, 96)  # T, B, Y, X


def write_pair(d, name, kind, seed, x0=500000.0):
    """(rumi path, GeoTIFF path, array) of one file of KINDS[kind]: a quarter of the samples nodata."""
    from affine import Affine

    dtype, sc, of, un, nd, (lo, hi) = KINDS[kind]
    rng = np.random.default_rng(seed)
    a = rng.integers(lo, hi, SHAPE).astype(dtype)
    if nd is not None:
        a[rng.random(SHAPE) < 0.25] = nd
    tr = Affine(30, 0, x0, 0, -30, 5100000)
    p = d / f"{name}.rumi"
    rumi.write(p, a, bands=BANDS, times=["2021-05-01", "2021-06-01"], crs="EPSG:32633", transform=tr, tile=32,
               nodata=nd, scales=sc, offsets=of, units=un)
    tif = d / f"{name}.tif"  # the oracle: bands t * B + b + 1, as GDAL numbers a Cube's
    T, B, Y, X = SHAPE
    with rasterio.open(tif, "w", driver="GTiff", width=X, height=Y, count=T * B, dtype=dtype, crs="EPSG:32633",
                       transform=tr, nodata=nd) as dst:
        dst.write(a.reshape(T * B, Y, X))
        dst.scales = sc * T
        dst.offsets = of * T
        dst.units = un * T
    return p, tif, a


@pytest.fixture(scope="module")
def scaled(tmp_path_factory):
    d = tmp_path_factory.mktemp("scaled")
    out = {}
    for k, kind in enumerate(KINDS):
        out[kind] = write_pair(d, kind, kind, k, x0=500000.0 + 4000 * k)
    return d, out


def oracle(tif):
    """(scales, offsets, units) of a GeoTIFF's first time step's bands, as rasterio reports them."""
    with rasterio.open(tif) as src:
        B = len(BANDS)
        return list(src.scales[:B]), list(src.offsets[:B]), [u or "" for u in src.units[:B]]  # (rasterio: None for none)


def test_catalogue_columns_equal_rasterio_and_round_trip(scaled, tmp_path):
    d, files = scaled
    srcs = [str(p) for p, _, _ in files.values()]
    for where in (tmp_path / "one.parquet", str(tmp_path / "parts") + "/"):
        cat = rumi.Catalog.build(srcs, where)
        again = rumi.Catalog.open(where)
        rows = {r["id"]: r for r in again.table.to_pylist()}
        assert set(rows) == set(files)
        for kind, (p, tif, _) in files.items():
            want = oracle(tif)
            row = rows[kind]
            assert band_scaling(row, len(BANDS)) == tuple(want), kind
            with rumi.open(p) as ds:
                assert (list(ds.scales), list(ds.offsets), [u or "" for u in ds.units]) == want
        # compact: a column whose every band has the default is an empty list, not a null
        assert rows["plain"]["rumi:scales"] == [] and rows["plain"]["rumi:units"] == []
        assert rows["dem"]["rumi:scales"] == [] and rows["dem"]["rumi:units"] == ["ft", "ft"]
        assert rows["landsat"]["rumi:offsets"] == [-0.2, -0.2]
        del cat


def test_append_and_the_command_line_record_them(scaled, tmp_path):
    d, files = scaled
    cat = rumi.Catalog.build([str(files["plain"][0])], str(tmp_path / "parts") + "/")
    cat = cat.append([str(files["s2"][0])])
    rows = {r["id"]: r for r in rumi.Catalog.open(str(tmp_path / "parts") + "/").table.to_pylist()}
    assert band_scaling(rows["s2"], 2) == tuple(oracle(files["s2"][1]))
    out = tmp_path / "cli.parquet"
    assert rumi.catalog.main(["build", str(files["dem"][0]), "-o", str(out)]) == 0  # rumi-catalog build
    (row,) = rumi.Catalog.open(out).table.to_pylist()
    assert band_scaling(row, 2) == tuple(oracle(files["dem"][1]))


def test_a_catalogue_written_before_the_columns_records_none(scaled, tmp_path):
    """An older catalogue (no such columns) opens with them null: "not recorded", told apart
    from "no scale" (an empty list)."""
    import pyarrow.parquet as pq

    d, files = scaled
    cat = rumi.Catalog.build([str(files["landsat"][0]), str(files["plain"][0])], tmp_path / "new.parquet")
    old = cat.table.drop_columns(["rumi:scales", "rumi:offsets", "rumi:units"])
    pq.write_table(old.replace_schema_metadata(cat.table.schema.metadata), tmp_path / "old.parquet")
    rows = rumi.Catalog.open(tmp_path / "old.parquet").table.to_pylist()
    assert [band_scaling(r, 2) for r in rows] == [None, None]
    assert [r["rumi:scales"] for r in rows] == [None, None]
