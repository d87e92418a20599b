#!/usr/bin/env bash
# PyTorch loader tests: python/tests/test_torch.py, test_torch_train.py, test_torch_classes.py (class and cloud limits),
# test_torch_rejection.py (the random sampler's rejection cells against brute force),
# test_torch_tiling.py (their native tile-bound sums against the numpy walk),
# test_torch_scale.py (sharded datasets; torchrun with gloo at 4 then 2 ranks: ~45 s of it) and
# test_torch_scales.py (apply_scale), test_scale_acceptance.py (issue 47: real scenes through every reader) in
# a venv of the pyenv python3 (3.11) with the package's [torch] extra (and torchdata),
# test_torchgeo.py in a python 3.12 venv with [torchgeo]. Prints step durations. The catalogue's
# own tests (test_catalog.py, test_catalog_geometry.py) need no torch: scripts/test-python.sh runs
# them, and scripts/test-wheels.sh the GTI ones (test_catalog.py -k gti) in this venv.
#
#   scripts/test-torch.sh                                # everything; extra arguments go to pytest
#   RUMI_WHEEL=dist/rumi-...whl scripts/test-torch.sh   # installs that wheel instead of building
#                                       # ./python (CI: the x86-64 wheel build-wheels.sh made)
#   RUMI_VENV_ONLY=1 scripts/test-torch.sh              # only the venvs and their packages
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

[ "${RUMI_VENV_ONLY:-0}" = 1 ] || \
  step "apt: nginx gdal-bin python3-gdal python3-rasterio" scripts/apt-install.sh --no-install-recommends nginx gdal-bin python3-gdal python3-rasterio
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
step "pip install test packages" $PIP maturin pytest numpy ml_dtypes pyarrow pyproj shapely geopandas tifffile imagecodecs torchdata hypothesis rasterio duckdb \
  rioxarray xarray odc-stac pystac
PY312=${RUMI_PY312:-$(command -v pyenv >/dev/null 2>&1 && pyenv prefix 3.12 2>/dev/null || true)}
TG=$(realpath -m "${RUMI_TORCHGEO_VENV:-$CACHE/venvs/torchgeo-py3.12}")
# rumi.torchgeo: TorchGeo 0.10 needs Python >= 3.12: a second venv (pyenv's 3.12), torch from
# PyPI installed into it once (the CUDA build again, ~5 GB; kept while `import torchgeo` works)
tg_venv() {
  "$TG/bin/python" -c 'import torchgeo; assert torchgeo.__version__.startswith("0.10")' >/dev/null 2>&1 && return
  rm -rf "$TG"; "$PY312/bin/python" -m venv "$TG"
  "$TG/bin/pip" install -q --disable-pip-version-check --no-cache-dir 'torchgeo==0.10.1' torchdata pytest tifffile \
    imagecodecs pyarrow
}
if [ "${RUMI_VENV_ONLY:-0}" = 1 ]; then
  if [ -n "$PY312" ] && [ -x "$PY312/bin/python" ]; then step "python 3.12 venv with torchgeo 0.10 ($TG; installed once)" tg_venv; fi
  exit 0
fi
if [ ! -x target/release/rumi ] || [ ! -f target/release/libgdal_rumi.so ]; then
  build() { cargo build --release -p rumi-cli && cargo build --release --lib; }
  step "cargo build --release (CLI + GDAL plugin)" build
fi
# one abi3 wheel of the package (maturin, release) for both venvs
WHEELS=target/torch-wheel
if [ -n "${RUMI_WHEEL:-}" ]; then
  WHEEL=$RUMI_WHEEL
else
  build_wheel() { rm -rf "$WHEELS"; "$VENV/bin/pip" wheel -q --disable-pip-version-check --no-deps -w "$WHEELS" ./python; }
  step "maturin wheel of ./python (release, abi3)" build_wheel
  WHEEL=$(ls "$WHEELS"/rumi-*.whl)
fi
install_rumi() { "$1/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEEL" &&
                 "$1/bin/pip" install -q --disable-pip-version-check "$WHEEL[$2]"; }
step "pip install rumi[torch] (the wheel)" install_rumi "$VENV" torch
run_tests() {
  (cd python/tests && RUMI_PY_STRICT=1 RUMI_PYTHON="$VENV/bin/python" \
    "$VENV/bin/python" -m pytest -q -ra -p no:cacheprovider --rootdir=. "$@" test_torch.py test_torch_train.py \
    test_torch_scale.py test_stale_files.py test_torch_scales.py test_scale_acceptance.py test_torch_classes.py \
    test_torch_rejection.py test_torch_native_draw.py \
    test_torch_tiling.py test_catalog_decode.py differential/test_diff_torch.py)
}
rc=0
step "pytest test_torch.py test_torch_train.py test_torch_scale.py ..." run_tests "$@" || rc=$?
# the PyTorch examples of README.md and docs/*.md, run as written (python/tests/test_readme.py)
run_readme() { (cd python/tests && RUMI_PY_STRICT=1 "$VENV/bin/python" -m pytest -q -ra -p no:cacheprovider --rootdir=. \
                 test_readme.py -k "torch and not torchgeo"); }
step "docs' PyTorch examples (test_readme.py -k torch)" run_readme || rc=$?
if [ -n "$PY312" ] && [ -x "$PY312/bin/python" ]; then
  step "python 3.12 venv with torchgeo 0.10 ($TG; installed once)" tg_venv
  step "pip install rumi[torchgeo] (the wheel, python 3.12)" install_rumi "$TG" torchgeo
  run_tg() { (cd python/tests && RUMI_PY_STRICT=1 "$TG/bin/python" -m pytest -q -ra -p no:cacheprovider --rootdir=. \
               "$@" test_torchgeo.py); }
  step "pytest test_torchgeo.py (python 3.12)" run_tg "$@" || rc=$?
  run_tg_readme() { (cd python/tests && RUMI_PY_STRICT=1 "$TG/bin/python" -m pytest -q -ra -p no:cacheprovider \
                      --rootdir=. test_readme.py -k torchgeo); }
  step "docs' TorchGeo examples (test_readme.py -k torchgeo, python 3.12)" run_tg_readme || rc=$?
else
  echo "test-torch: no python 3.12 (pyenv) for TorchGeo 0.10: test_torchgeo.py not run" >&2
  [ "${RUMI_PY_STRICT:-1}" = 1 ] && rc=1
fi
print_steps "catalogue + torch timings"
exit $rc
