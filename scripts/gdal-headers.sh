#!/usr/bin/env bash
# Gets the C/C++ headers of a GDAL release line without installing that GDAL, so that the plugin
# can be compiled for it, and prints the include directory (one line on stdout; progress and
# timings go to stderr). Cached under ${RUMI_CACHE:-~/.cache/rumi}/gdal-headers/<line>.
#
#   scripts/gdal-headers.sh 3.10    # Debian 13's libgdal-dev 3.10.x, downloaded with apt-get
#                                   # from Debian's archive and unpacked (dpkg-deb -x), not installed
#   scripts/gdal-headers.sh 3.12    # the GDAL 3.12.1 source in the gdal-src 0.3.0 crate (cargo
#                                   # fetch); a minimal cmake configure generates cpl_config.h
#   scripts/gdal-headers.sh 3.6     # the installed GDAL's headers when gdal-config says 3.6
#
# Any line: when the installed GDAL (gdal-config, or $GDAL_CONFIG) is of that line, its headers.
# GDAL plugins are checked by major.minor at registration (GDAL_CHECK_VERSION), so headers of any
# patch release of a line serve every release of that line. Not gdal-src 0.2.0: it is labelled
# 3.10.2 but holds GDAL 3.9.1.
set -euo pipefail
line=${1:?usage: scripts/gdal-headers.sh MAJOR.MINOR (3.10, 3.12, or the installed GDAL line)}
[[ $line =~ ^[0-9]+\.[0-9]+$ ]] || { echo "gdal-headers: '$line' is not MAJOR.MINOR" >&2; exit 2; }
cache=${RUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rumi}
dest=$cache/gdal-headers/$line
log() { echo "gdal-headers: $*" >&2; }

# the version the headers in $1 declare, as MAJOR.MINOR.REV
header_version() {
  sed -n 's/^# *define GDAL_RELEASE_NAME *"\([^"]*\)".*/\1/p' "$1/gdal_version.h" | head -1
}
check_line() { # $1 = include dir
  local v; v=$(header_version "$1")
  if [ "${v%.*}" != "$line" ]; then
    log "headers in $1 are GDAL $v, not $line"; exit 1
  fi
}

cfg=${GDAL_CONFIG:-gdal-config}
if command -v "$cfg" >/dev/null 2>&1; then
  installed=$("$cfg" --version)
  if [ "${installed%.*}" = "$line" ]; then
    for flag in $("$cfg" --cflags); do
      case $flag in -I*) dir=${flag#-I}; [ -f "$dir/gdal_version.h" ] && { echo "$dir"; exit 0; } ;; esac
    done
  fi
fi

if [ -f "$dest/.complete" ]; then
  check_line "$dest/include"
  echo "$dest/include"
  exit 0
fi

t0=$(date +%s)
rm -rf "$dest"
mkdir -p "$dest"
case $line in
  3.10)
    # Debian 13 (trixie): libgdal-dev 3.10.x. A private apt state (lists, cache) in the cache
    # dir, so the system's apt sources and GDAL are untouched.
    apt_dir=$cache/apt-trixie
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/etc"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
      > "$apt_dir/etc/sources.list"
    apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir" -o "Dir::Cache::archives=$apt_dir/archives"
              -o APT::Architecture=amd64 -o Debug::NoLocking=1 -o APT::Sandbox::User=root -qq)
    deb=$(ls "$apt_dir"/libgdal-dev_3.10.*_amd64.deb 2>/dev/null | tail -1 || true)
    if [ -z "$deb" ]; then
      log "downloading Debian 13's libgdal-dev (apt-get download, not installed)"
      apt-get "${apt_opts[@]}" update >&2
      ver=$(apt-cache "${apt_opts[@]}" show libgdal-dev 2>/dev/null | sed -n 's/^Version: //p' | head -1)
      case $ver in 3.10.*) ;; *) log "Debian 13's libgdal-dev is '$ver', not 3.10.x"; exit 1 ;; esac
      (cd "$apt_dir" && apt-get "${apt_opts[@]}" download "libgdal-dev=$ver" >&2)
      deb=$(ls "$apt_dir"/libgdal-dev_3.10.*_amd64.deb | tail -1)
    fi
    tmp=$(mktemp -d)
    dpkg-deb -x "$deb" "$tmp"
    mv "$tmp/usr/include/gdal" "$dest/include"
    rm -rf "$tmp"
    ;;
  3.12)
    # The crate's .crate archive is fetched by cargo into its registry cache; a throwaway manifest
    # in the cache dir names it (and only it) as a dependency.
    crate=gdal-src-0.3.0+3.12.1
    reg_crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$crate.crate" 2>/dev/null | head -1 || true)
    if [ -z "$reg_crate" ]; then
      log "cargo fetch gdal-src 0.3.0 (GDAL 3.12.1 source)"
      m=$cache/fetch-gdal-src
      mkdir -p "$m/src"
      printf '[package]\nname = "fetch-gdal-src"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\ngdal-src = { version = "=0.3.0", default-features = false }\n' > "$m/Cargo.toml"
      : > "$m/src/lib.rs"
      (cd "$m" && cargo fetch -q >&2)
      reg_crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$crate.crate" | head -1)
    fi
    src=$cache/$crate
    if [ ! -f "$src/source/CMakeLists.txt" ]; then
      rm -rf "$src"; mkdir -p "$cache"
      tar -xzf "$reg_crate" -C "$cache"
    fi
    td=$(( $(date +%s) - t0 )); log "source ready (${td}s); cmake configure for cpl_config.h"
    bld=$dest/cmake
    # Only the configure step: every optional driver and external library off, nothing built.
    cmake -S "$src/source" -B "$bld" -DGDAL_BUILD_OPTIONAL_DRIVERS=OFF -DOGR_BUILD_OPTIONAL_DRIVERS=OFF \
      -DGDAL_USE_INTERNAL_LIBS=ON -DGDAL_USE_EXTERNAL_LIBS=OFF -DBUILD_APPS=OFF -DBUILD_DOCS=OFF \
      -DBUILD_TESTING=OFF -DBUILD_PYTHON_BINDINGS=OFF -DBUILD_JAVA_BINDINGS=OFF -DBUILD_CSHARP_BINDINGS=OFF \
      -DACCEPT_MISSING_LINUX_FS_HEADER=ON > "$dest/cmake.log" 2>&1 \
      || { log "cmake configure of GDAL 3.12 failed: see $dest/cmake.log"; tail -20 "$dest/cmake.log" >&2; exit 1; }
    # The installed layout: one flat folder, as /usr/include/gdal.
    mkdir -p "$dest/include"
    for d in port gcore ogr ogr/ogrsf_frmts alg apps; do
      cp "$src/source/$d"/*.h "$dest/include/"
    done
    cp "$bld/port/cpl_config.h" "$dest/include/"
    # gdal_version.h.in holds the literal version in 3.12 (nothing to substitute)
    cp "$src/source/gcore/gdal_version.h.in" "$dest/include/gdal_version.h"
    rm -rf "$bld"
    ;;
  *)
    log "no headers for GDAL $line: this script fetches 3.10 and 3.12, and uses the installed GDAL's" \
        "(gdal-config --version: ${installed:-none}); for another GDAL, install it and set GDAL_CONFIG"
    exit 1
    ;;
esac
check_line "$dest/include"
touch "$dest/.complete"
log "GDAL $(header_version "$dest/include") headers in $dest/include ($(( $(date +%s) - t0 ))s)"
echo "$dest/include"
