"""rumi.to_rumi: an xarray DataArray (numpy or dask backed) -> a rumi file, block by block of
tile rows (of tiles of one tile row when a tile row alone is larger than the block size). Grid, CRS, band texts, times and nodata come from the array (rioxarray, odc-geo or CF
conventions) unless given; a dask array is encoded with one task per block on whatever
scheduler is active (a dask.distributed Client included) and never materialised whole."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Iterator, Sequence

import numpy as np

from ._crs import CrsLike, exact_epsg
from ._dataset import default_threads
from ._location import Location
from ._write import PathLike, Writer, WriteOptions, WriteSpec, encode_block


#: dimension names recognised for each role (others: dims={"y": "lat", ...})
_ROLES: dict[str, tuple[str, ...]] = {
    "time": ("time", "t"),
    "band": ("band", "bands", "variable", "spectral"),
    "y": ("y", "lat", "latitude", "northing", "rows"),
    "x": ("x", "lon", "longitude", "easting", "cols"),
}
#: raw bytes of one block (one dask task) when block_bytes is not given: whole tile rows, or,
#: when one tile row (T x B x tile height x X samples) is larger, tiles of one tile row (at least
#: one tile: a frame of a cell unit holds all T and B of its tile)
BLOCK_BYTES = 32 << 20


def _as_dataarray(obj: Any) -> Any:
    try:
        import xarray as xr
    except ImportError:
        raise ImportError(
            "rumi.to_rumi writes xarray arrays: pip install xarray (with dask for lazy arrays: pip install "
            "'rumi[xarray]'); a numpy array is written with rumi.write or rumi.Writer"
        ) from None

    if isinstance(obj, xr.Dataset):
        names = list(obj.data_vars)
        if len(names) != 1:
            raise ValueError(
                f"to_rumi writes one variable; this Dataset has {len(names)} ({', '.join(map(str, names))}): "
                "pick one (ds['name']) or stack them into a band dimension (ds.to_dataarray('band'))"
            )
        return obj[names[0]]
    if not isinstance(obj, xr.DataArray):
        raise TypeError(f"to_rumi takes an xarray DataArray or one-variable Dataset, not {type(obj).__name__}")
    return obj


def _roles(da: Any, dims: dict[str, str] | None) -> dict[str, str | None]:
    """role -> the array's dimension name (None: absent)."""
    given = dict(dims or {})
    bad = set(given) - set(_ROLES)
    if bad:
        raise ValueError(f"dims keys must be among time, band, y, x; got {sorted(bad)}")
    out: dict[str, str | None] = {}
    for role, names in _ROLES.items():
        if role in given:
            if given[role] not in da.dims:
                raise ValueError(f"dims[{role!r}] = {given[role]!r} is not a dimension of the array {tuple(da.dims)}")
            out[role] = given[role]
        else:
            out[role] = next((d for d in da.dims if str(d).lower() in names and d not in given.values()), None)
    extra = [d for d in da.dims if d not in out.values()]
    if extra or out["y"] is None or out["x"] is None:
        raise ValueError(
            f"dimensions {tuple(da.dims)} are not (time, band, y, x), (band, y, x) or (y, x)"
            f"{' (unrecognised: ' + ', '.join(map(str, extra)) + ')' if extra else ''}: "
            "name them with dims={'time': ..., 'band': ..., 'y': ..., 'x': ...}"
        )
    return out


def _crs_of(da: Any) -> Any:
    """The array's CRS as a pyproj CRS, or None: rioxarray, odc-geo, then CF attributes."""
    from pyproj import CRS

    rio_crs = _attempt(lambda: da.rio.crs)
    if rio_crs is not None:
        return CRS.from_user_input(rio_crs.to_wkt())
    odc_crs = _attempt(lambda: da.odc.geobox.crs)
    if odc_crs is not None:
        return CRS.from_user_input(str(odc_crs))
    candidates = []
    gm = da.attrs.get("grid_mapping") or da.encoding.get("grid_mapping")
    for name in ([gm] if gm else []) + ["spatial_ref", "crs"]:
        if name in da.coords:
            candidates += [da.coords[name].attrs.get(k) for k in ("crs_wkt", "spatial_ref")]
    candidates.append(da.attrs.get("crs"))
    for c in candidates:
        if c:
            return CRS.from_user_input(c)
    return None


def _attempt(get: Any) -> Any:
    """get(), or None when the accessor is not installed or has nothing to say."""
    try:
        return get()
    except Exception:
        return None


