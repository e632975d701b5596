#!/usr/bin/env bash
# rmg check / rmg convert (issue 4): exit codes 0 valid, 1 errors, 2 unreadable; YAML output
# that reads back; --help. Arguments: build dir, source dir.
set -uo pipefail
build=$1
src=$2
rmg="$build/rmg"
. "$src/tests/support/shared.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # name expected-status command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $name: exit $got, expected $want"; cat "$tmp/out" "$tmp/err"; fi
}
contains() { # name file text
    if grep -qF -- "$3" "$2"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $1: '$3' not in output"; cat "$2"; fi
}

check "check --help" 0 "$rmg" check --help
contains "check help text" "$tmp/out" "exit status: 0 no errors"
check "convert --help" 0 "$rmg" convert --help
check "check without file" 2 "$rmg" check
check "check missing file" 2 "$rmg" check "$tmp/nope.yaml"
contains "missing file message" "$tmp/err" "cannot open"

check "built-in pack is valid" 0 "$rmg" check "$src/templates/default.yaml"
contains "summary" "$tmp/out" "0 error(s), 0 warning(s)"

cat >"$tmp/bad.yaml" <<'YAML'
templates:
  - name: T
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles: 1}}
    connections:
      - {a: 1, b: 4, value: 5000}
YAML
check "errors found" 1 "$rmg" check "$tmp/bad.yaml"
contains "error names file:line:col and connection" "$tmp/out" \
    "bad.yaml:6:9: error: template 'T', connection 1: connects zone 4, which does not exist [dangling-zone]"
# A syntax error is a defect of the template (exit 1), printed like the others; exit 2 is for
# files that cannot be read.
printf 'templates: [\n' >"$tmp/broken.yaml"
check "syntax error" 1 "$rmg" check "$tmp/broken.yaml"
contains "syntax error located" "$tmp/out" "broken.yaml:2:1: error: YAML: "
contains "syntax error code" "$tmp/out" "[parse]"
check "binary file" 2 "$rmg" check "$rmg"
contains "binary file message" "$tmp/err" "not a text file"

# Every defect, not only the first (issue 21): two bad values and an unknown key in YAML ...
cat >"$tmp/many.yaml" <<'YAML'
templates:
  - name: T
    min_size: lots
    colour: blue
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 1, player_towns: {castles: 1}}
      - {id: 2, kind: treasure, size: -3, player_towns: {castles: 1}, moods: {x: 1}}
    connections:
      - {a: 1, b: 4, value: 5000}
YAML
check "every defect" 1 "$rmg" check "$tmp/many.yaml"
contains "first defect" "$tmp/out" "many.yaml:3:15: error: "
contains "second defect" "$tmp/out" "many.yaml:4:5: error: unknown key 'colour' in template [parse]"
contains "third defect" "$tmp/out" "many.yaml:7:71: error: unknown key 'moods' in zone [parse]"
contains "and the checks after reading" "$tmp/out" "connects zone 4, which does not exist [dangling-zone]"
# ... and in h3t: a row that lost a cell says so, and the rows after it are checked too.
if have_shared corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__Jebus_Cross.h3t; then
    jebus="$shared/corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__Jebus_Cross.h3t"
    awk 'BEGIN { FS = OFS = "\t" } NR == 6 || NR == 8 { $40 = ""; $0 = $0; sub("\t\t", "\t") } { print }' \
        "$jebus" >"$tmp/cells.h3t"
    check "h3t defects" 1 "$rmg" check --quiet "$tmp/cells.h3t"
    contains "missing cell" "$tmp/out" "row 6 has 138 cells, the header has 139"
    contains "the next bad row too" "$tmp/out" "cells.h3t:8:"
    if grep -q 'error(s)' "$tmp/out"; then fail=$((fail + 1)); echo "FAIL: --quiet printed the count"; else
        pass=$((pass + 1)); fi
fi
check "quiet on a clean file" 0 "$rmg" check --quiet "$src/templates/default.yaml"
if [ -s "$tmp/out" ]; then fail=$((fail + 1)); echo "FAIL: --quiet printed something for a clean file"; else
    pass=$((pass + 1)); fi

