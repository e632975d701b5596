#!/usr/bin/env bash
# `make web` (issue 31): builds the template workbench, librmg compiled to WebAssembly with one
# static page, into build/web/site (HTML, JS, wasm: serve the folder from any static host, or
# open it offline through one).
#
# Everything comes from Debian: Emscripten (the `emscripten` package), and libyaml, zlib and
# libpng built for wasm from Debian's source packages (`apt-get source`; a deb-src entry is added
# beside the system's own entries when there is none). xxhash is used header-only, as the library
# does natively. zlib is the same release as the native build's, so the .h3m files (gzip) come out
# byte-identical. Emscripten's ports (which download) are not used. The library's sources are
# built by its own CMake project; only web/rmg_web.c (the bridge to JS) is added.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${RMG_WEB_BUILD:-$root/build/web}"
site="$out/site"
deps="$out/deps"
prefix="$deps/prefix"
jobs="$(nproc 2>/dev/null || echo 2)"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
"$root/scripts/setup.sh" --web
# Debian's emscripten runs its JS tools with node and finds their modules (acorn, ...) in
# Debian's node folder: a node from elsewhere needs to be told where.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

# ---- the dependencies' sources: Debian's source packages --------------------------------------
has_deb_src() {
  grep -Rqs -E '^[[:space:]]*deb-src[[:space:]]|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null
}
add_deb_src() {
  # The same archives the system installs from, as source entries.
  local f list="/etc/apt/sources.list.d/rmg-web-deb-src"
  : >"$list.tmp"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n -E 's/^[[:space:]]*deb[[:space:]]+/deb-src /p' "$f" >>"$list.tmp"
  done
  if [ -s "$list.tmp" ]; then
    $SUDO mv "$list.tmp" "$list.list"
  else
    rm -f "$list.tmp" "$list.sources.tmp"
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      # deb822 stanzas: the same stanza with source types.
      sed -E 's/^Types:.*/Types: deb-src/' "$f" >>"$list.sources.tmp"
      echo >>"$list.sources.tmp"
    done
    $SUDO mv "$list.sources.tmp" "$list.sources"
  fi
  $SUDO apt-get update -qq
}
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-stable}")"
srcdir="$deps/src"
mkdir -p "$srcdir" "$prefix/lib/pkgconfig" "$prefix/include"
fetch() { # source package, folder prefix, the binary package of the native build -> the unpacked folder
  local pkg="$1" dir ver
  dir="$(find "$srcdir" -maxdepth 1 -mindepth 1 -type d -name "$2-*" | head -n1)"
  if [ -z "$dir" ]; then
    has_deb_src || add_deb_src
    # The release the native build links (the same deflate gives the same .h3m bytes), else
    # the archive's current one.
    ver="$(dpkg-query -W -f='${source:Version}' "$3" 2>/dev/null || true)"
    (cd "$srcdir" && { { [ -n "$ver" ] && apt-get source -qq "$pkg=$ver" >/dev/null 2>&1; } ||
                       apt-get source -qq "$pkg/$codename" >/dev/null 2>&1 ||
                       apt-get source -qq "$pkg" >/dev/null 2>&1 || apt-get source "$pkg" >&2; })
    dir="$(find "$srcdir" -maxdepth 1 -mindepth 1 -type d -name "$2-*" | head -n1)"
  fi
  [ -n "$dir" ] || { echo "web: could not get the source package $pkg" >&2; exit 1; }
  echo "$dir"
}

CFLAGS_DEPS=(-O3 -DNDEBUG)
build_static() { # name srcdir "files..." extra flags...
  local name="$1" dir="$2" files="$3"
  shift 3
  local lib="$prefix/lib/lib$name.a"
  [ -f "$lib" ] && return 0
  echo "web: building $name for wasm"
  local objdir="$deps/obj/$name" objs=()
  mkdir -p "$objdir"
  for f in $files; do
    emcc "${CFLAGS_DEPS[@]}" "$@" -c "$dir/$f" -o "$objdir/$(basename "$f" .c).o" &
    objs+=("$objdir/$(basename "$f" .c).o")
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  done
  wait
  emar rcs "$lib" "${objs[@]}"
}
write_pc() { # name version libs
  cat >"$prefix/lib/pkgconfig/$1.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include
Name: $1
Description: $1 for wasm (web/build.sh)
Version: $2
Cflags: -I\${includedir}
Libs: $3
EOF
}

zdir="$(fetch zlib zlib zlib1g-dev)"
build_static z "$zdir" "adler32.c compress.c crc32.c deflate.c gzclose.c gzlib.c gzread.c gzwrite.c infback.c
  inffast.c inflate.c inftrees.c trees.c uncompr.c zutil.c" -DHAVE_UNISTD_H -DHAVE_STDARG_H