def _epsg(crs: Any) -> int:
    code = exact_epsg(crs)
    if code is None:
        raise ValueError(
            f"the array's CRS ({crs.name}) has no EPSG code, and rumi records EPSG codes: reproject it, "
            "or pass crs='EPSG:n' when it is that CRS"
        )
    return int(code)


def _regular(da: Any, name: str) -> tuple[float, float] | None:
    """(first centre, spacing) of a regular 1-D coordinate; None without one; ValueError when
    irregular (whatever an accessor would derive from it)."""
    if name not in da.coords:
        return None
    c = np.asarray(da.coords[name].values, dtype="float64")
    if c.ndim != 1 or len(c) < 2:
        return None
    d = np.diff(c)
    # each centre is rounded to its float64: steps vary by a few ulps of the largest coordinate
    # (1 mm pixels at 8388609 m step by 0.001 +- 2e-9), which is still a regular grid
    slack = 8 * float(np.spacing(np.max(np.abs(c))))
    if d[0] == 0 or not np.allclose(d, d[0], rtol=1e-6, atol=max(abs(d[0]) * 1e-9, slack)):
        i = int(np.argmax(np.abs(d - d[0])))
        raise ValueError(
            f"irregular {name} spacing ({d[0]:g} at the start, {d[i]:g} at index {i}): rumi grids are regular; "
            "resample the array (e.g. odc-geo's reproject) or pass transform= (an affine.Affine)"
        )
    return float(c[0]), float(d[0])


def _transform_of(da: Any, y: str, x: str) -> Any:
    """The affine.Affine of pixel corners: the array's GeoTransform (its grid mapping's, as
    rioxarray reads it) when it has one, else odc-geo's geobox or rioxarray (told the spatial
    dimensions by name), else regular 1-D coordinates of pixel centres. Never guessed: an
    identity transform on a georeferenced array (what rioxarray returns when it cannot place the
    grid) or a grid disagreeing with the coordinates is an error."""
    cx, cy = _regular(da, x), _regular(da, y)
    t, source = None, ""
    gm = _attempt(lambda: da.rio.grid_mapping)
    if gm in da.coords and da.coords[gm].attrs.get("GeoTransform") and _attempt(lambda: da.rio.crs) is not None:
        # the grid as written (rioxarray reads the GeoTransform): odc-geo would derive it from the
        # coordinates instead, a step 1.6e-10 off on a 1 mm grid at 8388609 m with one column
        t = _attempt(lambda: da.rio.set_spatial_dims(x_dim=x, y_dim=y, inplace=False).rio.transform(recalc=False))
        source = "the array's GeoTransform"
    if t is None:
        t, source = _attempt(lambda: da.odc.geobox.affine), "odc-geo's geobox"
    if t is None and _attempt(lambda: da.rio.crs) is not None:
        t = _attempt(lambda: da.rio.set_spatial_dims(x_dim=x, y_dim=y, inplace=False).rio.transform(recalc=False))
        source = "rioxarray's transform"
    if t is not None:
        if t.is_identity:
            raise ValueError(
                f"{source} is the identity (1, 0, 0, 0, 1, 0), which means it could not place the grid "
                f"(no x/y coordinates on dims {x!r}, {y!r} and no GeoTransform): rumi never guesses "
                "georeferencing; give the array x/y coordinates of pixel centres, or pass transform="
            )
        if (t.b != 0 or t.d != 0) and (cx is not None or cy is not None):
            raise ValueError(
                f"the array's grid is rotated ({source}: {tuple(t)[:6]}) but it has 1-D {x}/{y} coordinates, which "
                "cannot describe a rotated grid: pass transform= to say which is right"
            )
        if t.b != 0 or t.d != 0:
            return t  # a rotated grid rioxarray / odc-geo carry (a GeoTransform), as rio.to_raster writes it
        for name, c, origin, step in ((x, cx, t.c, t.a), (y, cy, t.f, t.e)):
            if c is not None and not (
                math.isclose(c[1], step, rel_tol=1e-6) and abs(c[0] - step / 2 - origin) <= abs(step) * 1e-3
            ):
                raise ValueError(
                    f"{source} ({name}: origin {origin!r}, step {step!r}) disagrees with the {name} coordinate "
                    f"(first centre {c[0]!r}, step {c[1]!r}): pass transform= to say which is right"
                )
        return t
    for name, c in ((x, cx), (y, cy)):
        if c is None:
            raise ValueError(
                f"no regular 1-D {name} coordinate to derive the grid from: pass transform= (an affine.Affine) "
                "or geotransform= (GDAL's 6-tuple)"
            )
    assert cx is not None and cy is not None
    from affine import Affine

    (x0, dx), (y0, dy) = cx, cy
    return Affine(dx, 0.0, x0 - dx / 2, 0.0, dy, y0 - dy / 2)


