#!/usr/bin/env bash
# Determinism across builds and threads (issue 12, ABI.md behavioural promise): the same
# template, options and seed give the same map whatever the build (-O0, -O2, ASan+UBSan) and
# however many threads `rmg stats` uses. Builds the rmg command three ways, prints per-seed
# fingerprints for a set of templates with 1 and 2 threads, compares them all, and compares the
# JSON and .h3m (HotA and SoD) bytes of one map per case.
#   scripts/check-determinism.sh            (builds in build/det-*; RUNS=N seeds per case, default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${RMG_SHARED_DIR:-../shared}
runs=${RUNS:-3}
jobs=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A flavours=(
  [O0]="-DCMAKE_BUILD_TYPE=Debug"
  [O2]="-DCMAKE_BUILD_TYPE=RelWithDebInfo"
  [asan]="-DCMAKE_BUILD_TYPE=Debug -DRMG_SANITIZE=ON"
)
# Cases: "FILE|TEMPLATE|SIZE|LEVELS" (FILE empty: the built-in pack; FILE is under the shared folder;
# LEVELS may carry further options: a water map).
cases=(
  "|Duet|S|--no-underground"
  "|Duet|M|--underground"
  "|Quartet|M|--no-underground"
  "|Duet|M|--no-underground --water islands"
  "corpus/sod/sokie__heroes3-template-util__templates__sod_complete__2SM2c__rmg.txt|2SM2c(sc2tv tourney edition)|M|--no-underground"
  "corpus/h3t/sokie__heroes3-template-util__templates__jebus_converted.h3t|Jebus Cross|M|--no-underground"
)

t0=$SECONDS
for f in O0 O2 asan; do
  dir=build/det-$f
  # shellcheck disable=SC2086
  cmake -S . -B "$dir" ${flavours[$f]} -DRMG_BUILD_TESTS=OFF -DRMG_BUILD_BENCH=OFF >/dev/null
  cmake --build "$dir" --target rmg_tool -j "$jobs" >/dev/null
  for i in "${!cases[@]}"; do
    IFS='|' read -r file tpl size levels <<<"${cases[$i]}"
    args=()
    [ -n "$file" ] && args+=("$shared/$file")
    read -r -a level_args <<<"$levels" # the levels flag and any further options (water)
    args+=(--template "$tpl" --size "$size" "${level_args[@]}")
    for threads in 1 2; do
      "$dir/rmg" stats "${args[@]}" --runs "$runs" --threads "$threads" --fingerprints \
        | grep -E '^seed ' >"$work/$f.$i.t$threads" || true
    done
    "$dir/rmg" generate "${args[@]}" --seed 1 --quiet -o "$work/$f.$i.json" -o "$work/$f.$i.h3m"
    "$dir/rmg" generate "${args[@]}" --seed 1 --game sod --quiet -o "$work/$f.$i.sod.h3m" 2>/dev/null || true
  done
  echo "determinism: built and ran $f ($((SECONDS - t0)) s so far)"
done

fail=0
for i in "${!cases[@]}"; do
  ref=$work/O0.$i.t1
  if [ ! -s "$ref" ]; then
    echo "determinism: case ${cases[$i]}: no map generated"; fail=1; continue
  fi
  for f in O0 O2 asan; do
    for threads in 1 2; do
      cmp -s "$ref" "$work/$f.$i.t$threads" || { echo "DIFFER: case ${cases[$i]}: $f with $threads thread(s)"; \
        diff "$ref" "$work/$f.$i.t$threads" | head -5; fail=1; }
    done
    cmp -s "$work/O0.$i.json" "$work/$f.$i.json" || { echo "DIFFER: case ${cases[$i]}: JSON of $f"; fail=1; }
    cmp -s "$work/O0.$i.h3m" "$work/$f.$i.h3m" || { echo "DIFFER: case ${cases[$i]}: .h3m of $f"; fail=1; }
    if [ -f "$work/O0.$i.sod.h3m" ]; then
      cmp -s "$work/O0.$i.sod.h3m" "$work/$f.$i.sod.h3m" || { echo "DIFFER: case ${cases[$i]}: SoD .h3m of $f"; fail=1; }
    fi
  done
  echo "determinism: ${cases[$i]}: $(wc -l <"$ref") seeds, fingerprints $(tr '\n' ' ' <"$ref")"
done
echo "determinism: ${#cases[@]} cases x $runs seeds, builds O0 O2 asan, threads 1 and 2: $([ $fail = 0 ] && echo identical || echo DIFFERENT) ($((SECONDS - t0)) s)"
exit $fail
