"""The GDAL oracle of the differential suite, run by Debian's python3 (osgeo over the system GDAL,
3.6 on Debian 12) with GDAL_DRIVER_PATH holding this tree's gdal_RUMI.so (conftest.py starts one
per session). It reads JSON requests, one per line, from stdin and answers one JSON line each:

  {"op": "hello"}                                        -> versions and the registered drivers
  {"op": "describe", "path", "out", "windows", "open_options"}
      -> what GDAL reports (driver, types, geotransform, EPSG code, nodata, descriptions,
         metadata, colour interpretation, scales, offsets, units, checksums); the samples, the masks (GDAL's mask
         bands: True where invalid) and each window (xoff, yoff, xsize, ysize) saved to `out`
         (.npz), or the window's error text

The same code reads the rumi file (through the plugin) and the GeoTIFF it came from, so the
test compares GDAL with GDAL. Not a test module (no test_ prefix); it runs outside the venv."""

import json
import math
import sys
import traceback

import numpy as np
from osgeo import gdal, osr

gdal.UseExceptions()


def _num(v):
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def hello(_req):
    gdal.AllRegister()
    drivers = [gdal.GetDriver(i).ShortName for i in range(gdal.GetDriverCount())]
    return {"gdal": gdal.__version__, "numpy": np.__version__,
            "drivers": [d for d in drivers if d in ("RUMI", "GTiff", "VRT")]}


def _epsg(ds):
    srs = ds.GetSpatialRef()
    if srs is None:
        return None
    srs = srs.Clone()
    srs.AutoIdentifyEPSG()
    code = srs.GetAuthorityCode(None)
    return int(code) if code else srs.ExportToWkt()


def _read(ds, xoff, yoff, xsize, ysize):
    bands = [ds.GetRasterBand(i) for i in range(1, ds.RasterCount + 1)]
    data = np.stack([b.ReadAsArray(xoff, yoff, xsize, ysize) for b in bands])
    mask = np.stack([b.GetMaskBand().ReadAsArray(xoff, yoff, xsize, ysize) == 0 for b in bands])
    return data, mask


def describe(req):
    ds = gdal.OpenEx(req["path"], gdal.OF_RASTER, open_options=req.get("open_options") or [])
    try:
        bands = [ds.GetRasterBand(i) for i in range(1, ds.RasterCount + 1)]
        meta = {
            "driver": ds.GetDriver().ShortName,
            "types": [gdal.GetDataTypeName(b.DataType) for b in bands],
            "pixeltypes": [b.GetMetadataItem("PIXELTYPE", "IMAGE_STRUCTURE") for b in bands],
            "count": ds.RasterCount,
            "width": ds.RasterXSize,
            "height": ds.RasterYSize,
            "geotransform": list(ds.GetGeoTransform(can_return_null=True) or []) or None,
            "crs": _epsg(ds),
            "nodatavals": [_num(b.GetNoDataValue()) for b in bands],
            "descriptions": [b.GetDescription() for b in bands],
            "metadata": ds.GetMetadata() or {},
            "band_metadata": [b.GetMetadata() or {} for b in bands],
            "colorinterp": [gdal.GetColorInterpretationName(b.GetColorInterpretation()) for b in bands],
            "has_palette": [b.GetColorTable() is not None for b in bands],
            "scales": [b.GetScale() for b in bands],
            "offsets": [b.GetOffset() for b in bands],
            "units": [b.GetUnitType() for b in bands],
            "checksums": [b.Checksum() for b in bands],
            "mask_flags": [b.GetMaskFlags() for b in bands],
        }
        arrays = {}
        arrays["read"], arrays["mask"] = _read(ds, 0, 0, ds.RasterXSize, ds.RasterYSize)
        errors = []
        for i, (x, y, w, h) in enumerate(req.get("windows", [])):
            try:
                arrays[f"w{i}"], arrays[f"w{i}_mask"] = _read(ds, x, y, w, h)
                errors.append(None)
            except Exception as e:  # noqa: BLE001 - reported to the test, which decides
                errors.append(f"{type(e).__name__}: {e}")
        meta["window_errors"] = errors
    finally:
        ds = None
    np.savez(req["out"], **arrays)
    return meta


OPS = {"hello": hello, "describe": describe}

for line in sys.stdin:
    req = json.loads(line)
    try:
        resp = OPS[req["op"]](req)
    except Exception as e:  # noqa: BLE001 - the test decides what an error means
        resp = {"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()[-2000:]}
    sys.stdout.write(json.dumps(resp) + "\n")
    sys.stdout.flush()
