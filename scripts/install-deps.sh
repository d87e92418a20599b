#!/usr/bin/env bash
# Installs everything rumi needs on a fresh Debian 12 machine: GDAL (library, tools, Python
# bindings), a C/C++ toolchain and CMake for the driver, pytest and numpy for the GDAL tests,
# dpkg-dev for the Debian package (scripts/build-deb.sh), strace for the tests that count system calls.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/apt-install.sh libgdal-dev gdal-bin python3-gdal python3-rasterio python3-numpy python3-pytest cmake g++ clang libclang-dev \
  pkg-config binutils curl ca-certificates dpkg-dev strace
command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)"; exit 1; }
rustup component add rustfmt clippy >/dev/null 2>&1 || true
