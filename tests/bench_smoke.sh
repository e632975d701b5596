#!/bin/bash
# CI smoke test of the benchmark program (issue 13): it runs on the tiny case and writes a JSON
# report with the fields the issue asks for. Nothing is timed here.
# usage: bash tests/bench_smoke.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
bench="$build/bench/rmg_bench"
if [ ! -x "$bench" ]; then
    echo "rmg_bench not built (RMG_BUILD_BENCH=OFF?): nothing to check"
    exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$bench" --quick --json "$out/bench.json" > "$out/table.txt"
cat "$out/table.txt"
grep -q '^default-S ' "$out/table.txt"
grep -q '^scale-36 ' "$out/table.txt"
grep -q 'stages ms: solve' "$out/table.txt"
for key in '"wall_ms"' '"cpu_ms"' '"stage_ms_median"' '"peak_bytes"' '"maps_per_second"' '"ratio_to_floor"' \
           '"ns_per_tile"' '"fingerprint_seed1"' '"fingerprint_ms_median"'; do
    grep -q "$key" "$out/bench.json" || { echo "missing $key in the JSON report"; exit 1; }
done
# Both runs produced a map and counted memory.
[ "$(grep -c '"seeds_ok": 1' "$out/bench.json")" -eq 2 ]
! grep -q '"peak_bytes": 0,' "$out/bench.json"
if command -v python3 > /dev/null; then
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/bench.json"
fi

# --cases selects, and an unknown case is a usage error.
"$bench" --cases default-S --seeds 1 --no-scaling > "$out/one.txt"
[ "$(grep -c '^default-S ' "$out/one.txt")" -eq 1 ]
if "$bench" --cases no-such-case --no-scaling > /dev/null 2>&1; then
    echo "an unknown case was accepted"
    exit 1
fi
# rmg_ab_bench: the same library on both sides, on the built-in pack: it runs, pairs the maps and
# times the export.
ab="$build/bench/rmg_ab_bench"
if [ -x "$ab" ] && [ -e "$build/librmg.so" ]; then
    "$ab" "$build/librmg.so" "$build/librmg.so" builtin --size 36 --levels 1 --seeds 2 --rounds 1 > "$out/ab.txt"
    cat "$out/ab.txt"
    grep -q '^2 maps each (1 rounds x seeds 1..2), 36x36x1' "$out/ab.txt"
    grep -q 'per-map ratio new/base median' "$out/ab.txt"
    grep -q 'new .h3m export median' "$out/ab.txt"
    if "$ab" "$build/librmg.so" "$build/librmg.so" builtin --no-such-option > /dev/null 2>&1; then
        echo "rmg_ab_bench accepted an unknown option"
        exit 1
    fi
fi
echo "bench smoke test passed"