def _bands_of(da: Any, band: str | None, B: int) -> list[str]:
    """The band texts of the array: a band coordinate of texts (the rumi engine's); else
    rioxarray's band descriptions (open_rasterio's attrs['long_name']: a tuple, one per band, or
    one text for every band, and the band coordinate 1..B), which its to_raster writes; else the
    band coordinate's values, the array's name (one band), or "1".."B"."""
    coord = np.asarray(da.coords[band].values).ravel() if band and band in da.coords else None
    if coord is not None and coord.dtype.kind in "OUS":
        return [str(v) for v in coord]
    long_name = da.attrs.get("long_name")
    if isinstance(long_name, (tuple, list)):
        if len(long_name) != B:
            raise ValueError(
                f"attrs['long_name'] holds {len(long_name)} band descriptions {tuple(long_name)!r} and the array has "
                f"{B} bands (a selection of bands keeps rioxarray's whole tuple, and rioxarray's to_raster refuses it "
                "too): pass bands= (one text per band), or set attrs['long_name'] to the selected bands' texts"
            )
        return [str(v) if v else (str(coord[i]) if coord is not None else str(i + 1)) for i, v in enumerate(long_name)]
    if isinstance(long_name, str) and long_name:
        return [long_name] * B
    if coord is not None:
        return [str(v) for v in coord]
    if B == 1 and da.name is not None:
        return [str(da.name)]
    return [str(i + 1) for i in range(B)]


def _times_of(da: Any, tname: str, T: int) -> list[Any]:
    """One instant per time step from the time coordinate, or one (start, end) interval when a
    `time_end` coordinate on the same dimension gives the ends (the rumi engine's intervals)."""
    if tname not in da.coords or _values(da, tname).size != T:
        raise ValueError(
            "the array has no time coordinate and rumi never invents one: pass times= "
            "(one instant or (start, end) per time step, e.g. times=['2020-05-18'])"
        )
    starts = list(_values(da, tname))
    end = da.coords.get("time_end")
    if end is None:
        return starts
    if tuple(end.dims) != tuple(da.coords[tname].dims) or _values(da, "time_end").size != T:
        raise ValueError(
            f"the time_end coordinate (dims {tuple(end.dims)}) does not give one end per time step of {tname!r}: "
            "pass times= (one (start, end) per time step)"
        )
    return list(zip(starts, _values(da, "time_end")))


def _values(da: Any, name: str) -> np.ndarray[Any, Any]:
    return np.asarray(da.coords[name].values).ravel()


def _nodata_of(da: Any) -> Any:
    """The array's nodata for its samples as stored: attrs (_FillValue, nodata, missing_value,
    as rioxarray's open_rasterio and CF leave them), encoding, then rioxarray's."""
    for src in (da.attrs, da.encoding):
        for k in ("_FillValue", "nodata", "missing_value"):
            if src.get(k) is not None:
                return src[k]
    per_band = da.attrs.get("nodatavals")  # rasterio's name, one per band (the rumi engine's when they differ)
    if per_band is not None and np.ndim(per_band) == 1:
        ints = da.dtype.kind in "iub"
        # the engine's bands without nodata (NaN in nodatavals: netCDF attributes hold no None)
        none = {int(i) for i in str(da.attrs.get("rumi_nodata_none", "")).split()}
        return [None if v is None or i in none or (ints and np.isnan(v)) else v for i, v in enumerate(per_band)]
    v = _attempt(lambda: da.rio.nodata)
    return v if v is not None else _attempt(lambda: da.rio.encoded_nodata)


def _scaling_of(da: Any, band: str | None, B: int, scales: Any, offsets: Any, units: Any) -> Any:
    """The scales, offsets and units to record (rumi._scale.Scaling, or None): the arguments
    when given, else the array's as rio.to_raster finds them (attrs, then encoding: `scales` /
    `offsets`, one per band, or CF's `scale_factor` / `add_offset` for every band), and its
    `units` attribute (one text, or one per band as rioxarray's open_rasterio gives them)."""
    from ._scale import normalize

    def find(many: str, one: str) -> Any:
        for src in (da.attrs, da.encoding):
            if src.get(many) is not None:
                return tuple(src[many])
        for src in (da.attrs, da.encoding):
            if src.get(one) is not None:
                return src[one]
        return None

    if scales is None:
        scales = find("scales", "scale_factor")
    if offsets is None:
        offsets = find("offsets", "add_offset")
    if units is None:
        units = da.attrs.get("units")
        if isinstance(units, (list, tuple)):
            units = tuple(u or None for u in units)
    return normalize(scales, offsets, units, B, "to_rumi")


