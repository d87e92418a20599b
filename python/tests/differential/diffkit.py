"""Helpers of the differential suite: the cases (an array with its dtype, nodata, grid, band texts),
hypothesis strategies drawing them, the oracle's writers (a GeoTIFF written with rasterio from the
same array, per-band nodata in its PAM sidecar) and rumi's, and comparisons that
name the case in every message.

The oracle is rasterio / rioxarray reading the GeoTIFF; rumi must give the same (bit for bit for
samples, np.array_equal for coordinates) or fail loudly."""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import rasterio
from affine import Affine
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[3]
CLI = Path(os.environ.get("RUMI_CLI", REPO / "target" / "release" / "rumi"))
PLUGIN = Path(os.environ.get("RUMI_GDAL_PLUGIN", REPO / "target" / "release" / "libgdal_rumi.so"))
DEBIAN_PYTHON = Path(os.environ.get("RUMI_DEBIAN_PYTHON", "/usr/bin/python3"))
#: the real rasters (python/tests/conftest.py's rule: RUMI_DATA_DIR, else ../shared/data)
DATA = Path(os.environ.get("RUMI_DATA_DIR", REPO.parent / "shared" / "data"))
if not DATA.is_dir():
    DATA = Path("/work/shared/data")

#: sample types rumi stores that a GeoTIFF (and rasterio) also holds
GTIFF_DTYPES: tuple[str, ...] = (
    "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
    "float32", "float64", "complex64", "complex128",
)


def rasterio_has(dtype: str) -> bool:
    """Whether this rasterio (and its GDAL) writes GeoTIFFs of `dtype` (float16: GDAL >= 3.11)."""
    try:
        return bool(rasterio.dtypes.check_dtype(dtype)) and dtype in rasterio.dtypes.dtype_rev
    except Exception:
        return False


#: float16: rumi stores it; this rasterio may not (then rumi is compared with numpy only)
FLOAT16_IN_RASTERIO = rasterio_has("float16")
ORACLE_DTYPES = GTIFF_DTYPES + (("float16",) if FLOAT16_IN_RASTERIO else ())

KINDS = ("north-up", "south-up", "rotated", "latlon")

#: defects the suite found that are not fixed yet: the general tests keep clear of exactly these
#: corners, and a dedicated test (named here) fails (xfail strict) until the fix lands. Empty
#: this set (and drop the marks) as they are fixed.
KNOWN_DEFECTS: set[str] = {
    "plugin-negative-window",  # test_diff_gdal.py::test_plugin_window_with_a_negative_offset
}


@dataclass
class Case:
    """One raster: (B, Y, X) samples, and what a file records beside them."""

    data: np.ndarray
    nodata: Any = None  # None, a number (every band), or one number or None per band
    kind: str = "north-up"
    transform: Affine = field(default_factory=lambda: Affine(10.0, 0.0, 500000.0, 0.0, -10.0, 4100000.0))
    crs: str = "EPSG:32633"
    point: bool = False
    descriptions: tuple[str, ...] = ()
    tile: int = 256
    mask: np.ndarray | None = None  # a numpy mask to write the data as a masked array
    # per band scale, offset and unit (rasterio's scales/offsets/units), None: none
    scales: tuple[float, ...] | None = None
    offsets: tuple[float, ...] | None = None
    units: tuple[str | None, ...] | None = None

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def bands(self) -> int:
        return self.data.shape[0]

    @property
    def nodatavals(self) -> tuple[float | None, ...]:
        """Per band, the nodata value as rasterio reports it (a float) or None."""
        if self.nodata is None:
            return (None,) * self.bands
        if isinstance(self.nodata, (list, tuple)):
            return tuple(None if v is None else float(v) for v in self.nodata)
        return (float(self.nodata),) * self.bands

    @property
    def per_band(self) -> bool:
        return isinstance(self.nodata, (list, tuple))

    @property
    def texts(self) -> list[str]:
        return list(self.descriptions) or [f"b{i}" for i in range(self.bands)]

    def __str__(self) -> str:
        B, Y, X = self.data.shape
        t = self.transform
        extra = " masked" if self.mask is not None else ""
        if self.scales is not None or self.units is not None:
            extra += f" scales={self.scales!r} offsets={self.offsets!r} units={self.units!r}"
        return (
            f"[dtype={self.dtype} shape=({B}, {Y}, {X}) tile={self.tile} nodata={self.nodata!r} "
            f"transform={self.kind} ({t.a!r}, {t.b!r}, {t.c!r}, {t.d!r}, {t.e!r}, {t.f!r}) crs={self.crs} "
            f"point={self.point}{extra}]"
        )


