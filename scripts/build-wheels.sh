#!/usr/bin/env bash
# Builds the Python artefacts into dist/, once, for installing anywhere without a compiler, for
# x86-64 and aarch64 (cross-compiled here):
#  1. rumi-<v>-cp311-abi3-manylinux_2_28_<arch>.whl: the package and its native module (every
#     CPython >= 3.11), linked by zig against glibc 2.28 (maturin --zig --compatibility
#     manylinux_2_28), stripped, OpenZL compiled for x86-64-v2 or armv8.2-a (.cargo/config.toml;
#     for aarch64 in zig's spelling, -mcpu=generic+v8_2a: every Grace and Graviton 2+ CPU).
#     Checked: `auditwheel show` reports manylinux_2_28_<arch>, and the 15 MB budget.
#  2. rumi_gdal-<v>-py3-none-manylinux_<glibc>_<arch>.whl: the GDAL plugins for the GDAL inside pip
#     rasterio wheels (3.10 in rasterio 1.4.x, 3.12 in 1.5.x) plus rumi_gdal.register()
#     (python/gdal). x86-64: each plugin built by scripts/plugin-for-python.sh against that wheel's
#     own libgdal, as loaded by a venv of it. aarch64: rasterio's manylinux_2_28_aarch64 wheels
#     (pip download --platform, cached in $cache/arm64/wheels) are unpacked and each plugin is
#     cross-compiled by Debian's aarch64-linux-gnu-g++ (libstdc++'s C++11 ABI, as GDAL's C++ API
#     needs) against the headers of its line (scripts/gdal-headers.sh) and linked against its
#     libgdal; scripts/test-artifacts-aarch64.sh loads them under qemu-user. The tag is the oldest
#     manylinux policy covering the glibc and libstdc++ symbol versions the plugins need (g++ 12
#     on Debian 12: manylinux_2_34 on x86-64; the aarch64 table of the same policy file for aarch64).
#
#   scripts/build-wheels.sh                    # both wheels, both architectures
#   RUMI_BUILD_WHEELS=rumi scripts/build-wheels.sh   # only one (rumi | gdal)
#   RUMI_BUILD_ARCHS=x86_64 scripts/build-wheels.sh  # only one architecture (x86_64 | aarch64)
#   RUMI_WHEEL_PLUGINS_BUILT=1 ...   # the x86-64 plugins scripts/test-wheels.sh just built in
#                                    # build/wheel-plugins for the same rasterio venvs are packaged
#                                    # as they are (CI: no second build of each)
#   RUMI_VENV_ONLY=1 scripts/build-wheels.sh          # only the build venv
#
# Tools come from a build venv ($cache/venvs/wheel-build: maturin, ziglang, auditwheel, wheel), the
# rasterio venvs of scripts/lib/pythons.sh and, for aarch64, rustup's aarch64-unknown-linux-gnu
# target and g++-aarch64-linux-gnu (scripts/lib/aarch64.sh; install-deps.sh installs both). Cargo's
# target dirs: target/manylinux and target/aarch64-manylinux (the zig builds, apart from
# target/release), target/other-gdal and target/aarch64-gnu (the plugins). Prints sizes and times.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
. scripts/lib/pythons.sh
. scripts/lib/aarch64.sh
t0=$(date +%s)
stamp() { echo "== $1 ($(( $(date +%s) - t0 ))s)"; }
die() { echo "build-wheels: error: $*" >&2; exit 1; }
# auditwheel wraps its report to the terminal's width: read it with its lines joined
auditwheel_show() { "$bv/bin/auditwheel" show "$@" | tr -s ' \n' '  '; }
budget_mb=15
what=${RUMI_BUILD_WHEELS:-rumi gdal}
archs=${RUMI_BUILD_ARCHS:-x86_64 aarch64}
for a in $archs; do [[ $a == x86_64 || $a == aarch64 ]] || die "RUMI_BUILD_ARCHS: '$a' is not x86_64 or aarch64"; done
if [[ " $archs " == *" aarch64 "* ]]; then
  rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu \
    || die "the Rust target aarch64-unknown-linux-gnu is missing (rustup target add aarch64-unknown-linux-gnu; scripts/install-deps.sh)"
fi
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
mkdir -p dist