def _is_decoded(da: Any) -> bool:
    """True when the array holds values decoded from scaled samples (xarray's, rioxarray's and
    the rumi engine's mask_and_scale=True: float values, the scale in `encoding`)."""
    enc = da.encoding
    scaled = any(k in enc for k in ("scale_factor", "add_offset", "scales", "offsets"))
    return scaled and da.dtype.kind == "f"


def _unscaled(da: Any, scaling: Any, band: str | None) -> Any:
    """The raw samples of values decoded with `scaling` (rio.to_raster's encoding: `(value -
    offset) / scale`, rounded for an integer stored type, encoding['dtype']), still as float
    with the missing samples NaN (then _encoded stores them as the nodata and casts), computed
    as xarray's CF encoder computes it (so equal to rio.to_raster's samples). A value
    that the stored integers cannot give back (decoding the rounded sample, as rioxarray's
    mask_and_scale does, is not the value) is a ValueError naming it: rio.to_raster would round
    it silently. Lazy for dask; `encoding` keeps dtype and _FillValue, not the scale."""
    from ._scale import Scaling

    sc: Scaling = scaling
    stored = da.encoding.get("rasterio_dtype", da.encoding.get("dtype"))
    st = np.dtype(stored) if stored is not None else da.dtype
    axis = da.dims.index(band) if band is not None else None
    s = np.asarray(sc.scales, dtype=np.float64)
    o = np.asarray(sc.offsets, dtype=np.float64)

    def per_band(v: np.ndarray[Any, Any], ndim: int) -> np.ndarray[Any, Any]:
        shape = [1] * ndim
        if axis is not None:
            shape[axis] = len(v)
        return v.reshape(shape) if axis is not None else v[:1].reshape(shape)

    # xarray's CF encoder (rio.to_raster's): in the array's own float type when a fill value is
    # encoded, else in float64 (the type of Python-float scale_factor and add_offset)
    masked = "_FillValue" in da.encoding or "missing_value" in da.encoding
    work = da.dtype if masked else np.dtype(np.float64)

    def unscale(a: Any) -> Any:
        a = np.asarray(a)
        ps, po = per_band(s, a.ndim), per_band(o, a.ndim)
        with np.errstate(over="ignore", invalid="ignore"):
            raw = ((a.astype(work) - po.astype(work)) / ps.astype(work)).astype(np.float64)
        if st.kind in "iub":
            raw = np.round(raw)
            with np.errstate(invalid="ignore", over="ignore"):
                back = raw.astype(a.dtype) * ps.astype(a.dtype) + po.astype(a.dtype)
                same = (back == a) | np.isnan(a)
            if not np.all(same):
                i = tuple(int(v[0]) for v in np.nonzero(~same))
                raise ValueError(
                    f"the array's value {a[i]!r} at {i} is not one that {st} samples with scale "
                    f"{float(ps.reshape(-1)[i[axis] if axis is not None else 0])!r} and offset "
                    f"{float(po.reshape(-1)[i[axis] if axis is not None else 0])!r} give (the nearest gives "
                    f"{back[i]!r}): rumi writes the samples back exactly or not at all; drop the scale from "
                    "encoding (da.encoding = {}) to write the values as float"
                )
            return raw
        return raw.astype(st)  # a float type: the nearest

    if _is_dask(da.data):
        data = da.data
        if axis is not None:
            data = data.rechunk({axis: -1})
        out = da.copy(data=data.map_blocks(unscale, dtype=np.float64 if st.kind in "iub" else st))
    else:
        out = da.copy(data=unscale(da.data))
    out.encoding = {k: v for k, v in da.encoding.items() if k not in ("scale_factor", "add_offset", "scales", "offsets")}
    return out


