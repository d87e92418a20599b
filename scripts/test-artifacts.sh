#!/usr/bin/env bash
# Installs the artefacts that scripts/build-wheels.sh and scripts/build-deb.sh put in dist/ as a
# user would, with no compiler on PATH, and uses each of them:
#  - fresh venvs of Python 3.11 and 3.12: `pip install` of the rumi wheel (timed; its dependencies
#    numpy, affine, pyproj from pip's cache or PyPI, binary only), then the rumi-gdal wheel with
#    pip's rasterio 1.4 (GDAL 3.10) on 3.11 and 1.5 (GDAL 3.12) on 3.12, xarray, dask, rioxarray,
#    pyarrow, shapely; tests/artifacts/smoke.py writes, reads, opens with the xarray engine, builds
#    a catalogue, draws a chip batch (torch is borrowed from scripts/test-torch.sh's venvs through
#    a .pth file: 2.5 GB not installed twice) and reads through rasterio + rioxarray after
#    rumi.gdal.register(); the documentation's examples marked env=wheels run as written; and
#    register() with another release of rasterio's GDAL (tests/artifacts/other_release.py);
#  - the errors a user meets: rumi.gdal.register() without rumi-gdal, rumi-gdal in a rasterio of
#    another GDAL line (Debian's python3-rasterio, GDAL 3.6), the wheel on Python 3.10, a CPU
#    without x86-64-v2 (qemu-user's Core 2; and an x86-64-v2 CPU without AVX reads and writes);
#  - the aarch64 wheels and arm64 .deb under qemu-user with Debian's arm64 Python and GDAL:
#    scripts/test-artifacts-aarch64.sh, beside the x86-64 checks below (its output printed when it
#    ends; RUMI_ARTIFACTS_SKIP_AARCH64=1 leaves them out);
#  - the Debian package: `apt-get install ./dist/gdal-plugin-rumi_*_amd64.deb` (timed), then with
#    GDAL_DRIVER_PATH unset: `rumi convert`, `gdalinfo -checksum` and gdal_translate against the
#    GeoTIFF source, Debian's rasterio, QGIS (identify() values); `apt-get remove` leaves GDAL's plugin folder as it was.
# cargo, rustc, cc, gcc, g++, clang and zig are replaced on PATH by stubs that record any call:
# a call fails the run (a version query such as pip's `rustc --version` is counted apart). Prints each artefact's size, install time, first import and first read.
#
#   scripts/build-wheels.sh && scripts/build-deb.sh && scripts/test-artifacts.sh
#   RUMI_ARTIFACTS_SKIP_DEB=1 scripts/test-artifacts.sh    # without root: the wheels only
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
. scripts/lib/pythons.sh
t0=$(date +%s)
stamp() { echo; echo "== $1 ($(( $(date +%s) - t0 ))s)"; }
die() { echo "test-artifacts: error: $*" >&2; exit 1; }
fail=0
bad() { echo "  FAIL: $*" >&2; fail=1; }
figures=()
figure() { figures+=("$(printf '  %-58s %s' "$1" "$2")"); }
secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
rumi_whl=$repo/dist/rumi-$version-cp311-abi3-manylinux_2_28_x86_64.whl
gdal_whl=$(ls "$repo"/dist/rumi_gdal-"$version"-py3-none-*_x86_64.whl 2>/dev/null | head -1 || true)
deb=$repo/dist/gdal-plugin-rumi_${version}-1_$(dpkg --print-architecture).deb
[ -f "$rumi_whl" ] || die "$rumi_whl is missing: run scripts/build-wheels.sh first"
[ -n "$gdal_whl" ] || die "dist/rumi_gdal-$version-*.whl is missing: run scripts/build-wheels.sh first"
skip_deb=${RUMI_ARTIFACTS_SKIP_DEB:-0}
[ "$skip_deb" = 1 ] || [ -f "$deb" ] || die "$deb is missing: run scripts/build-deb.sh first"

# Interpreters and the torch venvs are found before PATH loses the compilers (and pyenv's shims).
py311=$(find_python 3.11) || die "no Python 3.11"
py312=$(find_python 3.12) || die "no Python 3.12"
py310=$(find_python 3.10 || true)
torch311=${RUMI_TORCH_VENV:-$cache/venvs/torch-py3.11}          # scripts/test-torch.sh's venvs
torch312=${RUMI_TORCHGEO_VENV:-$cache/venvs/torchgeo-py3.12}

