#!/usr/bin/env bash
# The CLI with object storage: crates/rumi-cli/tests/test_object_storage.py against moto's
# standalone S3 server (info, validate, header on s3:// URLs; convert and stack uploading to
# s3://; a 503 burst and a dropped connection retried; a refused credential; failed uploads
# leaving no object and no pending multipart upload). Installs pytest and moto[server] (which
# brings boto3) in the venv scripts/test-python.sh uses (target/py-venv; RUMI_PY_VENV
# overrides), builds target/release/rumi when missing, and runs with RUMI_PY_STRICT=1: a
# missing moto_server or boto3 fails instead of skipping.
#
#   scripts/test-object-storage.sh            # everything
#   scripts/test-object-storage.sh -k stack   # extra arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${RUMI_PYTHON:-python3}
VENV=${RUMI_PY_VENV:-target/py-venv}
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --disable-pip-version-check pytest 'moto[server]'
if [ ! -x target/release/rumi ]; then
  cargo build --release -p rumi-cli
fi
RUMI_PY_STRICT=1 "$VENV/bin/python" -m pytest -q -ra -p no:cacheprovider crates/rumi-cli/tests/test_object_storage.py "$@"
