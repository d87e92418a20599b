"""The documentation's Python examples (README.md and the guides docs/*.md) run as written
(scripts/readme_blocks.py says how they are found and what hidden setup each may have). Blocks
for the package's venv run here; torch and torchgeo blocks run where those are installed
(scripts/test-torch.sh runs this file with -k "torch and not torchgeo" and -k torchgeo); the gdal
blocks (rasterio through the plugin) run in tests/clients/test_readme_gdal.py."""

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import readme_blocks  # noqa: E402

BLOCKS = readme_blocks.blocks()
NEEDS = {"python": (), "torch": ("torch",), "torchgeo": ("torchgeo",)}
# what each page must show at least, by env: README.md one example per host, each guide its own
EXPECTED = {
    "README.md": {"python": 2, "torch": 1, "gdal": 1},
    "docs/python.md": {"python": 2},
    "docs/gdal.md": {"gdal": 2, "wheels": 1},
    "docs/training.md": {"torch": 2, "torchgeo": 1},
    "docs/building.md": {"python": 1},
}


def test_the_readme_has_its_examples():
    for path, wanted in EXPECTED.items():
        envs = [b.env for b in BLOCKS if b.path == path]
        for env, n in wanted.items():
            assert envs.count(env) >= n, f"{path}: {envs.count(env)} {env} examples found, {n} expected ({envs})"
    # every page with Python examples is read (a guide added under docs/ is picked up by itself)
    assert {b.path for b in BLOCKS} >= set(EXPECTED), sorted({b.path for b in BLOCKS})


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.env in NEEDS], ids=lambda b: b.name)
def test_readme_example(block, tmp_path):
    for module in NEEDS[block.env]:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed here (scripts/test-torch.sh runs the {block.env} examples)")
    r = readme_blocks.run(block, tmp_path, env={"RUMI_TESTS": str(Path(__file__).resolve().parent)})
    assert r.returncode == 0, (
        f"{block.where} ({block.section}) failed:\n{r.stderr[-4000:]}\n--- stdout ---\n{r.stdout[-2000:]}"
    )
