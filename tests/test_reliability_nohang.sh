#!/usr/bin/env bash
# No input makes `rmg` hang or crash (issue 12): corpus files mutated many ways (byte flips,
# truncation, duplicated and dropped lines, huge and negative numbers, spliced cells) go through
# `rmg check` and `rmg generate`; each run must end within a time bound with exit code 0, 1 or 2
# (no signal, no sanitizer report, which exits with another code).
#   RMG_NOHANG_FILES=N      corpus files sampled (default 4; 0 = all)
#   RMG_NOHANG_MUTATIONS=N  mutations per file (default 12; the issue's full run: 1000)
#   RMG_NOHANG_FROM=K       first mutation index (default 0): a long run can go in slices
#   RMG_NOHANG_TIMEOUT=S    seconds allowed per run (default 120: sanitizer build, shared CPU)
#   RMG_NOHANG_JOBS=N       runs at once (default 1)
#   RMG_NOHANG_LOG=FILE     keep one line per run: exit code, milliseconds, command, file#mutation
#   RMG_NOHANG_KEEP=DIR     copy the mutants that failed there (to become regression inputs)
# The full run (every file, 1000 mutations) is about 310 000 runs: use a Release build, e.g.
#   RMG_NOHANG_FILES=0 RMG_NOHANG_MUTATIONS=1000 RMG_NOHANG_JOBS=2 RMG_NOHANG_TIMEOUT=60 \
#     nice -n 19 tests/test_reliability_nohang.sh build/release .
# Usage (CTest): test_reliability_nohang.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=${1:?build dir}
src=${2:?source dir}
shared=${RMG_SHARED_DIR:-$src/../shared}
rmg=$build/rmg
files_wanted=${RMG_NOHANG_FILES:-4}
mutations=${RMG_NOHANG_MUTATIONS:-12}
from=${RMG_NOHANG_FROM:-0}
limit=${RMG_NOHANG_TIMEOUT:-120}
jobs=${RMG_NOHANG_JOBS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=${RMG_NOHANG_LOG:-$work/runs.log}
: >"$log"

mapfile -t all < <(find "$shared/corpus/h3t" "$shared/corpus/sod" "$shared/corpus/vcmi" -type f | sort)
[ ${#all[@]} -gt 0 ] || { echo "no corpus under $shared/corpus"; exit 1; }
files=()
if [ "$files_wanted" -eq 0 ] || [ "$files_wanted" -ge ${#all[@]} ]; then
  files=("${all[@]}")
else
  step=$(( ${#all[@]} / files_wanted ))
  for ((i = 0; i < files_wanted; i++)); do files+=("${all[$((i * step))]}"); done
fi

# The mutator: one Python process writes every mutant of a file (DIR/INDEX.EXT); each mutant
# is deterministic per (file, index), so a failure can be reproduced from the log.
mutate_all() { # mutate_all SRC FROM COUNT DIR
  python3 - "$1" "$2" "$3" "$4" <<'PY'
import os, random, re, sys
src, first, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
original = open(src, 'rb').read()
ext = os.path.splitext(src)[1] or '.txt'
def mutant(index):
    data = bytearray(original)
    rng = random.Random(f"{src}:{index}")
    def flip(d):
        for _ in range(rng.randint(1, 16)):
            if d: d[rng.randrange(len(d))] = rng.randrange(256)
        return d
    def truncate(d):
        return d[:rng.randrange(len(d) + 1)]
    def lines(d, op):
        ls = bytes(d).split(b'\n')
        if not ls: return d
        i = rng.randrange(len(ls))
        if op == 'dup': ls[i:i] = [ls[i]] * rng.randint(1, 50)
        elif op == 'drop': del ls[i:i + rng.randint(1, 20)]
        else: rng.shuffle(ls)
        return bytearray(b'\n'.join(ls))
    def numbers(d):
        huge = [b'99999999999999999999', b'-2147483649', b'4294967296', b'-1', b'0', b'1e308', b'NaN', b'2147483647']
        s = bytes(d)
        spans = [m.span() for m in re.finditer(rb'-?\d+', s)]
        for a, b in rng.sample(spans, min(len(spans), rng.randint(1, 30))):
            s = s[:a] + rng.choice(huge) + s[b:] if len(s) >= b else s
        return bytearray(s)
    def cells(d):
        parts = bytes(d).split(b'\t')
        for _ in range(rng.randint(1, 20)):
            if parts: parts[rng.randrange(len(parts))] = rng.choice([b'', b'x', b'"', b'{', b'[', b'\xff\xfe', b'9' * 40])
        return bytearray(b'\t'.join(parts))
    ops = [flip, truncate, lambda d: lines(d, 'dup'), lambda d: lines(d, 'drop'), lambda d: lines(d, 'shuffle'),
           numbers, cells]
    data = ops[index % len(ops)](data)
    if index % 5 == 4:
        data = rng.choice(ops)(data)
    return bytes(data)
for k in range(first, count):
    with open(os.path.join(out, f"{k}{ext}"), 'wb') as f:
        f.write(mutant(k))
PY
}

# One mutant: `rmg check`, and every third mutant also `rmg generate` at the template's
# default size (generation is the slow part). Appends "CODE MS COMMAND FILE#INDEX" per run.
run_mutant() { # run_mutant MUTANT ORIGINAL
  local m=$1 orig=$2 name k code t0
  name=${m##*/}
  k=${name%%.*}
  for cmd in check generate; do
    [ "$cmd" = generate ] && [ $((k % 3)) -ne 0 ] && continue
    code=0
    t0=$(date +%s%N)
    if [ "$cmd" = check ]; then
      timeout -k 5 "$RMG_NOHANG_LIMIT" "$RMG_NOHANG_RMG" check --quiet "$m" >"$m.out" 2>&1 || code=$?
    else
      timeout -k 5 "$RMG_NOHANG_LIMIT" "$RMG_NOHANG_RMG" generate "$m" --seed "$k" --quiet -o "$m.map.json" \
        >"$m.out" 2>&1 || code=$?
    fi
    echo "$code $((($(date +%s%N) - t0) / 1000000)) $cmd $orig#$k" >>"$RMG_NOHANG_RESULTS"
    if [ $code -gt 2 ]; then
      { echo "FAIL $cmd $orig #$k (exit $code)"; tail -30 "$m.out"; } >>"$RMG_NOHANG_FAILURES"
      [ -n "${RMG_NOHANG_KEEP:-}" ] && cp "$m" "$RMG_NOHANG_KEEP/$cmd-$k-${orig##*/}"
    fi
    rm -f "$m.out" "$m.map.json"
  done
}
export -f run_mutant
export RMG_NOHANG_RMG=$rmg RMG_NOHANG_LIMIT=$limit RMG_NOHANG_RESULTS=$log RMG_NOHANG_FAILURES=$work/failures
: >"$work/failures"

t0=$SECONDS
for f in "${files[@]}"; do
  dir=$work/mutants
  rm -rf "$dir"
  mkdir -p "$dir"
  mutate_all "$f" "$from" "$mutations" "$dir"
  find "$dir" -type f -print0 | sort -z -V | xargs -0 -r -P "$jobs" -I{} bash -c 'run_mutant "$1" "$2"' _ {} "$f"
done
rm -rf "$work/mutants"

runs=$(wc -l <"$log")
echo "no-hang: ${#files[@]} files x mutations $from..$((mutations - 1)), $runs runs in $((SECONDS - t0)) s"
echo "exit codes (count code):"
awk '{print $1}' "$log" | sort -n | uniq -c
awk '$2 > max { max = $2; line = $0 } END { if (max != "") print "slowest run: " max " ms (" line ")" }' "$log"
if [ -s "$work/failures" ]; then
  cat "$work/failures"
  exit 1
fi
