"""Helpers of the client suite (tests/clients): where things are, which real rasters are
converted and how, reading the source GeoTIFFs for comparison, and a throw-away nginx.

Nothing here imports osgeo at module level: conftest.py sets GDAL_DRIVER_PATH first.
"""

import os
import re
import shutil
import socket
import subprocess
import time
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


# ---- nginx as a stand-in object store ------------------------------------------------------------

LOG_FORMAT = "'\"$request\" $status $body_bytes_sent \"$http_range\"'"
LOG_LINE = re.compile(r'^"(?P<method>\S+) (?P<uri>\S+) [^"]*" (?P<status>\d+) (?P<bytes>\d+) "(?P<range>[^"]*)"$')


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """nginx serving `root` on 127.0.0.1 with HTTP range support, logging each request's
    request line, status, body bytes and Range header to its own access log."""

    def __init__(self, workdir, root):
        self.workdir = Path(workdir)
        self.root = Path(root)
        self.log = self.workdir / "access.log"
        self.proc = None
        self.port = None

    def _config(self, port):
        tmp = self.workdir / "tmp"
        tmp.mkdir(exist_ok=True)
        user = "user root root;\n" if os.geteuid() == 0 else ""
        return f"""{user}worker_processes 1;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/error.log;
events {{ worker_connections 64; }}
http {{
  log_format rumi {LOG_FORMAT};
  access_log {self.log} rumi;
  client_body_temp_path {tmp}/body;
  proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi;
  uwsgi_temp_path {tmp}/uwsgi;
  scgi_temp_path {tmp}/scgi;
  types {{ application/octet-stream rumi header tif; }}
  default_type application/octet-stream;
  server {{
    listen 127.0.0.1:{port};
    root {self.root};
    autoindex off;
  }}
}}
"""

    def start(self):
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        last = ""
        for _ in range(5):  # the port may be taken between free_port() and nginx's bind
            port = free_port()
            conf = self.workdir / "nginx.conf"
            conf.write_text(self._config(port))
            args = [nginx, "-p", str(self.workdir), "-c", str(conf), "-e", str(self.workdir / "error.log"),
                    "-g", "daemon off;"]
            self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            deadline = time.time() + 10
            while time.time() < deadline and self.proc.poll() is None:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        self.port = port
                        self.mark()
                        return self
                except OSError:
                    time.sleep(0.05)
            if self.proc.poll() is None:
                self.proc.kill()
            last = self.proc.communicate()[0].decode(errors="replace")
            last += (self.workdir / "error.log").read_text(errors="replace") if (
                self.workdir / "error.log").exists() else ""
        raise RuntimeError(f"nginx did not start: {last}")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/{name}"

    def mark(self):
        """Log position, once the log stops growing (nginx writes a line when it finalizes a
        request, which may be just after the client got the data): requests() returns what came
        after it."""
        last = -1
        for _ in range(50):
            size = self.log.stat().st_size if self.log.exists() else 0
            if size == last:
                return size
            last = size
            time.sleep(0.02)
        return last

    def requests(self, since, until=None):
        """Parsed access-log lines between two mark()s (until: now)."""
        until = self.mark() if until is None else until
        out = []
        with open(self.log, "rb") as f:
            f.seek(since)
            for line in f.read(until - since).decode().splitlines():
                m = LOG_LINE.match(line.strip())
                if not m:
                    raise AssertionError(f"unparsable access-log line: {line!r}")
                d = m.groupdict()
                d["status"] = int(d["status"])
                d["bytes"] = int(d["bytes"])
                d["span"] = parse_range(d["range"])
                out.append(d)
        return out


def parse_range(header):
    """(first, last) byte of a single 'bytes=a-b' Range header, None when there is none."""
    m = re.fullmatch(r"bytes=(\d+)-(\d*)", header or "")
    if not m:
        return None
    return int(m.group(1)), (int(m.group(2)) if m.group(2) else None)


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
