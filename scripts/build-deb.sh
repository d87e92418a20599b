#!/usr/bin/env bash
# Builds the Debian packages of rumi for the system GDAL: dist/gdal-plugin-rumi_<version>-1_<arch>.deb
# with gdal_RUMI.so in GDAL's plugin folder (/usr/lib/<multiarch>/gdalplugins, where GDAL looks
# when GDAL_DRIVER_PATH is unset) and the `rumi` CLI in /usr/bin, both stripped, depending on the
# distribution's libgdal (dpkg-shlibdeps computes Depends from the binaries' libraries). Two
# architectures: this machine's (amd64, from target/release) and arm64, cross-compiled by Debian's
# aarch64-linux-gnu-gcc/g++ against Debian 12's arm64 libgdal32 (its packages unpacked, not
# installed: scripts/lib/aarch64.sh) in target/aarch64-gnu; its Depends come from those packages'
# symbols files; scripts/test-artifacts-aarch64.sh runs it under qemu-user.
#
#   scripts/build-deb.sh              # cargo build --release (incremental), then the packages
#   RUMI_SKIP_BUILD=1 scripts/build-deb.sh   # package target/release as it is (the arm64 build,
#                                            # apart in target/aarch64-gnu, is still brought up to date)
#   RUMI_DEB_ARCHS=amd64 scripts/build-deb.sh   # one architecture only (amd64 | arm64)
#   sudo apt install ./dist/gdal-plugin-rumi_*_amd64.deb   # gdalinfo, QGIS, Debian's rasterio read .rumi
#   sudo apt remove gdal-plugin-rumi                       # GDAL as it was
#
# Needs dpkg-dev (dpkg-shlibdeps, dpkg-architecture) and binutils (strip), and for arm64 rustup's
# aarch64-unknown-linux-gnu target and g++-aarch64-linux-gnu: scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
t0=$(date +%s)
die() { echo "build-deb: error: $*" >&2; exit 1; }

for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture strip; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt install dpkg-dev binutils)"
done
host_arch=$(dpkg-architecture -qDEB_HOST_ARCH)
archs=${RUMI_DEB_ARCHS:-$host_arch arm64}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
[ -n "$version" ] || die "no version in Cargo.toml's [workspace.package]"
name=gdal-plugin-rumi

# package ARCH MULTIARCH PLUGIN CLI STRIP [dpkg-shlibdeps options...]
package() {
  local arch=$1 multiarch=$2 plugin=$3 cli=$4 strip=$5 deb stage root depends gdal_pkg f t1
  t1=$(date +%s)
  shift 5
  for f in "$plugin" "$cli"; do [ -f "$f" ] || die "$f is missing: cargo build --release first"; done
  deb=dist/${name}_${version}-1_${arch}.deb
  stage=$(mktemp -d "${TMPDIR:-/tmp}/rumi-deb.XXXXXX")
  stages+=("$stage")
  root=$stage/root
  install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/$multiarch/gdalplugins" "$root/usr/share/doc/$name"
  install -m 0644 "$plugin" "$root/usr/lib/$multiarch/gdalplugins/gdal_RUMI.so"
  install -m 0755 "$cli" "$root/usr/bin/rumi"
  # Debian policy: shared objects are not executable, debug sections out
  "$strip" --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/lib/$multiarch/gdalplugins/gdal_RUMI.so"
  "$strip" --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/rumi"
  {
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: rumi"
    echo
    echo "Files: *"
    echo "License: GPL-3.0-or-later"
    echo " On Debian systems the full text is in /usr/share/common-licenses/GPL-3."
  } >"$root/usr/share/doc/$name/copyright"

  # Depends from the libraries the two binaries need (libgdal32, libc6, libstdc++6, libgcc-s1)
  mkdir -p "$stage/debian"
  printf 'Source: rumi\n\nPackage: %s\nArchitecture: any\n' "$name" >"$stage/debian/control"
  depends=$(cd "$stage" && DEB_HOST_ARCH=$arch dpkg-shlibdeps "$@" -O "root/usr/lib/$multiarch/gdalplugins/gdal_RUMI.so" root/usr/bin/rumi 2>"$stage/shlibdeps.log" \
    | sed -n 's/^shlibs:Depends=//p') || true
  grep -q libgdal <<<"$depends" || die "dpkg-shlibdeps found no libgdal dependency for $arch: '$depends' $(tail -5 "$stage/shlibdeps.log")"
  gdal_pkg=$(grep -o 'libgdal[0-9]*' <<<"$depends" | head -1)

  cat >"$root/DEBIAN/control" <<EOF
Package: $name
Version: ${version}-1
Architecture: $arch
Maintainer: rumi developers <rumi@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Enhances: gdal-bin, qgis, python3-rasterio
Section: science
Priority: optional
Description: GDAL driver and command-line tool for the rumi raster format
 Reads rumi stateless rasters (.rumi Images and Cubes) in every program
 that uses the distribution's GDAL: gdalinfo, gdal_translate, QGIS,
 Python's osgeo and rasterio. The driver is installed into GDAL's plugin
 folder, so no environment variable is needed. Also installs the rumi
 tool (convert, stack, info, validate) in /usr/bin.
EOF

  mkdir -p dist
  dpkg-deb --root-owner-group -Zxz --build "$root" "$deb.tmp" >/dev/null
  mv "$deb.tmp" "$deb"
  echo "build-deb: $deb: $(du -h "$deb" | cut -f1) ($(stat -c %s "$deb") bytes), depends on $gdal_pkg; packaged in $(( $(date +%s) - t1 ))s"
  echo "  Depends: $depends"
  dpkg-deb --contents "$deb" | awk '{print "  " $3 "\t" $6}'
}