# qemu-user runs the wheel on emulated CPUs (before PATH changes: apt may need the system's tools)
scripts/apt-install.sh --no-install-recommends qemu-user
work=$(mktemp -d "${TMPDIR:-/tmp}/rumi-artifacts.XXXXXX")
installed_deb=0
aarch64_pid=""
cleanup() {
  # the aarch64 checks running in the background (below) end with this run
  [ -z "$aarch64_pid" ] || { kill "$aarch64_pid" 2>/dev/null; wait "$aarch64_pid" 2>/dev/null; }
  # a run stopped between install and remove leaves GDAL as it found it
  if [ "$installed_deb" = 1 ] && dpkg -s gdal-plugin-rumi >/dev/null 2>&1; then
    ${SUDO:-} apt-get remove -y -q gdal-plugin-rumi >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
shadow=$work/no-compilers
called=$work/compilers-called.log
queried=$work/compilers-queried.log
mkdir -p "$shadow"
: >"$called"; : >"$queried"
# pip asks `rustc --version` for its User-Agent (a query, not a build): queries are recorded apart
for c in cargo rustc rustup cc c++ gcc g++ clang clang++ zig x86_64-linux-gnu-gcc x86_64-linux-gnu-g++ \
         aarch64-linux-gnu-gcc aarch64-linux-gnu-g++; do
  cat >"$shadow/$c" <<EOF
#!/bin/sh
caller=\$(tr '\\000\\n' '  ' </proc/\$PPID/cmdline | cut -c1-200)
case "\$*" in
  --version|-dumpmachine|-v) echo "$c \$* (by: \$caller)" >>"$queried" ;;
  *) echo "$c \$* (by: \$caller)" >>"$called" ;;
esac
exit 127
EOF
  chmod +x "$shadow/$c"
done
PATH=$shadow:$(tr : '\n' <<<"$PATH" | grep -v -e '/\.cargo/bin' -e '/\.pyenv/shims' -e '/venvs/' -e '/py-venv/' | paste -sd:)
export PATH CC=$shadow/cc CXX=$shadow/c++ PIP_ONLY_BINARY=:all: PIP_DISABLE_PIP_VERSION_CHECK=1
unset VIRTUAL_ENV PYTHONPATH GDAL_DRIVER_PATH
[ "$(command -v gcc)" = "$shadow/gcc" ] && [ "$(command -v cargo)" = "$shadow/cargo" ] \
  || die "the compiler stubs are not first on PATH"
echo "compilers off PATH: $(ls "$shadow" | tr '\n' ' ')"

figure "rumi wheel $(basename "$rumi_whl")" "$(( $(stat -c %s "$rumi_whl") / 1000 )) kB"
figure "rumi-gdal wheel $(basename "$gdal_whl")" "$(( $(stat -c %s "$gdal_whl") / 1000 )) kB"

expect_error() { # label, text the output must contain, command...
  local out
  if out=$("${@:3}" 2>&1); then bad "$1: it succeeded: $(tail -3 <<<"$out")"; return; fi
  if grep -qF -- "$2" <<<"$out"; then echo "  ok: $1: $(grep -F -- "$2" <<<"$out" | head -1 | cut -c1-240)"
  else bad "$1: expected '$2' in: $(tail -5 <<<"$out")"; fi
}

