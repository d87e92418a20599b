#!/usr/bin/env bash
# The GDAL lines beyond Debian 12's 3.6 that CI checks, and the pip-installed rasterio wheels:
#  1. compiles the C++ adapter against the headers of GDAL 3.6 (installed), 3.10 (Debian 13's
#     libgdal-dev) and 3.12 (gdal-src 0.3.0), warnings as errors (scripts/gdal-headers.sh);
#  2. for rasterio 1.4 (wheel with GDAL 3.10, Python 3.11) and 1.5 (GDAL 3.12, Python 3.12): a venv
#     with the PyPI wheel, rioxarray and dask (cached), the plugin built for it by
#     scripts/plugin-for-python.sh, and the client tests that need no GDAL tools
#     (test_rasterio.py, test_rasterio_gdal.py, test_rioxarray_dask.py) run in that venv;
#  3. plugins built for another GDAL: one claiming GDAL 3.9 linked to the 3.10 wheel's library
#     (GDAL_CHECK_VERSION refuses it with GDAL's version message), one compiled against 3.10's
#     headers and linked to the 3.12 wheel's library, and the 1.4 wheel's plugin in the 1.5 wheel
#     (the loader refuses both, naming the missing symbol or library): each is refused without
#     a crash (test_rasterio_gdal.py);
#  4. with the 1.5 wheel's plugin: pixels read through GDAL's GTI driver with a rumi catalogue as
#     the tile index (python/tests/test_catalog.py -k gti, in scripts/test-torch.sh's venv).
#
#   scripts/test-wheels.sh                 # needs target/release/rumi (cargo build --release)
#   RUMI_WHEELS=1.5 scripts/test-wheels.sh # only one of them; extra arguments go to pytest
#
# Cache: ${RUMI_CACHE:-~/.cache/rumi} (headers, venvs); plugins: build/wheel-plugins/.
# Python 3.11 and 3.12 come from pyenv (or python3.11 / python3.12 on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
. scripts/lib/pythons.sh   # find_python, rasterio_venv, $cache
t0=$(date +%s)
stamp() { echo "== $1 ($(( $(date +%s) - t0 ))s)"; }
timings=()
timed() { # label command...
  local t=$(date +%s) rc=0
  "${@:2}" || rc=$?
  timings+=("$(printf '  %-52s %5ss' "$1" "$(( $(date +%s) - t ))")")
  return $rc
}