check "convert builtin" 0 "$rmg" convert builtin "$tmp/b.yaml"
check "converted file is valid" 0 "$rmg" check "$tmp/b.yaml"
check "convert yaml to yaml" 0 "$rmg" convert "$tmp/b.yaml" "$tmp/c.yml"
if cmp -s "$tmp/b.yaml" "$tmp/c.yml"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: yaml->yaml changed"; fi
check "unsupported output" 2 "$rmg" convert builtin "$tmp/x.json"
contains "output message" "$tmp/err" "the output is .yaml, .yml or .h3t"
check "convert --help lists only what works" 0 "$rmg" convert --help
if grep -q '\.json' "$tmp/out"; then fail=$((fail + 1)); echo "FAIL: convert --help promises .json output"; else
    pass=$((pass + 1)); fi

# YAML to HotA .h3t and back (issue 21): the file checks, and reading it gives the same templates.
# The templates' player filters have no h3t column: they go into the zones' restrictions, which
# take the same setups (issue 29), so the maps are the same and nothing is reported lost.
check "convert builtin to h3t" 0 "$rmg" convert builtin "$tmp/b.h3t"
if grep -q "player filter" "$tmp/err"; then fail=$((fail + 1)); echo "FAIL: the player filter is reported lost"; else
    pass=$((pass + 1)); fi
check "the h3t file checks" 0 "$rmg" check --quiet "$tmp/b.h3t"
check "h3t back to yaml" 0 "$rmg" convert "$tmp/b.h3t" "$tmp/b2.yaml"
if grep -q '^  players: ' "$tmp/b2.yaml" || ! grep -q '^    players: {min_total: 2, max_total: 2}$' "$tmp/b2.yaml"; then
    fail=$((fail + 1)); echo "FAIL: the template filters are not in the zones' restrictions"; else pass=$((pass + 1)); fi
for setup in "--seed 1" "--seed 2 --size M" "--players 3 --size L" "--players 4 --size L --seed 3"; do
    # shellcheck disable=SC2086 # the setups are word lists
    a=$("$rmg" generate "$tmp/b.yaml" $setup | grep '^fingerprint'); b=$("$rmg" generate "$tmp/b.h3t" $setup | grep '^fingerprint')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: the h3t file gives another map for $setup ($a, $b)"; fi
done
check "h3t yaml to yaml" 0 "$rmg" convert "$tmp/b2.yaml" "$tmp/b4.yaml"
if cmp -s "$tmp/b2.yaml" "$tmp/b4.yaml"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: yaml of h3t changed"; fi
check "h3t from yaml again" 0 "$rmg" convert "$tmp/b2.yaml" "$tmp/b3.h3t"
if cmp -s "$tmp/b.h3t" "$tmp/b3.h3t"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: h3t -> yaml -> h3t changed the file"; fi
check "the 1.7 layout" 0 "$rmg" convert --h3t 1.7 builtin "$tmp/b17.h3t"
if head -4 "$tmp/b17.h3t" | tail -1 | grep -q "^11	10	4	8	10	18	4	"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: --h3t 1.7 does not write the 1.7 field counts"; fi
check "bad h3t version" 2 "$rmg" convert --h3t 1.9 builtin "$tmp/x.h3t"
check "bad format" 2 "$rmg" convert --from klingon builtin "$tmp/x.yaml"

# One vocabulary across commands (issue 29): check reads --from as convert does (--format stays
# its alias); an output that cannot be written exits 2 in convert as in generate; bad values name
# the valid ones and the nearest.
check "check --from" 0 "$rmg" check --quiet --from yaml "$tmp/b.yaml"
check "check --format (alias)" 0 "$rmg" check --quiet --format yaml "$tmp/b.yaml"
check "check --from bad" 2 "$rmg" check --from klingon "$tmp/b.yaml"
check "convert: unwritable output" 2 "$rmg" convert builtin "$tmp/no/such/dir/x.yaml"
check "generate: unwritable output" 2 "$rmg" generate --size S -o "$tmp/no/such/dir/x.json"
# Every output is checked before generating (issue 29): a size the .h3m format lacks is refused
# before anything is written, the PNG named first included.
check "generate: an .h3m size the game lacks" 2 "$rmg" generate --size 50x70 -o "$tmp/x.png" -o "$tmp/x.h3m"
contains "the size refusal" "$tmp/err" "cannot write '$tmp/x.h3m': the format holds square maps of 36, 72, 108, 144, 180, 216 or 252 tiles; this one is 50x70"
if [ -e "$tmp/x.png" ]; then fail=$((fail + 1)); echo "FAIL: the PNG was written before the .h3m was refused"; else
    pass=$((pass + 1)); fi
