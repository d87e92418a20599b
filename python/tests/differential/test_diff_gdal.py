"""Through GDAL: the rumi GDAL plugin reading rumi files against GDAL reading the GeoTIFF they
came from (the same GDAL, Debian's 3.6, in one worker process: gdal_worker.py), and the CLI
`rumi convert` of the GeoTIFF against rasterio and GDAL on the source. Samples bit for bit,
GDAL's masks, checksums (gdalinfo -checksum), types, geotransform, EPSG code, nodata, band
descriptions, AREA_OR_POINT, windows (inside: the same samples; outside: both refuse)."""

from __future__ import annotations

import math
import subprocess

import numpy as np
import pytest
import rasterio
from hypothesis import given, settings, strategies as st

import rumi
from affine import Affine

from diffkit import (
    _point_ok, point_oracle_inexact, GTIFF_DTYPES, KNOWN_DEFECTS, Case, arrays, assert_same_masked, assert_same_samples, cases, check_metadata,
    nodatas, transforms, write_rumi, write_tif,
)


def _windows(data, Y: int, X: int, n: int = 3) -> list[list[int]]:
    return [list(data.draw(st.tuples(st.integers(-2, X + 1), st.integers(-2, Y + 1), st.integers(1, X + 2),
                                     st.integers(1, Y + 2)), label="window")) for _ in range(n)]


def compare_through_gdal(gdal_oracle, rumi_path, src_path, case: Case, out_dir, windows, what: str,
                         descriptions: bool = True) -> None:
    """GDAL's view of the rumi file (the plugin) equals GDAL's view of the source (descriptions:
    also the band descriptions; a source without them gets rumi's band texts)."""
    mr, ar = gdal_oracle.describe(rumi_path, out_dir / "rumi.npz", windows)
    ms, as_ = gdal_oracle.describe(src_path, out_dir / "src.npz", windows)
    assert "error" not in ms, f"{what}: GDAL cannot read the source: {ms}"
    assert "error" not in mr, f"{what}: GDAL (the plugin) cannot read the rumi file: {mr.get('error')}\n{mr.get('trace')}"
    assert mr["driver"] == "RUMI", f"{what}: opened by {mr['driver']}, not the plugin"
    for k in ("types", "pixeltypes", "count", "width", "height", "crs", "checksums") + (
        ("descriptions",) if descriptions else ()
    ):
        assert mr[k] == ms[k], f"{what}: GDAL {k}: rumi file {mr[k]!r}, source {ms[k]!r}"
    # GDAL 3.6 reads a float32 GeoTIFF's nodata 0.001 (written by GDAL 3.10) as float32(0.001) =
    # 0.0010000000474974513; rasterio 1.4 reports 0.001: the same value to a float32 band
    same = (lambda a, b: np.float32(a) == np.float32(b)) if case.dtype == np.float32 else (lambda a, b: a == b)
    assert len(mr["nodatavals"]) == len(ms["nodatavals"]) and all(
        a == b or (a is not None and b is not None and "nan" not in (a, b) and same(a, b))
        for a, b in zip(mr["nodatavals"], ms["nodatavals"])
    ), f"{what}: GDAL nodatavals: rumi file {mr['nodatavals']!r}, source {ms['nodatavals']!r}"
    if point_oracle_inexact(Affine.from_gdal(*ms["geotransform"]), case):
        assert _point_ok(Affine.from_gdal(*mr["geotransform"]), Affine.from_gdal(*ms["geotransform"]), case), (
            f"{what}: GDAL geotransform: rumi file {mr['geotransform']}, source {ms['geotransform']}, T {case.transform.to_gdal()}"
        )
    else:
        assert mr["geotransform"] == ms["geotransform"], (
            f"{what}: GDAL geotransform: rumi file {mr['geotransform']}, source {ms['geotransform']}"
        )
    area = ms["metadata"].get("AREA_OR_POINT", "Area")
    assert mr["metadata"].get("AREA_OR_POINT", "Area") == area, f"{what}: AREA_OR_POINT {mr['metadata']} != {area}"
    assert_same_samples(ar["read"], as_["read"], f"{what}: GDAL ReadAsArray")
    got, want = ar["mask"], as_["mask"]
    assert np.array_equal(got, want), (
        f"{what}: GDAL mask bands differ at {int(np.sum(got != want))} samples (first {tuple(np.argwhere(got != want)[0])})"
    )
    for i, win in enumerate(windows):
        we, ws = mr["window_errors"][i], ms["window_errors"][i]
        w = f"{what} window (xoff, yoff, xsize, ysize)={tuple(win)}"
        if min(win[:2]) < 0 and "plugin-negative-window" in KNOWN_DEFECTS:
            continue  # test_plugin_window_with_a_negative_offset
        assert (we is None) == (ws is None), f"{w}: rumi file error {we!r}, source error {ws!r}"
        if we is None:
            assert_same_samples(ar[f"w{i}"], as_[f"w{i}"], w)
            assert np.array_equal(ar[f"w{i}_mask"], as_[f"w{i}_mask"]), f"{w}: masks"


