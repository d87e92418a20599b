"""A rumi file served by an HTTP server without Range support (Python's http.server answers every
GET with 200 and the whole file): a stateless open with a header blob sends no request, so the
failure shows at the first read, and its error names the cause (the server does not support HTTP
Range requests), through GDAL's /vsicurl/ and through the rumi CLI (the core's object store, which
the Python package uses too)."""

import socket
import subprocess
import sys
import time

import numpy as np
import pytest
from osgeo import gdal

import rumi_util
from rumi_util import make_rumi, sample_array

RUMI = rumi_util.TARGET / "release" / "rumi"
CAUSE = "does not support HTTP Range requests"


@pytest.fixture
def served(tmp_path):
    """(folder, base URL) of Python's http.server over a fresh folder."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    yield tmp_path, f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait()


def test_vsicurl_read_names_a_server_without_range_support(served):
    folder, base = served
    data = sample_array("uint16", 1, 2, 200, 300)
    make_rumi(folder / "f.rumi", data, "uint16", tile=(64, 64), header=folder / "f.rumi.header")
    # the same file read locally is fine
    np.testing.assert_array_equal(gdal.Open(str(folder / "f.rumi")).ReadAsArray(), data[0])
    ds = gdal.OpenEx(f'RUMI:"/vsicurl/{base}/f.rumi"',
                     open_options=[f"HEADER={folder / 'f.rumi.header'}"])  # opens without a request
    assert (ds.RasterXSize, ds.RasterYSize) == (300, 200)
    with pytest.raises(RuntimeError) as e:
        ds.GetRasterBand(1).ReadAsArray()
    text = str(e.value)
    assert CAUSE in text and f"the server at {base}" in text, text
    assert "status 200, not 206 Partial Content" in text, text


def test_cli_names_a_server_without_range_support(served):
    folder, base = served
    make_rumi(folder / "f.rumi", sample_array("uint8", 1, 1, 100, 120), "uint8", tile=(32, 32))
    r = subprocess.run([str(RUMI), "info", f"{base}/f.rumi"], capture_output=True, text=True)
    assert r.returncode != 0
    assert CAUSE in r.stderr and f"the server at {base}" in r.stderr, r.stderr