for spec in 3.11:1.4:"$py311":"$torch311" 3.12:1.5:"$py312":"$torch312"; do
  IFS=: read -r pyv series py tvenv <<<"$spec"
  stamp "Python $pyv: a fresh venv, the rumi wheel, then rumi-gdal + rasterio $series"
  venv=$work/venv-$pyv
  "$py" -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip >/dev/null 2>&1 || true
  t=$(date +%s.%N)
  "$venv/bin/pip" install -q "$rumi_whl" || { bad "pip install of the rumi wheel (Python $pyv)"; continue; }
  figure "pip install rumi wheel, fresh venv, Python $pyv (deps cached)" "$(secs "$t") s"
  t=$(date +%s.%N)
  "$venv/bin/python" -c 'import rumi' || bad "import rumi (Python $pyv)"
  figure "first python -c 'import rumi' after install, Python $pyv" "$(secs "$t") s"
  expect_error "rumi.gdal.register() without rumi-gdal (Python $pyv)" "pip install rumi-gdal" \
    "$venv/bin/python" -c 'import rumi.gdal; rumi.gdal.register()'
  next=$(( ${series#*.} + 1 ))
  t=$(date +%s.%N)
  "$venv/bin/pip" install -q "$gdal_whl" "rasterio>=$series,<${series%%.*}.$next" || { bad "pip install rumi-gdal + rasterio $series"; continue; }
  figure "pip install rumi-gdal wheel + rasterio $series, Python $pyv" "$(secs "$t") s"
  "$venv/bin/pip" install -q xarray "dask[array]" rioxarray pyarrow shapely || { bad "pip install of the extras"; continue; }
  torch_arg=()
  if [ -x "$tvenv/bin/python" ]; then
    site=$("$tvenv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    own=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    echo "$site" >"$own/zz_borrowed_torch.pth"   # appended after the venv's own packages: its rumi wins
    torch_arg=(--torch)
  elif [ "${RUMI_ARTIFACTS_STRICT:-0}" = 1 ]; then
    bad "no torch venv at $tvenv (scripts/test-torch.sh makes it): the chip batch is not checked"
  else
    echo "  (no torch venv at $tvenv: the chip batch is left out)"
  fi
  mkdir -p "$work/smoke-$pyv"
  if out=$("$venv/bin/python" "$repo/tests/artifacts/smoke.py" "$work/smoke-$pyv" --expect-rasterio "$series" "${torch_arg[@]}" 2>&1); then
    sed 's/^/  /' <<<"$out"
    figure "first import rumi / first read (in smoke.py), Python $pyv" \
      "$(sed -n 's/.*import_ms=\([0-9]*\) first_read_ms=\([0-9.]*\).*/\1 ms \/ \2 ms/p' <<<"$out")"
  else
    sed 's/^/  /' <<<"$out"; bad "smoke.py on Python $pyv"
  fi
  # the documentation's examples for this install (env=wheels: docs/gdal.md), as written
  "$venv/bin/python" scripts/readme_blocks.py wheels || bad "the documentation's wheels examples (Python $pyv)"
  # another rasterio release of the same GDAL line (its libgdal under another name)
  mkdir -p "$work/other-$pyv"
  "$venv/bin/python" tests/artifacts/other_release.py "$work/other-$pyv" | sed 's/^/  /' \
    || bad "register() with another rasterio release (Python $pyv)"
done

aarch64_pid=""
if [ "${RUMI_ARTIFACTS_SKIP_AARCH64:-0}" != 1 ]; then
  # beside the x86-64 checks below (each mostly on one core); its output is printed when it ends.
  # The x86-64 venv of Python 3.11 (rumi, rumi-gdal, rasterio 1.4) writes and reads the files compared
  stamp "the aarch64 artefacts under qemu-user (scripts/test-artifacts-aarch64.sh), in the background"
  aarch64_t=$(date +%s.%N)
  scripts/test-artifacts-aarch64.sh "$work" "$work/venv-3.11/bin/python" >"$work/aarch64.log" 2>&1 &
  aarch64_pid=$!
fi

stamp "errors a user meets"
only=$work/rumi-gdal-only
"$work/venv-3.11/bin/pip" install -q --no-deps --target "$only" "$gdal_whl"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import rasterio' 2>/dev/null; then
  expect_error "rumi-gdal in Debian's rasterio (GDAL $(/usr/bin/python3 -c 'import rasterio; print(rasterio.__gdal_version__)'))" \
    "this rumi-gdal has plugins for GDAL 3.10 (rasterio 1.4.x wheels), GDAL 3.12 (rasterio 1.5.x wheels)" \
    env PYTHONPATH="$only" /usr/bin/python3 -c 'import rumi_gdal; rumi_gdal.register()'
else
  bad "no /usr/bin/python3 with rasterio (python3-rasterio): another GDAL line is not checked"
fi
if [ -n "$py310" ]; then
  "$py310" -m venv "$work/venv-3.10"
  expect_error "the rumi wheel on Python 3.10 (by file)" "is not a supported wheel on this platform" \
    "$work/venv-3.10/bin/pip" install "$rumi_whl"
  # from an index (PyPI), pip reads Requires-Python and says "Requires-Python >=3.11"
  if unzip -p "$rumi_whl" 'rumi-*.dist-info/METADATA' | grep -qx 'Requires-Python: >=3.11'; then
    echo "  ok: the wheel's metadata says Requires-Python: >=3.11 (what pip names from an index)"
  else
    bad "the wheel's METADATA has no 'Requires-Python: >=3.11'"
  fi
else
  echo "  (no Python 3.10: the older-Python message is not checked)"
fi

stamp "CPUs (qemu-user): x86-64-v2 without AVX runs the wheel; an older CPU gets rumi's error"
cpu_check='
import numpy as np, rumi, sys
a = np.arange(3 * 300 * 400, dtype=np.uint16).reshape(3, 300, 400)
try:
    rumi.write("cpu.rumi", a, bands=["a", "b", "c"], times=["2020-01-01"], crs="EPSG:32633", geotransform=(0, 1, 0, 0, 0, -1))
    assert np.array_equal(rumi.open("cpu.rumi").read()[0], a)
    print("write + read ok")
except rumi.UnsupportedError as e:
    print(e)'
# Nehalem: x86-64-v2 and nothing newer (no AVX): the zig-built wheel must use nothing beyond it
out=$(cd "$work" && qemu-x86_64 -cpu Nehalem "$work/venv-3.11/bin/python" -c "$cpu_check" 2>&1 | tail -2)
[ "$out" = "write + read ok" ] && echo "  ok: on an emulated Nehalem (x86-64-v2, no AVX): $out" \
  || bad "on an emulated Nehalem: $out"
# Core 2 (SSSE3, no SSE4.1/4.2/POPCNT): numpy >= 2.4 itself needs x86-64-v2 (it dies of an illegal
# instruction at import there, before rumi), so an older numpy shows rumi's own check
"$py311" -m venv "$work/venv-old-cpu"
"$work/venv-old-cpu/bin/pip" install -q "$rumi_whl" "numpy<2.4" || bad "pip install rumi + numpy<2.4"
out=$(cd "$work" && qemu-x86_64 -cpu core2duo "$work/venv-old-cpu/bin/python" -c "$cpu_check" 2>&1 | tail -2)
grep -q "this CPU lacks sse4.1, sse4.2, popcnt (x86-64-v2)" <<<"$out" && echo "  ok: on an emulated Core 2: $out" \
  || bad "on an emulated Core 2, expected rumi's x86-64-v2 error: $out"

if [ "$skip_deb" != 1 ]; then
  stamp "the Debian package: apt-get install, GDAL tools and Debian's rasterio with no GDAL_DRIVER_PATH, apt-get remove"
  plugdir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)/gdalplugins
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  if dpkg -s gdal-plugin-rumi >/dev/null 2>&1; then
    die "gdal-plugin-rumi is installed already: this test installs and removes it (apt-get remove gdal-plugin-rumi first, or RUMI_ARTIFACTS_SKIP_DEB=1)"
  fi
  if [ -e "$plugdir/gdal_RUMI.so" ] && ! dpkg -S "$plugdir/gdal_RUMI.so" >/dev/null 2>&1; then
    die "$plugdir/gdal_RUMI.so is there already, from no package (a cmake --install): remove it first"
  fi
  before=$(ls -l "$plugdir" 2>/dev/null || true)
  t=$(date +%s.%N)
  installed_deb=1
  $SUDO apt-get install -y -q "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; die "apt-get install $deb failed"; }
  figure "apt-get install ./$(basename "$deb") ($(( $(stat -c %s "$deb") / 1000 )) kB)" "$(secs "$t") s"
  src=${RUMI_DATA_DIR:-$repo/../shared/data}/landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif
  if [ ! -f "$src" ]; then
    src=$work/src.tif
    /usr/bin/python3 -c "
from osgeo import gdal, osr; import numpy as np
d = gdal.GetDriverByName('GTiff').Create('$src', 700, 600, 3, gdal.GDT_UInt16)
d.SetGeoTransform((500000, 30, 0, 4100000, 0, -30)); s = osr.SpatialReference(); s.ImportFromEPSG(32633)
d.SetProjection(s.ExportToWkt())
[d.GetRasterBand(b + 1).WriteArray(np.random.default_rng(b).integers(0, 9000, (600, 700)).astype('uint16')) for b in range(3)]"
  fi
  [ "$(command -v rumi)" = /usr/bin/rumi ] || bad "rumi is not /usr/bin/rumi: $(command -v rumi)"
  (cd "$work" && /usr/bin/rumi convert "$src" deb.rumi --time 2020-05-18 -q) || bad "/usr/bin/rumi convert"
  sums() { gdalinfo -checksum "$1" | grep -o 'Checksum=[0-9]*' | tr '\n' ' '; }
  want=$(sums "$src"); got=$(sums "$work/deb.rumi")
  [ -n "$want" ] && [ "$want" = "$got" ] && echo "  ok: gdalinfo -checksum equal to the GeoTIFF's: $got" \
    || bad "gdalinfo -checksum: rumi '$got' != GeoTIFF '$want'"
  gdalinfo "$work/deb.rumi" | grep -q '^Driver: RUMI/' || bad "gdalinfo does not name the RUMI driver"
  gdal_translate -q -of GTiff "$work/deb.rumi" "$work/back.tif" && [ "$(sums "$work/back.tif")" = "$want" ] \
    && echo "  ok: gdal_translate back to GeoTIFF, same checksums" || bad "gdal_translate to GeoTIFF"
  /usr/bin/python3 - "$src" "$work/deb.rumi" <<'EOF' || bad "Debian's rasterio through the installed plugin"
import sys, numpy as np, rasterio
with rasterio.open(sys.argv[1]) as a, rasterio.open(sys.argv[2]) as b:
    assert b.driver == "RUMI", b.driver
    assert np.array_equal(a.read(), b.read()) and a.crs == b.crs and a.transform == b.transform
print(f"  ok: Debian's rasterio {rasterio.__version__} reads the same pixels, CRS and transform")
EOF
  QT_QPA_PLATFORM=offscreen /usr/bin/python3 - "$src" "$work/deb.rumi" <<'EOF' 2>/dev/null || bad "QGIS through the installed plugin"
import sys
from qgis.core import QgsApplication, QgsPointXY, QgsRaster, QgsRasterLayer
app = QgsApplication([], False); app.initQgis()
a, b = (QgsRasterLayer(p, "x", "gdal") for p in sys.argv[1:])
assert b.isValid() and b.dataProvider().description().startswith("GDAL"), b.error().summary()
assert (b.width(), b.height(), b.bandCount(), b.crs().authid()) == (a.width(), a.height(), a.bandCount(), a.crs().authid())
e = a.extent()
for fx, fy in ((0.1, 0.2), (0.5, 0.5), (0.9, 0.7)):
    pt = QgsPointXY(e.xMinimum() + fx * e.width(), e.yMinimum() + fy * e.height())
    va, vb = (l.dataProvider().identify(pt, QgsRaster.IdentifyFormatValue).results() for l in (a, b))
    assert va == vb, (pt, va, vb)
from qgis.core import Qgis
print(f"  ok: QGIS {Qgis.version()} loads it (size, CRS, identify() values as the GeoTIFF's)")
EOF
  t=$(date +%s.%N)
  $SUDO apt-get remove -y -q gdal-plugin-rumi >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; bad "apt-get remove"; }
  figure "apt-get remove gdal-plugin-rumi" "$(secs "$t") s"
  [ "$(ls -l "$plugdir" 2>/dev/null || true)" = "$before" ] && echo "  ok: GDAL's plugin folder as before" \
    || bad "GDAL's plugin folder differs after removal: $(ls "$plugdir")"
  ! gdalinfo --formats | grep -q RUMI || bad "gdalinfo still lists RUMI after removal"
  [ ! -e /usr/bin/rumi ] || bad "/usr/bin/rumi is still there after removal"
fi

if [ -n "$aarch64_pid" ]; then
  stamp "the aarch64 artefacts under qemu-user (scripts/test-artifacts-aarch64.sh): its output"
  aarch64_rc=0
  wait "$aarch64_pid" || aarch64_rc=$?
  aarch64_pid=""
  cat "$work/aarch64.log"
  [ "$aarch64_rc" = 0 ] || bad "the aarch64 artefacts (above; exit status $aarch64_rc)"
  figure "aarch64 artefacts under emulation (test-artifacts-aarch64.sh)" "$(secs "$aarch64_t") s"
fi

stamp "figures"
if [ -s "$called" ]; then
  bad "compilers were called during the installs:"; sort "$called" | uniq -c | cut -c1-400 >&2
  figure "compiler calls" "$(wc -l <"$called")"
else
  figure "compiler calls" "0"
fi
figure "compiler version queries (pip's User-Agent: rustc --version)" "$(wc -l <"$queried")"
printf '%s\n' "${figures[@]}"
stamp "test-artifacts done (failures: $fail)"
exit $fail
