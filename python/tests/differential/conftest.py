"""Configuration of the differential suite (README.md here): hypothesis profiles, a work folder,
and the GDAL oracle process (Debian's python3 with its rasterio and osgeo, loading this tree's
plugin) that reads rumi files through GDAL.

Profiles: "ci" (the default: a fixed example budget, derandomized, so CI runs the same examples
every time) and "long" (many more examples): `pytest differential --hypothesis-profile=long`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))
import diffkit  # noqa: E402

_COMMON = dict(
    deadline=None,
    database=None,  # nothing written into the tree; derandomize makes runs repeatable anyway
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
settings.register_profile("ci", max_examples=int(os.environ.get("RUMI_DIFF_EXAMPLES", "60")), derandomize=True, **_COMMON)
settings.register_profile("long", max_examples=600, derandomize=False, **_COMMON)
if settings.get_current_profile_name() == "default":  # --hypothesis-profile=... chose one already
    settings.load_profile(os.environ.get("RUMI_HYPOTHESIS_PROFILE", "ci"))

STRICT = os.environ.get("RUMI_PY_STRICT") == "1"


def need(cond: bool, reason: str) -> None:
    if not cond:
        if STRICT:
            pytest.fail(f"required by RUMI_PY_STRICT=1: {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("differential")


@pytest.fixture(scope="session")
def scratch(workdir):
    """A factory of fresh folders: call it once per hypothesis example (examples share fixtures)."""

    def make() -> Path:
        return Path(tempfile.mkdtemp(dir=workdir))

    return make


@pytest.fixture(scope="session")
def cli():
    need(diffkit.CLI.exists(), f"the rumi CLI {diffkit.CLI} is not built (cargo build --release -p rumi-cli)")
    return diffkit.CLI


class GdalOracle:
    """One long-lived Debian python3 running gdal_worker.py: the system GDAL (3.6) with this
    tree's plugin, reading rumi files and GeoTIFFs alike through osgeo (start-up is slow: one
    process serves the whole session)."""

    def __init__(self, plugin_dir: Path):
        env = dict(os.environ, GDAL_DRIVER_PATH=str(plugin_dir), CPL_LOG="/dev/null")
        env.pop("PYTHONPATH", None)
        self.proc = subprocess.Popen(
            [str(diffkit.DEBIAN_PYTHON), str(Path(__file__).parent / "gdal_worker.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
        )
        hello = self.call({"op": "hello"})
        self.versions = hello

    def call(self, req: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the GDAL oracle process exited ({self.proc.poll()}) on {req}")
        return json.loads(line)

    def describe(self, path: Path, out: Path, windows: list | None = None,
                 open_options: list[str] | None = None) -> tuple[dict, dict]:
        """(metadata, arrays) of `path` as GDAL reads it (gdal_worker.py): the samples, GDAL's
        masks, each window (xoff, yoff, xsize, ysize) or its error, checksums and metadata."""
        import numpy as np

        r = self.call({"op": "describe", "path": str(path), "out": str(out), "windows": windows or [],
                       "open_options": open_options or []})
        if "error" in r:
            return r, {}
        with np.load(out) as z:
            arrays = {k: z[k] for k in z.files}
        return r, arrays

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="session")
def gdal_oracle(tmp_path_factory):
    need(diffkit.PLUGIN.exists(), f"the GDAL plugin {diffkit.PLUGIN} is not built (cargo build --release --lib)")
    need(diffkit.DEBIAN_PYTHON.exists(), f"{diffkit.DEBIAN_PYTHON} (Debian's python3 with GDAL) is absent")
    probe = subprocess.run([str(diffkit.DEBIAN_PYTHON), "-c", "import numpy, osgeo.gdal"], capture_output=True, text=True)
    need(probe.returncode == 0, f"{diffkit.DEBIAN_PYTHON} lacks osgeo (apt install python3-gdal): {probe.stderr.strip()[-200:]}")
    plugin_dir = tmp_path_factory.mktemp("plugin")
    shutil.copy2(diffkit.PLUGIN, plugin_dir / "gdal_RUMI.so")
    oracle = GdalOracle(plugin_dir)
    need("RUMI" in oracle.versions.get("drivers", []), f"GDAL did not load the rumi plugin from {plugin_dir}: {oracle.versions}")
    yield oracle
    oracle.close()
