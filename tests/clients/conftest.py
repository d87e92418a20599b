"""pytest configuration of the client suite: real clients (QGIS, rasterio, rioxarray + dask,
the GDAL command-line tools, GDAL's /vsicurl/ against nginx) reading rumi files converted from
the real rasters in shared/data.

Run with Debian's Python, which has osgeo, rasterio and qgis:

    scripts/install-client-deps.sh            # once: apt packages + build/venv
    cargo build --release                     # this suite builds nothing itself
    /usr/bin/python3 -m pytest tests/clients  # or scripts/test-clients.sh

Before osgeo (or anything that loads libgdal) is imported, pytest_configure checks that
target/release/libgdal_rumi.so and target/release/rumi exist, makes a temporary plugin folder
holding gdal_RUMI.so -> libgdal_rumi.so and points GDAL_DRIVER_PATH at it (in os.environ, so the
GDAL tools, dask workers and every other child process load the same plugin).

A pip-installed rasterio (whose wheel bundles its own GDAL): run the rasterio and rioxarray tests
with that venv's python and RUMI_CLIENTS_PLUGIN_DIR = the folder scripts/plugin-for-python.sh
built gdal_RUMI.so into (scripts/test-wheels.sh does):

    RUMI_CLIENTS_PLUGIN_DIR=DIR VENV/bin/python -m pytest tests/clients/test_rasterio.py ...

The rumi CLI (target/release/rumi, linked to the system GDAL) that converts the fixtures then
runs without GDAL_DRIVER_PATH.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import clients_util as cu  # noqa: E402

_PLUGIN_DIR = None


def pytest_configure(config):
    global _PLUGIN_DIR
    if cu.WHEEL_PLUGIN_DIR:
        return configure_wheel()
    missing = [str(p) for p in (cu.PLUGIN, cu.RUMI) if not p.is_file()]
    if missing:
        raise pytest.UsageError(
            f"tests/clients needs {' and '.join(missing)}: build them first with "
            f"`cargo build --release` (this suite builds nothing itself)")
    if "osgeo" in sys.modules:
        raise pytest.UsageError("osgeo was imported before tests/clients/conftest.py could set GDAL_DRIVER_PATH")
    _PLUGIN_DIR = tempfile.mkdtemp(prefix="rumi-clients-plugin-")
    os.symlink(cu.PLUGIN, Path(_PLUGIN_DIR) / "gdal_RUMI.so")
    os.environ["GDAL_DRIVER_PATH"] = _PLUGIN_DIR
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="rumi-clients-xdg-"))
    from osgeo import gdal

    gdal.UseExceptions()
    gdal.AllRegister()
    if gdal.GetDriverByName("RUMI") is None:
        raise pytest.UsageError(f"GDAL did not load the RUMI driver from {_PLUGIN_DIR}/gdal_RUMI.so")
    cu.ARTIFACTS.mkdir(parents=True, exist_ok=True)


def configure_wheel():
    """A rasterio wheel's GDAL: the plugin built for it by scripts/plugin-for-python.sh."""
    global _PLUGIN_DIR
    plugin = Path(cu.WHEEL_PLUGIN_DIR) / "gdal_RUMI.so"
    missing = [str(p) for p in (plugin, cu.RUMI) if not p.is_file()]
    if missing:
        raise pytest.UsageError(f"tests/clients needs {' and '.join(missing)} (RUMI_CLIENTS_PLUGIN_DIR is set: "
                                f"scripts/plugin-for-python.sh {sys.executable} DIR builds the plugin)")
    os.environ["GDAL_DRIVER_PATH"] = cu.WHEEL_PLUGIN_DIR
    import rasterio

    with rasterio.Env() as env:
        if "RUMI" not in env.drivers():
            raise pytest.UsageError(f"rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__}) did not "
                                    f"load the RUMI driver from {plugin}")
    cu.ARTIFACTS.mkdir(parents=True, exist_ok=True)


def pytest_unconfigure(config):
    if _PLUGIN_DIR:
        shutil.rmtree(_PLUGIN_DIR, ignore_errors=True)


def pytest_report_header(config):
    if cu.WHEEL_PLUGIN_DIR:
        import rasterio

        return [f"rumi plugin: {cu.WHEEL_PLUGIN_DIR}/gdal_RUMI.so for rasterio {rasterio.__version__} "
                f"(GDAL {rasterio.__gdal_version__}, {rasterio.__file__})"]
    return [f"rumi plugin: {cu.PLUGIN} via GDAL_DRIVER_PATH={_PLUGIN_DIR}",
            f"real data: {cu.DATA_DIR} ({'present' if cu.DATA_DIR.is_dir() else 'ABSENT: tests skip'})",
            f"strict (missing client fails): {cu.STRICT}"]


@pytest.fixture(scope="session")
def plugin_dir():
    return cu.WHEEL_PLUGIN_DIR or _PLUGIN_DIR


@pytest.fixture(scope="session")
def work_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("rumi-clients")


@pytest.fixture(scope="session")
def real(work_dir):
    """real(key) -> clients_util.Real: the raster SPECS[key] converted with the rumi CLI into the
    session's temp dir (once per session). Skips when the real-data folder is absent."""
    if not cu.DATA_DIR.is_dir():
        pytest.skip(f"real rasters folder {cu.DATA_DIR} is absent (set RUMI_DATA_DIR to use another)")
    done = {}
    out = work_dir / "converted"
    out.mkdir(exist_ok=True)

    def get(key):
        if key not in done:
            for s in cu.SPECS[key][1]:
                if not (cu.DATA_DIR / s).is_file():
                    pytest.skip(f"{cu.DATA_DIR / s} is absent")
            done[key] = cu.convert(key, out)
        return done[key]

    return get
