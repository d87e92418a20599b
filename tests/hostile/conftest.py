"""pytest configuration of the malformed-file suite (`/usr/bin/python3 -m pytest tests/hostile`,
or scripts/test-hostile.sh).

Before collection it builds the CLI, the plugin and the fixture writer (`cargo build --release
--bin rumi --lib --example make_fixture`; RUMI_SKIP_BUILD=1 uses what target/release holds),
copies the plugin to a temporary folder as gdal_RUMI.so for GDAL_DRIVER_PATH, and generates the
corpus (make_corpus.py) into a temporary folder, whose cases.json the tests are parametrised by.

RUMI_HOSTILE_VALGRIND=1 runs the GDAL cases under valgrind (see test_hostile.py).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "gdal_autotest"))
import rumi_util  # noqa: E402

STATE = {}


def pytest_configure(config):
    if os.environ.get("RUMI_SKIP_BUILD") != "1":
        subprocess.run(["cargo", "build", "--release", "--bin", "rumi", "--lib", "--example", "make_fixture"],
                       cwd=rumi_util.ROOT, check=True)
    work = Path(tempfile.mkdtemp(prefix="rumi-hostile-"))
    plugins = work / "plugins"
    plugins.mkdir()
    shutil.copy2(rumi_util.PLUGIN, plugins / "gdal_RUMI.so")
    corpus = work / "corpus"
    subprocess.run([sys.executable, str(HERE / "make_corpus.py"), str(corpus)], check=True, capture_output=True)
    STATE.update(work=work, plugins=plugins, corpus=corpus, peak={},
                 cases=json.loads((corpus / "cases.json").read_text()))


def pytest_unconfigure(config):
    if STATE.get("work"):
        shutil.rmtree(STATE["work"], ignore_errors=True)


def pytest_terminal_summary(terminalreporter):
    peak = STATE.get("peak") or {}
    if not peak:
        return
    tr = terminalreporter
    tr.section("hostile corpus: peak resident memory")
    tr.write_line(f"{len(STATE['cases'])} cases, {len(peak)} processes measured")
    for what in ("validate", "gdal", "multidim"):
        runs = {k: v for k, v in peak.items() if k[0] == what}
        if runs:
            (w, name, mode), kb = max(runs.items(), key=lambda kv: kv[1])
            tr.write_line(f"{what}: worst {kb / 1024:.1f} MiB ({name}{', ' + mode if mode else ''})")
