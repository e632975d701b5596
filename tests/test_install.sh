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

for ex in "$src"/examples/*.c; do
    name=$(basename "$ex" .c)
    # shellcheck disable=SC2086 # pkg-config's output is a list of words
    cc -std=c11 -Wall -Werror "$ex" $flags -lm -o "$work/$name"
    (cd "$work" && run "./$name" >/dev/null) || fail "examples/$name.c (built through pkg-config) failed"
    echo "test_install: examples/$name.c builds through pkg-config and runs"
done

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
cmake -S "$work/fp" -B "$work/fp/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/fp/build" >/dev/null
run "$work/fp/build/consumer" >/dev/null || fail "the find_package(rmg) consumer failed"
echo "test_install: a find_package(rmg) consumer builds and runs"
