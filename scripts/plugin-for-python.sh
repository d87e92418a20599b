#!/usr/bin/env bash
# Builds the rumi plugin for the GDAL that a Python's rasterio (or osgeo) loads: a pip-installed
# rasterio wheel (it bundles its own libgdal, rasterio.libs/libgdal-<hash>.so.<n>), Debian's, or
# any other GDAL >= 3.6 whose headers scripts/gdal-headers.sh can get.
#
#   scripts/plugin-for-python.sh PYTHON OUTDIR
#   export "$(scripts/plugin-for-python.sh ~/venv/bin/python ~/rumi-plugin | tail -1)"
#
# It finds the libgdal file PYTHON's rasterio (else osgeo) has loaded and its version, gets the
# headers of that GDAL line (scripts/gdal-headers.sh), compiles the adapter against them and links
# the cdylib against exactly that file (build.rs: RUMI_GDAL_INCLUDE, RUMI_GDAL_LIBRARY), so that
# its DT_NEEDED is the library's soname and the loader reuses the copy the host has loaded. Then
# it checks the plugin (DT_NEEDED, exported symbols, that PYTHON's GDAL registers the RUMI driver)
# and prints, as its last line on stdout, the GDAL_DRIVER_PATH=OUTDIR line to use.
# The build goes to target/other-gdal (cargo's cache; the normal target/release is untouched).
#
# Fails with a message naming the problem when PYTHON has neither rasterio nor osgeo, or when
# there are no headers for its GDAL line. Tests only: RUMI_TEST_DEFINES (build.rs) and
# RUMI_HEADERS_LINE=3.10, which forces another line's headers
# (only to test that GDAL refuses such a plugin, GDAL_CHECK_VERSION: it is then linked without
# -z defs, as the symbols of that line are not all in this library).
set -euo pipefail
usage="usage: scripts/plugin-for-python.sh PYTHON OUTDIR"
py=${1:?$usage}
out=${2:?$usage}
repo=$(cd "$(dirname "$0")/.." && pwd)
t0=$(date +%s)
log() { echo "plugin-for-python: $*" >&2; }
die() { log "error: $*"; exit 1; }

command -v "$py" >/dev/null 2>&1 || die "'$py' is not a Python interpreter"
# What PYTHON loads: "<version>\t<library file>\t<module>", from /proc/self/maps after import.
probe=$(env -u GDAL_DRIVER_PATH "$py" - <<'EOF' 2>&1
import re, sys
try:
    import rasterio
    from rasterio import _base  # noqa: F401  (links libgdal)
    version, host = rasterio.__gdal_version__, f"rasterio {rasterio.__version__}"
except ImportError as e1:
    try:
        from osgeo import gdal
        version, host = gdal.VersionInfo("RELEASE_NAME"), f"osgeo {gdal.__version__}"
    except ImportError as e2:
        print(f"NOGDAL\tneither rasterio ({e1}) nor osgeo ({e2}) can be imported")
        sys.exit(0)
libs = sorted({l.split()[-1] for l in open("/proc/self/maps") if re.search(r"/libgdal(-[0-9a-f]+)?\.so[.0-9]*$", l.strip())})
if len(libs) != 1:
    print(f"NOLIB\t{host} loaded {len(libs)} libgdal files: {libs}")
    sys.exit(0)
print(f"{version}\t{libs[0]}\t{host}")
EOF
) || die "$py failed: $probe"
IFS=$'\t' read -r version lib host <<<"$(tail -1 <<<"$probe")"
case $version in
  NOGDAL) die "$py: $lib: pip install rasterio (or use the Python that has GDAL's osgeo)" ;;
  NOLIB) die "$py: $lib" ;;
  [0-9]*.[0-9]*) ;;
  *) die "$py: could not find its GDAL: $probe" ;;
esac
line=$(cut -d. -f1,2 <<<"$version")
log "$py: $host, GDAL $version in $lib"
if [ "${line%%.*}" -lt 3 ] || { [ "${line%%.*}" -eq 3 ] && [ "${line#*.}" -lt 6 ]; }; then
  die "GDAL $version is older than 3.6, the oldest GDAL the plugin supports"
