"""The documentation's examples (README.md, docs/*.md) for GDAL's Python clients (rasterio,
rioxarray + dask through the plugin), run as written in Debian's python3 with GDAL_DRIVER_PATH
set by conftest.py; their hidden setup (scripts/readme_blocks.py) converts a GeoTIFF with target/release/rumi."""

import sys
from pathlib import Path

import pytest

import clients_util as cu

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import readme_blocks  # noqa: E402

BLOCKS = [b for b in readme_blocks.blocks() if b.env == "gdal"]


@pytest.mark.skipif(bool(cu.WHEEL_PLUGIN_DIR), reason="the documentation's GDAL examples run with Debian's python3")
@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.name)
def test_readme_gdal_example(block, tmp_path):
    # build/venv: Debian's python3 with its rasterio and osgeo, plus rioxarray and dask (made by
    # scripts/install-client-deps.sh)
    cu.need(cu.VENV_PYTHON.exists(), f"{cu.VENV_PYTHON} (scripts/install-client-deps.sh) is missing")
    r = readme_blocks.run(block, tmp_path, python=str(cu.VENV_PYTHON), env={"RUMI_CLI": str(cu.RUMI)})
    assert r.returncode == 0, f"{block.where} ({block.section}) failed:\n{r.stderr[-4000:]}\n{r.stdout[-2000:]}"