check "generate: a SoD map larger than XL" 2 "$rmg" generate --size XH --game sod -o "$tmp/x.h3m"
contains "the SoD refusal" "$tmp/err" "SoD maps are at most 144x144 (XL)"
check "generate: a non-square map without .h3m" 0 "$rmg" generate --quiet --size 72x60 -o "$tmp/x.png"
# A wide link the map cannot open on the ground says so in the warnings and the JSON (issue 29).
cat >"$tmp/widelevels.yaml" <<'YAML'
templates:
  - name: Levels
    players: {min_total: 2, max_total: 2}
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 20, player_towns: {castles: 1}, placement: surface}
      - {id: 2, kind: human_start, owner: 2, size: 20, player_towns: {castles: 1}, placement: surface}
      - {id: 3, kind: treasure, size: 20, placement: underground}
    connections:
      - {a: 1, b: 2, value: 4000}
      - {a: 2, b: 3, type: wide}
YAML
check "generate: a wide link on two levels" 0 "$rmg" generate "$tmp/widelevels.yaml" --size M --underground -o "$tmp/wl.json"
contains "the warning" "$tmp/out" "connection 2 (zones 2-3) is wide, built as a subterranean gate pair, unguarded: the zones lie on different levels"
contains "the JSON's why" "$tmp/wl.json" '"why":"wide, built as a subterranean gate pair, unguarded: the zones lie on different levels"'
check "generate: near value" 2 "$rmg" generate --water nromal
contains "the nearest value" "$tmp/err" "bad value 'nromal' for --water; did you mean 'normal'? (one of none, normal, islands)"
check "generate: town" 2 "$rmg" generate --town 1=neutral
contains "the towns accepted" "$tmp/err" "(one of castle, rampart, tower, inferno, necropolis, dungeon, stronghold, fortress, conflux, cove, factory, random)"
check "unknown command" 2 "$rmg" genrate
contains "the nearest command" "$tmp/err" "unknown command 'genrate'; did you mean 'generate'?"
printf 'templates:\n  - name: t\n    connections:\n      - {a: 1, b: 2, type: wyde}\n' >"$tmp/wyde.yaml"
check "a bad value in a template" 1 "$rmg" check --quiet "$tmp/wyde.yaml"
contains "the template's nearest value" "$tmp/out" "'type': unknown value 'wyde'; did you mean 'wide'? (one of standard, wide, border_guard, fictive)"

# A corpus h3t pack converts when the importer is built in (2 = unsupported format otherwise).
h3t="$shared/corpus/h3t/sokie__heroes3-template-util__templates__hota_complete__Jebus_Cross.h3t"
if have_shared "${h3t#"$shared"/}"; then
    "$rmg" convert "$h3t" "$tmp/jebus.yaml" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st -eq 0 ]; then
        check "converted h3t reads back" 0 "$rmg" check --quiet "$tmp/jebus.yaml"
        contains "template name kept" "$tmp/jebus.yaml" "Jebus Cross"
    elif grep -q "not supported" "$tmp/err"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL h3t convert: exit $st"; cat "$tmp/err"; fi
fi

