"""Helpers of the client suite (tests/clients): where things are, which real rasters are
converted and how, reading the source GeoTIFFs for comparison, and a throw-away nginx.

Nothing here imports osgeo at module level: conftest.py sets GDAL_DRIVER_PATH first.
"""

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
PLUGIN = TARGET / "release" / "libgdal_rumi.so"
RUMI = TARGET / "release" / "rumi"
DATA_DIR = Path(os.environ.get("RUMI_DATA_DIR", ROOT.parent / "shared" / "data"))
ARTIFACTS = ROOT / "build" / "test-artifacts"
VENV_PYTHON = ROOT / "build" / "venv" / "bin" / "python"

# RUMI_CLIENTS_PLUGIN_DIR: this Python's rasterio is a pip wheel with its own GDAL, and the folder
# holds the gdal_RUMI.so scripts/plugin-for-python.sh built for it (conftest.py); there is no osgeo.
WHEEL_PLUGIN_DIR = os.environ.get("RUMI_CLIENTS_PLUGIN_DIR") or None

# RUMI_CLIENTS_STRICT=1 (set by scripts/test-clients.sh, i.e. in CI): a missing client (QGIS,
# rasterio, nginx, the rioxarray venv) fails the test instead of skipping it. The real-data folder
# being absent is always a skip.
STRICT = os.environ.get("RUMI_CLIENTS_STRICT") == "1"


def need(ok, what):
    """Skips (or, in strict mode, fails) the test when a client is missing."""
    if ok:
        return
    msg = f"{what} (install with scripts/install-client-deps.sh)"
    if STRICT:
        pytest.fail(msg + " [RUMI_CLIENTS_STRICT=1]", pytrace=False)
    pytest.skip(msg)


@dataclass
class Real:
    """One converted real raster: `rumi` (with its `.header` sidecar) and the sources it came
    from. `names` are the band texts the conversion gave; `times` the time labels."""

    key: str
    rumi: Path
    sources: list
    names: list
    times: list
    cli: list = field(default_factory=list)

    @property
    def source(self):
        return self.sources[0]

    @property
    def header(self):
        return Path(str(self.rumi) + ".header")


S1A = "S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif"
S1D = "S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif"

# key -> (rumi CLI sub-command and options, sources, band texts, time labels)
# The sources carry no acquisition time metadata, so times are given explicitly: taken from the
# file names (Landsat, Sentinel-1) or, where the data has none, a documented label (LANDFIRE 2.2
# describes 2020 conditions; the xarray-spatial Sentinel-2 sample has no date: 2019-01-01 stands
# in). rumi has no nodata field; rumi convert keeps a source's nodata for GDAL readers in
# OUT.rumi.aux.xml (--allow-nodata-loss, once needed for them, is now a no-op for nodata).
SPECS = {
    "landsat": (["convert", "--time", "2020-05-18",
                 "--band-text", "blue", "--band-text", "green", "--band-text", "red"],
                ["landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"],
                ["blue", "green", "red"], ["2020-05-18"]),
    "s2": (["convert", "--time", "2019-01-01", "--band-text", "blue", "--band-text", "green",
            "--band-text", "red", "--band-text", "nir"],
           ["xrspatial_s2_4band_10m_uint16.tif"],
           ["blue", "green", "red", "nir"], ["2019-01-01"]),
    "elev": (["convert", "--allow-nodata-loss", "--interval", "2020-01-01/2021-01-01",
              "--band-text", "elevation"],
             ["lf_elev_220_mt_hood_utm.tif"], ["elevation"], ["2020-01-01/2021-01-01"]),
    "s1cube": (["stack", "--allow-nodata-loss", "--band-text", "VV",
                "--times", "2015-03-09T17:30:17Z,2017-03-09T05:43:56Z"],
               [S1A, S1D], ["VV"], ["2015-03-09T17:30:17Z", "2017-03-09T05:43:56Z"]),
    "s1a": (["convert", "--allow-nodata-loss", "--band-text", "VV", "--time", "2015-03-09T17:30:17Z"],
            [S1A], ["VV"], ["2015-03-09T17:30:17Z"]),
    "s1d": (["convert", "--allow-nodata-loss", "--band-text", "VV", "--time", "2017-03-09T05:43:56Z"],
            [S1D], ["VV"], ["2017-03-09T05:43:56Z"]),
}


