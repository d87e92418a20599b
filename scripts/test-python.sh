#!/usr/bin/env bash
# Builds and tests the Python package (python/): installs nginx and gdal-bin (Debian) and, in a venv
# of the pyenv python3 (3.11), maturin, pytest, numpy, xarray, dask[distributed], ml_dtypes,
# moto[server], tifffile, mypy, rioxarray, odc-geo, hypothesis + rasterio (the differential suite, python/tests/differential) and rumi.build's extra (odc-stac, pystac,
# stac-geoparquet, geopandas, pyarrow, shapely: test_build.py, which makes COGs with
# gdal_translate; with them test_catalog.py runs here too; duckdb: test_catalog_geometry.py's second oracle);
# `pip install ./python` (with its dependencies affine and pyproj);
# runs `mypy --strict` on the package's public API (python/pyproject.toml [tool.mypy]) and
# python/tests with pytest. Prints the duration of each step.
#
#   scripts/test-python.sh              # everything
#   scripts/test-python.sh -k remote    # extra arguments go to pytest
#   RUMI_WHEEL=dist/rumi-...whl scripts/test-python.sh   # installs that wheel instead of building
#                                       # ./python (CI: the x86-64 wheel build-wheels.sh made)
#   RUMI_VENV_ONLY=1 scripts/test-python.sh             # only the venv and its packages (CI makes
#                                       # it in the background while it compiles)
#
# The venv lives in target/py-venv (kept between runs; RUMI_PY_VENV overrides). The real-raster
# tests convert ../shared/data with target/release/rumi (built here when missing) and skip with
# the reason when the folder is absent. RUMI_PY_STRICT=1 (set here) turns a missing server
# (nginx, moto_server) into a failure instead of a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/steps.sh

PY=${RUMI_PYTHON:-python3}
VENV=$(realpath -m "${RUMI_PY_VENV:-target/py-venv}")

[ "${RUMI_VENV_ONLY:-0}" = 1 ] || \
  step "apt: nginx gdal-bin python3-gdal (the differential suite's GDAL oracle)" scripts/apt-install.sh --no-install-recommends nginx gdal-bin python3-gdal
make_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
  fi
  "$VENV/bin/python" -c 'import sys; assert sys.version_info >= (3, 11), sys.version'
  "$VENV/bin/pip" install -q --disable-pip-version-check maturin pytest numpy xarray 'dask[distributed]' \
    ml_dtypes 'moto[server]' tifffile imagecodecs mypy rioxarray odc-geo \
    odc-stac pystac stac-geoparquet geopandas pyarrow shapely hypothesis rasterio netCDF4 duckdb
}
step "venv + pip packages ($("$PY" --version 2>&1))" make_venv
[ "${RUMI_VENV_ONLY:-0}" != 1 ] || exit 0
if [ ! -x target/release/rumi ]; then
  step "cargo build --release -p rumi-cli (converts the real rasters)" cargo build --release -p rumi-cli
fi
if [ -n "${RUMI_WHEEL:-}" ]; then
  install_wheel() { "$VENV/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$RUMI_WHEEL" &&
                    "$VENV/bin/pip" install -q --disable-pip-version-check "$RUMI_WHEEL"; }
  step "pip install $(basename "$RUMI_WHEEL")" install_wheel
else
  step "pip install ./python (maturin, release)" "$VENV/bin/pip" install -q --disable-pip-version-check ./python
fi
run_tests() {
  # run from outside python/ so that the installed package (with its native module) is imported
  (cd python/tests && RUMI_PY_STRICT=1 "$VENV/bin/python" -m pytest -q -ra -p no:cacheprovider \
    --rootdir=. "$@" .)
}
rc=0
# the sources, against the native module's stub (rumi/_rumi.pyi); mypy's cache is kept in the venv
run_mypy() { (cd python && "$VENV/bin/python" -m mypy --cache-dir "$VENV/mypy-cache"); }
step "mypy --strict (public API)" run_mypy || rc=$?
step "pytest python/tests" run_tests "$@" || rc=$?

print_steps "python package timings"
exit $rc
