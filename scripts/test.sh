#!/usr/bin/env bash
# Runs every check CI runs: formatting, lints, the Rust test suites, the release build of the
# GDAL plugin and the GDAL autotest-style pytest suite against it, the malformed-file corpus
# (also under valgrind), the real clients, the plugin for other GDAL lines and pip rasterio wheels,
# and the installable artefacts (portable wheels, Debian package) installed with no compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
scripts/install-deps.sh
# each step prints the time so far and the disk space left (a full disk has failed CI before)
step() { echo; echo "== $1 ($(( $(date +%s) - t0 ))s, $(df -h --output=avail . | tail -1 | tr -d ' ') free)"; }
step "cargo fmt --check"
cargo fmt --check
step "cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
step "cargo test (the whole workspace)"
cargo test --release --workspace
step "core crate without GDAL (scripts/test-core-without-gdal.sh)"
scripts/test-core-without-gdal.sh
if [ -d tests/gdal_autotest ] && ls tests/gdal_autotest/test_*.py >/dev/null 2>&1; then
  step "pytest tests/gdal_autotest (GDAL $(gdal-config --version))"
  cargo build --release
  /usr/bin/python3 -m pytest -q tests/gdal_autotest
fi
step "malformed-file corpus through rumi validate and gdalinfo (tests/hostile)"
scripts/test-hostile.sh
if [ "${RUMI_SKIP_VALGRIND:-0}" != 1 ]; then
  # every gdalinfo case of the corpus under valgrind, one process per core: any memory error
  # fails (about 12 min on one core)
  step "malformed-file corpus under valgrind (RUMI_SKIP_VALGRIND=1 skips it)"
  RUMI_HOSTILE_VALGRIND_SUBSET=all scripts/test-hostile.sh --valgrind
fi
step "Python package: pip install ./python, pytest python/tests (scripts/test-python.sh)"
scripts/test-python.sh
step "CLI with object storage: moto S3 server, faults, failed uploads (scripts/test-object-storage.sh)"
scripts/test-object-storage.sh
step "Catalogue + PyTorch loader: pytest test_catalog.py test_torch.py (scripts/test-torch.sh)"
scripts/test-torch.sh
step "real clients: QGIS, rasterio, rioxarray + dask, GDAL tools, /vsicurl/ via nginx"
RUMI_SKIP_BUILD=1 scripts/test-clients.sh
step "GDAL 3.10 and 3.12 headers, pip rasterio 1.4 / 1.5 wheels (scripts/test-wheels.sh)"
scripts/test-wheels.sh
step "artefacts: the portable wheels and the Debian package (scripts/build-wheels.sh, scripts/build-deb.sh)"
scripts/build-wheels.sh
RUMI_SKIP_BUILD=1 scripts/build-deb.sh
step "the artefacts installed and used with no compiler on PATH (scripts/test-artifacts.sh)"
RUMI_ARTIFACTS_STRICT=1 scripts/test-artifacts.sh
step "all tests passed"