# A VCMI JSON template converts the same way (format detected from the leading '{').
vcmi=$(ls "$shared"/corpus/vcmi/heroes3/*.json 2>/dev/null | head -n1)
if have_shared corpus/vcmi/heroes3 && [ -n "$vcmi" ]; then
    "$rmg" convert "$vcmi" "$tmp/vcmi.yaml" >"$tmp/out" 2>"$tmp/err"
    st=$?
    if [ $st -eq 0 ]; then
        check "converted VCMI template reads back" 0 "$rmg" check --quiet "$tmp/vcmi.yaml"
        check "VCMI file checks" 0 "$rmg" check --quiet "$vcmi"
    elif grep -q "not supported" "$tmp/err"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL vcmi convert: exit $st"; cat "$tmp/err"; fi
fi

# Issue 20, item 1: each player's town (--town P=TOWN), limited by the pack's allowed towns (MIS-37).
probe="$src/tests/probes/town_choice.yaml"
check "generate with a town choice" 0 "$rmg" generate "$probe" --size M --town 1=tower --town 2=random --seed 2
check "town outside the pack's list" 2 "$rmg" generate "$probe" --size M --town 1=rampart
contains "choice refused with the list" "$tmp/err" "player 1's town 'rampart' is not among the pack's allowed towns (castle, tower, conflux) (MIS-37)"
check "bad --town" 2 "$rmg" generate "$probe" --town 9=castle
check "unknown town" 2 "$rmg" generate "$probe" --town 1=elves

# Issue 20, item 9: a template `rmg check` rejects is not generated; the pack's valid ones are,
# and the map says which was left out; with none left the errors are printed.
cat >"$tmp/mixed.yaml" <<'YAML'
version: 1
name: mixed
templates:
  - name: Broken
    players: {min_total: 2, max_total: 2}
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 10, player_towns: {castles: 1}}
      - {id: 2, kind: human_start, owner: 2, size: 10, player_towns: {castles: 1}}
      - {id: 4, kind: treasure, size: 5, players: {min_humans: 3, max_humans: 1}}
      - {id: 4, kind: treasure, size: 5}
    connections:
      - {a: 1, b: 2, value: 3000}
      - {a: 1, b: 3, value: 3000}
  - name: Good
    players: {min_total: 2, max_total: 2}
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 10, player_towns: {castles: 1}}
      - {id: 2, kind: human_start, owner: 2, size: 10, player_towns: {castles: 1}}
    connections:
      - {a: 1, b: 2, value: 3000}
  - name: Good
    players: {min_total: 2, max_total: 2}
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 12, player_towns: {castles: 1}}
      - {id: 2, kind: human_start, owner: 2, size: 12, player_towns: {castles: 1}}
    connections:
      - {a: 1, b: 2, value: 6000}
  - name: Empty
    zones: []
YAML
check "check rejects the broken template" 1 "$rmg" check --quiet "$tmp/mixed.yaml"
check "generate uses the valid templates" 0 "$rmg" generate "$tmp/mixed.yaml" --size S --seed 1
contains "the broken one is named" "$tmp/out" "select: template 'Broken' is not used: \`rmg check\` finds 3 error(s) in it"
contains "a duplicate zone id" "$tmp/out" "zone number 4 is used twice"
check "generate refuses the broken template" 1 "$rmg" generate "$tmp/mixed.yaml" --size S --template Broken
contains "errors in the message" "$tmp/err" "template 'Broken' cannot be generated"
contains "errors printed" "$tmp/err" "connects zone 3, which does not exist [dangling-zone]"
contains "min humans above max" "$tmp/err" "minimum humans 3 exceeds maximum 1 [players-range]"
check "one of two templates named Good" 0 "$rmg" generate "$tmp/mixed.yaml" --size S --template Good --seed 1
contains "which one was taken" "$tmp/out" "the pack has 2 templates named 'Good': the 1st that accepts this setup was used"
contains "how to pick another" "$tmp/out" "pick another with the name 'Good#K' (K = 1..2, in file order)"
"$rmg" generate "$tmp/mixed.yaml" --size S --template 'Good#1' --seed 1 | grep fingerprint >"$tmp/fp1"
"$rmg" generate "$tmp/mixed.yaml" --size S --template 'Good#2' --seed 1 | grep fingerprint >"$tmp/fp2"
if ! cmp -s "$tmp/fp1" "$tmp/fp2" && [ -s "$tmp/fp1" ] && [ -s "$tmp/fp2" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL Good#1 and Good#2 give the same map"; fi
check "a template without zones is only a warning" 1 "$rmg" check --quiet "$tmp/mixed.yaml"
"$rmg" check "$tmp/mixed.yaml" >"$tmp/out" 2>&1
contains "no zones warning" "$tmp/out" "template 'Empty': the template has no zones: it is never chosen [no-zones]"

# Real files the game plays: SoD's h3dm1 (connection rows with Zone 2 = -1, not a mirror pack).
h3dm1="$shared/corpus/sod/sokie__heroes3-template-util__templates__sod_complete__h3dm1__rmg.txt"
if [ -f "$h3dm1" ]; then
    check "h3dm1 checks with warnings" 0 "$rmg" check --quiet "$h3dm1"
    check "h3dm1 generates" 0 "$rmg" generate "$h3dm1" --seed 1
fi

echo "$pass passed, $fail failed"
shared_exit "$fail"
