"""pytest configuration of the rumi GDAL autotest suite (run with Debian's Python, which has
osgeo: `/usr/bin/python3 -m pytest tests/gdal_autotest`).

Before osgeo is imported, it builds the plugin, the rumi CLI and the fixture writer (`cargo build
--release --lib --bin rumi --example make_fixture`; set RUMI_SKIP_BUILD=1 to use what target/release holds), copies
target/release/libgdal_rumi.so to a temporary folder as gdal_RUMI.so and points GDAL_DRIVER_PATH
there, so the tests load this tree's driver and no installed one.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import rumi_util  # noqa: E402

_PLUGIN_DIR = None


def pytest_configure(config):
    global _PLUGIN_DIR
    if os.environ.get("RUMI_SKIP_BUILD") != "1":
        subprocess.run(["cargo", "build", "--release", "--lib", "--bin", "rumi", "--example", "make_fixture"],
                       cwd=rumi_util.ROOT, check=True)
    for needed in (rumi_util.PLUGIN, rumi_util.MAKE_FIXTURE):
        if not needed.exists():
            raise pytest.UsageError(f"{needed} is missing: build it with cargo build --release")
    _PLUGIN_DIR = tempfile.mkdtemp(prefix="rumi-gdal-plugin-")
    shutil.copy2(rumi_util.PLUGIN, Path(_PLUGIN_DIR) / "gdal_RUMI.so")
    os.environ["GDAL_DRIVER_PATH"] = _PLUGIN_DIR
    from osgeo import gdal

    gdal.UseExceptions()
    gdal.AllRegister()


def pytest_unconfigure(config):
    if _PLUGIN_DIR:
        shutil.rmtree(_PLUGIN_DIR, ignore_errors=True)


@pytest.fixture(scope="session")
def plugin_dir():
    return _PLUGIN_DIR
