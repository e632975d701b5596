#!/usr/bin/env python3
"""Two builds' rmg_bench on the same case, alternating round by round so that both see the same
machine load (the figures of bench/RESULTS.md that compare a branch with its base).

usage: bench/compare.py BASE_BENCH NEW_BENCH [--case clash-GU] [--seeds 9] [--rounds 5]
Prints per round the CPU median per map and the .h3m export median of each build, then the
medians over the rounds and the new build's export as a share of its generation."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(bench, case, seeds):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        subprocess.run([bench, "--cases", case, "--seeds", str(seeds), "--no-scaling", "--json", out],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            r = json.load(f)["results"][0]
    if r["seeds_ok"] != seeds:
        sys.exit(f"{bench}: {r['seeds_ok']} of {seeds} maps: {r['error']}")
    return r["cpu_ms"]["median"], r.get("h3m_export_ms_median", 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--case", default="clash-GU")
    ap.add_argument("--seeds", type=int, default=9)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    rows = {"base": [], "new": []}
    for k in range(a.rounds):
        for name, bench in (("base", a.base), ("new", a.new)) if k % 2 == 0 else (("new", a.new), ("base", a.base)):
            rows[name].append(run(bench, a.case, a.seeds))
        b, n = rows["base"][-1], rows["new"][-1]
        print(f"round {k + 1}: base {b[0]:.1f} ms (export {b[1]:.1f}), new {n[0]:.1f} ms (export {n[1]:.1f})",
              flush=True)
    med = {name: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for name, v in rows.items()}
    share = [r[1] / r[0] for r in rows["new"]]
    print(f"median: base {med['base'][0]:.1f} ms, new {med['new'][0]:.1f} ms "
          f"({100 * (med['new'][0] / med['base'][0] - 1):+.1f} %); new export {med['new'][1]:.1f} ms = "
          f"{100 * statistics.median(share):.1f} % of generation (rounds {min(share) * 100:.1f}..{max(share) * 100:.1f} %)")


if __name__ == "__main__":
    main()
