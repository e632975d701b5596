#!/usr/bin/env python3
"""Brings ABI.md's symbol table in line with the symbols librmg.so exports.

New symbols get a row "since <current version>, stable"; rows of symbols no longer exported are
reported (removing a symbol breaks the ABI: the row is kept, marked removed, only with --prune).
Usage: scripts/abi-sync.py BUILD_DIR [--prune]
"""
import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
build = Path(sys.argv[1])
prune = "--prune" in sys.argv
lib = (build / "librmg.so").resolve()  # the current build, not a stale SONAME left in the directory
out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True, check=True).stdout
exported = sorted({l.split()[2].split("@")[0] for l in out.splitlines()
                   if len(l.split()) == 3 and l.split()[1] in "TDBRWV"})
cmake = (root / "CMakeLists.txt").read_text()
version = re.search(r"project\(rmg VERSION (\d+\.\d+\.\d+)", cmake).group(1)
abi = (root / "ABI.md").read_text()
begin, end = abi.index("<!-- symbols:begin -->"), abi.index("<!-- symbols:end -->")
rows = {}
for line in abi[begin:end].splitlines():
    m = re.match(r"^\| `(rmg_[a-z0-9_]*)` \| ([^|]*) \| ([^|]*) \|", line)
    if m:
        rows[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
for s in exported:
    rows.setdefault(s, (version, "stable"))
stale = [s for s in rows if s not in exported]
for s in stale:
    if prune:
        del rows[s]
    else:
        print(f"not exported any more: {s}", file=sys.stderr)
table = "<!-- symbols:begin -->\n| symbol | since | state |\n|---|---|---|\n"
table += "".join(f"| `{s}` | {v} | {st} |\n" for s, (v, st) in sorted(rows.items()))
(root / "ABI.md").write_text(abi[:begin] + table + abi[end:])
print(f"ABI.md: {len(rows)} symbols")