# ---- strategies ---------------------------------------------------------------------------------

def _specials(dtype: np.dtype) -> list[Any]:
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return [info.min, info.max, 0, 1]
    if dtype.kind == "f":
        info = np.finfo(dtype)
        return [np.nan, np.inf, -np.inf, -0.0, info.max, info.min, info.tiny, info.smallest_subnormal]
    c = np.finfo(np.float32 if dtype == np.complex64 else np.float64)
    return [complex(np.nan, 0), complex(0, np.nan), complex(np.inf, -1), complex(-0.0, c.max), complex(c.tiny, -0.0)]


def random_array(rng: np.random.Generator, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """Samples spread over the whole range of an integer type, or floats of mixed magnitudes."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if rng.random() < 0.5:  # a narrow range: runs, repeats (what images look like)
            lo = max(int(info.min), -1000)
            return rng.integers(lo, min(int(info.max), lo + 2000), size=shape, endpoint=True).astype(dtype)
        return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
    if dtype.kind == "f":
        scale = 10.0 ** rng.integers(-3, 4)
        return (rng.standard_normal(shape) * scale).astype(dtype)
    part = np.float32 if dtype == np.complex64 else np.float64
    re = (rng.standard_normal(shape) * 100).astype(part)
    im = (rng.standard_normal(shape) * 100).astype(part)
    return (re + 1j * im).astype(dtype)


@st.composite
def arrays(draw: Any, dtype: np.dtype, shape: tuple[int, ...], nodata: Any = None) -> np.ndarray:
    """A random array of `dtype` with a drawn seed, a few special values (extremes, NaN, inf,
    -0.0, subnormals) and the nodata values at drawn places."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a = random_array(rng, dtype, shape)
    flat = a.reshape(-1)
    specials = _specials(dtype)
    for _ in range(draw(st.integers(0, 4))):
        flat[draw(st.integers(0, flat.size - 1))] = specials[draw(st.integers(0, len(specials) - 1))]
    if nodata is not None:
        per_band = list(nodata) if isinstance(nodata, (list, tuple)) else [nodata] * shape[-3]
        plane = shape[-2] * shape[-1]
        for b, v in enumerate(per_band):
            if v is None:
                continue
            for _ in range(draw(st.integers(0, 5))):
                i = draw(st.integers(0, plane - 1))
                a.reshape(-1, shape[-3], plane)[draw(st.integers(0, a.size // (shape[-3] * plane) - 1)), b, i] = v
        if dtype.kind == "c" and "complex-nodata-real-part" in KNOWN_DEFECTS:
            for b, v in enumerate(per_band):  # a sample whose real part alone is nodata -> exactly nodata
                if v is not None:
                    band = a[..., b, :, :]
                    band[np.isnan(band) if math.isnan(v) else band.real == v] = v
    return a


def _nodata_value(draw: Any, dtype: np.dtype) -> Any:
    """A nodata value the type holds (64-bit integers: within 2**53, what a float carries exactly)."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -(2**53)), min(int(info.max), 2**53)
        return draw(st.one_of(st.sampled_from([v for v in (0, 1, lo, hi, -9999, 255) if lo <= v <= hi]),
                              st.integers(lo, hi)))
    if dtype.kind == "c":  # GDAL compares the real part; keep it a real number
        return draw(st.sampled_from([0.0, -9999.0, 1.5]))
    width = 16 if dtype == np.float16 else 32 if dtype == np.float32 else 64
    common = {16: [-1000.0, 0.0, -65504.0, 0.5],  # values float16 holds (test_diff_gdal: -9999)
              32: [-9999.0, 0.0, -3.4028234663852886e38, 1e-3],  # 1e-3: GDAL and rumi both mask float32(1e-3)
              64: [-9999.0, 0.0, -1e300, 1e-3]}[width]
    return draw(st.one_of(st.sampled_from(common), st.floats(width=width, allow_nan=False, allow_infinity=False)))


@st.composite
def nodatas(draw: Any, dtype: np.dtype, bands: int, per_band: bool = True, nan: bool = True) -> Any:
    """None, one value, NaN (floats), or one value (or None) per band."""
    choices = ["none", "value"]
    if nan and dtype.kind in "fc":
        choices.append("nan")
    if per_band and bands > 1:
        choices.append("per-band")
    how = draw(st.sampled_from(choices))
    if how == "none":
        return None
    if how == "nan":
        return math.nan
    if how == "value":
        return _nodata_value(draw, dtype)
    vals: list[Any] = [draw(st.one_of(st.none(), st.just("v"))) for _ in range(bands)]
    vals = [None if v is None else _nodata_value(draw, dtype) for v in vals]
    if all(v is None for v in vals):
        vals[0] = _nodata_value(draw, dtype)
    return vals


@st.composite
def transforms(draw: Any, kinds: tuple[str, ...] = KINDS) -> tuple[str, Affine, str]:
    """(kind, transform, crs): north-up, south-up, rotated (projected) or lat/lon (EPSG:4326)."""
    kind = draw(st.sampled_from(kinds))
    if kind == "latlon":
        res = draw(st.sampled_from([0.25, 1 / 3600, 0.000269494585235856, 1e-5]))
        lon = draw(st.sampled_from([-180.0, -122.684, 7.1234567891]))
        lat = draw(st.sampled_from([90.0, 45.5231, -33.8678901]))
        return kind, Affine(res, 0.0, lon, 0.0, -res, lat), "EPSG:4326"
    res = draw(st.one_of(st.sampled_from([10.0, 30.0, 0.5, 1 / 3, 2.5e-2]),
                         st.floats(min_value=1e-3, max_value=1e4, allow_nan=False)))
    # origins of real grids: 0 or at least a millimetre (x/y coordinates of pixel centres cannot
    # carry an origin of 1e-280 beside metre pixels, in rioxarray's arrays or anyone's)
    x0 = draw(st.one_of(st.sampled_from([500000.0, 399960.0, 0.0]), st.floats(min_value=1e-3, max_value=2e6),
                        st.floats(min_value=-2e6, max_value=-1e-3)))
    y0 = draw(st.one_of(st.sampled_from([4100000.0, 5300040.0]), st.floats(min_value=1e-3, max_value=1e7),
                        st.floats(min_value=-1e7, max_value=-1e-3)))
    if kind == "north-up":
        return kind, Affine(res, 0.0, x0, 0.0, -res, y0), "EPSG:32633"
    if kind == "south-up":
        return kind, Affine(res, 0.0, x0, 0.0, res, y0), "EPSG:32633"
    rot = draw(st.sampled_from([0.1, -2.5, 0.001]))
    return kind, Affine(res, rot, x0, rot * 0.5, -res, y0), "EPSG:32633"


#: scales and offsets of real archives (Landsat C2 L2 SR and ST, Sentinel-2 L2A, feet, MODIS) and identity
REAL_SCALES = [(2.75e-5, -0.2), (0.00341802, 149.0), (1e-4, -1000.0), (1e-4, -0.1), (0.3048, 0.0), (0.02, 0.0),
               (1.0, 0.0), (0.5, 100.0)]
UNITS = [None, "metre", "m", "ft", "K", "°C", "1", "a & <b>"]


@st.composite
def scalings(draw: Any, bands: int) -> tuple[Any, Any, Any]:
    """(scales, offsets, units), one per band or None: those of real archives, or any finite
    numbers (tiny, huge, negative), the same in every band or not."""
    def one() -> tuple[float, float]:
        return draw(st.one_of(
            st.sampled_from(REAL_SCALES),
            st.tuples(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
                      st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)),
        ))
    if draw(st.booleans()):
        pairs = [one()] * bands
    else:
        pairs = [one() for _ in range(bands)]
    units = tuple(draw(st.sampled_from(UNITS)) for _ in range(bands))
    scaled = draw(st.booleans()) or not any(units)
    return (
        tuple(p[0] for p in pairs) if scaled else None,
        tuple(p[1] for p in pairs) if scaled else None,
        units if any(units) else None,
    )


@st.composite
def cases(draw: Any, dtypes: tuple[str, ...] = ORACLE_DTYPES, kinds: tuple[str, ...] = KINDS,
          max_bands: int = 3, max_side: int = 37, per_band: bool = True, point: bool = True,
          scaled: bool = False) -> Case:
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    B = draw(st.integers(1, max_bands))
    Y = draw(st.integers(1, max_side))
    X = draw(st.integers(1, max_side))
    nodata = draw(nodatas(dtype, B, per_band=per_band))
    data = draw(arrays(dtype, (B, Y, X), nodata))
    kind, t, crs = draw(transforms(kinds))
    texts = tuple(draw(st.sampled_from(["red", "nir", "B04", "élévation", "a b", "x" * 40])) + f"_{i}" for i in range(B))
    case = Case(
        data=data, nodata=nodata, kind=kind, transform=t, crs=crs,
        point=draw(st.booleans()) if point else False, descriptions=texts,
        tile=draw(st.sampled_from([8, 16, 256])),
    )
    if scaled:
        case.scales, case.offsets, case.units = draw(scalings(B))
    return case


# ---- writers ------------------------------------------------------------------------------------

def write_tif(case: Case, path: Path) -> Path:
    """The oracle's file: a GeoTIFF written with rasterio from the case's array (band
    descriptions, nodata, AREA_OR_POINT=Point). Per-band nodata values (which GeoTIFF's one
    GDAL_NODATA tag cannot hold) go where GDAL keeps them for a GeoTIFF, its PAM sidecar
    `<path>.aux.xml` (GTiff falls back to it per band; every GDAL version reads it)."""
    B, Y, X = case.data.shape
    nd = case.nodatavals
    single = None if case.per_band else nd[0]
    profile = dict(driver="GTiff", width=X, height=Y, count=B, dtype=str(case.dtype), crs=case.crs,
                   transform=case.transform, nodata=single)
    if Y >= 16 and X >= 16:
        profile.update(tiled=True, blockxsize=16, blockysize=16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with rasterio.open(path, "w", **profile) as dst:
            if case.point:
                dst.update_tags(AREA_OR_POINT="Point")
            if case.mask is not None:
                dst.write(np.ma.masked_array(case.data, case.mask))
            else:
                dst.write(case.data)
            for i, text in enumerate(case.texts, start=1):
                dst.set_band_description(i, text)
            if case.scales is not None:
                dst.scales = case.scales
                dst.offsets = case.offsets
            if case.units is not None:
                dst.units = tuple(u or "" for u in case.units)
    if case.per_band:
        bands = "".join(
            f'<PAMRasterBand band="{i}"><NoDataValue>{_nodata_text(v, case.dtype)}</NoDataValue></PAMRasterBand>'
            for i, v in enumerate(nd, start=1) if v is not None
        )
        Path(str(path) + ".aux.xml").write_text(f"<PAMDataset>{bands}</PAMDataset>")
    return path


def _nodata_text(v: float, dtype: np.dtype) -> str:
    if math.isnan(v):
        return "nan"
    if dtype.kind in "iu":
        return str(int(v))
    return repr(float(v))


def rumi_nodata(case: Case) -> Any:
    """The case's nodata as rumi.write takes it (a list for per-band values)."""
    return list(case.nodata) if case.per_band else case.nodata


def write_rumi(case: Case, path: Path, *, how: str = "write", times: Any = ("2020-05-18",)) -> Path:
    """The case written by rumi: `write` (rumi.write of the array, or of the masked array),
    `writer` (rumi.Writer, blocks of one tile row, last first)."""
    import rumi

    kw = dict(bands=case.texts, times=list(times), crs=case.crs, transform=case.transform,
              nodata=rumi_nodata(case), tile=case.tile, pixel_is_point=case.point,
              scales=case.scales, offsets=case.offsets, units=case.units)
    data = case.data if case.mask is None else np.ma.masked_array(case.data, case.mask)
    if how == "write":
        rumi.write(path, data, **kw)
    elif how == "writer":
        B, Y, X = case.data.shape
        with rumi.Writer(path, shape=(1, B, Y, X), dtype=case.dtype, **kw) as w:
            rows = list(range(0, Y, case.tile))
            for r in reversed(rows):
                w.write(case.data[np.newaxis, :, r:r + case.tile], row=r)
    else:
        raise ValueError(how)
    return path


# ---- comparisons --------------------------------------------------------------------------------

def bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(np.uint8).reshape(a.shape + (a.dtype.itemsize,))


def assert_same_samples(got: Any, want: Any, what: str) -> None:
    """Same dtype, shape and bytes (NaN payloads and -0.0 included)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, the oracle's {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, the oracle's {want.shape}"
    if not np.array_equal(bits(got), bits(want)):
        diff = np.argwhere(np.any(bits(got) != bits(want), axis=-1))
        first = tuple(int(v) for v in diff[0])
        raise AssertionError(
            f"{what}: {len(diff)} samples differ from the oracle's; first at {first}: {got[first]!r} != {want[first]!r}"
        )


def assert_nan_equal(got: Any, want: Any, what: str, dtype: bool = True) -> None:
    """Same shape (and dtype), values equal with NaN equal to NaN (complex: per part)."""
    got, want = np.asarray(got), np.asarray(want)
    if dtype:
        assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, the oracle's {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, the oracle's {want.shape}"
    if got.dtype.kind == "c" or want.dtype.kind == "c":
        g, w = got.astype(np.complex128), want.astype(np.complex128)
        same = (np.isclose(g.real, w.real, rtol=0, atol=0, equal_nan=True)
                & np.isclose(g.imag, w.imag, rtol=0, atol=0, equal_nan=True))
    elif got.dtype.kind in "iu" and want.dtype.kind in "iu":
        same = got == want
    else:
        g, w = got.astype(np.float64) if got.dtype.kind != "f" else got, want.astype(np.float64) if want.dtype.kind != "f" else want
        same = (g == w) | (np.isnan(g) & np.isnan(w))
    if not np.all(same):
        bad = np.argwhere(~same)
        first = tuple(int(v) for v in bad[0])
        raise AssertionError(f"{what}: {len(bad)} values differ; first at {first}: {got[first]!r} != {want[first]!r}")


def assert_same_masked(got: Any, want: Any, what: str) -> None:
    """Both masked arrays: the same mask and the same samples where unmasked."""
    assert isinstance(got, np.ma.MaskedArray), f"{what}: not a masked array but {type(got).__name__}"
    gm, wm = np.ma.getmaskarray(got), np.ma.getmaskarray(want)
    assert gm.shape == wm.shape, f"{what}: mask shape {gm.shape}, the oracle's {wm.shape}"
    if not np.array_equal(gm, wm):
        bad = np.argwhere(gm != wm)
        first = tuple(int(v) for v in bad[0])
        raise AssertionError(
            f"{what}: masks differ at {len(bad)} samples; first at {first}: rumi masked={bool(gm[first])}, "
            f"oracle masked={bool(wm[first])}, sample {np.asarray(got.data)[first]!r} / {np.asarray(want.data)[first]!r}"
        )
    g = np.where(gm, np.zeros((), got.dtype), np.asarray(got.data))
    w = np.where(wm, np.zeros((), want.dtype), np.asarray(want.data))
    assert_same_samples(g, w, what + " (unmasked samples)")


# ---- metadata -----------------------------------------------------------------------------------

def _nd_equal(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return a == b or (math.isnan(a) and math.isnan(b))


def point_oracle_inexact(oracle_transform: Any, case: Case) -> bool:
    """Whether GDAL gave a PixelIsPoint GeoTIFF's transform T back inexactly: it stores T shifted
    by half a pixel and shifts it back, and the two roundings may not cancel (0.001 beside 5 m
    half-pixels comes back 0.001000000000000334). rumi may then give T itself or GDAL's value."""
    if case.point and case.kind == "rotated" and "point-rotated-shift" in KNOWN_DEFECTS:
        return True  # test_pixel_is_point_transform: rumi may give neither yet (within an ulp)
    return case.point and tuple(oracle_transform)[:6] != tuple(case.transform)[:6]


def _point_ok(got: Any, oracle: Any, case: Case) -> bool:
    """A PixelIsPoint transform where point_oracle_inexact: T itself or the oracle's; while
    point-rotated-shift is known, a rotated one within an ulp."""
    if tuple(got)[:6] in (tuple(oracle)[:6], tuple(case.transform)[:6]):
        return True
    return case.kind == "rotated" and "point-rotated-shift" in KNOWN_DEFECTS and bool(
        np.allclose(tuple(got)[:6], tuple(oracle)[:6], rtol=1e-15, atol=1e-9))


def check_metadata(ds, src, case: Case) -> None:
    """Every georeferencing and band property rasterio has, as rasterio gives it for the GeoTIFF."""
    if point_oracle_inexact(src.transform, case):
        assert _point_ok(ds.transform, src.transform, case), (
            f"{case}: transform {tuple(ds.transform)}: neither T nor GDAL's {tuple(src.transform)}"
        )
        assert ds.crs == f"EPSG:{src.crs.to_epsg()}", f"{case}: crs {ds.crs} != rasterio EPSG:{src.crs.to_epsg()}"
        assert ds.pixel_is_point, f"{case}: pixel_is_point {ds.pixel_is_point}"
        return  # the rest derives from the transform
    assert ds.transform == src.transform, f"{case}: transform {ds.transform!r}, rasterio {src.transform!r}"
    assert tuple(ds.transform) == tuple(src.transform), f"{case}: transform bits {tuple(ds.transform)} != {tuple(src.transform)}"
    assert ds.geotransform == src.transform.to_gdal(), f"{case}: geotransform {ds.geotransform} != {src.transform.to_gdal()}"
    assert ds.crs == f"EPSG:{src.crs.to_epsg()}", f"{case}: crs {ds.crs} != rasterio EPSG:{src.crs.to_epsg()}"
    if case.kind == "south-up" and "south-up-bounds" in KNOWN_DEFECTS:  # test_bounds_of_a_south_up_grid
        l, b, r, t = src.bounds
        assert tuple(ds.bounds) in ((l, b, r, t), (l, t, r, b)), f"{case}: bounds {tuple(ds.bounds)} != rasterio {tuple(src.bounds)}"
    else:
        assert tuple(ds.bounds) == tuple(src.bounds), f"{case}: bounds {tuple(ds.bounds)} != rasterio {tuple(src.bounds)}"
    if case.kind == "rotated" and "rotated-res" in KNOWN_DEFECTS:  # test_res_of_a_rotated_grid
        assert np.allclose(ds.res, src.res, rtol=1e-15, atol=0), f"{case}: res {ds.res} != rasterio {src.res}"
    else:
        assert tuple(ds.res) == tuple(src.res), f"{case}: res {ds.res} != rasterio {src.res}"
    assert len(ds.nodatavals) == len(src.nodatavals) and all(
        _nd_equal(a, b) for a, b in zip(ds.nodatavals, src.nodatavals)
    ), f"{case}: nodatavals {ds.nodatavals} != rasterio {src.nodatavals}"
    assert _nd_equal(ds.nodata, src.nodata), f"{case}: nodata {ds.nodata} != rasterio {src.nodata}"
    # scale, offset and unit (the PAM sidecar's; GeoTIFF's GDAL metadata), bit for bit
    for name in ("scales", "offsets", "units"):
        got, want = tuple(getattr(ds, name)), tuple(getattr(src, name))
        assert got == want, f"{case}: {name} {got!r} != rasterio {want!r}"
    # a band without a description (None in rasterio) has a text in rumi (the writer's or "band N")
    assert all(s is None or g == s for g, s in zip(ds.descriptions, src.descriptions)) and len(ds.descriptions) == len(
        src.descriptions
    ), f"{case}: descriptions {ds.descriptions} != {src.descriptions}"
    assert tuple(ds.dtypes) == tuple(src.dtypes), f"{case}: dtypes {ds.dtypes} != rasterio {src.dtypes}"
    assert (ds.count, ds.width, ds.height) == (src.count, src.width, src.height), f"{case}: count/width/height"
    assert tuple(ds.indexes) == tuple(src.indexes), f"{case}: indexes {ds.indexes} != {src.indexes}"
    assert ds.pixel_is_point == case.point, f"{case}: pixel_is_point {ds.pixel_is_point}"
    assert src.tags().get("AREA_OR_POINT", "Area") == ("Point" if case.point else "Area"), f"{case}: the oracle's tag"
    prof, sp = ds.profile, src.profile
    for k in ("dtype", "width", "height", "count", "transform"):
        assert prof[k] == sp[k], f"{case}: profile[{k!r}] {prof[k]!r} != rasterio {sp[k]!r}"
    assert _nd_equal(prof["nodata"], sp["nodata"]), f"{case}: profile nodata {prof['nodata']} != {sp['nodata']}"
    assert prof["crs"] == f"EPSG:{sp['crs'].to_epsg()}", f"{case}: profile crs {prof['crs']}"
    # pixel centres and corners <-> coordinates
    H, W = ds.height, ds.width
    rows, cols = np.array([0, H - 1, H // 2]), np.array([0, W - 1, W // 3])
    # rasterio multiplies a rotated grid's matrix with numpy's dot (BLAS: the last bit may differ)
    same = np.array_equal if case.kind != "rotated" else (lambda a, b: np.allclose(a, b, rtol=1e-14, atol=1e-9))
    for off in ("center", "ul", "lr"):
        got = ds.xy(rows, cols, offset=off)
        want = src.xy(rows, cols, offset=off)
        assert same(np.asarray(got[0]), np.asarray(want[0])) and same(
            np.asarray(got[1]), np.asarray(want[1])
        ), f"{case}: xy(offset={off}) {got} != rasterio {want}"
    xs, ys = src.xy(rows, cols)  # pixel centres: unambiguous
    got = ds.index(np.asarray(xs), np.asarray(ys))
    want = rasterio.transform.rowcol(src.transform, xs, ys)
    assert np.array_equal(np.asarray(got[0]), np.asarray(want[0])) and np.array_equal(
        np.asarray(got[1]), np.asarray(want[1])
    ), f"{case}: index of pixel centres {got} != rasterio {want}"
