#!/usr/bin/env python3
"""Water maps over the corpus: generated, playable, shipyards and sea objects per water zone.

Usage: scripts/water-quality.py RMG CORPUS_DIR [SEEDS] [--jobs N]

Generates every water template of the corpus (those whose name says water, islands or ocean) at
`--water normal` and `--water islands` with seeds 1..SEEDS (default 3) using the `rmg` binary,
judges each map with scripts/playability.py's model and prints a Markdown table per template
and level: maps generated / tried, maps playable / generated, shipyards, boats and sea objects
per water zone, water crossings worth a guard left unguarded. Exit status 1 when a generated map
is not playable.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("playability", os.path.join(HERE, "playability.py"))
playability = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(playability)

WATER_NAME = re.compile(r"water|island|ocean", re.I)


def water_templates(rmg, corpus):
    """(file, template name) for every corpus template whose name marks it a water template."""
    found = []
    for root, _, files in os.walk(corpus):
        for f in sorted(files):
            path = os.path.join(root, f)
            if f == "SOURCES.md":
                continue
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "t.yaml")
                if subprocess.run([rmg, "convert", path, out], capture_output=True).returncode != 0:
                    continue
                with open(out, encoding="utf-8") as fh:
                    names = re.findall(r"^- name: (.*)$", fh.read(), re.M)
            for name in dict.fromkeys(n.strip().strip('"') for n in names):
                if WATER_NAME.search(name):
                    found.append((path, name))
    return sorted(found)


def run_one(rmg, path, name, water, seed, tmp):
    out = os.path.join(tmp, f"{abs(hash((path, name, water, seed)))}.json")
    p = subprocess.run([rmg, "generate", path, "--template", name, "--water", water, "--seed", str(seed), "--quiet",
                        "-o", out], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"
    with open(out, encoding="utf-8") as fh:
        doc = json.load(fh)
    os.unlink(out)
    return doc, None


def main(argv):
    jobs = os.cpu_count() or 2
    args = []
    it = iter(argv)
    for a in it:
        if a == "--jobs":
            jobs = int(next(it))
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rmg, corpus = args[0], args[1]
    seeds = int(args[2]) if len(args) > 2 else 3
    classes = playability.load_classes(os.path.join(HERE, "..", "content"))
    rows, bad = [], 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for path, name in water_templates(rmg, corpus):
            for water in ("normal", "islands"):
                futures = [pool.submit(run_one, rmg, path, name, water, s, tmp) for s in range(1, seeds + 1)]
                made = playable = zones = yards = boats = sea = unguarded = 0
                errors = []
                for f in futures:
                    doc, err = f.result()
                    if doc is None:
                        errors.append(err)
                        continue
                    made += 1
                    r = playability.judge(doc, classes)
                    playable += r["playable"]
                    bad += not r["playable"]
                    unguarded += len(r["unguarded_crossings"])
                    for wz in r["water_zones"].values():
                        zones += 1
                        yards += wz["shipyards"]
                        boats += wz["boats"]
                        sea += wz["sea_objects"]
                rows.append((os.path.basename(path), name, water, made, seeds, playable, zones, yards, boats, sea,
                             unguarded, errors[0] if errors else ""))
    print("| template | file | water | generated | playable | water zones | shipyards / zone | boats | "
          "sea objects / zone | unguarded crossings | first failure |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    tot = [0] * 7
    for f, name, water, made, tried, playable, zones, yards, boats, sea, unguarded, err in rows:
        per = (lambda v: f"{v / zones:.1f}" if zones else "-")
        print(f"| {name} | {f[:40]} | {water} | {made}/{tried} | {playable}/{made} | {zones} | {per(yards)} | {boats} | "
              f"{per(sea)} | {unguarded} | {err[:90]} |")
        for i, v in enumerate((made, tried, playable, zones, yards, boats, sea)):
            tot[i] += v
    made, tried, playable, zones, yards, boats, sea = tot
    print(f"\nTotal: {made} of {tried} maps generated, {playable} of {made} playable; {zones} water zones with "
          f"{yards / max(zones, 1):.2f} shipyards and {sea / max(zones, 1):.1f} sea objects each, {boats} boats.")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
