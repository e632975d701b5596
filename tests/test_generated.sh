#!/bin/bash
# The generated C tables are what their scripts make from the shared fact tables: regenerating
# into a temporary folder gives the committed files (h3t classes, .h3m templates). After a hand
# edit, carry it into the script. Usage: test_generated.sh BUILD_DIR SOURCE_DIR
set -u
src="$2"
. "$src/tests/support/shared.sh"
need_shared data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
check() { # check SCRIPT ARG_DIR COMMITTED
    python3 "$src/scripts/$1" "$2" "$tmp/out.c" || { echo "FAIL: $1 exited $?"; status=1; return; }
    if ! diff -u "$src/$3" "$tmp/out.c" > "$tmp/diff.txt"; then
        echo "FAIL: $3 differs from the output of scripts/$1:"
        head -20 "$tmp/diff.txt"
        status=1
    fi
}
check gen-h3t-classes.py "$shared" lib/template/h3t/h3t_classes.c
check gen-h3m-templates.py "$shared/data" lib/export/h3m/h3m_templates.c
[ $status -eq 0 ] && echo "ok"
exit $status
