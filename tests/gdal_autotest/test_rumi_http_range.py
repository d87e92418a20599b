"""A rumi file served over HTTP, by a server without Range support (Python's http.server answers
every GET with 200 and the whole file) and by one with it (the same server answering ranged GETs
with 206, one range or several). A stateless open of a RUMI:"/vsicurl/..." name reads the
georeferencing block at open, one ranged request, so that a server without Range support fails
the open, with an error naming the cause, and gdalinfo exits non-zero as it does for a GeoTIFF
(it once printed no CRS, no geotransform, Checksum=-1, and exited 0); LAZY=YES sends no request
at open, and the failure shows at the first read. Through GDAL's /vsicurl/ and through the rumi
CLI (the core's object store, which the Python package uses too)."""

import os
import re
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
from osgeo import gdal

import rumi_util
from rumi_util import config_option, make_rumi, sample_array

RUMI = rumi_util.TARGET / "release" / "rumi"
CAUSE = "does not support HTTP Range requests"

# http.server with Range support (RANGES=1): "bytes=a-b[,c-d...]" answered with 206 (one part, or
# multipart/byteranges); every request line logged to LOG
SERVER = r'''
import http.server, os, re, sys
RANGES, LOG = os.environ["RANGES"] == "1", os.environ["LOG"]
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):
        with open(LOG, "a") as f:
            f.write(f"{self.command} {self.path} {self.headers.get('Range', '-')}\n")
    def do_GET(self):
        spec = self.headers.get("Range")
        path = self.translate_path(self.path)
        if not RANGES or not spec or not os.path.isfile(path):
            return super().do_GET()
        data = open(path, "rb").read()
        parts = [(int(a), min(int(b), len(data) - 1)) for a, b in re.findall(r"(\d+)-(\d+)", spec)]
        self.send_response(206)
        if len(parts) == 1:
            a, b = parts[0]
            body = data[a:b + 1]
            self.send_header("Content-Range", f"bytes {a}-{b}/{len(data)}")
            self.send_header("Content-Type", "application/octet-stream")
        else:
            body = b"".join(b"--SEP\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes %d-%d/%d\r\n\r\n"
                            % (a, b, len(data)) + data[a:b + 1] + b"\r\n" for a, b in parts) + b"--SEP--\r\n"
            self.send_header("Content-Type", "multipart/byteranges; boundary=SEP")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
'''


def serve(folder, ranges):
    """(process, base URL, log file) of the server over `folder`."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = folder.parent / f"requests-{port}.log"
    env = dict(os.environ, RANGES="1" if ranges else "0", LOG=str(log))
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], cwd=folder, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, f"http://127.0.0.1:{port}", log


@pytest.fixture(params=[False, True], ids=["no_range", "range"])
def server(tmp_path, request):
    """(folder served, base URL, whether the server supports Range, the request log's lines)."""
    folder = tmp_path / "www"
    folder.mkdir()
    proc, base, log = serve(folder, request.param)
    def requests():  # the requests for the file (GDAL also probes the folder and sidecars)
        lines = log.read_text().splitlines() if log.exists() else []
        return [r for r in lines if r.split()[1] == "/f.rumi"]

    with config_option("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR"):
        yield folder, base, request.param, requests
    proc.terminate()
    proc.wait()


@pytest.fixture
def served(server):
    """A server without Range support: (folder, base URL)."""
    folder, base, ranges, _ = server
    if ranges:
        pytest.skip("the server without Range support only")
    return folder, base


def scene(folder):
    """A uint16 file with its blob beside the served folder (a client's catalogue keeps it)."""
    data = sample_array("uint16", 1, 2, 200, 300)
    blob = folder.parent / "f.rumi.header"
    make_rumi(folder / "f.rumi", data, "uint16", tile=(64, 64), header=blob)
    return data, blob


def gdalinfo(*args):
    env = dict(os.environ, GDAL_DISABLE_READDIR_ON_OPEN="EMPTY_DIR")
    return subprocess.run(["gdalinfo", *args], capture_output=True, text=True, env=env)


def test_stateless_open_fails_loudly_without_range_support(server):
    folder, base, ranges, requests = server
    data, blob = scene(folder)
    name = f'RUMI:"/vsicurl/{base}/f.rumi"'
    # the same file read locally is fine
    np.testing.assert_array_equal(gdal.Open(str(folder / "f.rumi")).ReadAsArray(), data[0])
    for args in (["-json"], ["-checksum"]):
        r = gdalinfo(*args, "-oo", f"HEADER={blob}", name)
        if ranges:
            assert r.returncode == 0, r.stderr
            assert "32631" in r.stdout and "band 1" in r.stdout, r.stdout  # CRS, band descriptions
            continue
        assert r.returncode != 0, (r.stdout, r.stderr)  # as for a GeoTIFF, or without RUMI:
        assert CAUSE in r.stderr and f"the server at {base}" in r.stderr, r.stderr
        assert "Checksum=-1" not in r.stdout and "coordinateSystem" not in r.stdout, r.stdout
    if not ranges:
        with pytest.raises(RuntimeError, match=re.escape(CAUSE)):
            gdal.OpenEx(name, open_options=[f"HEADER={blob}"])
        return
    # the open costs one ranged GET (the georeferencing block), which the geotransform needed anyway
    gdal.VSICurlClearCache()
    before = len(requests())
    ds = gdal.OpenEx(name, open_options=[f"HEADER={blob}"])
    opened = requests()[before:]
    assert [r.split()[0] for r in opened] == ["HEAD", "GET"] and opened[1].split()[2] != "-", opened
    assert ds.GetGeoTransform()[1] == 20 and requests()[before:] == opened
    np.testing.assert_array_equal(ds.GetRasterBand(2).ReadAsArray(), data[0, 1])


def test_lazy_open_sends_no_request_and_fails_at_the_first_read(server):
    folder, base, ranges, requests = server
    data, blob = scene(folder)
    gdal.VSICurlClearCache()
    before = len(requests())
    ds = gdal.OpenEx(f'RUMI:"/vsicurl/{base}/f.rumi"', open_options=[f"HEADER={blob}", "LAZY=YES"])
    assert (ds.RasterXSize, ds.RasterYSize) == (300, 200)
    assert [r.split()[0] for r in requests()[before:]] == ["HEAD"], requests()[before:]
    if ranges:
        np.testing.assert_array_equal(ds.ReadAsArray(), data[0])
        return
    with pytest.raises(RuntimeError) as e:
        ds.GetRasterBand(1).ReadAsArray()
    text = str(e.value)
    assert CAUSE in text and f"the server at {base}" in text, text
    assert "status 200, not 206 Partial Content" in text, text


def test_lazy_takes_yes_or_no(served):
    folder, base = served
    _, blob = scene(folder)
    with pytest.raises(RuntimeError, match="LAZY=maybe is not supported: use YES or NO"):
        gdal.OpenEx(f'RUMI:"/vsicurl/{base}/f.rumi"', open_options=[f"HEADER={blob}", "LAZY=maybe"])


def test_cli_names_a_server_without_range_support(served):
    folder, base = served
    make_rumi(folder / "f.rumi", sample_array("uint8", 1, 1, 100, 120), "uint8", tile=(32, 32))
    r = subprocess.run([str(RUMI), "info", f"{base}/f.rumi"], capture_output=True, text=True)
    assert r.returncode != 0
    assert CAUSE in r.stderr and f"the server at {base}" in r.stderr, r.stderr