def _encoded(da: Any, nodata: Any, band: str | None) -> tuple[Any, Any]:
    """(array, nodata) to store. An array decoded with its nodata masked (xarray's and
    rioxarray's mask_and_scale / masked=True, the rumi engine's default: missing samples NaN, or
    NaN+NaNj, in a float or complex type, the stored type and its fill value in `encoding`) is
    encoded back as rioxarray's to_raster writes it (its encoded_nodata): the missing samples
    become the nodata (`nodata=` when given, else the fill value; per band when it differs) in
    the stored type, and that nodata is returned; a NaN nodata of a float type leaves them NaN.
    Anything else is returned as it is with None (the nodata is then the array's own:
    _nodata_of)."""
    from ._nodata import fits, normalize

    enc = da.encoding
    fill = enc.get("_FillValue")
    stored = enc.get("rasterio_dtype", enc.get("dtype"))
    if stored is None or da.dtype.kind not in "fc":
        return da, None
    st = np.dtype(stored)
    if fill is None:
        # decoded without a fill value (rioxarray masked=True of a file without nodata casts to
        # float): the stored type, as to_raster writes it; a NaN there has nothing to be stored as
        if st == da.dtype or st.kind in "fc":
            return da, None
        if enc.get("scale_factor", 1) != 1 or enc.get("add_offset", 0) != 0:
            return da, None  # the scaled check below is the fill-value path's; unscaled floats stay
        return _cast_exact(da, st), None
    if enc.get("scale_factor", 1) != 1 or enc.get("add_offset", 0) != 0:
        raise ValueError(
            f"the array was decoded with scale_factor={enc.get('scale_factor')} / add_offset={enc.get('add_offset')} "
            f"from {stored}: rumi stores samples unscaled; open it with mask_and_scale=False, or cast it yourself"
        )
    B = da.sizes[band] if band else 1
    values = normalize(_real(nodata if nodata is not None else fill), B, "to_rumi")
    per_band: list[float | None] = values if values is not None else [None] * B
    for i, v in enumerate(per_band):
        if v is None and st.kind not in "fc":
            raise ValueError(
                f"band {i} of the array has its missing samples masked (NaN) and no nodata to store them as in "
                f"{st}: pass nodata= (one value, or one per band)"
            )
        if v is not None and not fits(v, st):
            what = "nodata" if nodata is not None else "the array's fill value (encoding['_FillValue'])"
            raise ValueError(
                f"{what} {v!r} is not a {st} value, and the array's missing samples are stored as it: "
                "pass nodata= with a value of the stored type"
            )
    # the value each band's missing samples take (NaN: they stay NaN, a float type's NaN nodata)
    fills = [np.nan if v is None else v for v in per_band]
    out = da
    if not all(np.isnan(v) for v in fills):
        if len({repr(v) for v in fills}) == 1 or band is None:
            out = da.fillna(fills[0])
        else:
            import xarray as xr

            out = da.fillna(xr.DataArray(np.array(fills, dtype=da.dtype), dims=(band,)))
    return _cast_exact(out, st), per_band


def _cast_exact(da: Any, st: np.dtype[Any]) -> Any:
    """da in the stored type st, each sample exactly (rioxarray's to_raster casts to
    encoding's dtype whatever the values; a value st cannot hold, such as 0.5 computed from a
    uint8 source, is a ValueError here, never a silent truncation). Lazy for dask."""
    if da.dtype == st:
        return da

    def cast(a: Any) -> Any:
        a = np.asarray(a)
        b = a.astype(st)
        with np.errstate(invalid="ignore"):
            same = (b == a) | (np.isnan(a) & np.isnan(b)) if a.dtype.kind in "fc" and st.kind in "fc" else b == a
        if not np.all(same):
            i = tuple(int(v[0]) for v in np.nonzero(~same))
            if a.dtype.kind in "fc" and np.isnan(a[i]):
                raise ValueError(
                    f"the array was decoded from {st} (encoding['dtype']) and has a missing sample (NaN) at {i} with no "
                    "nodata to store it as: pass nodata= (one value, or one per band)"
                )
            raise ValueError(
                f"the array is {a.dtype} decoded from {st} (encoding['dtype']), and its sample {a[i]!r} at {i} is not a "
                f"{st} value: rumi writes it back as {st} exactly or not at all; drop encoding['dtype'] (da.encoding = {{}}) "
                f"to write {a.dtype}"
            )
        return b

    if _is_dask(da.data):
        return da.copy(data=da.data.map_blocks(cast, dtype=st))
    return da.copy(data=cast(da.data))


