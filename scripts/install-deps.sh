#!/usr/bin/env bash
# Installs everything rumi needs on a fresh Debian 12 machine: GDAL (library, tools, Python
# bindings), a C/C++ toolchain and CMake for the driver, pytest and numpy for the GDAL tests.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
PKGS=(libgdal-dev gdal-bin python3-gdal python3-numpy python3-pytest cmake g++ clang libclang-dev pkg-config binutils curl ca-certificates)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)"; exit 1; }
rustup component add rustfmt clippy >/dev/null 2>&1 || true
