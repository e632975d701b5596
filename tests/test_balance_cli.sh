#!/usr/bin/env bash
# rmg balance (a map's JSON, its .h3m, a template), --json, -o PNG; rmg generate --best-of;
# rmg stats --balance (issue 23).
set -uo pipefail
build=$1
rmg="$build/rmg"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() { # name, condition result (0 = ok)
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}

"$rmg" generate --seed 3 --quiet -o "$tmp/map.json" -o "$tmp/map.h3m"
check "generate a map" $?

"$rmg" balance --seed 3 --json > "$tmp/fresh.json"
check "balance of a template's map" $?
"$rmg" balance "$tmp/map.json" --json > "$tmp/read.json"
check "balance of a map document" $?
cmp -s "$tmp/fresh.json" "$tmp/read.json"
check "the document gives the report of the map it was written from" $?
python3 - "$tmp/read.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format"] == "rmg-balance" and len(r["players"]) >= 2
for p in r["players"]:
    assert {"player", "town", "to", "weakest_exit_guard", "value_by_day", "nearest_mine"} <= set(p)
    for t in p["to"]:
        assert {"player", "path_tiles", "path_cost", "guards", "strongest_guard", "guard_sum"} <= set(t)
assert 0 <= r["score"] <= 100 and "path_cost" in r["spread"]
EOF
check "the JSON contract" $?

out=$("$rmg" balance "$tmp/map.h3m")
check "balance of an .h3m file" $?
grep -q '^player 1: town' <<<"$out" && grep -q '^score ' <<<"$out"
check "the text report names the players and the score" $?

"$rmg" balance "$tmp/map.json" -o "$tmp/balance.png" > /dev/null && [ "$(head -c 8 "$tmp/balance.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
check "-o writes a PNG" $?
"$rmg" balance "$tmp/map.json" -o "$tmp/balance.txt" > /dev/null 2>&1
[ $? -eq 2 ]
check "-o refuses another extension" $?
"$rmg" balance "$tmp/missing.h3m" > /dev/null 2>&1
[ $? -eq 2 ]
check "an unreadable map exits 2" $?

out=$("$rmg" generate --seed 5 --size S --best-of 3 --threads 2 -o "$tmp/best.json")
check "generate --best-of" $?
line=$(printf '%s\n' "$out" | grep '^best of 3: candidate')
[ -n "$line" ]
check "generate --best-of says which candidate won and its score" $?
again=$("$rmg" generate --seed 5 --size S --best-of 3 --threads 1 | grep '^fingerprint')
[ "$again" = "$(printf '%s\n' "$out" | grep '^fingerprint')" ]
check "--best-of gives the same map on one thread" $?

out=$("$rmg" stats --size S --runs 6 --threads 2 --balance)
check "stats --balance" $?
grep -q '^balance over 6 maps' <<<"$out" && grep -q '^fairest seeds:' <<<"$out" &&
    grep -q '^  value_7 ' <<<"$out"
check "stats --balance: distributions and the fairest seeds" $?
"$rmg" stats --size S --runs 3 --balance --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert all('score' in r['balance'] for r in d['results'])"
check "stats --balance --json: a score per map" $?

# A mine no player has reads "-" in both commands (issue 29), never 0 (a mine at the town).
cat >"$tmp/nomines.yaml" <<'YAML'
version: 1
name: no mines
templates:
  - name: Pair
    min_size: 1
    max_size: 8
    players: {min_total: 2, max_total: 2}
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 20, player_towns: {castles: 1}}
      - {id: 2, kind: human_start, owner: 2, size: 20, player_towns: {castles: 1}}
    connections:
      - {a: 1, b: 2, value: 4000}
YAML
[ "$("$rmg" balance "$tmp/nomines.yaml" --size S | grep -c '^mine_gold  *-  *-  ')" = 1 ]
check "balance: a missing mine is -" $?
[ "$("$rmg" stats "$tmp/nomines.yaml" --size S --runs 2 --balance | grep -c '^  mine_gold  *-  *-  *-  ')" = 1 ]
check "stats --balance: a missing mine is - as in balance" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
