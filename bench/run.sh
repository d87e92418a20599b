#!/usr/bin/env bash
# rumi vs COG benchmark suite: one command (see bench/README.md). Options: --quick, --reps N,
# --skip-big, --skip-http, --only a,b, --no-build, --fresh, --out FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 bench/run.py "$@"
