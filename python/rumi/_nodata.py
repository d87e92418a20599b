"""Nodata: one home for every surface of the package.

rumi files have no nodata field (spec: "Sample encodings"); every writer that knows nodata keeps
it where GDAL readers look, the PAM sidecar `<file>.aux.xml` (beside a local file or an object),
with one `PAMRasterBand` per GDAL band (`t * B + b + 1` when a Cube is opened whole). This
module reads its nodata (`pam_nodata`, through `_pam`, the core's PAM reader; behind `Dataset.nodatavals`, the catalogue and the xarray
engine), normalises what users pass as `nodata=` (`normalize`, `gdal_texts`) and tests samples
against a value (`valid_mask`)."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from . import _pam
from ._errors import FormatError

#: the PAM sidecar's suffix (the core's rumi::pam::AUX_SUFFIX)
AUX_SUFFIX = _pam.AUX_SUFFIX

#: per band, a nodata value or None (no nodata in that band)
Nodata = list[float | None]


def pam_nodata(src: str, bands: int, *, options: dict[str, Any] | None = None) -> Nodata | None:
    """Per band, the nodata value that the PAM sidecar `<src>.aux.xml` records (written by
    rumi.write, rumi.Writer, rumi.to_rumi, rumi.build, `rumi convert` and `rumi stack`, or by
    GDAL), or None when there is no sidecar or it records none. Its bands are GDAL's
    (t * B + b + 1); band b takes the first time step's value (they are equal when a rumi writer
    wrote them; a band whose values differ between time steps is a FormatError naming it).
    The sidecar is read by the core's PAM reader (rumi._pam.read)."""
    entries = _pam.read(src, options=options)
    if entries is None:
        return None
    aux = src + AUX_SUFFIX

    def value(e: _pam.PamBand) -> float | None:
        if e.nodata is None:
            return None
        try:
            return float(e.nodata)
        except ValueError:
            raise FormatError(f"{aux}: a band has nodata {e.nodata!r}, not a number") from None

    out = _pam.per_band(src, entries, bands, "nodata", value)
    return out if any(v is not None for v in out) else None


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def normalize(nodata: Any, bands: int, what: str) -> Nodata | None:
    """`nodata=` as one float (or None) per band; None when no band has one. A scalar applies to
    every band."""
    if nodata is None:
        return None
    vals: list[Any] = _pam.each_band(nodata, bands, "nodata", what, _is_number, "a number")
    for v in vals:
        if v is not None and not _is_number(v):
            raise ValueError(f"{what}: nodata values must be numbers or None, got {v!r}")
    vals = [None if v is None else float(v) for v in vals]
    return vals if any(v is not None for v in vals) else None


def gdal_texts(nodata: Any, dtype: np.dtype[Any], bands: int, times: int) -> list[str | None] | None:
    """One GDAL-parsable text per GDAL band (T * B) of a nodata scalar or per-band sequence, each
    checked against the sample type (an integer type takes only its own integers)."""
    if nodata is None:
        return None
    values = list(nodata) if isinstance(nodata, (list, tuple, np.ndarray)) else [nodata] * bands
    if len(values) != bands:
        raise ValueError(f"nodata must be one value or {bands} (one per band), got {len(values)}")
    out: list[str | None] = []
    for i, v in enumerate(values):
        if v is None:
            out.append(None)
            continue
        if not _is_number(v):
            raise TypeError(f"nodata[{i}] = {v!r} is not a number")
        f = float(v)
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            if not (math.isfinite(f) and f == int(f)) or not info.min <= int(f) <= info.max:
                raise ValueError(f"nodata[{i}] = {v!r} is not a {dtype} value")
            out.append(str(int(f)))
        elif dtype.kind == "b":
            if f not in (0.0, 1.0):
                raise ValueError(f"nodata[{i}] = {v!r} is not a bool value (0 or 1)")
            out.append(str(int(f)))
        elif math.isfinite(f) and (g := _float_nearest(dtype, f)) != f:
            raise ValueError(
                f"nodata[{i}] = {v!r} is not a {dtype} value: the samples cannot take it"
                + (f" (the nearest is {g!r})" if math.isfinite(g) else " (beyond the type's range)")
            )
        elif math.isnan(f):
            out.append("nan")
        elif math.isinf(f):
            out.append("inf" if f > 0 else "-inf")
        else:
            out.append(repr(f))
    return out * times


