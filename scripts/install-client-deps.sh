#!/usr/bin/env bash
# Installs what tests/clients needs on a fresh Debian 12 machine (idempotent, quick when done):
#  - Debian packages: QGIS Python bindings (python3-qgis; it depends on qgis-providers, and the
#    'gdal' provider the tests use is in libqgis_core), rasterio linked to the system GDAL (and
#    package rasterio: its rio CLI),
#    nginx-light (object-storage stand-in; the tests start their own instance), python3-venv.
#    --no-install-recommends keeps the QGIS install to what is needed (~2 min on a fresh machine).
#  - build/venv: a venv on /usr/bin/python3 with --system-site-packages (so it sees Debian's
#    osgeo, rasterio and qgis) plus rioxarray and dask[distributed] from PyPI.
#    numpy<2 because Debian's gdal_array/rasterio are built against numpy 1.x;
#    attrs>=23.2 because the affine version pulled by rioxarray needs it.
# Usage: scripts/install-client-deps.sh            (prints the venv's python at the end)
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

had_nginx=$(command -v nginx || true)
scripts/apt-install.sh --no-install-recommends python3-qgis python3-rasterio rasterio python3-pytest python3-numpy \
  python3-gdal gdal-bin nginx-light python3-venv python3-pip curl
# nginx's package starts a system service on :80; the tests run their own instance.
if [ -z "$had_nginx" ] && command -v systemctl >/dev/null 2>&1; then
  $SUDO systemctl disable --now nginx >/dev/null 2>&1 || true
fi

VENV=build/venv
# Pin rasterio to Debian's: otherwise pip pulls a newer rasterio wheel (for rioxarray), and PyPI's
# rasterio wheels bundle their own GDAL, which needs a plugin built for it (scripts/test-wheels.sh
# tests those in their own venvs). With the pin, pip keeps the system rasterio (seen through
# --system-site-packages) and picks a rioxarray for it.
DEB_RASTERIO=$(dpkg-query -W -f='${Version}' python3-rasterio | sed 's/-.*//')
# dask/distributed get a floor so that pip installs current ones into the venv even where Debian's
# 2022 python3-dask is present (pulled in by python3-xarray): they must match the pip xarray/pandas.
REQS=("numpy<2" "attrs>=23.2" "rioxarray" "dask[distributed]>=2024.8" "distributed>=2024.8"
      "rasterio==$DEB_RASTERIO")
if [ ! -x "$VENV/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi
CHECK="import rioxarray, dask, distributed, numpy, attrs, rasterio
assert int(dask.__version__.split('.')[0]) >= 2024 and int(distributed.__version__.split('.')[0]) >= 2024, dask.__version__
assert numpy.__version__.split('.')[0] == '1', numpy.__version__
assert tuple(map(int, attrs.__version__.split('.')[:2])) >= (23, 2), attrs.__version__
assert rasterio.__file__.startswith('/usr/lib/python3/'), 'rasterio is not Debian\'s: ' + rasterio.__file__"
if ! "$VENV/bin/python" -c "$CHECK" >/dev/null 2>&1; then
  echo "pip installing into $VENV: ${REQS[*]}"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${REQS[@]}"
  "$VENV/bin/python" -c "$CHECK"
fi
echo "client deps ready: $VENV/bin/python"