cp "$zdir/zlib.h" "$zdir/zconf.h" "$prefix/include/"
write_pc zlib "$(sed -n -E 's/^#define ZLIB_VERSION "([^"]*)".*/\1/p' "$zdir/zlib.h")" "-L\${libdir} -lz"

ydir="$(fetch libyaml libyaml libyaml-dev)"
yver="$(basename "$ydir" | sed 's/^libyaml-//')"
IFS=. read -r ymaj ymin ypat <<<"$yver"
build_static yaml "$ydir" "src/api.c src/dumper.c src/emitter.c src/loader.c src/parser.c src/reader.c
  src/scanner.c src/writer.c" -I"$ydir/include" -DYAML_DECLARE_STATIC -DYAML_VERSION_MAJOR="$ymaj" \
  -DYAML_VERSION_MINOR="$ymin" -DYAML_VERSION_PATCH="$ypat" -DYAML_VERSION_STRING="\"$yver\""
cp "$ydir/include/yaml.h" "$prefix/include/"
write_pc yaml-0.1 "$yver" "-L\${libdir} -lyaml"

pdir="$(fetch libpng1.6 libpng1.6 libpng-dev)"
[ -f "$pdir/pnglibconf.h" ] || cp "$pdir/scripts/pnglibconf.h.prebuilt" "$pdir/pnglibconf.h"
build_static png "$pdir" "png.c pngerror.c pngget.c pngmem.c pngpread.c pngread.c pngrio.c pngrtran.c pngrutil.c
  pngset.c pngtrans.c pngwio.c pngwrite.c pngwtran.c pngwutil.c" -I"$pdir" -I"$prefix/include" \
  -DPNG_ARM_NEON_OPT=0 -DPNG_INTEL_SSE_OPT=0
cp "$pdir/png.h" "$pdir/pngconf.h" "$pdir/pnglibconf.h" "$prefix/include/"
write_pc libpng "$(sed -n -E 's/^#define PNG_LIBPNG_VER_STRING "([^"]*)".*/\1/p' "$pdir/png.h")" "-L\${libdir} -lpng -lz"

# xxhash: the library includes it header-only (XXH_INLINE_ALL), so the header is all it needs.
cp /usr/include/xxhash.h "$prefix/include/"
write_pc libxxhash "$(sed -n -E 's/^#define XXH_VERSION_(MAJOR|MINOR|RELEASE) +([0-9]+).*/\2/p' /usr/include/xxhash.h | paste -sd.)" ""

# ---- the library, by its own CMake project ------------------------------------------------------
toolchain="$(dirname "$(readlink -f "$(command -v emcc)")")/cmake/Modules/Platform/Emscripten.cmake"
[ -f "$toolchain" ] || toolchain=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake
export PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig"
export PKG_CONFIG_PATH=""
cmake -S "$root" -B "$out/cmake" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_FIND_ROOT_PATH="$prefix" -DMATH_LIB=m -DRMG_HAVE_NO_INTERPOSITION=OFF -DPKG_CONFIG_EXECUTABLE="$(command -v pkg-config)" \
  -DRMG_BUILD_TESTS=OFF -DRMG_BUILD_TOOLS=OFF -DRMG_BUILD_BENCH=OFF >"$out/cmake.log" || {
  cat "$out/cmake.log"; exit 1; }
cmake --build "$out/cmake" -j "$jobs" --target rmg_static

# ---- the page -----------------------------------------------------------------------------------
mkdir -p "$site"
exports=$(sed -n -E 's/^EMSCRIPTEN_KEEPALIVE [^(]*[ *](rmgw_[a-z_0-9]+)\(.*/_\1/p' "$root/web/rmg_web.c" | paste -sd,)
emcc -O3 -std=c11 -Wall -Wextra -Werror -I"$root/include" -I"$out/cmake/include" \
  "$root/web/rmg_web.c" "$out/cmake/librmg.a" "$prefix/lib/libpng.a" "$prefix/lib/libyaml.a" "$prefix/lib/libz.a" \
  -sMODULARIZE=1 -sEXPORT_NAME=createRmgModule -sENVIRONMENT=worker -sALLOW_MEMORY_GROWTH=1 \
  -sINITIAL_MEMORY=33554432 -sFILESYSTEM=1 \
  -sEXPORTED_FUNCTIONS="$exports,_malloc,_free" \
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,getValue,setValue \
  -o "$site/rmg.js"
cp "$root/web/index.html" "$root/web/app.js" "$root/web/worker.js" "$root/web/style.css" "$site/"
total=0
for f in "$site"/*.js "$site"/*.wasm; do
  n=$(gzip -9 -c "$f" | wc -c)
  total=$((total + n))
done
echo "web: built $site (wasm + JS: $total bytes gzipped)"
