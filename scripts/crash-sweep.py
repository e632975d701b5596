#!/usr/bin/env python3
"""Crash sweep (issue 28): every template of every corpus file through `rmg generate` at each
water level, failing on any signal or hang.

Usage: scripts/crash-sweep.py RMG CORPUS_DIR [--seeds 1,2] [--water none,normal,islands]
                              [--every K] [--jobs N] [--timeout S] [--game hota|sod]
                              [--underground]

A run may fail with exit status 1 (the template cannot give a map for that setup: the library's
stated refusal); what this sweep rejects is a run killed by a signal, a run past the timeout
(a hang) and an exit status other than 0, 1 or 2 (a sanitizer's report exits with its own code).
Each bad run is printed with the template and the options that reproduce it; the exit status is
1 when there was any. --every K takes every K-th corpus file (sorted by path): the sample the
sanitizer build runs.
"""
import argparse
import concurrent.futures
import os
import re
import signal
import subprocess
import sys
import tempfile
import time


def corpus_files(corpus, every):
    files = []
    for root, _, names in os.walk(corpus):
        files += [os.path.join(root, n) for n in names if n != "SOURCES.md"]
    files.sort()
    return files[::every]


def template_names(rmg, path):
    """The pack's template names as `--template` takes them (NAME, NAME#K for the K-th of
    several with one name); [None] when the file does not convert (the run then reports it)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "t.yaml")
        if subprocess.run([rmg, "convert", path, out], capture_output=True, timeout=120).returncode != 0:
            return [None]
        with open(out, encoding="utf-8") as fh:
            raw = re.findall(r"^- name: (.*)$", fh.read(), re.M)
    names, seen = [], {}
    for n in raw:
        n = n.strip()
        if len(n) >= 2 and n[0] == n[-1] and n[0] in "'\"":
            n = n[1:-1]
        seen[n] = seen.get(n, 0) + 1
        names.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return names or [None]


# A sanitizer build's report must not pass for the library's own "cannot" (exit status 1):
# the sanitizers exit with codes of their own here (a caller's settings are kept).
SANITIZER_ENV = dict(os.environ)
SANITIZER_ENV["ASAN_OPTIONS"] = "exitcode=86:" + os.environ.get("ASAN_OPTIONS", "")
SANITIZER_ENV["UBSAN_OPTIONS"] = "halt_on_error=1:exitcode=87:print_stacktrace=1:" + os.environ.get("UBSAN_OPTIONS", "")


def run_one(rmg, path, name, water, seed, game, timeout, underground=False):
    cmd = [rmg, "generate", path, "--seed", str(seed), "--water", water, "--quiet"]
    if game:
        cmd += ["--game", game]
    if underground:
        cmd += ["--underground"]
    if name:
        cmd += ["--template", name]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, env=SANITIZER_ENV)
    except subprocess.TimeoutExpired:
        return cmd, f"hang: no result after {timeout} s", time.monotonic() - t0, None
    dt = time.monotonic() - t0
    if p.returncode < 0:
        return cmd, f"killed by signal {signal.Signals(-p.returncode).name}", dt, p.returncode
    if p.returncode not in (0, 1, 2):
        tail = p.stderr.decode("utf-8", "replace").strip().splitlines()[-12:]
        return cmd, f"exit status {p.returncode}\n    " + "\n    ".join(tail), dt, p.returncode
    return cmd, None, dt, p.returncode


def shell_line(cmd):
    return " ".join(a if re.fullmatch(r"[\w./#=+-]+", a) else "'" + a.replace("'", "'\\''") + "'" for a in cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rmg")
    ap.add_argument("corpus")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--water", default="none,normal,islands")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--game", default="")
    ap.add_argument("--underground", action="store_true", help="every run on two levels (issue 30)")
    a = ap.parse_args()
    if not os.path.isdir(a.corpus):
        print(f"SKIPPED: {a.corpus} is absent (the corpus of real templates)")
        return 0
    seeds = [int(s) for s in a.seeds.split(",") if s]
    levels = [w for w in a.water.split(",") if w]
    t0 = time.monotonic()
    runs = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for path, names in zip(corpus_files(a.corpus, a.every),
                               pool.map(lambda f: template_names(a.rmg, f), corpus_files(a.corpus, a.every))):
            runs += [(path, n, w, s) for n in names for w in levels for s in seeds]
        results = list(pool.map(lambda r: run_one(a.rmg, *r, a.game, a.timeout, a.underground), runs))
    bad = [(cmd, why) for cmd, why, _, _ in results if why]
    made = sum(1 for r in results if r[3] == 0)
    refused = sum(1 for r in results if r[3] in (1, 2))
    slowest = max(results, key=lambda r: r[2]) if results else None
    for cmd, why in bad:
        print(f"FAIL: {shell_line(cmd)}\n    {why}")
    print(f"crash sweep: {len(runs)} runs ({len(set(r[0] for r in runs))} files), {made} maps, {refused} refused, {len(bad)} crashed or hung, "
          f"{time.monotonic() - t0:.0f} s" + (f"; slowest {slowest[2]:.1f} s: {shell_line(slowest[0])}" if slowest else ""))
    print(f"{len(runs) - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
