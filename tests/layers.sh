#!/usr/bin/env bash
# The layering of lib/ (docs/architecture.md): no include or call against it, from the sources
# and the library's object files. Also shows that the check catches a breach: a scratch tree
# whose core includes a driver header must fail.
#   tests/layers.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
python3 "$src/scripts/layers.py" "$src" "$build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib/core" "$tmp/lib/driver" "$tmp/lib/map"
echo '#include "driver/driver_internal.h"' >"$tmp/lib/core/context.c"
echo '#include "export/export_internal.h"' >"$tmp/lib/map/map_api.c"
touch "$tmp/lib/driver/driver_internal.h"
mkdir -p "$tmp/lib/export" && touch "$tmp/lib/export/export_internal.h"
if out=$(python3 "$src/scripts/layers.py" "$tmp" --includes-only); then
  echo "layers: a core file including a driver header was not caught"; exit 1
fi
grep -q "lib/core/ may not use lib/driver/" <<<"$out" && grep -q "lib/map/ may not use lib/export/" <<<"$out" || {
  echo "layers: unexpected report for the scratch tree:"; echo "$out"; exit 1; }
echo "layers: the scratch breaches are reported"
