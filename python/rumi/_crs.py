"""EPSG codes and their CRS type from PROJ's database (pyproj) (spec: "Georeferencing"; the
transform forms writers take are rumi._grid.affine_of's).

The spec requires a writer to take the type (projected or geographic) from the EPSG registry or
a PROJ database, never from the code's numeric range: rumi asks pyproj, which carries PROJ's
database. pyproj is imported on first use (reads that never touch the georeferencing do not
load it)."""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any, Literal, Union

import numpy as np

from ._errors import FormatError

CrsType = Literal["projected", "geographic"]
#: what `crs=` accepts: "EPSG:n", n, (code, "projected" | "geographic"), or a CRS object that
#: names an EPSG code exactly (rasterio's or pyproj's CRS, a WKT string: `epsg_code`)
CrsLike = Union[str, int, tuple[Any, str], Any]

_MISSING = (
    "rumi.write needs pyproj for georeferenced files: the CRS type (projected or geographic) "
    "comes from PROJ's EPSG database (pip install pyproj)"
)


def _pyproj() -> ModuleType:
    try:
        import pyproj
    except ImportError:
        raise ImportError(_MISSING) from None
    return pyproj


def _have_pyproj() -> bool:
    try:
        _pyproj()
    except ImportError:
        return False
    return True


@functools.lru_cache(maxsize=512)
def _registry(code: int) -> str | None:
    """'projected', 'geographic', another CRS kind's name, or None when PROJ's database has no
    EPSG:code CRS."""
    pyproj = _pyproj()
    try:
        crs = pyproj.CRS.from_authority("EPSG", str(code))
    except pyproj.exceptions.CRSError:
        return None
    if crs.is_projected:
        return "projected"
    if crs.is_geographic:
        return "geographic"
    name = str(crs.type_name)  # "Geocentric CRS", "Vertical CRS", ...
    return name[:-4].lower() if name.endswith(" CRS") else name.lower()


def _unknown(code: int) -> str:
    return f"EPSG:{code} is not a CRS in PROJ's EPSG database (pyproj {_pyproj().__version__})"


def crs_type(epsg: int) -> CrsType:
    """'projected' or 'geographic': the type of EPSG:epsg in PROJ's database (pyproj).
    ValueError when the database has no such CRS, or when it is neither (geocentric, vertical...)."""
    kind = _registry(int(epsg))
    if kind is None:
        raise ValueError(_unknown(int(epsg)))
    if kind == "projected":
        return "projected"
    if kind == "geographic":
        return "geographic"
    raise ValueError(f"EPSG:{epsg} is a {kind} CRS; a rumi file records a projected or geographic CRS")


def parse_crs(crs: CrsLike | None) -> tuple[int, CrsType] | None:
    """(code, type) of the `crs` argument of rumi.write: the type from PROJ's database, unless
    given explicitly as (code, type), which wins (the code must still be in the database)."""
    if crs is None:
        return None
    kind: CrsType | None = None
    if isinstance(crs, tuple):
        if len(crs) != 2:
            raise ValueError("crs as a tuple must be (code, 'projected'|'geographic')")
        crs, given = crs
        if given not in ("projected", "geographic"):
            raise ValueError(f"the CRS type in crs=(code, type) must be 'projected' or 'geographic', not {given!r}")
        kind = "projected" if given == "projected" else "geographic"
    code = epsg_code(crs, "crs must be 'EPSG:<code>', an int, (code, type) or a CRS object naming an EPSG code")
    if not 1024 <= code <= 32766:
        raise ValueError(f"EPSG code {code} is outside 1024..32766")
    if kind is None:
        return code, crs_type(code)
    if _registry(code) is None:
        raise ValueError(_unknown(code))
    return code, kind


def epsg_code(crs: Any, what: str = "a CRS is 'EPSG:<code>' or an int") -> int:
    """The code of "EPSG:n" (any case), an int n, or a CRS object (rasterio's, pyproj's, WKT) that
    is an EPSG CRS exactly (pyproj's identification at confidence 100); ValueError naming `what`
    otherwise (rumi records EPSG codes only)."""
    if isinstance(crs, (int, np.integer)) and not isinstance(crs, (bool, np.bool_)):
        return int(crs)
    if isinstance(crs, str) and crs.upper().startswith("EPSG:") and crs[5:].isdigit():
        return int(crs[5:])
    if crs is None or isinstance(crs, (bool, np.bool_, float, tuple, list)) or not _have_pyproj():
        raise ValueError(f"{what}; got {crs!r} (rumi stores EPSG CRSs only)")
    return _exact_epsg(crs, what)


def exact_epsg(obj: Any) -> int | None:
    """The EPSG code of a pyproj CRS that is that EPSG CRS: pyproj's identification at confidence
    100, or the one EPSG candidate PROJ finds equivalent to it (the same datum, projection,
    parameters and units under other names, axis order aside: a "+proj=tmerc ... +datum=WGS84"
    with UTM 33N's parameters is EPSG:32633); None otherwise, never a near match (pyproj's
    to_epsg(min_confidence=70) takes "+proj=utm +zone=33 +ellps=GRS80", of no datum, for
    EPSG:25833 among 3045 and 3006 alike; rasterio's to_epsg() a custom transverse Mercator for
    the UTM zone it resembles)."""
    code = obj.to_epsg(min_confidence=100)
    if code is not None:
        return int(code)
    pyproj = _pyproj()
    same = {
        int(m.code)
        for m in obj.list_authority(auth_name="EPSG", min_confidence=25)
        if m.code.isdigit() and pyproj.CRS.from_epsg(int(m.code)).equals(obj, ignore_axis_order=True)
    }
    return same.pop() if len(same) == 1 else None


def _exact_epsg(crs: Any, what: str) -> int:
    """The EPSG code a CRS object (rasterio's, pyproj's, a WKT or PROJ string) names exactly
    (exact_epsg)."""
    pyproj = _pyproj()
    try:
        obj = pyproj.CRS.from_user_input(crs)
    except pyproj.exceptions.CRSError as e:
        raise ValueError(f"{what}, or a CRS object naming an EPSG code; got {crs!r}, which pyproj cannot read ({e})") from None
    code = exact_epsg(obj)
    if code is None:
        raise ValueError(
            f"{what}, or a CRS object that is an EPSG CRS exactly; got the CRS {obj.name!r}, which has no EPSG "
            "code (rumi stores EPSG CRSs only): reproject to an EPSG CRS, or pass crs='EPSG:<code>' when the "
            "data is in that CRS"
        )
    return int(code)


def check_registered(code: int) -> None:
    """FormatError when pyproj is installed and its EPSG database has no CRS `code` (the check
    `rumi validate` makes through GDAL); nothing without pyproj."""
    if not _have_pyproj():
        return
    if _registry(code) is None:
        raise FormatError(f"the georeferencing names {_unknown(code)}: the spec requires an EPSG registry code")