def _real(v: Any) -> Any:
    """A complex nodata with no imaginary part as its real part (GDAL's nodata is one real
    number); anything else as it is (per band: each)."""
    if isinstance(v, (list, tuple, np.ndarray)):
        return [_real(x) for x in v]
    if isinstance(v, (complex, np.complexfloating)) and v.imag == 0:
        return float(v.real)
    return v


def _block_rows(spec: WriteSpec, block_bytes: int) -> int:
    T, B, Y, X = spec.shape
    th = spec.tile[0]
    row_bytes = T * B * X * spec.dtype.itemsize
    k = max(1, block_bytes // max(1, row_bytes * th))
    return min(k * th, Y) if Y > k * th else Y


def block_cols(shape: Sequence[int], itemsize: int, tile: tuple[int, int], block_bytes: int) -> int | None:
    """Pixel columns of the blocks of a (T, B, Y, X) array written in blocks of about
    block_bytes raw: None when a whole tile row fits (blocks of tile rows, _block_rows), else
    the most whole tile columns that fit (at least one tile), so that a block's size does not
    grow with the raster's width (a year of dates x 2048 columns: 805 MB per tile row of 256,
    100 MB per tile)."""
    T, B, _, X = (int(v) for v in shape)
    th, tw = tile
    if T * B * th * X * itemsize <= block_bytes or X <= tw:
        return None
    k = max(1, block_bytes // max(1, T * B * th * tw * itemsize))
    return None if k * tw >= X else k * tw


def _blocks(Y: int, step: int) -> Iterator[tuple[int, int]]:
    for y0 in range(0, Y, step):
        yield y0, min(Y, y0 + step)


def to_rumi(
    obj: Any,
    dest: PathLike,
    *,
    dims: dict[str, str] | None = None,
    bands: str | Sequence[str] | None = None,
    times: Any = None,
    crs: CrsLike | None = None,
    transform: Any = None,
    nodata: Any = None,
    tile: int | tuple[int, int] = 256,
    frame_unit: int | None = None,
    level: int | None = None,
    threads: int | None = None,
    options: dict[str, Any] | None = None,
    block_bytes: int | None = None,
    geotransform: Any = None,
    force: bool = False,
    pixel_is_point: bool | None = None,
    scales: Any = None,
    offsets: Any = None,
    units: Any = None,
    graph: str = "auto",
    write_options: WriteOptions | None = None,
) -> bytes:
    """Writes an xarray DataArray (or one-variable Dataset) with dims (time, band, y, x),
    (band, y, x) or (y, x) (other names mapped with dims=) to dest (a path or s3://bucket/key)
    and its sidecars, atomically. Returns the header blob.

    Unless given: crs and transform (an affine.Affine; or geotransform=, GDAL's 6-tuple) from rioxarray (da.rio), odc-geo (da.odc.geobox) or CF
    attributes (a grid_mapping / spatial_ref coordinate's crs_wkt, regular 1-D x/y coordinates
    of pixel centres); bands from the band coordinate (else the array's name); times from the
    time coordinate (required: rumi never invents a time, pass times= otherwise); nodata from
    _FillValue / nodata / missing_value (attrs or encoding) or rioxarray's nodata; PixelIsPoint
    from attrs["AREA_OR_POINT"] (the transform is then GDAL's, shifted by half a pixel, as
    rioxarray reports it). An array decoded as float from an integer file (encoding['dtype']) is
    written back in that type, each sample exactly. Scales, offsets and units (rumi.write's
    scales=/offsets=/units=) unless given: as rio.to_raster finds them, CF's `scale_factor` /
    `add_offset` (or rioxarray's per-band `scales` / `offsets`) in attrs or encoding, and the
    `units` attribute; values decoded with them (mask_and_scale=True: the scale in `encoding`)
    are encoded back to the stored samples as rio.to_raster does (`(value - offset) / scale`,
    rounded for an integer type; a value the samples cannot give back is a ValueError), raw
    samples (mask_and_scale=False: the scale in `attrs`) are stored as they are. A rotated grid is written when rioxarray or
    odc-geo carry it (a GeoTransform), as rio.to_raster writes it. A dask-backed array is written block by block of whole tile rows (about block_bytes raw
    bytes each), one task per block on the active dask scheduler, never whole in memory; the
    other arguments (graph="fast" for the fastest decode, docs/compression.md; write_options: tile,
    nodata, frame_unit, level, threads, options, force and graph as one rumi.WriteOptions) are
    rumi.Writer's."""
    opts = WriteOptions.gather(
        write_options, f"to_rumi {dest}", tile=tile, nodata=nodata, frame_unit=frame_unit, level=level,
        threads=threads, options=options, force=force, graph=graph,
    )
    nodata = opts.nodata
    da = _as_dataarray(obj)
    roles = _roles(da, dims)
    order = [d for d in (roles["time"], roles["band"], roles["y"], roles["x"]) if d is not None]
    da = da.transpose(*order)
    T = da.sizes[roles["time"]] if roles["time"] else 1
    B = da.sizes[roles["band"]] if roles["band"] else 1
    Y, X = da.sizes[roles["y"]], da.sizes[roles["x"]]
    if bands is None:
        bands = _bands_of(da, roles["band"], B)
    if times is None:
        times = _times_of(da, roles["time"] or "time", T)
    if crs is None:
        found = _crs_of(da)
        if found is None:
            if transform is not None or geotransform is not None:
                raise ValueError("transform= given without a CRS: pass crs= too")
            raise ValueError(
                "the array has no CRS (no rioxarray / odc-geo CRS, no CF grid_mapping or spatial_ref): "
                "pass crs='EPSG:n' and transform=, or write_crs() it with rioxarray"
            )
        crs = _epsg(found)
    if transform is None and geotransform is None:
        transform = _transform_of(da, str(roles["y"]), str(roles["x"]))
    scaling = _scaling_of(da, roles["band"], B, scales, offsets, units)
    if scaling is not None and _is_decoded(da):
        da = _unscaled(da, scaling, roles["band"])
    da, fill = _encoded(da, nodata, roles["band"])
    if fill is not None:
        nodata = fill
    elif nodata is None:
        nodata = _real(_nodata_of(da))
    if pixel_is_point is None:  # GDAL's AREA_OR_POINT, as rioxarray and the rumi engine leave it
        pixel_is_point = str(da.attrs.get("AREA_OR_POINT", "Area")).lower() == "point"
    data = da.data
    shape = (T, B, Y, X)
    spec = WriteSpec.of(shape, data.dtype, opts, bands=bands, times=times, crs=crs, transform=transform,
                        geotransform=geotransform, pixel_is_point=bool(pixel_is_point))
    w = Writer.of(dest, spec, dataclasses.replace(opts, nodata=nodata),
                  (None, None, None) if scaling is None else (scaling.scales, scaling.offsets, scaling.units))
    try:
        budget = int(block_bytes or BLOCK_BYTES)
        step = _block_rows(w.spec, budget)
        arr = data.reshape(shape)
        if _is_dask(data):
            cols = block_cols(shape, w.spec.dtype.itemsize, w.spec.tile, budget)
            blob = _write_dask(w, arr, w.spec.tile[0] if cols else step, cols)
            if blob is not None:
                w.abort()  # its local file was never used
                return blob
        else:
            for y0, y1 in _blocks(Y, step):
                w.write(np.asarray(arr[:, :, y0:y1]), row=y0)
        return w.close()
    except BaseException:
        w.abort()
        raise


def _is_dask(a: Any) -> bool:
    return type(a).__module__.startswith("dask.")


#: where a block goes: (pixel row, None) for whole tile rows, (pixel row, pixel column) for
#: tiles of one tile row
Place = tuple[int, int | None]


def _place(w: Writer, at: Place, enc: tuple[int, bytes, list[int]]) -> None:
    if at[1] is None:
        w.write_encoded(at[0], enc)
    else:
        w.write_encoded_tiles(at[0], at[1], enc)


def _write_dask(w: Writer, arr: Any, step: int, cols: int | None = None) -> bytes | None:
    """One task per block of `step` rows (and `cols` columns: tiles of one tile row, None: the
    whole width), all in one graph (a source chunk feeding several blocks is computed once);
    each block is encoded where it is computed and placed as it comes (the writer spools those
    ahead of their turn). On a dask.distributed cluster writing to s3://, the workers upload
    their blocks as parts of the object (rumi._parts) and the header blob is returned; otherwise
    None (w.close() finishes the file)."""
    import dask
    import dask.array

    T, B, Y, X = arr.shape
    arr = arr.rechunk((T, B, step, cols or X))
    client = _distributed_client()
    scheduler = dask.base.get_scheduler()
    processes = scheduler is not None and "multiprocessing" in getattr(scheduler, "__module__", "")
    if client is not None or processes:
        pieces = list(arr.to_delayed().ravel())  # row-major: file order
        places: list[Place] = [(y0, x0 if cols else None) for y0, _ in _blocks(Y, step) for x0, _ in _blocks(X, cols or X)]
        if client is not None and Location.parse(w.dest).scheme == "s3":
            # the workers upload the parts themselves; nothing comes back here but sizes
            from . import _parts

            return _parts.write(client, w.spec, w.dest, w.aux, w.options, pieces, places)
        encode = dask.delayed(encode_block, pure=True)
        jobs = [(at, encode(p, w.spec, *at)) for p, at in zip(pieces, places)]
        if client is not None:
            _write_futures(client, w, jobs)
            return None
        # tasks run in other processes: encode there, place here (blocks in small batches), all
        # in one pool (without one configured, dask starts a pool per compute call: a batch)
        n = max(2, default_threads())
        with _one_pool():
            for i in range(0, len(jobs), n):
                batch = jobs[i : i + n]
                for (at, _), enc in zip(batch, dask.compute(*[t for _, t in batch])):
                    _place(w, at, enc)
        return None
    # threads (or synchronous): dask.array.store hands each block to the target as it is made
    dask.array.store(arr, _Target(w), lock=False, compute=True)
    return None


@contextlib.contextmanager
def _one_pool() -> Iterator[None]:
    """dask's processes scheduler with one pool for the duration: the configured one (pool=), else
    one made as dask.multiprocessing.get makes its own for a single call (its worker initializer,
    context, num_workers and hash seed), which spawned a pool of fresh interpreters per batch of
    blocks: 98-115 s instead of 6-8 s for a 2 x 2 x 300 x 260 array on 2 workers."""
    import dask
    import dask.multiprocessing as dmp

    if dask.config.get("pool", None) is not None:
        yield
        return
    if os.environ.get("PYTHONHASHSEED") in (None, "0"):
        os.environ["PYTHONHASHSEED"] = "6640"  # as dask.multiprocessing.get: consistent hashing in the workers
    init = functools.partial(dmp.initialize_worker_process,
                             user_initializer=dask.config.get("multiprocessing.initializer", None))
    workers = dask.config.get("num_workers", None) or dmp.CPU_COUNT
    with ProcessPoolExecutor(workers, mp_context=dmp.get_context(), initializer=init) as pool, \
            dask.config.set(pool=pool):
        yield


class _Target:
    """A dask.array.store target: encodes each block in the task's thread (the GIL released),
    then places it under a lock."""

    def __init__(self, w: Writer) -> None:
        self.w = w
        self.lock = threading.Lock()

    def __setitem__(self, key: Any, value: Any) -> None:
        y0, x0 = int(key[2].start or 0), int(key[3].start or 0)
        block = np.asarray(value)
        at: Place = (y0, None) if block.shape[3] == self.w.spec.shape[3] else (y0, x0)
        enc = encode_block(block, self.w.spec, *at)
        with self.lock:
            _place(self.w, at, enc)


def _write_futures(client: Any, w: Writer, jobs: list[tuple[Place, Any]]) -> None:
    """On a dask.distributed cluster: every block task submitted as one graph (the scheduler
    keeps a few per worker thread running and queues the rest); results are gathered and
    released as they complete."""
    from distributed import as_completed

    futures = client.compute([t for _, t in jobs])
    rows = {f.key: r for f, (r, _) in zip(futures, jobs)}
    try:
        for f in as_completed(futures):
            _place(w, rows[f.key], f.result())
            f.release()
    finally:
        client.cancel(futures)


def _distributed_client() -> Any:
    try:
        from distributed import get_client
    except ImportError:
        return None
    try:
        return get_client()
    except ValueError:
        return None


class _RumiAccessor:
    """`da.rumi.to_rumi(dest, ...)` / `ds.rumi.to_rumi(...)`: rumi.to_rumi as an xarray accessor."""

    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def to_rumi(self, dest: PathLike, **options: Any) -> bytes:
        """rumi.to_rumi(self, dest, **options): see there."""
        return to_rumi(self._obj, dest, **options)


_registered = False


def register_accessor() -> None:
    """Registers the `.rumi` accessor on xarray's DataArray and Dataset (once; when rumi is
    imported after xarray, or when to_rumi or the xarray engine loads)."""
    global _registered
    if _registered:
        return
    import xarray as xr

    xr.register_dataarray_accessor("rumi")(_RumiAccessor)
    xr.register_dataset_accessor("rumi")(_RumiAccessor)
    _registered = True


try:  # da.rumi.to_rumi, when xarray is installed
    register_accessor()
except ImportError:
    pass
