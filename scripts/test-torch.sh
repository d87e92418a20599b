#!/usr/bin/env bash
# Catalogue + PyTorch loader tests (issue 16): python/tests/test_catalog.py and test_torch.py in
# a venv of the pyenv python3 (3.11) with the package's [torch] extra. Prints step durations.
#
# torch from PyPI is the CUDA build (~5 GB installed with its nvidia-* dependencies; it runs on the
# CPU here, and PyPI has no CPU-only wheel). It is installed once into a venv kept in the cache
# (RUMI_TORCH_VENV, default ~/.cache/rumi/venvs/torch-py3.11) and reused while `import torch`
# works there; pip's own wheel cache is bypassed so the download is not stored twice. The rumi
# package is reinstalled into that venv on every run.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/steps.sh
PY=${RUMI_PYTHON:-python3}
CACHE=${RUMI_CACHE:-$HOME/.cache/rumi}
VENV=$(realpath -m "${RUMI_TORCH_VENV:-$CACHE/venvs/torch-py3.11}")
PIP="$VENV/bin/pip install -q --disable-pip-version-check"

step "apt: nginx gdal-bin" scripts/apt-install.sh --no-install-recommends nginx gdal-bin
make_venv() {
  if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import torch' >/dev/null 2>&1; then return; fi
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
  # the folder of torch wheels earlier runs kept (3 GB): install from it once, then drop it
  local old=$CACHE/wheels
  if [ -d "$old" ] && "$VENV/bin/pip" install -q --disable-pip-version-check --no-cache-dir \
       --no-index --find-links "$old" torch; then :
  else "$VENV/bin/pip" install -q --disable-pip-version-check --no-cache-dir torch; fi
  "$VENV/bin/python" -c 'import torch'
  rm -rf "$old"
}
step "venv with torch ($("$PY" --version 2>&1), $VENV; installed once)" make_venv
step "pip install test packages" $PIP maturin pytest numpy ml_dtypes pyarrow pyproj shapely geopandas tifffile imagecodecs
if [ ! -x target/release/rumi ] || [ ! -f target/release/libgdal_rumi.so ]; then
  build() { cargo build --release -p rumi-cli && cargo build --release --lib; }
  step "cargo build --release (CLI + GDAL plugin)" build
fi
# GTI (GDAL >= 3.9): the rasterio >= 1.5 wheel's GDAL, in a python 3.12 venv (pyenv), when there is one
PY312=${RUMI_PY312:-$(command -v pyenv >/dev/null 2>&1 && pyenv prefix 3.12 2>/dev/null || true)}
if [ -n "$PY312" ] && [ -x "$PY312/bin/python" ]; then
  GTI=$CACHE/venvs/gti-py3.12
  gti_venv() { "$GTI/bin/python" -c 'import rasterio; assert rasterio.__version__ >= "1.5"' >/dev/null 2>&1 && return
               rm -rf "$GTI"; "$PY312/bin/python" -m venv "$GTI"
               "$GTI/bin/pip" install -q --disable-pip-version-check 'rasterio>=1.5'; }
  step "python 3.12 venv with rasterio >= 1.5 (GTI)" gti_venv && export RUMI_GTI_PYTHON=$GTI/bin/python
fi
step "pip install ./python[torch] (maturin, release)" $PIP "./python[torch]"
run_tests() {
  (cd python/tests && RUMI_PY_STRICT=1 RUMI_PYTHON="$VENV/bin/python" \
    "$VENV/bin/python" -m pytest -q -ra -p no:cacheprovider --rootdir=. "$@" test_catalog.py test_torch.py test_torch_train.py)
}
rc=0
step "pytest test_catalog.py test_torch.py test_torch_train.py" run_tests "$@" || rc=$?
print_steps "catalogue + torch timings"
exit $rc
