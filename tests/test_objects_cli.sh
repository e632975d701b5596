#!/usr/bin/env bash
# rmg objects: the effective object list as text and JSON (OBJ-04, RUL, OBJ-07), exit codes.
set -uo pipefail
build=$1
rmg="$build/rmg"
src=$2
. "$src/tests/support/shared.sh"
passed=0
failed=0
check() { # name, condition result (0 = ok)
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}

json=$("$rmg" objects --json); rc=$?
check "defaults --json exit 0" $rc

if have_shared data/object-defaults.tsv; then
# Member names are the columns of object-defaults.tsv; the keys are the rows of L0 (OBJ-04).
printf '%s' "$json" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
tsv = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
head, body = tsv[0], tsv[1:]
assert all(sorted(r.keys()) == sorted(head) for r in rows), "member names"
want = {r[0] for r in body if r[11] == "no" and r[3] not in ("mine", "airship_yard")}
got = [r["key"] for r in rows]
assert len(got) == len(set(got)) == len(want) and set(got) == want, "keys"
arena = next(r for r in rows if r["key"] == "arena")
assert arena["value"] == 3000 and arena["frequency"] == 50 and arena["max_map"] == 32, arena
assert arena["max_zone"] == "unlimited" and arena["max_map_fixed"] is True, arena
assert "highlands" in arena["terrains"] and isinstance(arena["terrains"], list)
dw = next(r for r in rows if r["key"] == "creature_dwelling")
assert dw["value"] == "formula", dw
assert next(r for r in rows if r["key"] == "prison_level_1")["max_map"] == "rule"
' "$shared/data/object-defaults.tsv"
check "JSON columns, L0 keys and values" $?
fi

# The built-in template Duet edits pyramid (frequency 10, max_map 2) and forbids eye_of_the_magi.
"$rmg" objects Duet --zone 1 --json | python3 -c '
import json, sys
rows = {r["key"]: r for r in json.load(sys.stdin)}
p = rows["pyramid"]
assert p["frequency"] == 10 and p["max_map"] == 2, p
assert "eye_of_the_magi" not in rows
'
check "template rules reach the zone list" $?

text=$("$rmg" objects); rc=$?
check "text exit 0" $rc
grep -q '^arena  *regular  *3000  *50  *32 yes' <<<"$text"
check "text arena row" $?

"$rmg" objects --zone 1 >/dev/null 2>&1
[ $? -eq 2 ]
check "--zone without template: exit 2" $?
"$rmg" objects Duet --zone 99 >/dev/null 2>&1
[ $? -eq 2 ]
check "unknown zone: exit 2" $?
"$rmg" objects no-such-template >/dev/null 2>&1
[ $? -eq 2 ]
check "unknown template: exit 2" $?
"$rmg" objects --help | grep -q 'usage: rmg objects'
check "--help" $?

echo "test_objects_cli: $passed passed, $failed failed"
shared_exit "$failed"