@given(case=cases(max_side=33), how=st.sampled_from(["write", "writer"]), data=st.data())
def test_plugin_against_gdal_on_the_geotiff(scratch, gdal_oracle, case, how, data):
    d = scratch()
    tif = write_tif(case, d / "src.tif")
    rf = write_rumi(case, d / "out.rumi", how=how)
    _, Y, X = case.data.shape
    compare_through_gdal(gdal_oracle, rf, tif, case, d, _windows(data, Y, X), f"{case} written by rumi.{how}")


@given(data=st.data())
def test_plugin_float16_promoted(scratch, gdal_oracle, data):
    """float16 has no GDAL 3.6 type: opening fails naming PROMOTE=FLOAT32, which reads the
    samples converted exactly to float32 (numpy's astype), nodata and mask included."""
    B = data.draw(st.integers(1, 3))
    nd = data.draw(nodatas(np.dtype("float16"), B, per_band=False))
    a = data.draw(arrays(np.dtype("float16"), (B, 7, 11), nd))
    kind, t, crs = data.draw(transforms(("north-up", "latlon")))
    case = Case(data=a, nodata=nd, kind=kind, transform=t, crs=crs, tile=8)
    d = scratch()
    rf = write_rumi(case, d / "f16.rumi")
    m, _ = gdal_oracle.describe(rf, d / "a.npz")
    assert "error" in m and "PROMOTE" in m["error"], f"{case}: opening float16 without PROMOTE=FLOAT32: {m}"
    m, arr = gdal_oracle.describe(rf, d / "b.npz", open_options=["PROMOTE=FLOAT32"])
    assert "error" not in m, f"{case}: PROMOTE=FLOAT32: {m}"
    assert m["types"] == ["Float32"] * B, f"{case}: types {m['types']}"
    assert_same_samples(arr["read"], a.astype(np.float32), f"{case}: PROMOTE=FLOAT32 samples")
    if nd is not None:
        want = np.isnan(a) if math.isnan(nd) else a == np.float16(nd)
        assert np.array_equal(arr["mask"], want), f"{case}: PROMOTE=FLOAT32 masks"


def convert(cli, src, dst, case: Case, *extra) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli), "convert", "-q", "--time", "2020-05-18", "--tile", str(case.tile), *extra,
                           str(src), str(dst)], capture_output=True, text=True)


