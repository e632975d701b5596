#!/bin/bash
# The embedded YAML (content/*.yaml) is what scripts/gen-content.py makes from the fact tables:
# regenerating into a temporary folder gives the same files. After a hand edit of the YAML,
# carry the edit into the script (or the tables) too. Usage: test_content_gen.sh BUILD_DIR SOURCE_DIR
set -u
src="$2"
. "$src/tests/support/shared.sh"
need_shared data
data="$shared/data"
if ! command -v python3 > /dev/null; then
    echo "SKIP: python3 not found"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/scripts/gen-content.py" "$data" "$tmp" || { echo "FAIL: generator exited $?"; exit 1; }
status=0
for f in "$src"/content/*.yaml; do
    if ! diff -u "$f" "$tmp/$(basename "$f")" > "$tmp/diff.txt"; then
        echo "FAIL: $(basename "$f") differs from the generator's output:"
        head -40 "$tmp/diff.txt"
        status=1
    fi
done
[ "$(ls "$tmp"/*.yaml | wc -l)" -eq "$(ls "$src"/content/*.yaml | wc -l)" ] || { echo "FAIL: file sets differ"; status=1; }
[ $status -eq 0 ] && echo "ok"
exit $status
