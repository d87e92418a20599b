"""Scale, offset and unit of each band: one home for every surface of the package.

A band's values are `raw * scale + offset`, in `unit` (GDAL's GetScale/GetOffset/GetUnitType,
rasterio's `scales`/`offsets`/`units`, CF's `scale_factor`/`add_offset`/`units`, STAC's
`raster:bands` scale/offset/unit): Landsat Collection 2 surface reflectance (2.75e-5, -0.2),
Sentinel-2 L2A since baseline 04.00 (1e-4, -0.1 as reflectance, or -1000 on the raw counts), a
DEM in feet. rumi files have no field for them (spec: "Sample encodings"): every writer keeps
them where GDAL readers look, the PAM sidecar `<file>.aux.xml` (`<Scale>`, `<Offset>`,
`<UnitType>`), rendered by the core (`_rumi.pam_render`) and read by the core's one PAM reader
(`rumi._pam`); samples are always stored raw.

Public-ish names, for the writers, `Dataset`, the xarray engine, the catalogue and ChipDataset:
- `Scaling`: per band scales, offsets and units, rasterio's defaults (1.0, 0.0, None) for none;
- `normalize(scales, offsets, units, bands, what)`: what users pass as `scales=`/`offsets=`/
  `units=` (one value per band, or one for every band; None: none), checked (finite numbers,
  texts) -> a Scaling, or None when nothing is given;
- `read(src, bands, options=)`: a file's Scaling from its sidecar (None: none recorded);
- `pam_lists(scaling, times)`: the per-GDAL-band lists `_rumi.pam_render` takes;
- `apply(a, scaling, band_axis)`: the values `a * scale + offset` per band, as float."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from . import _pam


@dataclass(frozen=True)
class Scaling:
    """Per band: the scale (1.0: none), the offset (0.0: none) and the unit (None: none), as
    rasterio's `scales`, `offsets` and `units`."""

    scales: tuple[float, ...]
    offsets: tuple[float, ...]
    units: tuple[str | None, ...]

    @classmethod
    def none(cls, bands: int) -> "Scaling":
        """No scale, offset or unit in any of `bands` bands."""
        return cls((1.0,) * bands, (0.0,) * bands, (None,) * bands)

    @property
    def is_scaled(self) -> bool:
        """True when some band has a scale other than 1 or an offset other than 0."""
        return any(s != 1.0 for s in self.scales) or any(o != 0.0 for o in self.offsets)

    @property
    def is_empty(self) -> bool:
        """True when no band has a scale, an offset or a unit (no sidecar entry is needed)."""
        return not self.is_scaled and not any(self.units)

    def band(self, b: int) -> tuple[float, float, str | None]:
        """(scale, offset, unit) of band b (from 0)."""
        return self.scales[b], self.offsets[b], self.units[b]

    def select(self, bands: Sequence[int]) -> "Scaling":
        """The Scaling of the bands `bands` (from 0), in that order."""
        return Scaling(
            tuple(self.scales[b] for b in bands), tuple(self.offsets[b] for b in bands),
            tuple(self.units[b] for b in bands),
        )


def _each_band(v: Any, bands: int, name: str, what: str) -> list[Any]:
    """`scales=`, `offsets=` or `units=` as one value per band (`_pam.each_band`: a number or a
    text is one value for every band)."""
    one = (str, bytes, int, float, np.integer, np.floating)
    return _pam.each_band(v, bands, name, what, lambda x: isinstance(x, one), "one value")


def _number(v: Any, name: str, i: int, what: str) -> float | None:
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what}: {name}[{i}] = {v!r} is not a number")
    f = float(v)
    if not math.isfinite(f):
        raise ValueError(f"{what}: {name}[{i}] = {v!r} is not a finite number (every value would become {f})")
    return f