bv=$cache/venvs/wheel-build
stamp "build venv ($bv: maturin, ziglang, auditwheel, wheel)"
if ! "$bv/bin/python" -c 'import maturin, ziglang, auditwheel, wheel' >/dev/null 2>&1; then
  rm -rf "$bv"
  "$(find_python 3.11)" -m venv "$bv"
  "$bv/bin/pip" install -q --disable-pip-version-check 'maturin>=1.7,<2' ziglang auditwheel wheel
fi
[ "${RUMI_VENV_ONLY:-0}" != 1 ] || exit 0

rumi_wheel() { # ARCH: x86_64 | aarch64
  local arch=$1 t whl show size
  # the wheel is stripped (--strip): no line tables compiled (the release profile's, for valgrind
  # and perf on target/release; the same code, ~13 % less rustc CPU on the core crate)
  local -a target=() env=(CARGO_TARGET_DIR="$repo/target/manylinux" CARGO_PROFILE_RELEASE_DEBUG=false)
  if [ "$arch" = aarch64 ]; then
    # zig's spelling of .cargo/config.toml's armv8.2-a (maturin's zig wrapper turns -march=armv8.2-a
    # into a bare -mcpu=generic); the environment wins over config.toml's [env]
    target=(--target aarch64-unknown-linux-gnu)
    env=(CARGO_TARGET_DIR="$repo/target/aarch64-manylinux" CARGO_PROFILE_RELEASE_DEBUG=false
         CFLAGS_aarch64_unknown_linux_gnu=-mcpu=generic+v8_2a)
  fi
  stamp "rumi wheel ($arch): maturin build --zig --compatibility manylinux_2_28 (${env[0]#*=$repo/})"
  rm -f dist/rumi-"$version"-cp311-abi3-manylinux_2_28_"$arch".whl
  t=$(date +%s)
  # maturin finds zig through the build venv's python (python -m ziglang)
  env PATH="$bv/bin:$PATH" VIRTUAL_ENV="$bv" "${env[@]}" \
    maturin build --release --strip --zig "${target[@]}" --compatibility manylinux_2_28 -m python/Cargo.toml --out dist
  whl=$(ls dist/rumi-"$version"-cp311-abi3-manylinux_2_28_"$arch".whl 2>/dev/null) \
    || die "no rumi-$version-cp311-abi3-manylinux_2_28_$arch.whl in dist/: $(ls dist)"
  show=$(auditwheel_show "$whl")
  grep -q "consistent with the following platform tag: \"manylinux_2_28_$arch\"" <<<"$show" \
    || die "auditwheel show does not report manylinux_2_28_$arch for $whl: $show"
  size=$(stat -c %s "$whl")
  [ "$size" -le $(( budget_mb * 1000 * 1000 )) ] || die "$whl is $size bytes, over the $budget_mb MB budget"
  echo "build-wheels: $whl: $(( size / 1000 )) kB, auditwheel: manylinux_2_28_$arch; $(( $(date +%s) - t ))s"
}

declare -A arch_s=()   # seconds spent per architecture (printed at the end: CI's budget)
timed() { local arch=$1 t; shift; t=$(date +%s); "$@"; arch_s[$arch]=$(( ${arch_s[$arch]:-0} + $(date +%s) - t )); }
if [[ " $what " == *" rumi "* ]]; then
  for arch in $archs; do timed "$arch" rumi_wheel "$arch"; done
fi

