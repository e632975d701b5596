#!/usr/bin/env bash
# Prints (or with --write, updates) the pinned fingerprint table of
# tests/test_reliability_fingerprints.c: each case of the table is generated with the `rmg`
# command of an existing build and its fingerprint is read back. Changing pinned fingerprints
# is a deliberate act (ABI.md, behavioural promise): commit the table with the stage change.
#   scripts/pin-fingerprints.sh [--write] [BUILD_DIR]     (default build dir: build/rel, else build/asan)
set -euo pipefail
cd "$(dirname "$0")/.."
write=0
if [ "${1:-}" = "--write" ]; then write=1; shift; fi
build=${1:-${RMG_BUILD:-}}
if [ -z "$build" ]; then
  for b in build/rel build/asan build/release; do [ -f "$b/CMakeCache.txt" ] && { build=$b; break; }; done
fi
[ -n "$build" ] && [ -f "$build/CMakeCache.txt" ] || { echo "pin-fingerprints: no build directory (configure one first)" >&2; exit 1; }
cmake --build "$build" --target rmg_tool -j "${JOBS:-2}" >/dev/null # the command must match the sources
shared=${RMG_SHARED_DIR:-../shared}
python3 - "$build/rmg" "$shared" "$write" <<'PY'
import re, subprocess, sys
rmg, shared, write = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
path = "tests/test_reliability_fingerprints.c"
text = open(path).read()
begin = text.index("static const pinned pins[] = {")
end = text.index("};", begin)
row = re.compile(r'\{(NULL|"[^"]*"), "([^"]*)", (\d+), (\d+), (\d+), 0x[0-9a-fA-F]+ull\},')
rows = []
for m in row.finditer(text, begin, end):
    file, tpl, side, levels, seed = m.group(1), m.group(2), m.group(3), int(m.group(4)), m.group(5)
    cmd = [rmg, "generate"]
    if file != "NULL":
        cmd.append(f"{shared}/{file.strip(chr(34))}")
    cmd += ["--template", tpl, "--size", f"{side}x{side}", "--underground" if levels > 1 else "--no-underground",
            "--seed", seed]
    out = subprocess.run(cmd, capture_output=True, text=True)
    fp = re.search(r"^fingerprint ([0-9a-f]{16})$", out.stdout, re.M)
    if not fp:
        sys.exit(f"pin-fingerprints: {' '.join(cmd)} failed:\n{out.stdout}{out.stderr}")
    rows.append(f'    {{{file}, "{tpl}", {side}, {levels}, {seed}, 0x{fp.group(1)}ull}},')
table = "static const pinned pins[] = {\n" + "\n".join(rows) + "\n"
print(table + "};")
if write:
    open(path, "w").write(text[:begin] + table + text[end:])
    print(f"pin-fingerprints: {path} updated", file=sys.stderr)
PY
