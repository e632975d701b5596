#!/usr/bin/env bash
# The page's browser test (issue 31, docs/web.md): installs Debian's chromium, chromium-driver and
# python3-selenium when missing, builds the page (make web) when it is not built, and runs
# tests/web/test_web.py against the native command RMG (default build/release/rmg, built by
# `make build` when missing). Extra arguments go to the test (--screenshot FILE).
set -euo pipefail
cd "$(dirname "$0")/../.."
rmg="${1:-build/release/rmg}"
shift || true
./scripts/setup.sh --browser
site="${RMG_WEB_BUILD:-build/web}/site"
[ -f "$site/rmg.wasm" ] || bash web/build.sh
if [ ! -x "$rmg" ]; then
  if [ "$rmg" = build/release/rmg ]; then make build; else echo "web test: $rmg is not built" >&2; exit 2; fi
fi
# Debian's python3, whose dist-packages hold python3-selenium (a python3 earlier on PATH may not see them).
exec /usr/bin/python3 tests/web/test_web.py "$site" "$rmg" "$@"