fi
# The adapter uses GDAL's C++ API, whose std::string arguments must have the same ABI.
if [ "$(nm -D --defined-only "$lib" 2>/dev/null | grep -c 'B5cxx11' || true)" -eq 0 ]; then
  die "$lib exports no C++11-ABI (std::__cxx11) symbols: it was built with another C++ ABI than g++'s default"
fi

hline=${RUMI_HEADERS_LINE:-$line}
allow_undefined=0
[ "$hline" = "$line" ] || allow_undefined=1
t=$(date +%s)
inc=$("$repo/scripts/gdal-headers.sh" "$hline") || die "no headers for GDAL $hline (PYTHON's GDAL is $version)"
fetch_s=$(( $(date +%s) - t ))
log "headers: $inc (${fetch_s}s)"

t=$(date +%s)
target=$repo/target/other-gdal
log "cargo build --release --lib (target dir $target)"
(cd "$repo" && RUMI_GDAL_INCLUDE=$inc RUMI_GDAL_LIBRARY=$lib CARGO_TARGET_DIR=$target \
  RUMI_TEST_ALLOW_UNDEFINED=$allow_undefined \
  nice cargo build --release --lib -p rumi-gdal -q >&2) || die "the build against GDAL $hline failed"
build_s=$(( $(date +%s) - t ))
mkdir -p "$out"
out=$(cd "$out" && pwd)
cp "$target/release/libgdal_rumi.so" "$out/gdal_RUMI.so.tmp"
mv "$out/gdal_RUMI.so.tmp" "$out/gdal_RUMI.so"

# The plugin needs exactly PYTHON's libgdal, and exports only its entry point and the C ABI.
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
needed=$(readelf -d "$out/gdal_RUMI.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
grep -qxF "$soname" <<<"$needed" || die "gdal_RUMI.so does not need $soname (NEEDED: $(echo $needed))"
if grep -v -xF "$soname" <<<"$needed" | grep '^libgdal' >/dev/null; then
  die "gdal_RUMI.so needs another libgdal too: $(echo $needed)"
fi
extra=$(nm -D --defined-only "$out/gdal_RUMI.so" | awk '{print $3}' | grep -v -E '^(GDALRegister_RUMI|rumi_.*)$' || true)
[ -z "$extra" ] || die "gdal_RUMI.so exports more than GDALRegister_RUMI and rumi_*: $(echo $extra | head -c 300)"

# PYTHON's GDAL must now register the driver (GDAL's own message otherwise, e.g. a version mismatch).
check=$(GDAL_DRIVER_PATH=$out "$py" - <<'EOF' 2>&1
import logging, sys
# rasterio logs GDAL's errors (a refused plugin: dlopen's or GDAL_CHECK_VERSION's) at DEBUG
errors = []
class Keep(logging.Handler):
    def emit(self, record):
        if "GDAL signalled an error" in record.getMessage() or record.levelno >= logging.WARNING:
            errors.append(record.getMessage())
logging.getLogger().addHandler(Keep())
logging.getLogger().setLevel(logging.DEBUG)
try:
    import rasterio
    with rasterio.Env() as env:
        ok = "RUMI" in env.drivers()
except ImportError:
    from osgeo import gdal
    gdal.AllRegister()
    ok = gdal.GetDriverByName("RUMI") is not None
print("REGISTERED" if ok else "NOT REGISTERED")
for e in dict.fromkeys(errors):
    print(e)
EOF
) || true
if ! grep -qx REGISTERED <<<"$check"; then
  die "$host's GDAL $version did not register the RUMI driver from $out/gdal_RUMI.so: $check"
fi
log "built $out/gdal_RUMI.so for GDAL $version ($host; NEEDED $soname); headers ${fetch_s}s, build ${build_s}s, total $(( $(date +%s) - t0 ))s"
echo "GDAL_DRIVER_PATH=$out"
