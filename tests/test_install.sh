#!/usr/bin/env bash
# The installed package, in a prefix given only at install time (issue 21): `cmake --install
# BUILD_DIR --prefix P` of a tree configured without P. The .pc file finds its prefix from its own
# place, so the package still works after the prefix moves; every example builds through
# pkg-config and runs, a find_package(rmg) consumer builds and runs, and the command comes with
# its man page and shell completions. Usage: test_install.sh BUILD_DIR SOURCE_DIR
# (scripts/check-install.sh runs it on a fresh Release build.)
set -euo pipefail
build=$(cd "${1:?usage: test_install.sh BUILD_DIR SOURCE_DIR}" && pwd)
src=$(cd "${2:?usage: test_install.sh BUILD_DIR SOURCE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test_install: $*"; exit 1; }

cmake --install "$build" --prefix "$work/first" >/dev/null
pc=$(find "$work/first" -name librmg.pc | head -n1)
[ -n "$pc" ] || fail "no librmg.pc installed"
grep -q '^prefix=${pcfiledir}/' "$pc" || fail "librmg.pc does not derive its prefix from its place: $(grep '^prefix=' "$pc")"
# The command comes with its man page and completions.
for f in bin/rmg share/man/man1/rmg.1 share/bash-completion/completions/rmg share/zsh/site-functions/_rmg; do
    [ -e "$work/first/$f" ] || fail "$f is not installed"
done
if command -v man >/dev/null; then
    page=$(MANPATH="$work/first/share/man" man rmg 2>/dev/null); grep -q 'rmg generate' <<<"$page" || fail "man rmg does not show the page"
fi
echo "test_install: rmg, man rmg and the bash and zsh completions are installed"
# The documentation the man page's SEE ALSO names lies where it says (issue 29).
seealso=$(sed -n '/^\.SH SEE ALSO/,$p' "$work/first/share/man/man1/rmg.1")
grep -q 'share/doc/librmg/' <<<"$seealso" || fail "the man page's SEE ALSO does not point to share/doc/librmg/"
for doc in $(sed -n 's/^\.I \([A-Za-z0-9_-]*\.md\)$/\1/p' <<<"$seealso"); do
    [ -s "$work/first/share/doc/librmg/$doc" ] || fail "the man page names $doc, which is not installed in share/doc/librmg/"
done
for doc in "$src"/docs/*.md; do
    [ -s "$work/first/share/doc/librmg/$(basename "$doc")" ] || fail "docs/$(basename "$doc") is not installed in share/doc/librmg/"
done
echo "test_install: the documentation the man page names is installed in share/doc/librmg/"
# The prefix moves: nothing of the package may name the place it was installed to.
mv "$work/first" "$work/moved"
prefix="$work/moved"
lib=$(ls "$prefix"/lib*/librmg.so 2>/dev/null | head -n1)
[ -n "$lib" ] || lib=$(find "$prefix" -name librmg.so | head -n1)
[ -n "$lib" ] || fail "no librmg.so installed"
libdir=$(dirname "$lib")
export PKG_CONFIG_PATH="$libdir/pkgconfig"
flags=$(pkg-config --cflags --libs librmg)
case "$flags" in *"$work/first"*) fail "pkg-config still names the old prefix: $flags" ;; esac
case "$flags" in *"$prefix"*) ;; *) fail "pkg-config does not point into the prefix: $flags" ;; esac

. "$src/tests/support/asan.sh"
sanitized=0
libs=$(ldd "$lib")   # captured: grep -q leaving a pipe early fails it under pipefail
grep -q libasan <<<"$libs" && sanitized=1
run() { # run PROGRAM: with the installed library (and the ASan runtime for a sanitizer build)
    if [ $sanitized = 1 ]; then
        (asan_preload_for "$lib" test_install >/dev/null && LD_LIBRARY_PATH="$libdir" "$@")
    else
        LD_LIBRARY_PATH="$libdir" "$@"
    fi
}