stages=()
trap 'rm -rf "${stages[@]}"' EXIT
for arch in $archs; do
  ta=$(date +%s)
  if [ "$arch" = "$host_arch" ]; then
    if [ "${RUMI_SKIP_BUILD:-0}" != 1 ]; then
      cargo build --release --lib -p rumi-gdal
      cargo build --release -p rumi-cli
    fi
    package "$arch" "$(dpkg-architecture -qDEB_HOST_MULTIARCH)" target/release/libgdal_rumi.so target/release/rumi strip
  elif [ "$arch" = arm64 ]; then
    . scripts/lib/aarch64.sh
    rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu \
      || die "the Rust target aarch64-unknown-linux-gnu is missing (rustup target add aarch64-unknown-linux-gnu; scripts/install-deps.sh)"
    arm64_root || die "the Debian arm64 packages could not be had (scripts/lib/aarch64.sh)"
    cross_gcc_env
    t=$(date +%s)
    lib=$ROOT/usr/lib/aarch64-linux-gnu
    gdal_v=$(sed -n 's/^# *define GDAL_RELEASE_NAME *"\([^"]*\)".*/\1/p' "$ROOT/usr/include/gdal/gdal_version.h")
    out=$repo/target/aarch64-gnu/aarch64-unknown-linux-gnu/release
    # the plugin: Debian's arm64 GDAL headers, linked by path against its libgdal.so.32 (build.rs);
    # the core without object-store, as build-wheels.sh's aarch64 plugins in this folder: only the
    # plugin crate compiles again (the CLI's features give the core a second build, 17 crates)
    RUMI_GDAL_INCLUDE=$ROOT/usr/include/gdal RUMI_GDAL_LIBRARY=$(readlink -f "$lib/libgdal.so.32") \
      CARGO_TARGET_DIR=$repo/target/aarch64-gnu nice cargo build --release --lib -p rumi-gdal --target aarch64-unknown-linux-gnu
    # the CLI: gdal-sys reads GDAL's version, library and header folders from the environment
    # (no pkg-config across architectures); libgdal's own libraries are found by -rpath-link
    GDAL_VERSION=$gdal_v GDAL_LIB_DIR=$lib GDAL_INCLUDE_DIR=$ROOT/usr/include/gdal CARGO_TARGET_DIR=$repo/target/aarch64-gnu \
      nice cargo rustc --release -p rumi-cli --bin rumi --target aarch64-unknown-linux-gnu -- \
      -C link-arg=-Wl,-rpath-link,$lib -C link-arg=-Wl,-rpath-link,$ROOT/lib/aarch64-linux-gnu -C link-arg=-Wl,-rpath-link,$ROOT/usr/lib
    echo "build-deb: arm64 binaries against Debian's arm64 GDAL $gdal_v (target/aarch64-gnu): $(( $(date +%s) - t ))s"
    package arm64 aarch64-linux-gnu "$out/libgdal_rumi.so" "$out/rumi" aarch64-linux-gnu-strip \
      "-S$ROOT" "-l$lib" "-l$ROOT/lib/aarch64-linux-gnu"
  else
    die "RUMI_DEB_ARCHS: '$arch' is neither this machine's architecture ($host_arch) nor arm64"
  fi
  echo "build-deb: $arch: $(( $(date +%s) - ta ))s (build and package)"
done
echo "build-deb: done in $(( $(date +%s) - t0 ))s"
