#!/usr/bin/env bash
# Runs bench/python_bench.py in target/bench-venv: rasterio's pip wheel (its own GDAL) + the rumi
# wheel built from python/. Needs ../shared/data, gdal_translate (Debian) for the COGs, nginx,
# target/release/rumi (converts) and target/release/libgdal_rumi.so (the plugin row).
set -euo pipefail
cd "$(dirname "$0")/.."
V=target/bench-venv
[ -x "$V/bin/python" ] || python3 -m venv "$V"
"$V/bin/pip" install -q rasterio numpy pytest
rm -rf target/wheels && "$V/bin/pip" wheel -q --no-deps ./python -w target/wheels
"$V/bin/pip" install -q --force-reinstall --no-deps target/wheels/rumi-*.whl
cargo build --release -p rumi-cli -p rumi-gdal
exec "$V/bin/python" bench/python_bench.py "$@"
