#!/usr/bin/env bash
# The Python bindings' tests (tests/python, pytest) against BUILD_DIR's librmg.so.
# Usage: bash tests/python_tests.sh BUILD_DIR SOURCE_DIR [plain|shared|corpus-full]
# The part (default: every test) selects by pytest marker (tests/python/conftest.py): "plain" the
# tests that need nothing outside the checkout, "shared" those that read a few files of the
# shared folder, "corpus-full" the slow runs over the whole corpus (CTest: python_tests,
# python_tests.shared, python_corpus_full; the last has the corpus-full label, left to CI).
# The shared parts exit 77 (skipped) without the shared folder.
#
# A sanitizer build's librmg.so needs the ASan runtime preloaded (tests/support/asan.sh).
set -euo pipefail
build=$(cd "${1:?usage: python_tests.sh BUILD_DIR SOURCE_DIR}" && pwd)
src=$(cd "${2:?usage: python_tests.sh BUILD_DIR SOURCE_DIR}" && pwd)
part=${3:-all}
. "$src/tests/support/shared.sh"
case "$part" in
    all) markers=() ;;
    plain) markers=(-m "not shared") ;;
    shared) need_shared corpus; markers=(-m "shared and not corpus_full") ;;
    corpus-full) need_shared corpus; markers=(-m "corpus_full") ;;
    *) echo "python_tests: unknown part '$part' (plain, shared or corpus-full)"; exit 2 ;;
esac
lib="$build/librmg.so"
if [ ! -e "$lib" ]; then
    echo "python_tests: $lib does not exist (build the 'rmg' target first)"
    exit 1
fi

# The first python3 on PATH that has pytest and jsonschema (Debian's python3-pytest and
# python3-jsonschema live in /usr/bin/python3's path; another python3 may come first on PATH).
py=""
for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import pytest, jsonschema" >/dev/null 2>&1; then
        py=$candidate
        break
    fi
done
if [ -z "$py" ]; then
    echo "python_tests: no python3 with pytest and jsonschema (scripts/setup.sh installs python3-pytest, python3-jsonschema)"
    exit 1
fi

export RMG_LIBRARY="$lib"
export RMG_SOURCE_DIR="$src"
export RMG_SHARED_DIR="$shared"
export PYTHONPATH="$src/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1 # keep __pycache__ out of the source tree

. "$src/tests/support/asan.sh"
if asan_preload_for "$lib" python_tests; then
    export RMG_TEST_ASAN=1
fi

cd "$src"
echo "python_tests: $("$py" --version 2>&1), library $lib"
exec "$py" -m pytest -q -o cache_dir="$build/.pytest_cache" "${markers[@]}" tests/python