def _float_nearest(dtype: np.dtype[Any], f: float) -> float:
    """What float (or complex: the real part) samples of dtype make of the finite value f,
    for the nodata check: f itself when the type can take it (float32 and wider within their
    range: decimal texts round there as GDAL rounds them when it reads the nodata text), the
    rounded value for types narrower than float32 (float16, bfloat16, float8: GDAL compares
    their samples promoted to float32, so a value they cannot hold never matches), inf beyond
    the range."""
    with np.errstate(over="ignore"):
        g = float(np.real(dtype.type(f)))
    if math.isfinite(g) and dtype.itemsize >= (8 if dtype.kind == "c" else 4):
        return f
    return g


def valid_mask(a: np.ndarray[Any, Any], nd: float) -> np.ndarray[Any, Any]:
    """True where the samples of a are not the nodata value nd (NaN nodata: not NaN), by the
    rule of GDAL's nodata mask band, which rasterio's, rioxarray's masked=True and the plugin's
    masked reads all follow: complex samples by their real part, floats within GDAL's tolerance
    of nd too (ARE_REAL_EQUAL: |a - nd| < 2 * float32 epsilon * |a + nd|)."""
    if a.dtype.kind not in "biufc":  # float16/bfloat16/float8 (ml_dtypes): compare as float32
        a = a.astype(np.float32)
    if a.dtype.kind == "c":  # GDAL's nodata mask (and so rasterio's) compares the real part only
        a = a.real
    if math.isnan(nd):
        return ~np.isnan(a) if a.dtype.kind in "fc" else np.ones(a.shape, bool)
    if a.dtype.kind in "iu":
        info = np.iinfo(a.dtype)
        if nd != int(nd) or not info.min <= nd <= info.max:
            return np.ones(a.shape, bool)  # a value the samples cannot take: all are valid
        return np.asarray(a != a.dtype.type(int(nd)))
    if a.dtype.kind == "b":
        return np.asarray(a != bool(nd))
    if a.dtype.itemsize < 4:  # float16: GDAL compares it promoted to float32 (PROMOTE=FLOAT32)
        a = a.astype(np.float32)
    v = a.dtype.type(nd)
    eps = np.float32(np.finfo(np.float32).eps)
    with np.errstate(over="ignore", invalid="ignore"):
        near = np.abs(a - v) < eps * np.abs(a + v) * 2
    return np.asarray(~((a == v) | near))


def fits(v: float, dtype: np.dtype[Any]) -> bool:
    """Whether samples of `dtype` can hold the nodata value v exactly (an integer type only its
    own integers, bool 0 or 1, a float type any value, NaN included)."""
    try:
        gdal_texts(v, np.dtype(dtype), 1, 1)
    except (ValueError, TypeError):
        return False
    return True


def encode_masked(a: Any, nodata: Nodata | None, band_axis: int, what: str) -> np.ndarray[Any, Any]:
    """The samples to store for `a`: a numpy masked array's masked samples take their band's
    nodata value (the encoded value of a masked sample, as rasterio's write fills them with the
    dataset's nodata); anything else unchanged. A masked sample in a band without nodata is a
    ValueError naming it: rumi files have no mask band, and the value under the mask would be
    stored as an ordinary sample (rasterio stores the array's fill_value there, silently)."""
    if not isinstance(a, np.ma.MaskedArray):
        return np.asarray(a)
    mask = np.ma.getmaskarray(a)
    data = np.ma.getdata(a)
    if not mask.any():
        return data
    out = np.array(data, copy=True)
    for b in range(a.shape[band_axis]):
        m = np.take(mask, b, axis=band_axis)
        if not m.any():
            continue
        v = None if nodata is None else nodata[b]
        if v is None:
            raise ValueError(
                f"{what}: band {b} has {int(m.sum())} masked samples and no nodata value to store them as "
                "(rumi files have no mask band): pass nodata= (one value, or one per band), or fill the array "
                "yourself (a.filled(value))"
            )
        if not fits(v, out.dtype):
            raise ValueError(f"{what}: nodata {v!r} of band {b} is not a {out.dtype} value")
        np.moveaxis(out, band_axis, 0)[b][m] = v
    return out


def masked(a: np.ndarray[Any, Any], nodata: Sequence[float | None], band_axis: int,
           outside: np.ndarray[Any, Any] | None = None) -> np.ma.MaskedArray[Any, Any]:
    """rasterio's masked read of samples `a`: the mask is True where a sample is its band's
    nodata by GDAL's rule (valid_mask; bands along `band_axis`, one value or None per
    band) or where `outside` (a mask broadcastable to a) is True: the samples of a boundless
    read beyond the raster."""
    mask = np.zeros(a.shape, dtype=bool)
    for i, nd in enumerate(nodata):
        if nd is not None:
            np.moveaxis(mask, band_axis, 0)[i] = ~valid_mask(np.moveaxis(a, band_axis, 0)[i], nd)
    if outside is not None:
        mask |= outside
    return np.ma.masked_array(a, mask=mask)
