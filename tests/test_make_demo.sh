#!/usr/bin/env bash
# `make demo` builds only what the demo needs (issue 21): the library and the command, not the
# tests or the benchmarks. Usage: test_make_demo.sh BUILD_DIR SOURCE_DIR (reads the Makefile only).
set -uo pipefail
cd "$2" || exit 1
plan=$(make -n demo RELEASE_DIR=build/demo-plan 2>&1)
build=$(grep -- 'cmake --build build/demo-plan' <<<"$plan")
if [ -z "$build" ]; then echo "FAIL: make demo does not build"; echo "$plan"; exit 1; fi
case "$build" in
    *"--target rmg rmg_tool"*) ;;
    *) echo "FAIL: make demo builds more than the library and the command: $build"; exit 1 ;;
esac
grep -q -- '-DRMG_BUILD_TESTS=OFF' <<<"$plan" || { echo "FAIL: make demo configures the tests"; exit 1; }
echo "test_make_demo: make demo builds the library and the command only"
