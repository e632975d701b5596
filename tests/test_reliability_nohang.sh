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
. "$src/tests/support/shared.sh"
need_shared corpus
rmg=$build/rmg
files_wanted=${RMG_NOHANG_FILES:-4}
mutations=${RMG_NOHANG_MUTATIONS:-12}
from=${RMG_NOHANG_FROM:-0}
limit=${RMG_NOHANG_TIMEOUT:-120}
jobs=${RMG_NOHANG_JOBS:-1}
# A sanitizer report exits 1 by default, like a refused input: give it its own code.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=87"
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

# One Python process mutates every file (deterministic per (file, index), so a failure can be
# reproduced from the log) and runs `rmg check` on every mutant and `rmg generate` on every
# third (generation is the slow part), RMG_NOHANG_JOBS at once. One log line per run:
# "CODE MS COMMAND FILE#INDEX" (code 124: killed at the time bound, 128+N: signal N).
python3 - "$rmg" "$from" "$mutations" "$limit" "$jobs" "$log" "${RMG_NOHANG_KEEP:-}" "$work" "${files[@]}" <<'PY'
import collections, concurrent.futures, os, random, re, shutil, subprocess, sys, time
rmg, first, count, limit, jobs, log_path, keep, work = sys.argv[1:9]
first, count, limit, jobs = int(first), int(count), float(limit), int(jobs)
files = sys.argv[9:]

def mutant(original, src, index):
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

def run(task):
    src, k, cmd, path = task
    args = [rmg, 'check', '--quiet', path] if cmd == 'check' else \
           [rmg, 'generate', path, '--seed', str(k), '--quiet', '-o', f"{path}.map.json"]
    t0 = time.monotonic()
    try:
        p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=limit)
        code, err = (p.returncode if p.returncode >= 0 else 128 - p.returncode), p.stderr
    except subprocess.TimeoutExpired as e:
        code, err = 124, e.stderr or b''
    return code, int((time.monotonic() - t0) * 1000), cmd, src, k, path, err

codes, failures, slowest, runs = collections.Counter(), [], (0, ''), 0
t_start = time.monotonic()
with open(log_path, 'a') as log, concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for src in files:
        original = open(src, 'rb').read()
        ext = os.path.splitext(src)[1] or '.txt'
        tmp = os.path.join(work, 'mutants')
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        tasks = []
        for k in range(first, count):
            path = os.path.join(tmp, f"{k}{ext}")
            with open(path, 'wb') as f:
                f.write(mutant(original, src, k))
            tasks.append((src, k, 'check', path))
            if k % 3 == 0:
                tasks.append((src, k, 'generate', path))
        for code, ms, cmd, src_, k, path, err in pool.map(run, tasks):
            runs += 1
            codes[code] += 1
            line = f"{code} {ms} {cmd} {src_}#{k}"
            log.write(line + '\n')
            if ms > slowest[0]:
                slowest = (ms, line)
            if code > 2:
                failures.append(f"FAIL {cmd} {src_} #{k} (exit {code})\n" + err.decode('utf-8', 'replace')[-3000:])
                if keep:
                    shutil.copy(path, os.path.join(keep, f"{cmd}-{k}-{os.path.basename(src_)}"))
        log.flush()
shutil.rmtree(os.path.join(work, 'mutants'), ignore_errors=True)
print(f"no-hang: {len(files)} files x mutations {first}..{count - 1}, {runs} runs in {time.monotonic() - t_start:.0f} s")
print("exit codes (count code):")
for code in sorted(codes):
    print(f"{codes[code]:8d} {code}")
print(f"slowest run: {slowest[0]} ms ({slowest[1]})")
for f in failures:
    print(f)
sys.exit(1 if failures else 0)
PY
