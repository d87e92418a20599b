#!/usr/bin/env bash
# Builds the Python artefacts into dist/, once, for installing anywhere without a compiler:
#  1. rumi-<v>-cp311-abi3-manylinux_2_28_x86_64.whl: the package and its native module (every
#     CPython >= 3.11), linked by zig against glibc 2.28 (maturin --zig --compatibility
#     manylinux_2_28), stripped, OpenZL compiled for x86-64-v2 (.cargo/config.toml). Checked:
#     `auditwheel show` reports manylinux_2_28, and the 15 MB budget.
#  2. rumi_gdal-<v>-py3-none-manylinux_<glibc>_x86_64.whl: the GDAL plugins for the GDAL inside pip
#     rasterio wheels (3.10 in rasterio 1.4.x, 3.12 in 1.5.x), each built by
#     scripts/plugin-for-python.sh against that wheel's own libgdal, plus rumi_gdal.register()
#     (python/gdal). The tag is the oldest manylinux policy covering the glibc and libstdc++ symbol
#     versions the plugins need (g++ 12 on Debian 12: manylinux_2_34).
#
#   scripts/build-wheels.sh                    # both wheels
#   RUMI_BUILD_WHEELS=rumi scripts/build-wheels.sh   # only one (rumi | gdal)
#
# Tools come from a build venv ($cache/venvs/wheel-build: maturin, ziglang, auditwheel, wheel) and
# the rasterio venvs of scripts/lib/pythons.sh; cargo's target dirs: target/manylinux (the zig
# build, apart from target/release) and target/other-gdal (the plugins). Prints sizes and times.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
. scripts/lib/pythons.sh
t0=$(date +%s)
stamp() { echo "== $1 ($(( $(date +%s) - t0 ))s)"; }
die() { echo "build-wheels: error: $*" >&2; exit 1; }
# auditwheel wraps its report to the terminal's width: read it with its lines joined
auditwheel_show() { "$bv/bin/auditwheel" show "$@" | tr -s ' \n' '  '; }
budget_mb=15
what=${RUMI_BUILD_WHEELS:-rumi gdal}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
mkdir -p dist

bv=$cache/venvs/wheel-build
stamp "build venv ($bv: maturin, ziglang, auditwheel, wheel)"
if ! "$bv/bin/python" -c 'import maturin, ziglang, auditwheel, wheel' >/dev/null 2>&1; then
  rm -rf "$bv"
  "$(find_python 3.11)" -m venv "$bv"
  "$bv/bin/pip" install -q --disable-pip-version-check 'maturin>=1.7,<2' ziglang auditwheel wheel
fi

if [[ " $what " == *" rumi "* ]]; then
  stamp "rumi wheel: maturin build --zig --compatibility manylinux_2_28 (target/manylinux)"
  rm -f dist/rumi-"$version"-*.whl
  t=$(date +%s)
  # maturin finds zig through the build venv's python (python -m ziglang)
  env PATH="$bv/bin:$PATH" VIRTUAL_ENV="$bv" CARGO_TARGET_DIR="$repo/target/manylinux" \
    maturin build --release --strip --zig --compatibility manylinux_2_28 -m python/Cargo.toml --out dist
  whl=$(ls dist/rumi-"$version"-cp311-abi3-manylinux_2_28_x86_64.whl 2>/dev/null) \
    || die "no rumi-$version-cp311-abi3-manylinux_2_28_x86_64.whl in dist/: $(ls dist)"
  show=$(auditwheel_show "$whl")
  grep -q 'consistent with the following platform tag: "manylinux_2_28_x86_64"' <<<"$show" \
    || die "auditwheel show does not report manylinux_2_28 for $whl: $show"
  size=$(stat -c %s "$whl")
  [ "$size" -le $(( budget_mb * 1000 * 1000 )) ] || die "$whl is $size bytes, over the $budget_mb MB budget"
  echo "build-wheels: $whl: $(( size / 1000 )) kB, auditwheel: manylinux_2_28_x86_64; $(( $(date +%s) - t ))s"
fi

