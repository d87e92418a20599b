"""What the GDAL tools would check, for a GDAL that comes without them (a pip rasterio wheel
bundles libgdal but no gdalinfo/gdal_translate): rasterio.shutil.copy of rumi files to COG,
GDAL's multidimensional API through the C functions of the very libgdal rasterio loaded (ctypes),
and a plugin built for another GDAL line, which the host's GDAL must refuse with its own version
message without crashing.

Runs with Debian's rasterio too (the same libgdal the GDAL tools use there).
"""

import ctypes
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clients_util as cu


@pytest.fixture(scope="module")
def rasterio():
    try:
        import rasterio
        import rasterio.shutil  # noqa: F401
    except ImportError as e:
        cu.need(False, f"rasterio is not installed: {e}")
    return rasterio


@pytest.mark.parametrize("key", ["landsat", "s1cube"])
def test_copy_to_cog(rasterio, real, key, tmp_path):
    """rasterio.shutil.copy (GDALCreateCopy) of an Image, and of a Cube's time step, to a COG:
    the same pixels, georeferencing, band descriptions, times and overviews as a COG made from the
    source GeoTIFF the same way."""
    import rasterio.shutil

    r = real(key)
    name, src_path, t = (str(r.rumi), r.source, 0) if key == "landsat" else (f'RUMI:"{r.rumi}":1', r.sources[1], 1)
    out, ref = tmp_path / "out.tif", tmp_path / "ref.tif"
    rasterio.shutil.copy(name, out, driver="COG", COMPRESS="DEFLATE", BLOCKSIZE=256)
    rasterio.shutil.copy(src_path, ref, driver="COG", COMPRESS="DEFLATE", BLOCKSIZE=256)
    with rasterio.open(out) as got, rasterio.open(ref) as want, rasterio.open(src_path) as src:
        assert got.driver == "GTiff"
        assert got.tags(ns="IMAGE_STRUCTURE")["LAYOUT"] == "COG"
        assert got.tags(ns="IMAGE_STRUCTURE")["COMPRESSION"] == "DEFLATE"
        assert (got.count, got.width, got.height, got.dtypes) == (src.count, src.width, src.height, src.dtypes)
        assert got.crs == src.crs and got.transform == src.transform
        np.testing.assert_array_equal(got.read(), src.read())
        assert got.descriptions == tuple(r.names)
        tags = got.tags()
        if "/" in r.times[t]:
            assert tags["TIME_START"].startswith(r.times[t].split("/")[0]), tags
        else:
            assert tags["TIME"].startswith(r.times[t][:10]), tags
        assert got.overviews(1) == want.overviews(1)
        for level in got.overviews(1):
            shape = (got.count, -(-got.height // level), -(-got.width // level))
            np.testing.assert_array_equal(got.read(out_shape=shape), want.read(out_shape=shape), err_msg=str(level))


# ---- GDAL's multidimensional C API, on the libgdal this process loaded --------------------------

GDAL_OF_MULTIDIM_RASTER = 0x10
GDAL_OF_VERBOSE_ERROR = 0x40
GDT_FLOAT32 = 6


def loaded_libgdal(rasterio):
    """ctypes handle of the libgdal rasterio loaded (the same file: dlopen returns its handle)."""
    pattern = re.compile(r"/libgdal(-[0-9a-f]+)?\.so[.0-9]*$")  # not libgdal_rumi.so
    libs = sorted({line.split()[-1] for line in open("/proc/self/maps") if pattern.search(line)})
    assert len(libs) == 1, libs
    lib = ctypes.CDLL(libs[0])
    p, s, u64, i64 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint64, ctypes.c_int64
    sig = {
        "GDALOpenEx": (p, [s, ctypes.c_uint, p, p, p]),
        "GDALClose": (None, [p]),
        "GDALDatasetGetRootGroup": (p, [p]),
        "GDALGroupGetMDArrayNames": (ctypes.POINTER(s), [p, p]),
        "GDALGroupOpenMDArray": (p, [p, s, p]),
        "GDALGroupRelease": (None, [p]),
        "GDALMDArrayGetDimensions": (ctypes.POINTER(p), [p, ctypes.POINTER(ctypes.c_size_t)]),
        "GDALReleaseDimensions": (None, [ctypes.POINTER(p), ctypes.c_size_t]),
        "GDALDimensionGetName": (s, [p]),
        "GDALDimensionGetSize": (u64, [p]),
        "GDALMDArrayGetStructuralInfo": (ctypes.POINTER(s), [p]),
        "GDALExtendedDataTypeCreate": (p, [ctypes.c_int]),
        "GDALExtendedDataTypeRelease": (None, [p]),
        "GDALMDArrayRead": (ctypes.c_int, [p, ctypes.POINTER(u64), ctypes.POINTER(ctypes.c_size_t),
                                           ctypes.POINTER(i64), ctypes.POINTER(i64), p, p, p, ctypes.c_size_t]),
        "GDALMDArrayRelease": (None, [p]),
        "CSLDestroy": (None, [ctypes.POINTER(s)]),
        "CPLGetLastErrorMsg": (s, []),
        "GDALVersionInfo": (s, [s]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


def strings(csl):
    out, i = [], 0
    while csl and csl[i] is not None:
        out.append(csl[i].decode())
        i += 1
    return out


def test_multidim_api(rasterio, real):
    """The Cube as one 4-D array (time, band, y, x): its names and sizes, and a window read with
    the time axis reversed, equal to the sources' pixels."""
    from rasterio.windows import Window

    r = real("s1cube")
    with rasterio.Env():  # GDALAllRegister: the plugin is loaded
        lib = loaded_libgdal(rasterio)
        assert lib.GDALVersionInfo(b"RELEASE_NAME").decode() == rasterio.__gdal_version__
        ds = lib.GDALOpenEx(str(r.rumi).encode(), GDAL_OF_MULTIDIM_RASTER | GDAL_OF_VERBOSE_ERROR, None, None, None)
        assert ds, lib.CPLGetLastErrorMsg()
        try:
            rg = lib.GDALDatasetGetRootGroup(ds)
            names = lib.GDALGroupGetMDArrayNames(rg, None)
            assert sorted(strings(names)) == ["band", "data", "time", "x", "y"]
            lib.CSLDestroy(names)
            ar = lib.GDALGroupOpenMDArray(rg, b"data", None)
            assert ar, lib.CPLGetLastErrorMsg()
            n = ctypes.c_size_t()
            dims = lib.GDALMDArrayGetDimensions(ar, ctypes.byref(n))
            got = [(lib.GDALDimensionGetName(dims[i]).decode(), lib.GDALDimensionGetSize(dims[i]))
                   for i in range(n.value)]
            lib.GDALReleaseDimensions(dims, n)
            with rasterio.open(r.sources[0]) as src:
                assert got == [("time", 2), ("band", 1), ("y", src.height), ("x", src.width)]
            assert "COMPRESSION=OPENZL" in strings(lib.GDALMDArrayGetStructuralInfo(ar))
            # times 1, 0 (step -1), band 0, rows 50..139, cols 100..219
            start = (ctypes.c_uint64 * 4)(1, 0, 50, 100)
            count = (ctypes.c_size_t * 4)(2, 1, 90, 120)
            step = (ctypes.c_int64 * 4)(-1, 1, 1, 1)
            buf = np.zeros((2, 1, 90, 120), dtype="float32")
            stride = (ctypes.c_int64 * 4)(*(s // 4 for s in buf.strides))
            dt = lib.GDALExtendedDataTypeCreate(GDT_FLOAT32)
            ok = lib.GDALMDArrayRead(ar, start, count, step, stride, dt, buf.ctypes.data, buf.ctypes.data,
                                     buf.nbytes)
            lib.GDALExtendedDataTypeRelease(dt)
            lib.GDALMDArrayRelease(ar)
            lib.GDALGroupRelease(rg)
            assert ok, lib.CPLGetLastErrorMsg()
        finally:
            lib.GDALClose(ds)
    for i, t in enumerate((1, 0)):
        with rasterio.open(r.sources[t]) as src:
            np.testing.assert_array_equal(buf[i, 0], src.read(1, window=Window(100, 50, 120, 90)))


# ---- a plugin built for another GDAL line -------------------------------------------------------

PROBE = r"""
import logging, sys
# rasterio logs GDAL's errors (CPLError) at DEBUG: a refused plugin's reason is one of them
logging.basicConfig(level=logging.DEBUG, format="LOG %(message)s", stream=sys.stderr)
import rasterio
with rasterio.Env() as env:
    print("RUMI registered:", "RUMI" in env.drivers())
try:
    rasterio.open(sys.argv[1])
except rasterio.errors.RasterioIOError as e:
    print("open failed:", e)
"""

# RUMI_CLIENTS_REFUSED_PLUGINS (scripts/test-wheels.sh): JSON [[folder, GDAL's message], ...],
# plugins built for another GDAL than this one, with the error GDAL must give when refusing them
REFUSED = json.loads(os.environ.get("RUMI_CLIENTS_REFUSED_PLUGINS") or "[]")


@pytest.mark.parametrize("folder,message", REFUSED or [pytest.param(None, None, marks=pytest.mark.skip(
    reason="RUMI_CLIENTS_REFUSED_PLUGINS is not set (scripts/test-wheels.sh builds such plugins)"))])
def test_plugin_for_another_gdal_is_refused(rasterio, real, folder, message):
    """A gdal_RUMI.so built for another GDAL on GDAL_DRIVER_PATH: GDAL refuses it with its own
    message (GDAL_CHECK_VERSION for one compiled against another line's version macros; the
    loader's for one needing another libgdal or symbols this GDAL lacks), and the host gets 'not
    recognized' for a .rumi file and goes on: no crash."""
    assert (Path(folder) / "gdal_RUMI.so").is_file(), folder
    r = real("landsat")
    env = dict(os.environ, GDAL_DRIVER_PATH=folder)
    p = subprocess.run([sys.executable, "-c", PROBE, str(r.rumi)], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr[-3000:])
    assert "RUMI registered: False" in p.stdout, p.stdout
    assert message in p.stderr, p.stderr[-3000:]
    assert "open failed:" in p.stdout and "not recognized" in p.stdout, p.stdout