stamp "compile the adapter against each GDAL line's headers (-fsyntax-only -Werror)"
syntax_check() { # line
  local inc
  inc=$(scripts/gdal-headers.sh "$1")
  for f in src/driver/*.cpp; do
    nice g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -Iinclude -Isrc/driver -I"$inc" "$f"
  done
  echo "  GDAL $1 ($inc): src/driver/*.cpp compile"
}
for line in "$(gdal-config --version | cut -d. -f1,2)" 3.10 3.12; do
  timed "headers + compile, GDAL $line" syntax_check "$line"
done


stamp "plugin-for-python.sh refuses what it cannot build for, naming the problem"
expect_fail() { # label expected-message command...
  local out
  if out=$("${@:3}" 2>&1); then echo "  FAIL: $1: it succeeded: $out" >&2; return 1; fi
  grep -qF "$2" <<<"$out" || { echo "  FAIL: $1: expected '$2' in: $out" >&2; return 1; }
  echo "  ok: $1: $(tail -1 <<<"$out")"
}
bare=$cache/venvs/bare-py3.11
if [ ! -x "$bare/bin/python" ]; then
  "$(find_python 3.11)" -m venv --without-pip "$bare"
fi
rc=0
expect_fail "a Python without rasterio or osgeo" "neither rasterio" \
  scripts/plugin-for-python.sh "$bare/bin/python" "$cache/unused-plugin" || rc=1
expect_fail "not a Python" "is not a Python interpreter" \
  scripts/plugin-for-python.sh /nonexistent/python "$cache/unused-plugin" || rc=1

[ -x target/release/rumi ] || { echo "target/release/rumi is missing: cargo build --release first" >&2; exit 1; }
mkdir -p build/test-artifacts build/wheel-plugins
for spec in ${RUMI_WHEELS:-1.4 1.5}; do
  case $spec in
    1.4) pyv=3.11 ;;
    1.5) pyv=3.12 ;;
    *) echo "RUMI_WHEELS: unknown rasterio series $spec (1.4, 1.5)" >&2; exit 2 ;;
  esac
  stamp "rasterio $spec wheel (Python $pyv)"
  timed "venv rasterio $spec (pip, cached)" rasterio_venv "$spec" "$pyv" || { rc=1; continue; }
  venv=$VENV
  "$venv/bin/python" -c "import rasterio, sys; print(f'  rasterio {rasterio.__version__}, GDAL {rasterio.__gdal_version__}, Python {sys.version.split()[0]}')"
  # (no headers for a GDAL line: the same message as for a wheel of a GDAL it has none for)
  RUMI_HEADERS_LINE=3.8 expect_fail "GDAL headers it cannot get (3.8)" "no headers for GDAL 3.8" \
    scripts/plugin-for-python.sh "$venv/bin/python" "$cache/unused-plugin" || rc=1
  plugin=$repo/build/wheel-plugins/rasterio-$spec
  timed "plugin-for-python.sh (rasterio $spec)" scripts/plugin-for-python.sh "$venv/bin/python" "$plugin" \
    || { rc=1; continue; }
  # Plugins built wrongly on purpose, each refused by plugin-for-python.sh's own check with
  # GDAL's message; the tests then load them into this wheel's rasterio (no crash, no driver)
  refused=()
  refuse() { # folder, expected GDAL message, env assignments...
    local dir=$1 msg=$2 out t=$(date +%s)
    if out=$(env "${@:3}" scripts/plugin-for-python.sh "$venv/bin/python" "$dir" 2>&1); then
      echo "  FAIL: plugin-for-python.sh accepted $dir" >&2; rc=1
    elif ! grep -qF "$msg" <<<"$out"; then
      echo "  FAIL: expected '$msg' from plugin-for-python.sh, got: $out" >&2; rc=1
    else
      echo "  refused as expected: $(grep -F "$msg" <<<"$out" | head -1 | cut -c1-200)"
    fi
    timings+=("$(printf '  %-52s %5ss' "refused plugin $(basename "$dir")" "$(( $(date +%s) - t ))")")
    refused+=("[\"$dir\", \"$msg\"]")
  }
  if [ "$spec" = 1.4 ]; then
    # compiled claiming GDAL 3.9 (as with gdal-src 0.2.0's 3.9.1 source), linked to this 3.10
    refuse "$repo/build/wheel-plugins/rasterio-1.4-claims-3.9" \
      "RUMI was compiled against GDAL 3.9, but the current library version is 3.10" \
      RUMI_TEST_DEFINES="GDAL_VERSION_MAJOR=3 GDAL_VERSION_MINOR=9 GDAL_VERSION_REV=1 GDAL_VERSION_BUILD=0"
  else
    # GDAL 3.10 headers, the 3.12 wheel's library: symbols 3.12 no longer has
    refuse "$repo/build/wheel-plugins/rasterio-1.5-headers-3.10" "undefined symbol: _ZN" RUMI_HEADERS_LINE=3.10
    # the plugin built for the 1.4 wheel (GDAL 3.10): it needs that wheel's libgdal
    if [ -f build/wheel-plugins/rasterio-1.4/gdal_RUMI.so ]; then
      soname=$(readelf -d build/wheel-plugins/rasterio-1.4/gdal_RUMI.so | sed -n 's/.*NEEDED.*\[\(libgdal.*\)\]/\1/p')
      refused+=("[\"$repo/build/wheel-plugins/rasterio-1.4\", \"$soname: cannot open shared object file\"]")
    fi
  fi
  refused_json="[$(IFS=,; echo "${refused[*]}")]"
  junit=build/test-artifacts/wheel-$spec-junit.xml
  t=$(date +%s)
  env RUMI_CLIENTS_PLUGIN_DIR="$plugin" RUMI_CLIENTS_STRICT=1 RUMI_CLIENTS_EXPECT_RASTERIO="$spec" \
    RUMI_CLIENTS_REFUSED_PLUGINS="$refused_json" \
    "$venv/bin/python" -m pytest -ra -p no:cacheprovider --junitxml="$junit" \
    tests/clients/test_rasterio.py tests/clients/test_rasterio_gdal.py tests/clients/test_rioxarray_dask.py "$@" \
    || rc=1
  timings+=("$(printf '  %-52s %5ss' "pytest (rasterio $spec)" "$(( $(date +%s) - t ))")")
  if [ "$spec" = 1.5 ]; then
    # GTI pixel reads (GDAL >= 3.9): the catalogue as a GTI tile index, this wheel's GDAL and the
    # plugin just built, against rumi's own reads; in the catalogue + torch venv of
    # scripts/test-torch.sh (run before this script in scripts/test.sh), nothing built again
    tvenv=$(realpath -m "${RUMI_TORCH_VENV:-$cache/venvs/torch-py3.11}")
    t=$(date +%s)
    if [ -x "$tvenv/bin/python" ] && "$tvenv/bin/python" -c 'import rumi.catalog, pyarrow' >/dev/null 2>&1; then
      (cd python/tests && RUMI_GTI_PYTHON="$venv/bin/python" RUMI_GTI_PLUGIN_DIR="$plugin" \
        "$tvenv/bin/python" -m pytest -q -ra -p no:cacheprovider --rootdir=. test_catalog.py -k gti) || rc=1
    else
      echo "  FAIL: GTI pixel test: no venv with the rumi package at $tvenv (run scripts/test-torch.sh first)" >&2; rc=1
    fi
    timings+=("$(printf '  %-52s %5ss' "GTI pixel reads (test_catalog.py -k gti)" "$(( $(date +%s) - t ))")")
  fi
done

echo
echo "== timings"
printf '%s\n' "${timings[@]}"
stamp "test-wheels done (rc=$rc)"
exit $rc
