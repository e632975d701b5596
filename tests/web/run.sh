#!/usr/bin/env bash
# The page's browser test (issue 31, docs/web.md): installs Debian's chromium, chromium-driver and
# python3-selenium when missing, builds the page (make web) when it is not built, and runs
# tests/web/test_web.py against the native command RMG (default build/release/rmg, built by
# `make build` when missing). Extra arguments go to the test (--screenshot FILE).
set -euo pipefail
cd "$(dirname "$0")/../.."
rmg="${1:-build/release/rmg}"
shift || true
pkgs=(chromium chromium-driver python3-selenium)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "web test: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}"
fi
site="${RMG_WEB_BUILD:-build/web}/site"
[ -f "$site/rmg.wasm" ] || bash web/build.sh
[ -x "$rmg" ] || make build
# Debian's python3, whose dist-packages hold python3-selenium (a python3 earlier on PATH may not see them).
exec /usr/bin/python3 tests/web/test_web.py "$site" "$rmg" "$@"
