"""The README's Python examples run as written (scripts/readme_blocks.py says how they are found
and what hidden setup each may have). Blocks for the package's venv run here; torch and torchgeo
blocks run where those are installed (scripts/test-torch.sh runs this file with -k torch);
the gdal blocks (rasterio through the plugin) run in tests/clients/test_readme_gdal.py."""

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import readme_blocks  # noqa: E402

BLOCKS = readme_blocks.blocks()
NEEDS = {"python": (), "torch": ("torch",), "torchgeo": ("torchgeo",)}


def test_the_readme_has_its_examples():
    envs = [b.env for b in BLOCKS]
    assert envs.count("python") >= 2 and "torch" in envs and "gdal" in envs, envs


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.env in NEEDS], ids=lambda b: b.name)
def test_readme_example(block, tmp_path):
    for module in NEEDS[block.env]:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed here (scripts/test-torch.sh runs the {block.env} examples)")
    r = readme_blocks.run(block, tmp_path, env={"RUMI_TESTS": str(Path(__file__).resolve().parent)})
    assert r.returncode == 0, (
        f"README.md:{block.line} ({block.section}) failed:\n{r.stderr[-4000:]}\n--- stdout ---\n{r.stdout[-2000:]}"
    )
