"""Fixtures of the rumi Python suite: arrays written with rumi.write, real rasters of the
shared data folder converted with the `rumi` CLI, nginx and moto servers on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("RUMI_DATA_DIR", REPO.parent / "shared" / "data"))
if not DATA.is_dir():
    DATA = Path("/work/shared/data")
CLI = Path(os.environ.get("RUMI_CLI", REPO / "target" / "release" / "rumi"))
STRICT = os.environ.get("RUMI_PY_STRICT") == "1"

# nginx (and free_port) shared with tests/clients: tests/support/nginx_server.py
sys.path.insert(0, str(REPO / "tests" / "support"))
from nginx_server import Nginx, free_port  # noqa: E402,F401


def need(cond, reason):
    if not cond:
        if STRICT:
            pytest.fail(f"required by RUMI_PY_STRICT=1: {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def data_dir():
    if not DATA.is_dir():
        pytest.skip(f"real rasters folder {DATA} is absent (set RUMI_DATA_DIR)")
    return DATA


@pytest.fixture(scope="session")
def cli():
    need(CLI.exists(), f"the rumi CLI {CLI} is not built (cargo build --release -p rumi-cli)")
    return CLI


@pytest.fixture(scope="session")
def converted(tmp_path_factory, data_dir, cli):
    """name -> path of a real GeoTIFF converted with `rumi convert` (a sidecar beside it)."""
    out = tmp_path_factory.mktemp("real")
    cache = {}

    def get(name, *extra):
        key = (name,) + extra
        if key not in cache:
            src = data_dir / name
            if not src.exists():
                pytest.skip(f"{src} is absent")
            dst = out / (Path(name).stem + ("_" + "_".join(e.strip("-") for e in extra) if extra else "") + ".rumi")
            args = [str(cli), "convert", str(src), str(dst), "--time", "2020-05-18", *extra]
            r = subprocess.run(args, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"{' '.join(args)}: {r.stderr}")
            cache[key] = dst
        return cache[key]

    return get


def tiff_pixels(path):
    """(B, Y, X) pixels of a GeoTIFF read by tifffile (no GDAL)."""
    tifffile = pytest.importorskip("tifffile")
    with tifffile.TiffFile(path) as t:
        page = t.pages[0]
        a = page.asarray()
        spp = page.samplesperpixel
        planar = page.planarconfig
    if a.ndim == 2:
        return a[np.newaxis]
    if spp > 1 and int(planar) == 1:  # contiguous: (Y, X, S)
        return np.moveaxis(a, -1, 0)
    return a


def tiff_geotransform(path):
    tifffile = pytest.importorskip("tifffile")
    with tifffile.TiffFile(path) as t:
        tags = t.pages[0].tags
        scale = tags["ModelPixelScaleTag"].value
        tie = tags["ModelTiepointTag"].value
    i, j, _, x, y, _ = tie[:6]
    return (x - i * scale[0], scale[0], 0.0, y + j * scale[1], 0.0, -scale[1])


# ---- servers -------------------------------------------------------------------------------

def wait_port(port, proc, what, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited: {proc.communicate()[0]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start on port {port}")


@pytest.fixture(scope="session")
def nginx(tmp_path_factory):
    need(shutil.which("nginx") or os.path.exists("/usr/sbin/nginx"), "nginx is not installed (scripts/test-python.sh installs it)")
    root = tmp_path_factory.mktemp("www")
    n = Nginx(tmp_path_factory.mktemp("nginx"), root).start()
    yield n
    n.stop()


@pytest.fixture(scope="session")
def moto(tmp_path_factory):
    """moto's standalone S3 server on 127.0.0.1; returns (endpoint, boto3-like put function)."""
    exe = shutil.which("moto_server") or str(Path(sys.executable).parent / "moto_server")
    need(os.path.exists(exe), "moto_server is not installed (pip install 'moto[server]')")
    port = free_port()
    log = open(tmp_path_factory.mktemp("moto") / "moto.log", "w+")
    proc = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=subprocess.STDOUT)
    wait_port(port, proc, "moto_server")
    yield f"http://127.0.0.1:{port}", log
    proc.terminate()
    proc.wait(10)


def pytest_configure(config):
    # no deprecation warning from the package's own code reaches users' logs: one raised by a
    # call rumi makes (attributed to a rumi module) fails the test that made it
    for category in ("DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"):
        config.addinivalue_line("filterwarnings", f"error::{category}:rumi")
