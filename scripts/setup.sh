#!/usr/bin/env bash
# Installs the Debian packages librmg needs to build and test, when they are missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libyaml-dev libxxhash-dev libpng-dev zlib1g-dev libcmocka-dev
      python3 python3-pytest python3-jsonschema python3-numpy python3-pip)
if [ "${1:-}" = "--test" ]; then
  # python3-distributed: the Dask test of bulk generation (tests/python/test_dask.py, issue 29).
  pkgs+=(clang libclang-rt-14-dev python3-distributed)
fi
# The page (issue 31, docs/web.md): Emscripten and the tools of `apt-get source` for `make web`,
# a headless browser for its test; without the desktop's recommended packages, which neither uses.
opts=()
if [ "${1:-}" = "--web" ]; then
  pkgs+=(emscripten dpkg-dev gzip)
  opts=(--no-install-recommends)
fi
if [ "${1:-}" = "--browser" ]; then
  pkgs+=(chromium chromium-driver python3-selenium)
  opts=(--no-install-recommends)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${opts[@]}" "${missing[@]}"
fi
