# Sourced by scripts/test-wheels.sh, scripts/build-wheels.sh and scripts/test-artifacts.sh.
#   find_python X.Y        -> the path of a CPython X.Y (pyenv's, or pythonX.Y on PATH)
#   rasterio_venv SERIES PY -> sets VENV to $cache/venvs/rasterio-SERIES-pyPY, a venv with the PyPI
#                              rasterio SERIES.x wheel, rioxarray, dask[distributed] and pytest
#                              (made once, kept between runs)
cache=${RUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rumi}

find_python() {
  local v=$1 p
  for p in "$(pyenv root 2>/dev/null)"/versions/"$v".*/bin/python"$v" "$HOME"/.pyenv/versions/"$v".*/bin/python"$v" \
           "$(command -v "python$v" || true)"; do
    [ -x "$p" ] && { echo "$p"; return 0; }
  done
  return 1
}

rasterio_venv() {
  local series=$1 pyv=$2 venv=$cache/venvs/rasterio-$1-py$2 py
  VENV=
  local check="import rasterio, rioxarray, dask.distributed, pytest
assert rasterio.__version__.startswith('$series.'), rasterio.__version__"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "$check" >/dev/null 2>&1; then
    py=$(find_python "$pyv") || { echo "Python $pyv not found (pyenv install $pyv)" >&2; return 1; }
    rm -rf "$venv"
    "$py" -m venv "$venv"
    local next=$(( ${series#*.} + 1 ))
    "$venv/bin/python" -m pip install -q --disable-pip-version-check \
      "rasterio>=$series,<${series%%.*}.$next" rioxarray "dask[distributed]" pytest >&2
    "$venv/bin/python" -c "$check"
  fi
  VENV=$venv
}
