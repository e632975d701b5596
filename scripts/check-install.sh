#!/usr/bin/env bash
# Checks the shipped library: only rmg_* symbols exported, SONAME set, and a program outside
# the tree builds against the installed package through pkg-config and through find_package.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$root" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DRMG_BUILD_TESTS=OFF -DRMG_BUILD_BENCH=OFF \
      -DCMAKE_INSTALL_PREFIX="$work/prefix" >/dev/null
cmake --build "$work/build" -j "$(nproc)" >/dev/null
cmake --install "$work/build" >/dev/null
lib=$(ls "$work"/prefix/lib*/librmg.so | head -n1)
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBRW]/ {print $3}' | grep -v '^rmg_' | grep -v '^RMG_' || true)
if [ -n "$bad" ]; then
  echo "check-install: symbols without the rmg_ prefix are exported:"; echo "$bad"; exit 1
fi
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
case "$soname" in librmg.so.0*) ;; *) echo "check-install: unexpected SONAME '$soname'"; exit 1;; esac
echo "check-install: exports only rmg_* symbols; SONAME $soname"
export PKG_CONFIG_PATH="$(dirname "$lib")/pkgconfig"
for ex in "$root"/examples/*.c; do
  [ -e "$ex" ] || continue
  name=$(basename "$ex" .c)
  cc -std=c11 -Wall -Werror "$ex" $(pkg-config --cflags --libs librmg) -lm -o "$work/$name"
  (cd "$work" && LD_LIBRARY_PATH="$(dirname "$lib")" "./$name" >/dev/null)
  echo "check-install: examples/$name.c builds with pkg-config and runs"
done
mkdir -p "$work/fp"
cat > "$work/fp/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(rmg_consumer C)
find_package(rmg REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE rmg::rmg)
CM
cat > "$work/fp/main.c" <<'C'
#include <rmg/rmg.h>
#include <stdio.h>
int main(void)
{
    rmg_context *ctx = NULL;
    if (rmg_context_create(&ctx, NULL) != RMG_OK || rmg_version() != RMG_VERSION_NUMBER)
        return 1;
    printf("librmg %s\n", rmg_version_string());
    rmg_context_destroy(ctx);
    return 0;
}
C
cmake -S "$work/fp" -B "$work/fp/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/fp/build" >/dev/null
LD_LIBRARY_PATH="$(dirname "$lib")" "$work/fp/build/consumer"
echo "check-install: find_package(rmg) consumer builds and runs"