# The aarch64 plugin for one rasterio series: the manylinux_2_28_aarch64 wheel for Python PYV (pip
# download, cached), unpacked; the plugin cross-compiled against its libgdal into OUT/gdal_RUMI.so.
# Sets GDAL_V, RASTERIO_V and LIBDIR (the wheel's rasterio.libs, for auditwheel).
cross_plugin() { # SERIES PYV OUT
  local series=$1 pyv=$2 out=$3 next whl dir lib soname line inc needed extra t
  next=$(( ${series#*.} + 1 ))
  mkdir -p "$arm64_dir/wheels"
  whl=$(ls "$arm64_dir/wheels"/rasterio-"$series".*-cp"${pyv/./}"-cp"${pyv/./}"-manylinux_*_aarch64.whl 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$whl" ]; then
    "$bv/bin/pip" download -q --disable-pip-version-check --no-deps --only-binary=:all: --platform manylinux_2_28_aarch64 \
      --python-version "$pyv" --implementation cp -d "$arm64_dir/wheels" "rasterio>=$series,<${series%%.*}.$next" >&2
    whl=$(ls "$arm64_dir/wheels"/rasterio-"$series".*-cp"${pyv/./}"-cp"${pyv/./}"-manylinux_*_aarch64.whl | sort -V | tail -1)
  fi
  RASTERIO_V=$(basename "$whl" | cut -d- -f2)
  dir=$arm64_dir/rasterio-$RASTERIO_V-py$pyv
  [ -d "$dir/rasterio.libs" ] || { rm -rf "$dir"; unzip -q "$whl" 'rasterio.libs/*' -d "$dir"; }
  lib=$(ls "$dir"/rasterio.libs/libgdal-*.so.* | head -1)
  soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  # auditwheel keeps GDAL's file name in the soname: libgdal-<hash>.so.<SOVERSION>.<x.y.z>
  GDAL_V=$(sed -n 's/^libgdal-[0-9a-f]*\.so\.[0-9]*\.\([0-9]*\.[0-9]*\.[0-9]*\)$/\1/p' <<<"$soname")
  [ -n "$GDAL_V" ] || die "$whl: no GDAL version in its libgdal's soname '$soname'"
  line=$(cut -d. -f1,2 <<<"$GDAL_V")
  inc=$(scripts/gdal-headers.sh "$line") || die "no headers for GDAL $line"
  t=$(date +%s)
  # the plugin alone (the core without object-store, as the x86-64 plugins): with the arm64 CLI's
  # features (`-p rumi-gdal -p rumi-cli`) the core would compile once in this folder, not twice, but
  # aws-lc's initialisation code would be linked into the plugin (4 more imports); that would save
  # 17 crates (about a CPU-minute: the core, quick-xml, rayon, syn...; openzl-sys and the rest are
  # shared already)
  (cross_gcc_env && RUMI_GDAL_INCLUDE=$inc RUMI_GDAL_LIBRARY=$lib CARGO_TARGET_DIR=$repo/target/aarch64-gnu \
    nice cargo build --release --lib -p rumi-gdal --target aarch64-unknown-linux-gnu -q) \
    || die "the aarch64 build against GDAL $GDAL_V (rasterio $RASTERIO_V) failed"
  mkdir -p "$out"
  cp target/aarch64-gnu/aarch64-unknown-linux-gnu/release/libgdal_rumi.so "$out/gdal_RUMI.so"
  # as scripts/plugin-for-python.sh checks: exactly this libgdal, only the plugin's own exports
  needed=$(readelf -d "$out/gdal_RUMI.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  grep -qxF "$soname" <<<"$needed" || die "the aarch64 gdal_RUMI.so does not need $soname (NEEDED: $(echo $needed))"
  ! grep -v -xF "$soname" <<<"$needed" | grep -q '^libgdal' || die "the aarch64 gdal_RUMI.so needs another libgdal too: $(echo $needed)"
  extra=$(nm -D --defined-only "$out/gdal_RUMI.so" | awk '{print $3}' | grep -v -E '^(GDALRegister_RUMI|rumi_.*)$' || true)
  [ -z "$extra" ] || die "the aarch64 gdal_RUMI.so exports more than GDALRegister_RUMI and rumi_*: $(echo $extra | head -c 300)"
  LIBDIR=$dir/rasterio.libs
  echo "  aarch64 plugin for GDAL $GDAL_V (rasterio $RASTERIO_V wheel, $(basename "$whl")): $(( $(date +%s) - t ))s"
}

strip_for() { # ARCH STRIP-ARGS...: the host's strip for x86-64, Debian's cross strip for aarch64
  local arch=$1; shift
  if [ "$arch" = aarch64 ]; then aarch64-linux-gnu-strip "$@"; else strip "$@"; fi
}

gdal_wheel() { # ARCH: x86_64 | aarch64
  local arch=$1 stage spec series pyv out gdal rasterio_v line needed dest tag info whl
  local -a libdirs=()
  stage=$(mktemp -d "${TMPDIR:-/tmp}/rumi-gdal-wheel.XXXXXX")
  stages+=("$stage")
  cp -r python/gdal/rumi_gdal "$stage/"
  find "$stage" -name __pycache__ -prune -exec rm -rf {} +
  for spec in 1.4:3.11 1.5:3.12; do
    series=${spec%%:*} pyv=${spec#*:}
    if [ "$arch" = x86_64 ]; then
      stamp "GDAL plugin ($arch) for the rasterio $series wheel (Python $pyv): scripts/plugin-for-python.sh"
      rasterio_venv "$series" "$pyv"
      out=build/wheel-plugins/rasterio-$series
      if [ "${RUMI_WHEEL_PLUGINS_BUILT:-0}" = 1 ] && [ -f "$out/gdal_RUMI.so" ]; then
        echo "  $out/gdal_RUMI.so: built and checked by scripts/test-wheels.sh in this run (RUMI_WHEEL_PLUGINS_BUILT=1)"
      else
        scripts/plugin-for-python.sh "$VENV/bin/python" "$out" >/dev/null
      fi
      read -r gdal rasterio_v < <("$VENV/bin/python" -c 'import rasterio; print(rasterio.__gdal_version__, rasterio.__version__)')
      libdirs+=("$(dirname "$(readlink -f "$("$VENV/bin/python" -c 'import rasterio, pathlib; print(next(pathlib.Path(rasterio.__file__).parent.parent.joinpath("rasterio.libs").glob("libgdal*")))')")")")
    else
      stamp "GDAL plugin ($arch) for the rasterio $series aarch64 wheel (Python $pyv): cross-compiled (target/aarch64-gnu)"
      out=build/wheel-plugins/aarch64-rasterio-$series
      cross_plugin "$series" "$pyv" "$out"
      gdal=$GDAL_V rasterio_v=$RASTERIO_V
      libdirs+=("$LIBDIR")
    fi
    line=$(cut -d. -f1,2 <<<"$gdal")
    needed=$(readelf -d "$out/gdal_RUMI.so" | sed -n 's/.*(NEEDED).*\[\(libgdal.*\)\]/\1/p')
    dest=$stage/rumi_gdal/plugins/gdal-$line
    mkdir -p "$dest"
    strip_for "$arch" --strip-unneeded --remove-section=.comment -o "$dest/gdal_RUMI.so" "$out/gdal_RUMI.so"
    printf '{"gdal": "%s", "rasterio": "%s", "needed": "%s"}\n' "$gdal" "$rasterio_v" "$needed" >"$dest/plugin.json"
    echo "  GDAL $gdal (rasterio $rasterio_v): needs $needed"
  done
  # the platform tag: the oldest manylinux policy (auditwheel's own table, for this architecture)
  # whose glibc and libstdc++ symbol versions cover those the plugins need (their libgdal comes from
  # rasterio, not the system)
  tag=$(for so in "$stage"/rumi_gdal/plugins/*/gdal_RUMI.so; do readelf -V "$so"; done \
    | grep -o '\(GLIBC\|GLIBCXX\|CXXABI\)_[0-9.]*[0-9]' | sort -u | "$bv/bin/python" -c '
import json, sys, pathlib, auditwheel
arch = sys.argv[1]
need = {}
for line in sys.stdin.read().split():
    lib, v = line.split("_", 1)
    need.setdefault(lib, set()).add(v)
policies = json.loads((pathlib.Path(auditwheel.__file__).parent / "policy" / "manylinux-policy.json").read_text())
for pol in sorted((p for p in policies if p["name"].startswith("manylinux_")), key=lambda p: -p["priority"]):
    have = pol["symbol_versions"].get(arch, {})
    if have and all(v in have.get(lib, []) for lib, vs in need.items() for v in vs):
        print("py3-none-" + pol["name"] + "_" + arch); break
else:
    sys.exit(f"no manylinux policy covers {need}")' "$arch")
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
  rm -f dist/rumi_gdal-"$version"-*_"$arch".whl
  "$bv/bin/python" -m wheel pack --dest-dir dist "$stage" >/dev/null
  whl=dist/rumi_gdal-$version-$tag.whl
  [ -f "$whl" ] || die "wheel pack made no $whl: $(ls dist)"
  # auditwheel's own reading of the plugins (their libgdal resolved from the rasterio wheels)
  LD_LIBRARY_PATH=$(IFS=:; echo "${libdirs[*]}") auditwheel_show "$whl" | cut -c1-400
  echo
  echo "build-wheels: $whl: $(( $(stat -c %s "$whl") / 1000 )) kB (GDAL lines: $(ls "$stage/rumi_gdal/plugins" | tr '\n' ' '))"
}

if [[ " $what " == *" gdal "* ]]; then
  stages=()
  trap 'rm -rf "${stages[@]}"' EXIT
  for arch in $archs; do timed "$arch" gdal_wheel "$arch"; done
fi
stamp "build-wheels done ($(for a in $archs; do printf '%s %ss, ' "$a" "${arch_s[$a]:-0}"; done | sed 's/, $//'))"
ls -l dist/*.whl
