"""xarray backend: xr.open_dataset("x.rumi", engine="rumi", chunks={}) -> a lazy Dataset with one
(time, band, y, x) variable "band_data", dask chunks aligned to frames, x/y coordinates of pixel
centres from the transform (bit-identical to rioxarray's), band names, datetime64 times and a CF
"spatial_ref" grid mapping (rioxarray's attributes: CF parameters, GDAL's WKT in
crs_wkt/spatial_ref, GDAL's GeoTransform) named in the variable's encoding, as rioxarray
leaves it, so that to_netcdf and rio.to_raster write it back."""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np
import xarray as xr
from xarray.backends import BackendArray, BackendEntrypoint
from xarray.core import indexing

import rumi
from . import _to_rumi  # noqa: F401  (registers da.rumi.to_rumi)
from ._scale import Scaling


def _masked_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The type that holds every value of `dtype` and a missing value (xarray's CF masking rule,
    as rioxarray's masked reads): a float type with NaN for real samples (float32 for 8- and
    16-bit ones), a complex type with NaN+NaNj for complex samples (complex64 at least: the
    imaginary part is kept)."""
    if dtype.kind == "c":
        return dtype if dtype.itemsize >= 8 else np.dtype("complex64")
    if dtype.kind == "f" and dtype.itemsize >= 4:
        return dtype
    return np.dtype("float32") if dtype.itemsize <= 2 else np.dtype("float64")


def _missing(dtype: np.dtype[Any]) -> Any:
    """The value of a masked sample in the masked type: NaN, NaN+NaNj for complex (xarray's)."""
    return complex(np.nan, np.nan) if dtype.kind == "c" else np.nan


class RumiBackendArray(BackendArray):
    """The samples of a rumi.Dataset, read lazily by window; with `mask` (one nodata value per
    band, or None) samples equal to their band's nodata read as NaN in a float type; with
    `scaling` the values `raw * scale + offset` per band, computed as rioxarray's mask_and_scale
    (in its float type, after the masking)."""

    def __init__(
        self, ds: rumi.Dataset, mask: list[float | None] | None = None, scaling: Scaling | None = None
    ) -> None:
        self.ds = ds  # pickles as path + blob (dask workers reopen statelessly)
        self.shape = ds.shape
        self.mask = mask
        self.scaling = scaling
        self.dtype = ds.dtype if mask is None and scaling is None else _masked_dtype(ds.dtype)

    def __getitem__(self, key: Any) -> Any:
        return indexing.explicit_indexing_adapter(key, self.shape, indexing.IndexingSupport.OUTER, self._raw)

    def _raw(self, key: Any) -> np.ndarray[Any, Any]:
        t, b, y, x = key
        squeeze = []
        ts = t if not isinstance(t, (int, np.integer)) else [int(t)]
        bs = b if not isinstance(b, (int, np.integer)) else [int(b)]
        if isinstance(t, (int, np.integer)):
            squeeze.append(0)
        if isinstance(b, (int, np.integer)):
            squeeze.append(1)
        win: list[tuple[int, int]] = []
        post: list[Any] = []  # per axis: slice(None) or the indices to take after the read
        for ax, (k, n) in enumerate(((y, self.shape[2]), (x, self.shape[3])), start=2):
            if isinstance(k, (int, np.integer)):
                win.append((int(k), 1))
                squeeze.append(ax)
                post.append(slice(None))
            elif isinstance(k, slice):
                start, stop, step = k.indices(n)
                if step == 1:
                    win.append((start, max(0, stop - start)))
                    post.append(slice(None))
                else:
                    idx = np.arange(start, stop, step)
                    lo = int(idx.min()) if idx.size else 0
                    hi = int(idx.max()) + 1 if idx.size else 0
                    win.append((lo, hi - lo))
                    post.append(idx - lo)
            else:
                idx = np.asarray(k, dtype=np.int64)
                lo = int(idx.min()) if idx.size else 0
                hi = int(idx.max()) + 1 if idx.size else 0
                win.append((lo, hi - lo))
                post.append(idx - lo)
        if isinstance(ts, np.ndarray):
            ts = ts.tolist()
        if isinstance(bs, np.ndarray):
            bs = bs.tolist()
        (r0, h), (c0, w) = win
        a = np.asarray(self.ds.read(t=ts, b=bs, window=rumi.Window(c0, r0, w, h)))
        bands = bs if isinstance(bs, list) else list(range(self.shape[1]))[bs]
        if self.mask is not None:
            a = self._masked(a, bands)
        if self.scaling is not None:
            from ._scale import apply

            a = apply(a, self.scaling.select(bands), 1, self.dtype)
        if any(not isinstance(p, slice) for p in post):
            a = a[:, :, post[0]] if not isinstance(post[0], slice) else a
            a = a[:, :, :, post[1]] if not isinstance(post[1], slice) else a
        if squeeze:
            a = a.reshape([s for i, s in enumerate(a.shape) if i not in squeeze])
        return a

    def _masked(self, a: np.ndarray[Any, Any], bands: list[int]) -> np.ndarray[Any, Any]:
        from ._nodata import valid_mask

        assert self.mask is not None
        out = a.astype(self.dtype)
        for i, b in enumerate(bands):
            nd = self.mask[b]
            if nd is not None:
                out[:, i][~valid_mask(a[:, i], nd)] = _missing(self.dtype)
        return out


def to_xarray(ds: rumi.Dataset, name: str = "band_data", mask_and_scale: bool = True) -> xr.Dataset:
    """The Dataset of the engine. Nodata (the file's PAM sidecar) follows xarray's and
    rioxarray's conventions: with mask_and_scale (xarray's default) samples equal to it read
    as NaN in a float type and `encoding` holds `_FillValue` and the stored `dtype` (rioxarray:
    rio.encoded_nodata; rumi.to_rumi and to_netcdf encode it back); without, the exact samples
    and `attrs["_FillValue"]` (rio.nodata). Bands with different nodata values have no single
    `_FillValue`: `attrs["nodatavals"]` lists them, and masking them is refused.

    Scale, offset and unit (Dataset.scales/offsets/units, the same sidecar) as rioxarray's
    open_rasterio gives them, when the file has any: with mask_and_scale the values
    `raw * scale + offset` in rioxarray's float type (float32 for 8- and 16-bit samples) and
    `encoding["scale_factor"]`/`["add_offset"]` (`"scales"`/`"offsets"`, one per band, when the
    bands differ) with the stored `dtype`, so that to_netcdf, rio.to_raster and rumi.to_rumi
    encode them back; without, the raw samples and the same keys in `attrs`. `attrs["units"]`:
    the unit (a tuple of one per band when there are several bands, as rioxarray's)."""
    T, B, Y, X = ds.shape
    tl, tw = ds.tile_shape
    nodata = list(ds.nodatavals)
    known = [v for v in nodata if v is not None]
    same = bool(known) and len(known) == len(nodata) and all(
        v == known[0] or (np.isnan(v) and np.isnan(known[0])) for v in known
    )
    if known and not same and mask_and_scale:
        raise ValueError(
            f"{ds.path}: its bands have different nodata values {nodata}, which one _FillValue cannot "
            "express: open it with mask_and_scale=False (the values are in attrs['nodatavals'])"
        )
    # NaN nodata in a float type is NaN already; in a complex one NaN+NaNj is what xarray masks to
    mask = nodata if known and mask_and_scale and not (ds.dtype.kind == "f" and np.isnan(known[0])) else None
    scaling = ds.scaling
    scaled = scaling.is_scaled
    backend = RumiBackendArray(ds, mask, scaling if scaled and mask_and_scale else None)
    var = xr.Variable(("time", "band", "y", "x"), indexing.LazilyIndexedArray(backend))
    if scaled:
        keys: dict[str, Any] = {}
        for one, many, vals in (("scale_factor", "scales", scaling.scales), ("add_offset", "offsets", scaling.offsets)):
            if len(set(vals)) == 1:
                keys[one] = vals[0]
            else:
                keys[many] = vals
        (var.encoding if mask_and_scale else var.attrs).update(keys)
        if mask_and_scale:
            var.encoding["dtype"] = ds.dtype
    if any(scaling.units):
        var.attrs["units"] = scaling.units[0] if B == 1 else scaling.units
    fill = _fill_value(known[0], ds.dtype) if same else None
    if fill is not None and mask_and_scale:
        var.encoding["_FillValue"] = fill
        var.encoding["dtype"] = ds.dtype
    elif fill is not None:
        var.attrs["_FillValue"] = fill
    elif known:
        # netCDF attributes hold no None: a band without nodata is NaN there (as rioxarray prints
        # it), and rumi_nodata_none names those bands, so that NaN is never taken for a nodata
        var.attrs["nodatavals"] = tuple(np.nan if v is None else v for v in nodata)
        var.attrs["rumi_nodata_none"] = " ".join(str(i) for i, v in enumerate(nodata) if v is None)
    # a frame holds one tile of every (band, time) plane, or of one plane (frame units 0 and 9)
    whole = ds.frame_holds_all_planes
    chunks = {"time": T if whole else 1, "band": B if whole else 1, "y": tl, "x": tw}
    var.encoding["preferred_chunks"] = chunks
    coords: dict[str, Any] = {"band": ("band", np.array(ds.bands, dtype=object))}
    times = ds.times
    if times.ndim == 2:
        coords["time"] = ("time", times[:, 0].astype("datetime64[ns]"))
        coords["time_end"] = ("time", times[:, 1].astype("datetime64[ns]"))
    else:
        coords["time"] = ("time", times.astype("datetime64[ns]"))
    attrs = {}
    gt = ds.geotransform
    crs = ds.crs
    if gt is not None and crs is not None:
        x0, xres, rrot, y0, crot, yres = gt
        if rrot == 0 and crot == 0:
            coords["x"], coords["y"] = _centres(gt, X, Y)
        coords["spatial_ref"] = (
            (),
            np.int64(0),
            {**_grid_mapping(crs), "GeoTransform": " ".join(repr(float(v)) for v in gt)},
        )
        # in encoding only, as rioxarray's write_grid_mapping leaves it: xarray's CF encoder
        # (to_netcdf, rio.to_raster) refuses a key that is in both attrs and encoding
        var.encoding["grid_mapping"] = "spatial_ref"
        attrs["crs"] = crs
    var.attrs["rumi_encoding"] = ds.encoding
    if ds.pixel_is_point:
        var.attrs["AREA_OR_POINT"] = "Point"
    out = xr.Dataset({name: var}, coords=coords, attrs=attrs)
    out.set_close(None)
    return out


@functools.lru_cache(maxsize=64)
def _cf_of(crs: str) -> tuple[tuple[str, Any], ...]:
    from pyproj import CRS

    wkt = CRS.from_user_input(crs).to_wkt("WKT1_GDAL")
    cf = CRS.from_wkt(wkt).to_cf()
    cf["crs_wkt"] = cf["spatial_ref"] = wkt
    return tuple(cf.items())


def _grid_mapping(crs: str) -> dict[str, Any]:
    """The grid mapping's attributes of an "EPSG:n" CRS as rioxarray's write_crs leaves them
    (PROJ's CF parameters, and GDAL's WKT in crs_wkt and spatial_ref, through pyproj as rasterio
    writes it): GDAL's netCDF driver and rioxarray read the CRS of a to_netcdf file from them
    (GDAL cannot parse "EPSG:n" there)."""
    return dict(_cf_of(crs))


def _centres(gt: tuple[float, ...], X: int, Y: int) -> tuple[tuple[str, Any], tuple[str, Any]]:
    """The x and y coordinates of pixel centres of a north-up grid, computed with the very
    operations of rioxarray's `affine_to_coords` (the transform composed with a half-pixel
    translation by affine, then applied to the column and row indices) and so bit-identical to
    rioxarray's and odc-geo's for the same transform: `(i + 0.5) * res + x0` rounds differently
    (up to 5e-10 m on a UTM grid), and xarray's alignment of two arrays then silently keeps only
    the coordinates that compare equal."""
    x0, a, b, y0, d, e = (float(v) for v in gt)
    # Affine(a, b, x0, d, e, y0) * Affine.translation(0.5, 0.5), then (cols, 0) and (0, rows)
    c = a * 0.5 + b * 0.5 + x0
    f = d * 0.5 + e * 0.5 + y0
    xs = np.arange(X) * a + np.zeros(X) * b + c
    ys = np.zeros(Y) * d + np.arange(Y) * e + f
    return ("x", xs), ("y", ys)


def _fill_value(v: float, dtype: np.dtype[Any]) -> Any:
    """The nodata value as a scalar of the samples' type (an integer file's is an integer); of a
    complex file, a real number (GDAL's nodata and rioxarray's _FillValue are real)."""
    if dtype.kind in "iub":
        return dtype.type(int(v))
    return dtype.type(v) if dtype.kind == "f" and dtype.itemsize >= 4 else v


class RumiBackendEntrypoint(BackendEntrypoint):
    description = "rumi stateless rasters (no GDAL)"
    url = "https://github.com/rumi"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "mask_and_scale", "header", "threads")

    def open_dataset(
        self,
        filename_or_obj: Any,
        *,
        drop_variables: Any = None,
        mask_and_scale: bool = True,
        header: bytes | str | None = None,
        threads: int | None = None,
        limits: dict[str, int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> xr.Dataset:
        ds = rumi.open(os.fspath(filename_or_obj), header, threads=threads, limits=limits, options=options)
        return to_xarray(ds, mask_and_scale=mask_and_scale)

    def guess_can_open(self, filename_or_obj: Any) -> bool:
        try:
            return bool(os.fspath(filename_or_obj).endswith(".rumi"))
        except TypeError:
            return False
