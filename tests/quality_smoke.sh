#!/bin/bash
# CI smoke test of the quality measurement program (bench/QUALITY.md): 2 corpus templates x 1
# seed; the program runs, prints its table with the issue 6/7/8 rows and writes a JSON report.
# usage: bash tests/quality_smoke.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
quality="$build/bench/rmg_quality"
if [ ! -x "$quality" ]; then
    echo "rmg_quality not built (RMG_BUILD_BENCH=OFF?): nothing to check"
    exit 0
fi
. "$src/tests/support/shared.sh"
need_shared corpus
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$quality" --corpus "$shared/corpus" --seeds 1 --limit 2 --json "$out/q.json" > "$out/table.txt"
cat "$out/table.txt"
grep -Eq '^templates +2 +[0-9]+ +[0-9]+ +2$' "$out/table.txt"
grep -Eq '^maps \(templates x seeds\) .* 2$' "$out/table.txt"
for row in 'generation succeeded' '#6 share error median, rock masses on' '#6 ground links realized' \
           '#6 zones that are one region' '#7 connections realized' '#7 towns/mines/entrances reached' \
           '#7 zones with a connected free area' '#7 road-joined towns joined by road' \
           '#8 object entries reachable' '#8 groups placed / requested, all' '#8 TRS-04 groups checked' \
           'guards: strength_total != rmg_guard_total'; do
    grep -qF "$row" "$out/table.txt" || { echo "missing row: $row"; exit 1; }
done
# The maps were measured: groups and monsters were seen.
grep -Eq '^#8 TRS-04 groups checked +[1-9]' "$out/table.txt"
grep -Eq '^guards: monsters checked +[1-9]' "$out/table.txt"
for key in '"success_pct"' '"share_error_rock_on_pct"' '"ground_links_pct"' '"connections_silent_pct"' \
           '"road_towns_pct"' '"groups_placed_pct"' '"trs_next_violations"' '"guard_total_mismatches"'; do
    grep -q "$key" "$out/q.json" || { echo "missing $key in the JSON report"; exit 1; }
done
if command -v python3 > /dev/null; then
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/q.json"
fi
# --filter that matches nothing generates nothing and fails; a bad option is a usage error.
if "$quality" --corpus "$shared/corpus" --seeds 1 --filter no-such-template-anywhere > /dev/null 2>&1; then
    echo "an empty selection was not reported"
    exit 1
fi
if "$quality" --no-such-option > /dev/null 2>&1; then
    echo "an unknown option was accepted"
    exit 1
fi
echo "quality smoke test passed"
