#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (ASan + UBSan) and runs each for a bounded time.
#   scripts/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]     (default 60 s; yaml h3t vcmi generate h3m
#                                                          mapjson content)
# Seed corpora are copied at run time from the shared corpus (../shared/corpus, or
# $RMG_SHARED_DIR/corpus), the shared maps (../shared/h3m: the small ones as they are, and cuts
# of all of them made by fuzz_h3m_seeds) and the built-in templates into a temporary directory.
# Water and the underground are in every seed corpus: the generate harness's templates (mirror
# `mt_` and h3dm1 ones of the corpus among them) each also come with the option header of
# tests/fuzz/fuzz_targets.h asking for normal water, islands on two levels and two levels
# without water; fuzz_h3m_seeds and fuzz_mapjson_seeds add generated maps with seas and an
# underground; the template readers' seeds include the mirror templates as they are.
# A crash leaves its input in build/fuzz-artifacts/; copy it to tests/fuzz/regressions/<harness>/
# so tests/test_fuzz_regressions.c replays it, then fix the bug.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(yaml h3t vcmi generate h3m mapjson content)
shared=${RMG_SHARED_DIR:-../shared}
build=${RMG_FUZZ_BUILD:-build/fuzz}
jobs=${JOBS:-2}

# Warnings stay warnings here: clang warns about a few things gcc (the main compiler) does not.
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRMG_FUZZ=ON -DRMG_WERROR=OFF -DRMG_BUILD_TESTS=OFF \
  -DRMG_BUILD_TOOLS=OFF -DRMG_BUILD_BENCH=OFF "-DCMAKE_C_FLAGS=$flags" >/dev/null
mkdir -p "$build"
targets=$(printf 'fuzz_%s ' "${harnesses[@]}")
case " ${harnesses[*]} " in *" h3m "*) targets="$targets fuzz_h3m_seeds" ;; esac
case " ${harnesses[*]} " in *" mapjson "*) targets="$targets fuzz_mapjson_seeds" ;; esac
if ! cmake --build "$build" -j "$jobs" --target $targets >"$build/build.log" 2>&1; then
  tail -40 "$build/build.log"
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
artifacts=build/fuzz-artifacts
mkdir -p "$artifacts"

# with_options DIR: beside each template in DIR, copies of it behind the generate harness's option
# header ("RMGo", water byte, levels byte): normal water on one level, islands on two levels, no
# water on two levels.
with_options() {
  local f
  for f in "$1"/*; do
    [ -f "$f" ] || continue
    { printf 'RMGo\001\000'; cat "$f"; } >"$f.water-normal"
    { printf 'RMGo\002\001'; cat "$f"; } >"$f.islands-two-levels"
    { printf 'RMGo\000\001'; cat "$f"; } >"$f.two-levels"
  done
}

seed() { # seed HARNESS: fills $work/HARNESS with seed inputs
  local dir=$work/$1
  mkdir -p "$dir"
  case $1 in
    yaml|generate) cp templates/*.yaml "$dir"/ ;;
  esac
  case $1 in
    h3t) find "$shared/corpus/h3t" "$shared/corpus/sod" -type f -size -256k -exec cp -t "$dir" {} + 2>/dev/null || true ;;
    vcmi) find "$shared/corpus/vcmi" -type f -size -256k -exec cp -t "$dir" {} + 2>/dev/null || true ;;
    generate) { find "$shared/corpus/sod" -type f -size -64k 2>/dev/null || true; } | head -20 | xargs -r -d '\n' cp -t "$dir"
              # mirror templates (two levels, the seas of both copied): where water once crashed
              { find "$shared/corpus" -type f \( -iname '*__mt_*' -o -iname '*__h3dm1*' \) -size -256k 2>/dev/null ||
                  true; } | sort | head -16 |
                xargs -r -d '\n' cp -t "$dir"
              with_options "$dir" ;;
    h3m) find "$shared/h3m" -name '*.h3m' -size -256k -exec cp -t "$dir" {} + 2>/dev/null || true
         "$build/fuzz/fuzz_h3m_seeds" "$dir" "$shared"/h3m/*.h3m || true ;;
    mapjson) ASAN_OPTIONS=detect_leaks=0 "$build/fuzz/fuzz_mapjson_seeds" "$dir" ;;
    content) find content -name '*.yaml' -size -256k -exec cp -t "$dir" {} + ;;
  esac
  [ -d "tests/fuzz/regressions/$1" ] && cp tests/fuzz/regressions/"$1"/* "$dir"/ 2>/dev/null || true
}

status=0
for h in "${harnesses[@]}"; do
  seed "$h"
  echo "fuzz: $h for ${seconds}s ($(ls "$work/$h" | wc -l) seed inputs)"
  # -rss_limit_mb and -timeout turn a memory blow-up or a hang into a reported failure.
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
      "$build/fuzz/fuzz_$h" "$work/$h" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
      -max_len=262144 -print_final_stats=1 -artifact_prefix="$artifacts/$h-" >"$work/$h.log" 2>&1; then
    echo "fuzz: $h FAILED; log tail:"
    tail -40 "$work/$h.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$h.log" | sed "s/^/fuzz: $h /"
  fi
done
exit $status
