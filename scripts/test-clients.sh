#!/usr/bin/env bash
# Runs the real-client suite (tests/clients: QGIS, rasterio, rioxarray + dask, the GDAL tools,
# /vsicurl/ through nginx) against this tree's release build, and prints how long each part took.
#
#   scripts/test-clients.sh            # install deps, build (cargo, incremental), run
#   RUMI_SKIP_BUILD=1 scripts/test-clients.sh   # use target/release as it is
#   scripts/test-clients.sh -k qgis    # extra arguments go to pytest
#
# RUMI_CLIENTS_STRICT=1 is set, so a missing client fails instead of skipping. The suite skips
# (with the reason) only when the real rasters folder (../shared/data, or RUMI_DATA_DIR) is absent.
# Artifacts: build/test-artifacts/ (QGIS renders in qgis/, http_requests.md, clients-junit.xml).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
stamp() { echo "== $1 ($(( $(date +%s) - t0 ))s)"; }

stamp "install client dependencies"
t=$(date +%s)
scripts/install-client-deps.sh
deps_s=$(( $(date +%s) - t ))

t=$(date +%s)
if [ "${RUMI_SKIP_BUILD:-0}" != "1" ]; then
  stamp "cargo build --release (libgdal_rumi.so, rumi)"
  cargo build --release --lib --bin rumi
fi
build_s=$(( $(date +%s) - t ))

mkdir -p build/test-artifacts
JUNIT=build/test-artifacts/clients-junit.xml
stamp "pytest tests/clients"
t=$(date +%s)
rc=0
RUMI_CLIENTS_STRICT=1 /usr/bin/python3 -m pytest tests/clients -ra -p no:cacheprovider \
  --junitxml="$JUNIT" "$@" || rc=$?
pytest_s=$(( $(date +%s) - t ))

echo
echo "== timings"
printf '  %-28s %5ss\n' "install-client-deps" "$deps_s" "cargo build" "$build_s" "pytest (total)" "$pytest_s"
if [ -f "$JUNIT" ]; then
  /usr/bin/python3 - "$JUNIT" <<'EOF'
import collections, sys, xml.etree.ElementTree as ET
per = collections.OrderedDict()
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    part = tc.get("classname", "?").split(".")[-1]
    per.setdefault(part, [0.0, 0])
    per[part][0] += float(tc.get("time", 0))
    per[part][1] += 1
for part, (s, n) in per.items():
    print(f"  {part:<28} {s:5.1f}s  ({n} tests, incl. their fixtures)")
EOF
fi
echo "  artifacts: build/test-artifacts/ (qgis/*.png, http_requests.md)"
exit $rc
