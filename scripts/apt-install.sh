#!/usr/bin/env bash
# Installs the Debian packages given that are not installed yet (quick when all are):
#   scripts/apt-install.sh [--no-install-recommends] PACKAGE...
# Prints what it installs; exits 0 when there is nothing to do. Used by every install script.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
opts=()
if [ "${1:-}" = "--no-install-recommends" ]; then
  opts+=(--no-install-recommends)
  shift
fi
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0
echo "apt installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${opts[@]}" "${missing[@]}" >/dev/null
