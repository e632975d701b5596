#!/usr/bin/env bash
# rmg guard: GRD-10/11 vectors through the command, JSON output, --creatures, exit codes.
set -uo pipefail
build=$1
rmg="$build/rmg"
passed=0
failed=0
check() { # name, condition result (0 = ok)
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
field() { # output, label -> value
    printf '%s\n' "$1" | sed -n "s/^$2 *//p"
}

out=$("$rmg" guard --value 9000 --zone-strength strong --map-strength strong); rc=$?
check "grd10 #1 exit" $rc
[ "$(field "$out" 'strength index')" = 5 ] && [ "$(field "$out" total)" = 19500 ] && [ "$(field "$out" guard)" = yes ]
check "grd10 #1 index 5, total 19500, guarded" $?

out=$("$rmg" guard --value 5000 --zone-strength weak --map-strength weak)
[ "$(field "$out" 'strength index')" = 1 ] && [ "$(field "$out" total)" = 1250 ] && [[ "$(field "$out" guard)" == no* ]]
check "grd10 #4 1250 unguarded" $?

out=$("$rmg" guard --value 6000 --zone-strength weak --map-strength strong --connection)
[ "$(field "$out" 'strength index')" = 4 ] && [ "$(field "$out" total)" = 9250 ]
check "grd10 #5 connection: zone term 0" $?

out=$("$rmg" guard --value 1833 --zone-strength strong --map-strength normal)
[ "$(field "$out" total)" = 1999.5 ] && [[ "$(field "$out" guard)" == no* ]]
check "grd11 1999.5 is not guarded" $?

out=$("$rmg" guard --value 3000)
[ "$(field "$out" total)" = 2000 ] && [ "$(field "$out" guard)" = yes ]
check "grd11 exactly 2000 is guarded (defaults medium/normal)" $?

out=$("$rmg" guard --value 50000 --zone-strength none)
[[ "$(field "$out" 'strength index')" == none* ]] && [[ "$(field "$out" guard)" == no* ]]
check "zone strength none: content unguarded" $?
out=$("$rmg" guard --value 50000 --zone-strength none --connection)
[ "$(field "$out" guard)" = yes ]
check "zone strength none: connection still guarded" $?

json=$("$rmg" guard --value 12000 --zone-strength medium --map-strength normal --json --creatures --seed 4)
python3 - "$json" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["strength_index"] == 3 and d["total"] == 15500 and d["guarded"] is True, d
assert d["creatures"], "no eligible creature listed"
for c in d["creatures"]:
    assert c["window_min"] <= 15500 / c["ai_value"] < 100, c
    assert c["mean"] == int(15500 / c["ai_value"] + 0.5), c
assert d["draw"]["creature"] in {c["key"] for c in d["creatures"]}, d["draw"]
lo = d["draw"]["mean"] - d["draw"]["mean"] // 4
assert lo <= d["draw"]["count"] <= d["draw"]["mean"] + d["draw"]["mean"] // 4
assert 4 <= d["draw"]["disposition"] <= 10  # the default mood: hostile
PY
check "json with creatures and a draw" $?

out=$("$rmg" guard --value 9000 --zone-strength strong --map-strength strong --creatures --factions castle)
grep -q '^  zealot ' <<<"$out" && ! grep -q ' neutral ' <<<"$out"
check "--creatures lists the zealot, --factions castle only" $?

"$rmg" guard --help >/dev/null; check "--help exits 0" $?
"$rmg" guard --zone-strength weak >/dev/null 2>&1; [ $? -eq 2 ]; check "missing --value exits 2" $?
"$rmg" guard --value 10 --zone-strength huge >/dev/null 2>&1; [ $? -eq 2 ]; check "bad strength exits 2" $?
"$rmg" guard --value -5 >/dev/null 2>&1; [ $? -eq 2 ]; check "negative value exits 2" $?
"$rmg" guard --value 10 --factions elves >/dev/null 2>&1; [ $? -eq 2 ]; check "bad faction exits 2" $?
"$rmg" guard --value 10 --bogus >/dev/null 2>&1; [ $? -eq 2 ]; check "unknown option exits 2" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
