#!/usr/bin/env bash
# Runs every check CI runs: formatting, lints, the Rust test suites, the release build of the
# GDAL plugin and the GDAL autotest-style pytest suite against it, the malformed-file corpus
# (also under valgrind), the real clients, the plugin for other GDAL lines and pip rasterio wheels,
# and the installable artefacts (portable wheels, Debian package) installed with no compiler.
#
# Where the time goes (a new 2-core machine: nothing installed, no target/): the compiles, each
# crate set built once per target folder (cargo reuses a unit only when its target folder,
# profile, features and those of all its dependencies match):
#   target folder           toolchain                 what, built by which step
#   target/release (check)  rustc + clippy            clippy --workspace --all-targets (metadata only; build scripts run)
#   target/release          gcc/g++, Debian GDAL 3.6  `cargo test --release --workspace`: the core with the features of the
#                                                      test build (dev-dependencies unified), the plugin, the CLI, the
#                                                      examples; every later `--lib --bin rumi --example make_fixture`
#                                                      (gdal_autotest and hostile conftests) is fresh, and the amd64
#                                                      .deb packages these binaries
#   target/other-gdal       gcc, GDAL masked          first the core alone, `cargo test -p rumi` (test-core-without-gdal.sh:
#                                                      it builds without GDAL; in the background from
#                                                      the end of cargo test), then
#                           gcc/g++, pip GDAL 3.10/3.12  the plugin (core without object-store) for the rasterio wheels
#                                                      (test-wheels): the core's dependencies reused, the core once more
#                                                      (getrandom's features differ without the dev-dependencies), the
#                                                      plugin crate again per GDAL; the rumi-gdal wheel packages
#                                                      test-wheels' plugins
#   target/manylinux        zig (glibc 2.28)          the x86-64 rumi wheel (maturin --zig), built before the Python
#                                                      suites, which install it (no second build of python/)
#   target/aarch64-manylinux zig (glibc 2.28)         the aarch64 rumi wheel
#   target/aarch64-gnu      aarch64-linux-gnu-g++     the aarch64 plugins (Debian's arm64 GDAL 3.6, then the rasterio 1.4 /
#                                                      1.5 wheels' GDAL: only the plugin crate again per GDAL) and the
#                                                      arm64 CLI; the CLI's features (object-store) give the core a
#                                                      second build here (17 crates; openzl-sys and the rest shared):
#                                                      unified, the plugins would link aws-lc's initialisation code
# target/manylinux, target/aarch64-manylinux and target/aarch64-gnu build only what is packaged
# stripped: without the release profile's line tables (CARGO_PROFILE_RELEASE_DEBUG=false).
# The zig folders cannot share with the GNU ones: the wheel links against glibc 2.28 (zig), the
# plugins need g++'s libstdc++ ABI (GDAL's C++ API) and link the newer glibc. Not built in CI any
# more: `cargo build --release` after the test build (15 crates again: openzl-sys, zstd-sys,
# object_store, the core, the CLI, the plugin), python/ by maturin in target/release for
# test-python.sh (18 crates: the core, object_store, pyo3) and again for test-torch.sh (pyo3, other
# interpreter), target/core-only apart from target/other-gdal (72 crates), test-wheels.sh's two
# plugins again in build-wheels.sh.
# Downloads, apt and pip installs run in the background (output in build/ci-logs/NAME.log, shown
# when the step that needs them waits for them; a failed job fails the run) while the compiles
# run; the core's GDAL-free build and tests beside the GDAL suites, the aarch64 compiles, then the
# valgrind pass (under a minute) beside the Python suites (mostly one core each). The end of the
# output is a table of every step's wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/ci-steps.sh
# the torch and TorchGeo venvs of this run (test-torch.sh installs the rumi wheel into them;
# test-wheels.sh and test-artifacts.sh use them): venvs of CI's own, never a developer's venv of
# the default names, where the package may be installed editable (a new machine has neither)
export RUMI_TORCH_VENV=${RUMI_TORCH_VENV:-${RUMI_CACHE:-$HOME/.cache/rumi}/venvs/ci-torch-py3.11}
export RUMI_TORCHGEO_VENV=${RUMI_TORCHGEO_VENV:-${RUMI_CACHE:-$HOME/.cache/rumi}/venvs/ci-torchgeo-py3.12}

step "install the build dependencies (scripts/install-deps.sh)"
scripts/install-deps.sh
# what later steps need, fetched while the compiles run (each job's output in its own log)
background "apt: the later steps' packages, then the clients' venv (install-client-deps.sh)" later-apt bash -c 'set -e
  scripts/apt-install.sh --no-install-recommends nginx gdal-bin python3-gdal python3-rasterio
  scripts/apt-install.sh time valgrind
  scripts/apt-install.sh --no-install-recommends qemu-user
  scripts/install-client-deps.sh'
