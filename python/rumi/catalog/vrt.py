"""A GDAL VRT mosaic of catalogue rows: one time step of every file, bands chosen by text, the
files opened by GDAL through the rumi plugin (local paths, /vsicurl/ for http(s), /vsis3/ for
s3)."""

from __future__ import annotations

import os
import warnings
from typing import Any, Sequence
from xml.sax.saxutils import escape

import numpy as np

from .._internal import gdal_texts, gdal_type
from .._errors import RequestError
from .._grid import Grid
from .._location import Location
from . import columns as K
from .columns import SCALE_DEFAULTS, band_scaling, deps

#: how GDAL names an object of each URL scheme
_GDAL_PREFIX = {"http": "/vsicurl/", "https": "/vsicurl/", "s3": "/vsis3/"}


def gdal_name(href: str) -> str:
    """The name GDAL opens a file or object by: /vsicurl/ before http(s) URLs, /vsis3/ for s3://."""
    loc = Location.parse(href)
    if not loc.is_remote:
        return loc.text
    prefix = _GDAL_PREFIX[loc.scheme]
    return prefix + (loc.text[len("s3://"):] if loc.scheme == "s3" else loc.text)


def _check(rows: list[dict[str, Any]], names: Sequence[str], time_index: int) -> tuple[str, str]:
    """The one CRS and the GDAL data type of rows that a mosaic of bands names at time_index can
    be made of (one sample type, no rotation, every band there, the time step there); RequestError."""
    if not rows:
        raise RequestError("the selection is empty: no VRT to write")
    codes = {r["proj:code"] for r in rows}
    if len(codes) != 1 or None in codes:
        raise RequestError(f"a VRT mosaic needs one CRS; the selection has {sorted(map(str, codes))}")
    dtypes = {r[K.DTYPE] for r in rows}
    if len(dtypes) != 1:
        raise RequestError(f"a VRT mosaic needs one sample type; the selection has {sorted(dtypes)}")
    dtype = next(iter(dtypes))
    try:
        gtype = gdal_type(dtype)  # the type the GDAL driver gives its bands (the core's table)
    except ValueError:
        raise RequestError(f"{dtype} samples have no GDAL VRT type here") from None
    for r in rows:
        if r["proj:transform"][1] != 0 or r["proj:transform"][3] != 0:
            raise RequestError(f"{r['id']} has a rotated grid: no VRT mosaic")
        missing = [b for b in names if b not in r[K.BANDS]]
        if missing:
            raise RequestError(f"{r['id']} lacks bands {missing}")
        if not 0 <= time_index < r[K.SHAPE][0]:
            raise RequestError(f"{r['id']} has {r['rumi:shape'][0]} time steps; time_index {time_index} is outside")
    code: str = next(iter(codes))
    return code, gtype


def _band_values(rows: list[dict[str, Any]], name: str, dtype: str) -> tuple[str | None, tuple[float, float, str]]:
    """(the GDAL text of band `name`'s nodata, its (scale, offset, unit)) in every row: one of
    each, as a VRT band has; RequestError naming the band and two rows that differ. Rows of a
    catalogue that did not record scales are left out of the scale check, with a warning."""
    nodatas: dict[str | None, str] = {}
    scalings: dict[tuple[float, float, str], str] = {}
    unrecorded = []
    for r in rows:
        B = r[K.SHAPE][1]
        i = r[K.BANDS].index(name)
        nd = r.get(K.NODATA)
        texts = gdal_texts(nd, np.dtype(dtype), B, 1) if nd else None
        nodatas.setdefault(texts[i] if texts else None, r["id"])
        sc = band_scaling(r, B)
        if sc is None:
            unrecorded.append(r["id"])
        else:
            scalings.setdefault((sc[0][i], sc[1][i], sc[2][i]), r["id"])
    if len(nodatas) > 1:
        (a, ra), (b, rb) = list(nodatas.items())[:2]
        raise RequestError(f"band {name} has nodata {a or 'none'} in {ra} and {b or 'none'} in {rb}: a VRT band has "
                           "one nodata value (select rows that agree)")
    if len(scalings) > 1:
        (sa, ra), (sb, rb) = list(scalings.items())[:2]
        raise RequestError(f"band {name} has scale {sa[0]!r}, offset {sa[1]!r}, unit {sa[2]!r} in {ra} and scale "
                           f"{sb[0]!r}, offset {sb[1]!r}, unit {sb[2]!r} in {rb}: a VRT band has one (select rows that agree)")
    if unrecorded:
        warnings.warn(f"the catalogue did not record scales, offsets and units for {len(unrecorded)} of the {len(rows)} "
                      f"files ({', '.join(unrecorded[:3])}{', ...' if len(unrecorded) > 3 else ''}): the VRT's band "
                      f"{name} carries none of theirs (build the catalogue again to record them)", RuntimeWarning,
                      stacklevel=4)
    scaling = next(iter(scalings), (SCALE_DEFAULTS[0], SCALE_DEFAULTS[1], SCALE_DEFAULTS[2]))
    return next(iter(nodatas)), (float(scaling[0]), float(scaling[1]), str(scaling[2]))