def normalize(scales: Any, offsets: Any, units: Any, bands: int, what: str) -> Scaling | None:
    """`scales=`, `offsets=`, `units=` as one Scaling of `bands` bands: each one value for every
    band or one per band (rasterio's), None (or a None entry) for none (1.0, 0.0, None; an empty
    unit is none too). A scale
    or offset that is not a finite number, or a unit that is not text, is an error naming it.
    None when nothing is given."""
    s = [_number(v, "scales", i, what) for i, v in enumerate(_each_band(scales, bands, "scales", what))]
    o = [_number(v, "offsets", i, what) for i, v in enumerate(_each_band(offsets, bands, "offsets", what))]
    u = _each_band(units, bands, "units", what)
    for i, v in enumerate(u):
        if v is not None and not isinstance(v, str):
            raise TypeError(f"{what}: units[{i}] = {v!r} is not text")
    out = Scaling(
        tuple(1.0 if v is None else v for v in s), tuple(0.0 if v is None else v for v in o),
        tuple(v or None for v in u),
    )
    return None if out.is_empty else out


def pam_lists(
    scaling: Scaling | None, times: int
) -> tuple[list[float | None], list[float | None], list[str | None]] | None:
    """The scales, offsets and units `_rumi.pam_render` takes, one per GDAL band (t * B + b);
    None for no Scaling."""
    if scaling is None or scaling.is_empty:
        return None
    scaled = [s != 1.0 or o != 0.0 for s, o in zip(scaling.scales, scaling.offsets)]
    s = [v if k else None for v, k in zip(scaling.scales, scaled)]
    o = [v if k else None for v, k in zip(scaling.offsets, scaled)]
    u = [v or None for v in scaling.units]
    return s * times, o * times, u * times


def read(src: str, bands: int, *, options: dict[str, Any] | None = None) -> Scaling | None:
    """The scales, offsets and units that the PAM sidecar `<src>.aux.xml` (beside a local file or
    an object) records for the file's `bands` bands, or None when it records none (or there is
    no sidecar). A Cube's GDAL bands (t * B + b + 1) fold onto band b; a band whose time steps
    differ, or a sidecar the core's reader refuses, is a FormatError naming it."""
    entries = _pam.read(src, options=options)
    if entries is None:
        return None
    s = _pam.per_band(src, entries, bands, "scale", lambda e: e.scale)
    o = _pam.per_band(src, entries, bands, "offset", lambda e: e.offset)
    u = _pam.per_band(src, entries, bands, "unit", lambda e: e.unit)
    out = Scaling(
        tuple(1.0 if v is None else v for v in s), tuple(0.0 if v is None else v for v in o),
        tuple(v or None for v in u),
    )
    return None if out.is_empty else out


def float_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The type of scaled values of samples of `dtype`, as rioxarray's mask_and_scale=True
    gives them (xarray's maybe_promote, then `out * scale + offset` in that type): float32 for
    samples of 1 or 2 bytes, float64 for wider integers, a float or complex type itself
    (complex64 at least)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return dtype if dtype.itemsize >= 8 else np.dtype("complex64")
    if dtype.kind == "f" and dtype.itemsize >= 4:
        return dtype
    return np.dtype("float32") if dtype.itemsize <= 2 else np.dtype("float64")


def apply(a: np.ndarray[Any, Any], scaling: Scaling, band_axis: int, dtype: Any = None) -> np.ndarray[Any, Any]:
    """The values of raw samples `a` (bands along `band_axis`, as many as `scaling` has):
    `a * scale + offset` per band, in `dtype` (default: float_dtype, rioxarray's), computed as
    rioxarray computes them (the samples cast to that type, times the scale, plus the offset, each
    rounded there), so equal to rioxarray's mask_and_scale=True bit for bit. NaN samples stay
    NaN; mask nodata (on the raw samples) before."""
    a = np.asarray(a)
    if a.shape[band_axis] != len(scaling.scales):
        raise ValueError(f"apply: {a.shape[band_axis]} bands along axis {band_axis}, {len(scaling.scales)} scales")
    out_dtype = np.dtype(dtype) if dtype is not None else float_dtype(a.dtype)
    out = a.astype(out_dtype)
    view = np.moveaxis(out, band_axis, 0)
    with np.errstate(over="ignore", invalid="ignore"):  # huge scales give inf, as rioxarray's
        for b, (s, o) in enumerate(zip(scaling.scales, scaling.offsets)):
            view[b] = view[b] * s + o
    return out
