#!/usr/bin/env bash
# Checks the shipped library on a fresh Release build configured with the default prefix: only
# rmg_* symbols exported, SONAME set; then tests/test_install.sh installs it to a prefix given only
# at install time and builds clients through pkg-config and through find_package.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$root" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DRMG_BUILD_TESTS=OFF -DRMG_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/build" -j "$(nproc)" >/dev/null
lib="$work/build/librmg.so"
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBRW]/ {print $3}' | grep -v '^rmg_' | grep -v '^RMG_' || true)
if [ -n "$bad" ]; then
  echo "check-install: symbols without the rmg_ prefix are exported:"; echo "$bad"; exit 1
fi
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
case "$soname" in librmg.so.0*) ;; *) echo "check-install: unexpected SONAME '$soname'"; exit 1;; esac
echo "check-install: exports only rmg_* symbols; SONAME $soname"
bash "$root/tests/test_install.sh" "$work/build" "$root"