def run(cmd, **kw):
    """Runs a command, failing the test with its output when it exits non-zero."""
    cmd = [str(c) for c in cmd]
    if WHEEL_PLUGIN_DIR and cmd[0] == str(RUMI) and "env" not in kw:
        # the CLI links the system GDAL: not the plugin built for the wheel's
        kw["env"] = {k: v for k, v in os.environ.items() if k != "GDAL_DRIVER_PATH"}
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}",
                    pytrace=False)
    return p


def convert(key, out_dir, **extra):
    args, sources, names, times = SPECS[key]
    srcs = [DATA_DIR / s for s in sources]
    out = Path(out_dir) / f"{key}.rumi"
    cmd = [RUMI, args[0], "-q", *args[1:], *extra.get("options", []), *srcs, out]
    run(cmd)
    return Real(key, out, srcs, names, times, cmd)


# ---- reading through GDAL -----------------------------------------------------------------------

def gdal_open(path, **open_options):
    from osgeo import gdal

    oo = [f"{k}={v}" for k, v in open_options.items()]
    return gdal.OpenEx(str(path), gdal.OF_RASTER, open_options=oo)


def read_all(path, window=None, bands=None, **open_options):
    """(bands, rows, cols) array of a raster (or a window xoff, yoff, xsize, ysize of it)."""
    import numpy as np

    if WHEEL_PLUGIN_DIR:  # no osgeo beside a rasterio wheel
        import rasterio
        from rasterio.windows import Window

        with rasterio.open(path, **open_options) as ds:
            return ds.read(bands or None, window=Window(*window) if window else None)
    ds = gdal_open(path, **open_options)
    try:
        bands = bands or list(range(1, ds.RasterCount + 1))
        xo, yo, xs, ys = window or (0, 0, ds.RasterXSize, ds.RasterYSize)
        return np.stack([ds.GetRasterBand(b).ReadAsArray(xo, yo, xs, ys) for b in bands])
    finally:
        ds = None


def source_stack(real):
    """What the rumi file should hold, (T*B, rows, cols): the sources' bands, time-major."""
    import numpy as np

    return np.concatenate([read_all(s) for s in real.sources])


def geotransform(path):
    if WHEEL_PLUGIN_DIR:
        import rasterio

        with rasterio.open(path) as ds:
            return ds.transform.to_gdal()
    ds = gdal_open(path)
    try:
        return ds.GetGeoTransform()
    finally:
        ds = None


def epsg(path):
    if WHEEL_PLUGIN_DIR:
        import rasterio

        with rasterio.open(path) as ds:
            return ds.crs.to_epsg()
    ds = gdal_open(path)
    try:
        srs = ds.GetSpatialRef()
        srs.AutoIdentifyEPSG()
        return int(srs.GetAuthorityCode(None))
    finally:
        ds = None


def nodata(path, band=1):
    ds = gdal_open(path)
    try:
        return ds.GetRasterBand(band).GetNoDataValue()
    finally:
        ds = None


def rumi_info(path):
    import json

    return json.loads(run([RUMI, "info", "--json", path]).stdout)


# ---- nginx as a stand-in object store (tests/support/nginx_server.py) ----------------------------

sys.path.insert(0, str(ROOT / "tests" / "support"))
from nginx_server import LOG_FORMAT, LOG_LINE, Nginx, free_port, parse_range  # noqa: E402,F401


def summarize(reqs):
    gets = [r for r in reqs if r["method"] == "GET"]
    heads = [r for r in reqs if r["method"] == "HEAD"]
    return {
        "requests": len(reqs),
        "GET": len(gets),
        "HEAD": len(heads),
        "bytes": sum(r["bytes"] for r in reqs),
        "lines": [f'{r["method"]} {r["uri"]} {r["status"]} {r["bytes"]} {r["range"] or "-"}' for r in reqs],
    }
