#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: installs every dependency, builds rumi, builds and
# installs the Debian package (the GDAL plugin in GDAL's plugin folder, `rumi` in /usr/bin;
# `apt remove gdal-plugin-rumi` undoes it), then converts a real Landsat 7 scene (shipped in Debian's r-cran-stars package)
# to rumi and reads it back with `rumi info`, `gdalinfo` and `gdal_translate -of COG`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cargo build --release
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

work=${RUMI_DEMO_DIR:-build/demo}
mkdir -p "$work"
if [ ! -f "$work/L7_ETMs.tif" ]; then
  (cd "$work" && apt-get download r-cran-stars >/dev/null && dpkg-deb -x r-cran-stars_*.deb stars \
    && cp stars/usr/lib/R/site-library/stars/tif/L7_ETMs.tif . && rm -rf stars r-cran-stars_*.deb)
fi
# The scene's acquisition date is not recorded in the file: label it with the ETM+ mission
# interval it belongs to (before the 2003-05-31 scan-line-corrector failure).
./target/release/rumi convert "$work/L7_ETMs.tif" "$work/L7_ETMs.rumi" --interval 1999-04-15/2003-05-31 \
  --band-text "B1, Blue, 485nm" --band-text "B2, Green, 560nm" --band-text "B3, Red, 660nm" \
  --band-text "B4, NIR, 835nm" --band-text "B5, SWIR1, 1650nm" --band-text "B7, SWIR2, 2220nm"
./target/release/rumi info "$work/L7_ETMs.rumi"
./target/release/rumi validate "$work/L7_ETMs.rumi" --header "$work/L7_ETMs.rumi.header"

# The Debian package puts gdal_RUMI.so into GDAL's default plugin folder (GDAL_DRIVER_PATH, when
# set, replaces that folder: unset here so that the installed plugin is the one GDAL loads)
RUMI_SKIP_BUILD=1 RUMI_DEB_ARCHS=$(dpkg --print-architecture) scripts/build-deb.sh   # this machine's package only
$SUDO apt-get install -y -q ./dist/gdal-plugin-rumi_*_"$(dpkg --print-architecture)".deb >/dev/null
unset GDAL_DRIVER_PATH
gdalinfo -checksum "$work/L7_ETMs.rumi"
gdal_translate -q -of COG "$work/L7_ETMs.rumi" "$work/L7_ETMs_cog.tif"
gdalinfo -checksum "$work/L7_ETMs_cog.tif" | grep -E "Driver|Checksum"
ls -l "$work/L7_ETMs.tif" "$work/L7_ETMs.rumi" "$work/L7_ETMs.rumi.header" "$work/L7_ETMs_cog.tif"
