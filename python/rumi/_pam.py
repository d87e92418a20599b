"""The PAM sidecar `<file>.aux.xml` beside a local file or an object, read through the core's
one PAM reader (rumi::pam::parse, as `_rumi.pam_parse`): where rumi writers keep what the format
has no field for (per band nodata, scale, offset and unit) and GDAL readers look for it.

`read` gives the whole file's GDAL bands as the sidecar lists them; `per_band` folds a Cube's
GDAL bands (t * B + b + 1) onto its B bands, refusing a band whose value differs between time
steps; `each_band` expands what a user gives for these per-band values (`nodata=`, `scales=`,
`offsets=`, `units=`: one for every band or one per band). The concepts themselves live in
`_nodata` (nodata) and `_scale` (scale, offset, unit)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from . import _rumi
from ._errors import FormatError
from ._location import Location

#: the PAM sidecar's suffix (the core's rumi::pam::AUX_SUFFIX)
AUX_SUFFIX = ".aux.xml"

T = TypeVar("T")


def each_band(value: Any, bands: int, name: str, what: str, one: Callable[[Any], bool], single: str) -> list[Any]:
    """`value` as given for `bands` bands: [None] * bands for None; `one(value)`: that value for
    every band; else a sequence of one per band. A TypeError for what is neither ("{what}: {name}
    must be {single} or one per band"), a ValueError for a sequence of another length."""
    if value is None:
        return [None] * bands
    if one(value):
        return [value] * bands
    try:
        vals = list(value)
    except TypeError:
        raise TypeError(f"{what}: {name} must be {single} or one per band, not {value!r}") from None
    if len(vals) != bands:
        raise ValueError(f"{what}: {name} gives {len(vals)} values, the file has {bands} bands")
    return vals


@dataclass(frozen=True)
class PamBand:
    """What the sidecar records of one GDAL band (None: nothing)."""

    #: the nodata value as the sidecar's text
    nodata: str | None
    #: the scale (GDAL's GetScale): a value is raw * scale + offset
    scale: float | None
    #: the offset (GDAL's GetOffset)
    offset: float | None
    #: the unit (GDAL's GetUnitType)
    unit: str | None


def read(src: str, *, options: dict[str, Any] | None = None) -> dict[int, PamBand] | None:
    """The sidecar `<src>.aux.xml`'s bands by GDAL band number (from 1), or None when there is no
    sidecar. A sidecar the core cannot read is a FormatError naming it and the problem."""
    data = Location.parse(src).sidecar(AUX_SUFFIX).read(options, missing_ok=True)
    if data is None:
        return None
    try:
        bands = _rumi.pam_parse(bytes(data))
    except ValueError as e:
        raise FormatError(f"{src}{AUX_SUFFIX}: {e}") from None
    return {n: PamBand(nd, s, o, u) for n, nd, s, o, u in bands}


def _same(a: Any, b: Any) -> bool:
    return bool(a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)))


def per_band(
    src: str, entries: dict[int, PamBand], bands: int, what: str, get: Callable[[PamBand], T | None]
) -> list[T | None]:
    """Per band b of `bands`, `get(entry)` of GDAL bands b + 1, B + b + 1, ... (a Cube's time
    steps); entries without a value are skipped; a band whose time steps give different values
    is a FormatError naming it (`what` names the value: "nodata", "scale"...)."""
    out: list[T | None] = [None] * bands
    for n in sorted(entries):
        v = get(entries[n])
        if v is None:
            continue
        b = (n - 1) % bands
        prev = out[b]
        if prev is None:
            out[b] = v
        elif not _same(prev, v):
            raise FormatError(
                f"{src}{AUX_SUFFIX}: band {b} has {what} {prev!r} at one time step and {v!r} at another; "
                "a rumi band has one value"
            )
    return out
