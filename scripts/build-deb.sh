#!/usr/bin/env bash
# Builds the Debian package of rumi for the system GDAL: dist/gdal-plugin-rumi_<version>-1_<arch>.deb
# with gdal_RUMI.so in GDAL's plugin folder (/usr/lib/<multiarch>/gdalplugins, where GDAL looks
# when GDAL_DRIVER_PATH is unset) and the `rumi` CLI in /usr/bin, both stripped, depending on the
# distribution's libgdal (dpkg-shlibdeps computes Depends from the binaries' libraries).
#
#   scripts/build-deb.sh              # cargo build --release (incremental), then the package
#   RUMI_SKIP_BUILD=1 scripts/build-deb.sh   # package target/release as it is
#   sudo apt install ./dist/gdal-plugin-rumi_*.deb    # gdalinfo, QGIS, Debian's rasterio read .rumi
#   sudo apt remove gdal-plugin-rumi                  # GDAL as it was
#
# Needs dpkg-dev (dpkg-shlibdeps, dpkg-architecture) and binutils (strip): scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
t0=$(date +%s)
die() { echo "build-deb: error: $*" >&2; exit 1; }

for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture strip; do
  command -v "$tool" >/dev/null || die "$tool is missing (apt install dpkg-dev binutils)"
done
if [ "${RUMI_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release --lib -p rumi-gdal
  cargo build --release -p rumi-cli
fi
plugin=target/release/libgdal_rumi.so
cli=target/release/rumi
for f in "$plugin" "$cli"; do [ -f "$f" ] || die "$f is missing: cargo build --release first"; done

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
[ -n "$version" ] || die "no version in Cargo.toml's [workspace.package]"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
name=gdal-plugin-rumi
deb=dist/${name}_${version}-1_${arch}.deb

stage=$(mktemp -d "${TMPDIR:-/tmp}/rumi-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/$multiarch/gdalplugins" "$root/usr/share/doc/$name"
install -m 0644 "$plugin" "$root/usr/lib/$multiarch/gdalplugins/gdal_RUMI.so"
install -m 0755 "$cli" "$root/usr/bin/rumi"
# Debian policy: shared objects are not executable, debug sections out
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/lib/$multiarch/gdalplugins/gdal_RUMI.so"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/rumi"
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
depends=$(cd "$stage" && dpkg-shlibdeps -O "root/usr/lib/$multiarch/gdalplugins/gdal_RUMI.so" root/usr/bin/rumi 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')
grep -q libgdal <<<"$depends" || die "dpkg-shlibdeps found no libgdal dependency: '$depends'"
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
echo "build-deb: $deb: $(du -h "$deb" | cut -f1) ($(stat -c %s "$deb") bytes), depends on $gdal_pkg; $(( $(date +%s) - t0 ))s"
dpkg-deb --contents "$deb" | awk '{print "  " $3 "\t" $6}'