def vrt_text(rows: list[dict[str, Any]], *, time_index: int = 0, bands: Sequence[str] | None = None) -> str:
    """The VRT XML of a mosaic of catalogue rows (see write_vrt)."""
    names = list(bands or rows[0][K.BANDS]) if rows else []
    crs, gtype = _check(rows, names, time_index)
    grids = [Grid.from_affine(crs, r["proj:transform"], r["proj:shape"]) for r in rows]
    xres = min(abs(g.transform.a) for g in grids)
    yres = min(abs(g.transform.e) for g in grids)
    left = min(g.transform.c for g in grids)
    top = max(g.transform.f for g in grids)
    right = max(g.transform.c + g.width * g.transform.a for g in grids)
    bottom = min(g.transform.f + g.height * g.transform.e for g in grids)
    W = int(round((right - left) / xres))
    H = int(round((top - bottom) / yres))
    wkt = deps().pyproj.CRS.from_user_input(crs).to_wkt()
    out = [f'<VRTDataset rasterXSize="{W}" rasterYSize="{H}">', f"  <SRS>{escape(wkt)}</SRS>",
           f"  <GeoTransform>{left!r}, {xres!r}, 0, {top!r}, 0, {-yres!r}</GeoTransform>"]  # fmt: skip
    for bi, name in enumerate(names):
        out.append(f'  <VRTRasterBand dataType="{gtype}" band="{bi + 1}">')
        out.append(f"    <Description>{escape(name)}</Description>")
        nodata, (scale, offset, unit) = _band_values(rows, name, rows[0][K.DTYPE])
        if nodata is not None:  # and each source's nodata samples left out, as gdalbuildvrt does
            out.append(f"    <NoDataValue>{nodata}</NoDataValue>")
        if unit:
            out.append(f"    <UnitType>{escape(unit)}</UnitType>")
        if (scale, offset) != (SCALE_DEFAULTS[0], SCALE_DEFAULTS[1]):
            out.append(f"    <Offset>{offset!r}</Offset>")
            out.append(f"    <Scale>{scale!r}</Scale>")
        source = "SimpleSource" if nodata is None else "ComplexSource"
        for r, g in zip(rows, grids):
            t = g.transform
            B = r[K.SHAPE][1]
            # the plugin exposes time t, band b as raster band t * B + b + 1
            src_band = time_index * B + r[K.BANDS].index(name) + 1
            dx, dy = (t.c - left) / xres, (top - t.f) / yres
            out.append(f"    <{source}>")
            out.append(f"      <SourceFilename relativeToVRT=\"0\">{escape(gdal_name(r['location']))}</SourceFilename>")
            out.append(f"      <SourceBand>{src_band}</SourceBand>")
            out.append(f'      <SrcRect xOff="0" yOff="0" xSize="{g.width}" ySize="{g.height}" />')
            out.append(
                f'      <DstRect xOff="{dx!r}" yOff="{dy!r}" xSize="{g.width * abs(t.a) / xres!r}" ySize="{g.height * abs(t.e) / yres!r}" />'
            )
            if nodata is not None:
                out.append(f"      <NODATA>{nodata}</NODATA>")
            out.append(f"    </{source}>")
        out.append("  </VRTRasterBand>")
    out.append("</VRTDataset>")
    return "\n".join(out) + "\n"


def write_vrt(
    rows: list[dict[str, Any]], path: str | os.PathLike[str], *, time_index: int = 0, bands: Sequence[str] | None = None
) -> None:
    """Writes a GDAL VRT mosaic of rows (one CRS, one sample type, the same band texts) to path
    (atomically): time step time_index of each file, bands by text (default the first row's).
    The finest resolution of the rows is the mosaic's. Each band keeps the rows' nodata (their
    nodata samples left out, as gdalbuildvrt does), scale, offset and unit; rows that give a band
    two of one are refused (RequestError naming them)."""
    Location.parse(path).put(vrt_text(rows, time_index=time_index, bands=bands).encode())
