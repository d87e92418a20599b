#!/usr/bin/env bash
# Catalogue + PyTorch loader tests (issue 16): python/tests/test_catalog.py and test_torch.py in
# a venv of the pyenv python3 (3.11) with the package's [torch] extra. Prints step durations.
#
# torch from PyPI is the CUDA build (~2.8 GB with its dependencies; it runs on the CPU here):
# the wheels are kept in a local folder (RUMI_WHEELS, default ~/.cache/rumi/wheels), filled by
# `pip download` on the first run, then installed with --no-index from it (~30 s).
# The venv lives in target/torch-venv (RUMI_TORCH_VENV overrides) and is kept between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
declare -a names=() secs=()
step() {
  local name=$1; shift
  local t r=0
  t=$(date +%s)
  echo "== $name ($(( t - t0 ))s)"
  "$@" || r=$?
  names+=("$name"); secs+=($(( $(date +%s) - t )))
  return $r
}
PY=${RUMI_PYTHON:-python3}
VENV=${RUMI_TORCH_VENV:-target/torch-venv}
WHEELS=${RUMI_WHEELS:-$HOME/.cache/rumi/wheels}
PIP="$VENV/bin/pip install -q --disable-pip-version-check"

step "apt: nginx gdal-bin" scripts/apt-install.sh --no-install-recommends nginx gdal-bin
make_venv() { [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"; }
step "venv ($("$PY" --version 2>&1))" make_venv
fill_wheels() {
  mkdir -p "$WHEELS"
  if ! "$VENV/bin/pip" download -q --disable-pip-version-check --no-index --find-links "$WHEELS" -d "$WHEELS" torch >/dev/null 2>&1; then
    "$VENV/bin/pip" download -q --disable-pip-version-check -d "$WHEELS" torch
  fi
}
step "torch wheels in $WHEELS (downloaded once)" fill_wheels
step "pip install torch (from the wheel folder)" $PIP --no-index --find-links "$WHEELS" torch
step "pip install test packages" $PIP maturin pytest numpy ml_dtypes pyarrow pyproj shapely geopandas tifffile
if [ ! -x target/release/rumi ] || [ ! -f target/release/libgdal_rumi.so ]; then
  build() { cargo build --release -p rumi-cli && cargo build --release --lib; }
  step "cargo build --release (CLI + GDAL plugin)" build
fi
# GTI (GDAL >= 3.9): the rasterio >= 1.5 wheel's GDAL, in a python 3.12 venv (pyenv), when there is one
PY312=${RUMI_PY312:-$(command -v pyenv >/dev/null 2>&1 && pyenv prefix 3.12 2>/dev/null || true)}
if [ -n "$PY312" ] && [ -x "$PY312/bin/python" ]; then
  gti_venv() { [ -x target/gti-venv/bin/python ] || "$PY312/bin/python" -m venv target/gti-venv
               target/gti-venv/bin/pip install -q --disable-pip-version-check 'rasterio>=1.5'; }
  step "python 3.12 venv with rasterio >= 1.5 (GTI)" gti_venv && export RUMI_GTI_PYTHON=$PWD/target/gti-venv/bin/python
fi
step "pip install ./python[torch] (maturin, release)" $PIP "./python[torch]"
run_tests() {
  (cd python/tests && RUMI_PY_STRICT=1 RUMI_PYTHON="$(cd ../.. && pwd)/$VENV/bin/python" \
    "../../$VENV/bin/python" -m pytest -q -ra -p no:cacheprovider --rootdir=. "$@" test_catalog.py test_torch.py)
}
rc=0
step "pytest test_catalog.py test_torch.py" run_tests "$@" || rc=$?
echo
echo "== catalogue + torch timings"
for i in "${!names[@]}"; do printf '  %-60s %5ss\n' "${names[$i]}" "${secs[$i]}"; done
printf '  %-60s %5ss\n' "total" "$(( $(date +%s) - t0 ))"
exit $rc
