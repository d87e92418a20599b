#!/usr/bin/env bash
# The core crate (crates/rumi) builds and passes its tests on a machine without GDAL: this runs
# `cargo test -p rumi` in a private mount namespace where gdal-config, GDAL's headers and
# libgdal are masked, in a target folder of its own (so nothing built against GDAL is reused),
# and checks that no GDAL, C++ build or CLI crate is among the core's dependencies.
# RUMI_CORE_TARGET_DIR names another target folder, kept afterwards: CI (scripts/test.sh) gives
# target/other-gdal, where scripts/plugin-for-python.sh then reuses the core's dependencies (the
# same features but for getrandom's, which the tests' dev-dependencies add): only the core, tempfile
# and the plugin crate compile again there. The check is whole only where that folder is cold.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${RUMI_CORE_TARGET_DIR:-target/core-only}
bad=$(cargo tree -p rumi -e normal,build --prefix none | grep -E '^(gdal|gdal-sys|clap|indicatif|cbindgen|object_store|tokio|reqwest|hyper) ' || true)
if [ -n "$bad" ]; then
  echo "the core crate depends on: $bad" >&2
  exit 1
fi
echo "core dependencies: no gdal, gdal-sys, clap, indicatif; no network crate without the object-store feature"
mask='
  set -e
  mkdir -p /tmp/rumi-empty
  [ -d /usr/include/gdal ] && mount --bind /tmp/rumi-empty /usr/include/gdal
  for f in /usr/bin/gdal-config /usr/lib/x86_64-linux-gnu/libgdal.so*; do
    [ -e "$f" ] && mount --bind /dev/null "$f"
  done
  if command -v gdal-config >/dev/null && gdal-config --version >/dev/null 2>&1; then echo "GDAL still visible" >&2; exit 1; fi
  [ -z "$(ls -A /usr/include/gdal 2>/dev/null)" ] || { echo "GDAL headers still visible" >&2; exit 1; }
  echo "GDAL hidden: gdal-config, /usr/include/gdal and libgdal.so are masked"
  CARGO_TARGET_DIR=$0 cargo test --release -p rumi
'
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  unshare -m bash -c "$mask" "$target"
else
  echo "not root or no mount namespaces: running with gdal-config off PATH only"
  GDAL_CONFIG=/nonexistent PATH=$(echo "$PATH" | tr ':' '\n' | grep -v '^/usr/bin$' | paste -sd:):/usr/bin/env \
    CARGO_TARGET_DIR=$target cargo test --release -p rumi
fi
# the GDAL-free build is only a check: drop its target folder (~0.9 GB) unless asked to keep it
[ "${RUMI_KEEP_CORE_TARGET:-0}" = 1 ] || [ "$target" != target/core-only ] || rm -rf target/core-only
