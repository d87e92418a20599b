"""Every real raster of the shared data folder (../shared/data; skipped, with the reason, when it
is absent), written by rumi.write from rasterio's read and converted by `rumi convert`, against
the source: rumi.open (samples bit for bit, masks, transform, crs, nodata, descriptions,
res/bounds/xy), the xarray engine against rioxarray (values, bit-identical x/y), and GDAL
through the plugin against GDAL on the source (checksums, types, geotransform, nodata, colour
interpretation and palettes for the CLI's files). Rasters rumi cannot georeference (GCPs only, a
CRS without an EPSG code) must be refused loudly, naming why, and convert with --no-georef."""

from __future__ import annotations

import subprocess
import warnings

import numpy as np
import pytest
import rasterio

import rumi
from diffkit import Case, assert_same_masked, assert_same_samples, check_metadata
from test_diff_gdal import compare_through_gdal
from test_diff_xarray import check_against_rioxarray

from diffkit import DATA

FILES = sorted(p.name for p in DATA.glob("*.tif")) if DATA.is_dir() else []


def _case(src) -> Case | None:
    """The source as a Case (what rumi.write is given), or None when rumi cannot georeference it."""
    nd = tuple(src.nodatavals)
    texts = tuple(d or f"band {i}" for i, d in enumerate(src.descriptions))
    epsg = src.crs.to_epsg(confidence_threshold=100) if src.crs else None  # 70 (the default) takes near misses
    georef = epsg is not None and not src.transform.is_identity
    return Case(
        data=src.read(), nodata=None if all(v is None for v in nd) else (nd[0] if len(set(map(repr, nd))) == 1 else list(nd)),
        kind="north-up" if src.transform.b == 0 and src.transform.d == 0 and src.transform.e < 0 else "other",
        transform=src.transform, crs=f"EPSG:{epsg}" if georef else None, point=src.tags().get("AREA_OR_POINT") == "Point",
        descriptions=texts,
    ), georef


@pytest.fixture(params=FILES or ["(none)"])
def real(request, data_dir):
    if not FILES:
        pytest.skip(f"no real rasters in {DATA}")
    return data_dir / request.param


def test_rumi_write_of_a_real_raster(real, scratch, gdal_oracle):
    d = scratch()
    with rasterio.open(real) as src:
        case, georef = _case(src)
        out = d / "w.rumi"
        kw = dict(bands=list(case.texts), times=["2020-05-18"], nodata=case.nodata, pixel_is_point=case.point)
        if georef:
            try:
                rumi.write(out, case.data, crs=case.crs, transform=case.transform, **kw)
            except ValueError as e:  # a code PROJ's database lacks: refused, naming it
                assert case.crs in str(e), f"{real.name}: rumi.write refused {case.crs} without naming it: {e}"
                georef = False
        if not georef:
            rumi.write(out, case.data, **kw)
        what = f"{real.name} written by rumi.write"
        with rumi.open(out) as ds:
            assert_same_samples(ds.read()[0], src.read(), f"{what}: read()")
            assert_same_masked(ds.read(masked=True)[0], src.read(masked=True), f"{what}: read(masked=True)")
            if georef:
                check_metadata(ds, src, case)
            else:
                assert ds.transform is None and ds.crs is None, f"{what}: georeferenced without a CRS rumi can record"
    if georef:
        check_against_rioxarray(out, real, case, masked=False, chunks=None)
        check_against_rioxarray(out, real, case, masked=True, chunks={})
        compare_through_gdal(gdal_oracle, out, real, case, d, [[0, 0, 7, 5]], what, descriptions=False)


def test_rumi_convert_of_a_real_raster(real, scratch, cli, gdal_oracle):
    d = scratch()
    out = d / "c.rumi"
    args = [str(cli), "convert", "-q", "--time", "2020-05-18", str(real), str(out)]
    r = subprocess.run(args, capture_output=True, text=True)
    with rasterio.open(real) as src:
        case, georef = _case(src)
        what = f"{real.name} rumi convert"
        if r.returncode != 0:
            msg = r.stderr.lower()
            named = ("gcp" in msg or "epsg" in msg or "georef" in msg or "mask" in msg or "complex" in msg
                     or "cint16" in msg or "type" in msg)
            assert named, f"{what}: refused without naming why: {r.stderr}"
            extra = ["--no-georef"] if ("gcp" in msg or "epsg" in msg or "georef" in msg) else ["--allow-nodata-loss"]
            r = subprocess.run(args[:2] + extra + args[2:], capture_output=True, text=True)
            if r.returncode != 0:  # a sample type rumi does not store (complex int16): named
                assert "int16" in r.stderr.lower() or "type" in r.stderr.lower(), f"{what} {extra}: {r.stderr}"
                return
            georef = georef and "--no-georef" not in extra
        with rumi.open(out) as ds:
            got = ds.read()[0]
            want = src.read()
            if src.dtypes[0] == "complex_int16":  # stored as complex64: every value exactly
                assert got.dtype == np.complex64, f"{what}: {got.dtype}"
                assert_same_samples(got, want.astype(np.complex64), f"{what}: read()")
                return
            assert_same_samples(got, want, f"{what}: read()")
            if ds.nodatavals != (None,) * ds.count or src.mask_flag_enums[0] != [rasterio.enums.MaskFlags.all_valid]:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    assert_same_masked(ds.read(masked=True)[0], src.read(masked=True), f"{what}: read(masked=True)")
            if georef:
                check_metadata(ds, src, case)
    if georef:
        check_against_rioxarray(out, real, case, masked=False, chunks=None)
        compare_through_gdal(gdal_oracle, out, real, case, d, [[1, 2, 9, 4]], what, descriptions=False)
        m_r, _ = gdal_oracle.describe(out, d / "ci_r.npz")
        m_s, _ = gdal_oracle.describe(real, d / "ci_s.npz")
        assert m_r["colorinterp"] == m_s["colorinterp"], f"{what}: colour interpretation {m_r['colorinterp']} != {m_s['colorinterp']}"
        assert m_r["has_palette"] == m_s["has_palette"], f"{what}: palettes {m_r['has_palette']} != {m_s['has_palette']}"
