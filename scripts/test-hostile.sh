#!/usr/bin/env bash
# Runs the malformed-file corpus (tests/hostile: one broken spec rule per case) through
# `rumi validate` and GDAL (`gdalinfo -checksum` and the multidimensional API, validated and
# stateless opens), each case in its own process under a timeout and an address-space limit.
#
#   scripts/test-hostile.sh               # every case; under a minute
#   scripts/test-hostile.sh --valgrind    # the gdalinfo cases under valgrind --error-exitcode=99
#                                         # (every 3rd case; RUMI_HOSTILE_VALGRIND_SUBSET=all
#                                         # for every case, slow)
set -euo pipefail
cd "$(dirname "$0")/.."
need=(time)
[ "${1:-}" != "--valgrind" ] || need+=(valgrind)
scripts/apt-install.sh "${need[@]}"
if [ "${1:-}" = "--valgrind" ]; then
  export RUMI_HOSTILE_VALGRIND=1
  shift
fi
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/hostile "$@"