@settings(max_examples=max(5, settings.default.max_examples // 2))
@given(case=cases(max_side=33), data=st.data())
def test_cli_convert(scratch, cli, gdal_oracle, case, data):
    """`rumi convert` of the GeoTIFF (or the VRT saying per-band nodata): rumi.open equals
    rasterio on the source (samples, masks, every metadata rasterio has), and GDAL reads the
    rumi file as it reads the source."""
    d = scratch()
    src = write_tif(case, d / "src.tif")
    out = d / "out.rumi"
    r = convert(cli, src, out, case)
    assert r.returncode == 0, f"{case}: rumi convert failed: {r.stderr}"
    with rasterio.open(src) as s, rumi.open(out) as ds:
        assert_same_samples(ds.read()[0], s.read(), f"{case} rumi convert: rumi.open read()")
        assert_same_masked(ds.read(masked=True)[0], s.read(masked=True), f"{case} rumi convert: read(masked=True)")
        check_metadata(ds, s, case)
    _, Y, X = case.data.shape
    compare_through_gdal(gdal_oracle, out, src, case, d, _windows(data, Y, X, 2), f"{case} rumi convert")


@pytest.mark.parametrize("dtype", GTIFF_DTYPES)
def test_every_type_through_every_path(scratch, cli, gdal_oracle, dtype):
    """One fixed raster per type (nodata, 3 bands, edge tiles) through rumi.write, rumi.Writer
    and rumi convert, each read by rumi.open and the plugin: a quick map of the types before the
    property tests' random draws."""
    rng = np.random.default_rng(7)
    from diffkit import random_array

    a = random_array(rng, np.dtype(dtype), (3, 21, 35))
    nd = 0 if np.dtype(dtype).kind != "f" else -9999.0
    a[:, :3, :4] = nd
    case = Case(data=a, nodata=nd, tile=16, descriptions=("red", "green", "blue"))
    d = scratch()
    src = write_tif(case, d / "src.tif")
    outs = {"write": write_rumi(case, d / "w.rumi"), "writer": write_rumi(case, d / "wr.rumi", how="writer")}
    r = convert(cli, src, d / "c.rumi", case)
    assert r.returncode == 0, f"{case}: rumi convert failed: {r.stderr}"
    outs["convert"] = d / "c.rumi"
    with rasterio.open(src) as s:
        for how, path in outs.items():
            with rumi.open(path) as ds:
                assert_same_samples(ds.read()[0], s.read(), f"{case} via {how}: read()")
                assert_same_masked(ds.read(masked=True)[0], s.read(masked=True), f"{case} via {how}: read(masked=True)")
                check_metadata(ds, s, case)
            compare_through_gdal(gdal_oracle, path, src, case, d, [[30, 16, 5, 5], [-1, 0, 2, 2]], f"{case} via {how}")


def _xfail_known(name: str, reason: str):
    return pytest.mark.xfail(name in KNOWN_DEFECTS, strict=True, reason=reason)


@_xfail_known("plugin-negative-window", "GDAL 3.6's RasterIO hands drivers this window at offset 0 (seen in gdb; its MEM driver gives the same [33, 215]); GTiff clamps row by row")
def test_plugin_window_with_a_negative_offset(scratch, gdal_oracle):
    """GDAL 3.6's RasterIO takes a window starting at a negative offset (no error) and GTiff
    reads its rows clamped into the raster: (0, -1, 1, 2) of rows [33, 215] gives [33, 33]. The
    plugin must give the same samples (or refuse loudly), never another window's: it gives
    [33, 215], the window one row down."""
    case = Case(data=np.array([[[33], [215]]], np.uint8), tile=8)
    d = scratch()
    tif = write_tif(case, d / "src.tif")
    rf = write_rumi(case, d / "out.rumi")
    windows = [[0, -1, 1, 2], [-1, 0, 1, 1], [-2, -1, 1, 1]]
    mr, ar = gdal_oracle.describe(rf, d / "r.npz", windows)
    ms, as_ = gdal_oracle.describe(tif, d / "s.npz", windows)
    for i, win in enumerate(windows):
        what = f"{case} GDAL window (xoff, yoff, xsize, ysize)={tuple(win)}"
        if mr["window_errors"][i] is not None:
            assert "window" in mr["window_errors"][i].lower(), f"{what}: an unclear refusal {mr['window_errors'][i]}"
            continue
        assert ms["window_errors"][i] is None, f"{what}: GTiff refused: {ms['window_errors'][i]}"
        assert_same_samples(ar[f"w{i}"], as_[f"w{i}"], what)


@_xfail_known("nodata-not-in-float16", "rumi.write takes nodata=-9999 for float16 (stored -10000): rumi.open masks -10000, GDAL does not")
def test_float16_nodata_the_type_cannot_hold(scratch, gdal_oracle):
    """nodata=-9999 for float16 samples (float16 holds -10000, not -9999): rumi.write refuses it
    naming nodata, or rumi.open and GDAL (PROMOTE=FLOAT32) mask the same samples."""
    a = np.array([[[-9999, -10000, 1]]], np.float16)
    d = scratch()
    try:
        rumi.write(d / "f.rumi", a, bands=["b"], times=["2020-01-01"], nodata=-9999.0)
    except (ValueError, TypeError) as e:
        assert "nodata" in str(e).lower(), f"float16 nodata=-9999: the refusal does not name nodata: {e}"
        return
    with rumi.open(d / "f.rumi") as ds:
        mine = np.ma.getmaskarray(ds.read(masked=True)[0])
    m, arr = gdal_oracle.describe(d / "f.rumi", d / "f.npz", open_options=["PROMOTE=FLOAT32"])
    assert np.array_equal(mine, arr["mask"]), f"float16 {a.tolist()} nodata=-9999: rumi.open masks {mine.tolist()}, GDAL {arr['mask'].tolist()}"
