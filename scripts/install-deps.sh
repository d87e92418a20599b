#!/usr/bin/env bash
# Installs everything rumi needs on a fresh Debian 12 machine: GDAL (library, tools, Python
# bindings), a C/C++ toolchain and CMake for the driver, pytest and numpy for the GDAL tests,
# dpkg-dev for the Debian package (scripts/build-deb.sh), strace for the tests that count system calls,
# and for the aarch64 artefacts (scripts/build-wheels.sh, build-deb.sh) Debian's aarch64 cross
# compiler (g++-aarch64-linux-gnu: the GDAL plugins need libstdc++'s ABI), qemu-user to run them
# (scripts/test-artifacts-aarch64.sh) and rustup's aarch64-unknown-linux-gnu target.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/apt-install.sh libgdal-dev gdal-bin python3-gdal python3-rasterio python3-numpy python3-pytest cmake g++ clang libclang-dev \
  pkg-config binutils curl ca-certificates dpkg-dev strace
scripts/apt-install.sh --no-install-recommends g++-aarch64-linux-gnu qemu-user file unzip
command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)"; exit 1; }
rustup component add rustfmt clippy >/dev/null 2>&1 || true
rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu || rustup target add aarch64-unknown-linux-gnu
