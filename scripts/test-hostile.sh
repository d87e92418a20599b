#!/usr/bin/env bash
# Runs the malformed-file corpus (tests/hostile: one broken spec rule per case) through
# `rumi validate` and GDAL (`gdalinfo -checksum` and the multidimensional API, validated and
# stateless opens), each case in its own process under a timeout and an address-space limit.
#
#   scripts/test-hostile.sh               # every case; under a minute
#   scripts/test-hostile.sh --valgrind    # the GDAL cases (gdalinfo's GDALInfo -checksum and the
#                                         # multidimensional reads) under valgrind --error-exitcode=99,
#                                         # all in one process (tests/hostile/gdal_batch.py; under a
#                                         # minute); RUMI_HOSTILE_VALGRIND_SUBSET=k: every k-th case;
#                                         # one pytest process per core (RUMI_HOSTILE_JOBS=n: n
#                                         # processes; valgrind runs each process on one core)
set -euo pipefail
cd "$(dirname "$0")/.."
need=(time)
[ "${1:-}" != "--valgrind" ] || need+=(valgrind)
scripts/apt-install.sh "${need[@]}"
if [ "${1:-}" != "--valgrind" ]; then
  exec /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/hostile "$@"
fi
shift
export RUMI_HOSTILE_VALGRIND=1
jobs=${RUMI_HOSTILE_JOBS:-$(nproc)}
if [ "$jobs" -le 1 ]; then
  exec /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/hostile "$@"
fi
# the build once, then n processes, each its share of the cases (RUMI_HOSTILE_SHARD=k/n), their
# output printed whole, one after the other; any failure fails the run
if [ "${RUMI_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release --bin rumi --lib --example make_fixture
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
for ((k = 0; k < jobs; k++)); do
  RUMI_SKIP_BUILD=1 RUMI_HOSTILE_SHARD="$k/$jobs" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
    tests/hostile "$@" >"$logs/$k.log" 2>&1 &
  pids+=($!)
done
rc=0
for ((k = 0; k < jobs; k++)); do
  wait "${pids[$k]}" || rc=1
  echo "-- share $k of $jobs"
  cat "$logs/$k.log"
done
exit $rc