background "venv of scripts/test-python.sh (pip)" py-venv env RUMI_VENV_ONLY=1 scripts/test-python.sh
background "venvs of scripts/test-torch.sh (torch, torchgeo: pip)" torch-venvs env RUMI_VENV_ONLY=1 scripts/test-torch.sh
background "wheel-build venv, rasterio 1.4 / 1.5 venvs, GDAL 3.10 / 3.12 headers" wheel-venvs bash -c 'set -e
  RUMI_VENV_ONLY=1 scripts/build-wheels.sh
  . scripts/lib/pythons.sh
  rasterio_venv 1.4 3.11
  rasterio_venv 1.5 3.12
  scripts/gdal-headers.sh 3.10
  scripts/gdal-headers.sh 3.12'
background "Debian 12 and 13 arm64 packages (scripts/lib/aarch64.sh arm64_root)" arm64-root bash -c 'set -e
  . scripts/lib/aarch64.sh
  arm64_root
  arm64_root trixie'

step "cargo fmt --check"
cargo fmt --check
step "cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
step "cargo test (the whole workspace)"
cargo test --release --workspace
# in target/other-gdal (cold here), beside the GDAL suites (one process at a time: a core left
# idle) and the steps after them; the plugins for the rasterio wheels (test-wheels.sh, which
# awaits it) reuse its dependencies. Its own mount namespace masks GDAL for it alone.
background "core crate without GDAL (scripts/test-core-without-gdal.sh)" core-nogdal \
  env RUMI_CORE_TARGET_DIR=target/other-gdal scripts/test-core-without-gdal.sh
if [ -d tests/gdal_autotest ] && ls tests/gdal_autotest/test_*.py >/dev/null 2>&1; then
  # its conftest builds `--lib --bin rumi --example make_fixture`: fresh from cargo test (a plain
  # `cargo build --release` here would compile the core and the crates above it again, without
  # the dev-dependencies' features)
  step "pytest tests/gdal_autotest (GDAL $(gdal-config --version))"
  /usr/bin/python3 -m pytest -q tests/gdal_autotest
fi
await later-apt
step "malformed-file corpus through rumi validate and gdalinfo (tests/hostile)"
scripts/test-hostile.sh
await wheel-venvs
await arm64-root
# on the core the Python suites leave idle (mostly one core each): the aarch64 compiles, the zig
# wheel (target/aarch64-manylinux) and the arm64 .deb (target/aarch64-gnu, whose crates the
# rumi-gdal wheel's aarch64 plugins reuse below), then the valgrind pass
background "artefacts: the aarch64 rumi wheel, the arm64 .deb (build-wheels.sh, build-deb.sh)" aarch64 \
  bash -c 'RUMI_BUILD_WHEELS=rumi RUMI_BUILD_ARCHS=aarch64 scripts/build-wheels.sh && RUMI_DEB_ARCHS=arm64 RUMI_SKIP_BUILD=1 scripts/build-deb.sh'
if [ "${RUMI_SKIP_VALGRIND:-0}" != 1 ]; then
  # every GDAL case of the corpus under valgrind (gdalinfo's GDALInfo and the multidimensional
  # reads, all in one process: under a minute; a process per case took 12 min); any memory error
  # fails the run
  background "malformed-file corpus under valgrind (RUMI_SKIP_VALGRIND=1 skips it)" valgrind --after aarch64 \
    env RUMI_SKIP_BUILD=1 RUMI_HOSTILE_JOBS=1 RUMI_HOSTILE_VALGRIND_SUBSET=all scripts/test-hostile.sh --valgrind
fi
step "the x86-64 rumi wheel the Python suites install (scripts/build-wheels.sh, maturin --zig)"
RUMI_BUILD_WHEELS=rumi RUMI_BUILD_ARCHS=x86_64 scripts/build-wheels.sh
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
export RUMI_WHEEL=$PWD/dist/rumi-$version-cp311-abi3-manylinux_2_28_x86_64.whl
await py-venv
step "Python package: the wheel installed, pytest python/tests (scripts/test-python.sh)"
scripts/test-python.sh
step "CLI with object storage: moto S3 server, faults, failed uploads (scripts/test-object-storage.sh)"
scripts/test-object-storage.sh
await torch-venvs
step "PyTorch loader: pytest test_torch*.py, TorchGeo (scripts/test-torch.sh)"
scripts/test-torch.sh
step "real clients: QGIS, rasterio, rioxarray + dask, GDAL tools, /vsicurl/ via nginx"
RUMI_SKIP_BUILD=1 scripts/test-clients.sh
await core-nogdal
step "GDAL 3.10 and 3.12 headers, pip rasterio 1.4 / 1.5 wheels (scripts/test-wheels.sh)"
scripts/test-wheels.sh
step "artefacts: the amd64 .deb (scripts/build-deb.sh: target/release as the tests built it)"
RUMI_DEB_ARCHS=amd64 RUMI_SKIP_BUILD=1 scripts/build-deb.sh
await aarch64
step "artefacts: the rumi-gdal wheels (scripts/build-wheels.sh; x86-64: test-wheels.sh's plugins)"
RUMI_BUILD_WHEELS=gdal RUMI_WHEEL_PLUGINS_BUILT=1 scripts/build-wheels.sh
await valgrind
step "the artefacts installed and used with no compiler on PATH (scripts/test-artifacts.sh)"
RUMI_ARTIFACTS_STRICT=1 scripts/test-artifacts.sh
step "all tests passed"
