#!/bin/bash
# rmg info --content: counts per kind for both built-in variants; a bad merge file is
# reported with file:line:col and exit code 2. Usage: test_content_cli.sh BUILD_DIR SOURCE_DIR
set -u
rmg="$1/rmg"
fail() { echo "FAIL: $*"; exit 1; }
out=$("$rmg" info --content) || fail "rmg info --content exited $?"
echo "$out" | grep -q "objects *188" || fail "no 188 objects in: $out"
echo "$out" | grep -q "creatures *182" || fail "no 182 creatures in: $out"
json=$("$rmg" info --content --sod --json) || fail "rmg info --sod --json exited $?"
echo "$json" | grep -q '"variant": "sod"' || fail "not sod: $json"
echo "$json" | grep -q '"creatures": 146' || fail "SoD creature count: $json"
list=$("$rmg" info --list factions) || fail "rmg info --list exited $?"
echo "$list" | grep -q "^  neutral  *Neutral" || fail "no neutral faction in: $list"
"$rmg" info --list factions --json | grep -q '"factions": \[{"key": "castle", "name": "Castle"}' || fail "JSON list"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
printf 'creatures:\n  pikeman: {level: 12}\n' > "$tmp"
err=$("$rmg" info --merge "$tmp" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "bad merge exit code $rc"
echo "$err" | grep -q "$tmp:2:20: creature 'pikeman'" || fail "message: $err"
echo "ok"