# Issue 29: a host of the shared library needs librmg's own -I and -l only. pkg-config sees the
# prefix alone (no dependency's .pc file, as on a machine without their dev packages) and still
# answers; its flags name nothing outside the prefix, librmg.pc requires no other package, and
# a host built with those flags alone includes no dependency's header, compiles and runs.
own() { PKG_CONFIG_LIBDIR="$libdir/pkgconfig" PKG_CONFIG_PATH= pkg-config "$@"; }
own_flags=$(own --cflags --libs librmg) || fail "pkg-config --cflags --libs librmg needs more than the prefix"
for word in $own_flags; do
    case "$word" in -I"$prefix"/*|-L"$prefix"/*|-lrmg) ;;
        *) fail "pkg-config --cflags --libs librmg gives more than librmg's own -I/-L/-l: '$word' in '$own_flags'" ;; esac
done
for what in --print-requires --print-requires-private; do
    req=$(own $what librmg)
    [ -z "$req" ] || fail "librmg.pc names other packages ($what): $req"
done
# Every example is such a host (-lm: some use the math library themselves).
for ex in "$src"/examples/*.c; do
    name=$(basename "$ex" .c)
    # shellcheck disable=SC2086 # pkg-config's output is a list of words
    headers=$(cc -std=c11 -M "$ex" $own_flags)
    if grep -Eq '(yaml|xxhash|png|pngconf|zlib)\.h' <<<"$headers"; then
        fail "the public headers include a dependency's header: $(grep -Eo '[^ ]*(yaml|xxhash|png|zlib)\.h' <<<"$headers" | head -n1)"
    fi
    # shellcheck disable=SC2086
    cc -std=c11 -Wall -Werror "$ex" $own_flags -lm -o "$work/$name"
    (cd "$work" && run "./$name" >/dev/null) || fail "examples/$name.c (built through pkg-config) failed"
    echo "test_install: examples/$name.c builds with librmg's own flags alone and runs"
done
echo "test_install: pkg-config --cflags --libs librmg answers from the prefix alone: $own_flags"
# The names 0.6.0 replaced still link, and warn unless the host allows them (ABI.md, Deprecation).
grep -q 'rmg_map_zone_get(' "$src/examples/replace_placement.c" || fail "examples/replace_placement.c no longer calls rmg_map_zone_get"
sed 's/rmg_map_zone_get(/rmg_map_zone(/' "$src/examples/replace_placement.c" > "$work/old_names.c"
# shellcheck disable=SC2086
if cc -std=c11 -Werror -fsyntax-only "$work/old_names.c" $own_flags 2>/dev/null; then
    fail "a deprecated name (rmg_map_zone) does not warn"
fi
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror -DRMG_ALLOW_DEPRECATED "$work/old_names.c" $own_flags -lm -o "$work/old_names"
(cd "$work" && run ./old_names >/dev/null) || fail "examples/replace_placement.c calling the deprecated rmg_map_zone failed"
echo "test_install: the deprecated names warn, and link and run with RMG_ALLOW_DEPRECATED"
if [ $sanitized = 0 ]; then
    # Static linking: Libs.private lists what librmg.a needs.
    static_libs=$(own --static --libs librmg)
    # shellcheck disable=SC2086
    cc -std=c11 "$src/examples/generate.c" $(own --cflags librmg) "$libdir/librmg.a" ${static_libs//-lrmg/} \
        -o "$work/static"
    (cd "$work" && ./static >/dev/null) || fail "examples/generate.c linked with librmg.a and pkg-config --static's flags failed"
    echo "test_install: examples/generate.c links librmg.a with pkg-config --static's flags and runs"
fi

mkdir -p "$work/fp"
cat > "$work/fp/CMakeLists.txt" <<'CM'
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
# The shared library's consumer needs no dependency's package: pkg-config is out of reach here.
cmake -S "$work/fp" -B "$work/fp/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=TRUE >/dev/null
cmake --build "$work/fp/build" >/dev/null
run "$work/fp/build/consumer" >/dev/null || fail "the find_package(rmg) consumer failed"
echo "test_install: a find_package(rmg) consumer builds and runs without pkg-config"
if [ $sanitized = 0 ]; then
    sed -i 's/find_package(rmg REQUIRED)/find_package(rmg REQUIRED COMPONENTS static)/; s/rmg::rmg)/rmg::rmg_static)/' \
        "$work/fp/CMakeLists.txt"
    cmake -S "$work/fp" -B "$work/fp/static" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build "$work/fp/static" >/dev/null
    "$work/fp/static/consumer" >/dev/null || fail "the find_package(rmg COMPONENTS static) consumer failed"
    echo "test_install: a find_package(rmg COMPONENTS static) consumer builds and runs"
fi