if [[ " $what " == *" gdal "* ]]; then
  stage=$(mktemp -d "${TMPDIR:-/tmp}/rumi-gdal-wheel.XXXXXX")
  trap 'rm -rf "$stage"' EXIT
  cp -r python/gdal/rumi_gdal "$stage/"
  find "$stage" -name __pycache__ -prune -exec rm -rf {} +
  libdirs=()
  for spec in 1.4:3.11 1.5:3.12; do
    series=${spec%%:*} pyv=${spec#*:}
    stamp "GDAL plugin for the rasterio $series wheel (Python $pyv): scripts/plugin-for-python.sh"
    rasterio_venv "$series" "$pyv"
    out=build/wheel-plugins/rasterio-$series
    scripts/plugin-for-python.sh "$VENV/bin/python" "$out" >/dev/null
    read -r gdal rasterio_v < <("$VENV/bin/python" -c 'import rasterio; print(rasterio.__gdal_version__, rasterio.__version__)')
    line=$(cut -d. -f1,2 <<<"$gdal")
    needed=$(readelf -d "$out/gdal_RUMI.so" | sed -n 's/.*(NEEDED).*\[\(libgdal.*\)\]/\1/p')
    dest=$stage/rumi_gdal/plugins/gdal-$line
    mkdir -p "$dest"
    strip --strip-unneeded --remove-section=.comment -o "$dest/gdal_RUMI.so" "$out/gdal_RUMI.so"
    printf '{"gdal": "%s", "rasterio": "%s", "needed": "%s"}\n' "$gdal" "$rasterio_v" "$needed" >"$dest/plugin.json"
    libdirs+=("$(dirname "$(readlink -f "$("$VENV/bin/python" -c 'import rasterio, pathlib; print(next(pathlib.Path(rasterio.__file__).parent.parent.joinpath("rasterio.libs").glob("libgdal*")))')")")")
    echo "  GDAL $gdal (rasterio $rasterio_v): needs $needed"
  done
  # the platform tag: the oldest manylinux policy (auditwheel's own table) whose glibc and libstdc++
  # symbol versions cover those the plugins need (their libgdal comes from rasterio, not the system)
  tag=$(for so in "$stage"/rumi_gdal/plugins/*/gdal_RUMI.so; do readelf -V "$so"; done \
    | grep -o '\(GLIBC\|GLIBCXX\|CXXABI\)_[0-9.]*[0-9]' | sort -u | "$bv/bin/python" -c '
import json, sys, pathlib, auditwheel
need = {}
for line in sys.stdin.read().split():
    lib, v = line.split("_", 1)
    need.setdefault(lib, set()).add(v)
policies = json.loads((pathlib.Path(auditwheel.__file__).parent / "policy" / "manylinux-policy.json").read_text())
for pol in sorted((p for p in policies if p["name"].startswith("manylinux_")), key=lambda p: -p["priority"]):
    have = pol["symbol_versions"]["x86_64"]
    if all(v in have.get(lib, []) for lib, vs in need.items() for v in vs):
        print("py3-none-" + pol["name"] + "_x86_64"); break
else:
    sys.exit(f"no manylinux policy covers {need}")')
  info=$stage/rumi_gdal-$version.dist-info
  mkdir -p "$info"
  cat >"$info/METADATA" <<EOF
Metadata-Version: 2.1
Name: rumi-gdal
Version: $version
Summary: The rumi GDAL driver for the GDAL inside pip-installed rasterio wheels (rumi.gdal.register())
License: GPL-3.0-or-later
Requires-Python: >=3.11
Requires-Dist: rasterio>=1.4

rumi_gdal.register() loads the plugin built for the GDAL line of the installed rasterio
(GDAL 3.10 in rasterio 1.4.x wheels, 3.12 in 1.5.x) and puts it on GDAL_DRIVER_PATH.
EOF
  printf 'Wheel-Version: 1.0\nGenerator: rumi scripts/build-wheels.sh\nRoot-Is-Purelib: false\nTag: %s\n' "$tag" >"$info/WHEEL"
  rm -f dist/rumi_gdal-"$version"-*.whl
  "$bv/bin/python" -m wheel pack --dest-dir dist "$stage" >/dev/null
  whl=dist/rumi_gdal-$version-$tag.whl
  [ -f "$whl" ] || die "wheel pack made no $whl: $(ls dist)"
  # auditwheel's own reading of the plugins (their libgdal resolved from the rasterio wheels)
  LD_LIBRARY_PATH=$(IFS=:; echo "${libdirs[*]}") auditwheel_show "$whl" | cut -c1-400
  echo
  echo "build-wheels: $whl: $(( $(stat -c %s "$whl") / 1000 )) kB (GDAL lines: $(ls "$stage/rumi_gdal/plugins" | tr '\n' ' '))"
fi
stamp "build-wheels done"
ls -l dist/*.whl
