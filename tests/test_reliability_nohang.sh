#!/usr/bin/env bash
# No input makes `rmg` hang or crash (issue 12): corpus files mutated many ways (byte flips,
# truncation, duplicated and dropped lines, huge and negative numbers, spliced cells) go through
# `rmg check` and `rmg generate`; each run must end within a time bound with exit code 0, 1 or 2
# (no signal, no sanitizer report, which exits with another code).
#   RMG_NOHANG_FILES=N      corpus files sampled (default 4; 0 = all)
#   RMG_NOHANG_MUTATIONS=N  mutations per file (default 12; the issue's full run: 1000)
#   RMG_NOHANG_TIMEOUT=S    seconds allowed per run (default 120: sanitizer build, shared CPU)
# Usage (CTest): test_reliability_nohang.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=${1:?build dir}
src=${2:?source dir}
shared=${RMG_SHARED_DIR:-$src/../shared}
rmg=$build/rmg
files_wanted=${RMG_NOHANG_FILES:-4}
mutations=${RMG_NOHANG_MUTATIONS:-12}
limit=${RMG_NOHANG_TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t all < <(find "$shared/corpus/h3t" "$shared/corpus/sod" "$shared/corpus/vcmi" -type f | sort)
[ ${#all[@]} -gt 0 ] || { echo "no corpus under $shared/corpus"; exit 1; }
files=()
if [ "$files_wanted" -eq 0 ] || [ "$files_wanted" -ge ${#all[@]} ]; then
  files=("${all[@]}")
else
  step=$(( ${#all[@]} / files_wanted ))
  for ((i = 0; i < files_wanted; i++)); do files+=("${all[$((i * step))]}"); done
fi

# The mutator: deterministic per (file, index), so a failure can be reproduced from the log.
mutate() { # mutate SRC INDEX DST
  python3 - "$1" "$2" "$3" <<'PY'
import random, re, sys
src, index, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = bytearray(open(src, 'rb').read())
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
open(dst, 'wb').write(bytes(data))
PY
}

run() { # run LABEL CMD...: enforces the time bound and the exit codes
  local label=$1 start=$SECONDS code=0
  shift
  timeout -k 5 "$limit" "$@" >"$work/out" 2>&1 || code=$?
  if [ $code -gt 2 ]; then
    echo "FAIL $label ($code after $((SECONDS - start)) s): $*"
    tail -30 "$work/out"
    return 1
  fi
}

fail=0 runs=0
t0=$SECONDS
for f in "${files[@]}"; do
  ext=${f##*.}
  for ((k = 0; k < mutations; k++)); do
    m=$work/mutant.$ext
    mutate "$f" "$k" "$m"
    runs=$((runs + 1))
    run "check $f #$k" "$rmg" check --quiet "$m" || fail=1
    # Generation is the slow part: every third mutant, at the template's default size.
    if [ $((k % 3)) -eq 0 ]; then
      runs=$((runs + 1))
      run "generate $f #$k" "$rmg" generate "$m" --seed "$k" --quiet -o "$work/map.json" || fail=1
    fi
  done
done
echo "no-hang: ${#files[@]} files x $mutations mutations, $runs runs in $((SECONDS - t0)) s, failures: $fail"
exit $fail
