#!/usr/bin/env python3
"""Playability over the corpus, judged by scripts/playability.py's model of the game.

Usage: scripts/playability-corpus.py water RMG CORPUS_DIR [SEEDS] [--jobs N]
       scripts/playability-corpus.py land RMG CORPUS_DIR [SEEDS] [--every K] [--jobs N]

water: every water template of the corpus (those whose name says water, islands or ocean) at
`--water normal` and `--water islands` with seeds 1..SEEDS (default 3); a Markdown table per
template and level: maps generated / tried, maps playable / generated, shipyards, boats and sea
objects per water zone, water crossings worth a guard left unguarded. Exit status 1 when a
generated map is not playable.

land: every K-th corpus file (default 4, sorted by path) with its default setup and seeds
1..SEEDS: one-way monolith links whose entrances lead nowhere, towns some player cannot reach,
the game's fixed per-map limits exceeded, zones on another level than the template puts them.
Exit status 1 when any is found.
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
    cmd = [rmg, "generate", path, "--seed", str(seed), "--quiet", "-o", out]
    if name:
        cmd += ["--template", name]
    if water:
        cmd += ["--water", water]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"
    with open(out, encoding="utf-8") as fh:
        doc = json.load(fh)
    os.unlink(out)
    return doc, None


def corpus_files(corpus):
    return sorted(os.path.join(root, f) for root, _, files in os.walk(corpus) for f in files if f != "SOURCES.md")


def template_levels(rmg, path):
    """{template name: {zone id: 'surface'/'underground'}} from the file's YAML conversion."""
    import yaml
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "t.yaml")
        if subprocess.run([rmg, "convert", path, out], capture_output=True).returncode != 0:
            return {}
        with open(out, encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
    levels = {}
    for t in doc.get("templates") or []:
        levels.setdefault(t.get("name"), {z["id"]: z["placement"] for z in t.get("zones") or []
                                          if z.get("placement") in ("surface", "underground")})
    return levels


def fixed_limits(content):
    import yaml
    with open(os.path.join(content, "objects.yaml"), encoding="utf-8") as fh:
        rows = yaml.safe_load(fh)["objects"]
    return {k: r["max_map"] for k, r in rows.items() if r.get("max_map_fixed") and isinstance(r.get("max_map"), int)}


def land(rmg, corpus, seeds, every, jobs, classes):
    content = os.path.join(HERE, "..", "content")
    limits = fixed_limits(content)
    files = corpus_files(corpus)[::every]
    totals = {"maps": 0, "failed": 0, "dead_one_way": 0, "towns_unreachable": 0, "limits_exceeded": 0,
              "wrong_level": 0, "mirror_pairs": 0}
    lines = []
    level_cache = {}
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        runs = [(f, s, pool.submit(run_one, rmg, f, None, None, s, tmp)) for f in files for s in range(1, seeds + 1)]
        for f, seed, fut in runs:
            doc, err = fut.result()
            if doc is None:
                totals["failed"] += 1
                lines.append(f"- {os.path.basename(f)} seed {seed}: not generated: {err[:160]}")
                continue
            totals["maps"] += 1
            r = playability.judge(doc, classes)
            towns = sum(p["towns_missed"] for p in r["players"].values())
            counts = {}
            for o in doc["objects"]:
                counts[o["key"]] = counts.get(o["key"], 0) + 1
            over = [(k, n, limits[k]) for k, n in counts.items() if k in limits and n > limits[k]]
            if f not in level_cache:
                level_cache[f] = template_levels(rmg, f)
            want = level_cache[f].get(doc["template"]["name"], {}) if doc["levels"] == 2 else {}
            wrong = [z["template_zone"] for z in doc["zones"] if z["template_zone"] in want and
                     z["level"] != (1 if want[z["template_zone"]] == "underground" else 0)]
            totals["dead_one_way"] += len(r["dead_one_way_links"])
            totals["mirror_pairs"] += len(r["mirror_entrance_pairs"])
            totals["towns_unreachable"] += towns
            totals["limits_exceeded"] += len(over)
            totals["wrong_level"] += len(wrong)
            if r["dead_one_way_links"] or towns or over or wrong:
                lines.append(f"- {os.path.basename(f)} seed {seed}: dead one-way links {r['dead_one_way_links']}, "
                             f"towns unreachable {towns}, over the limits {over}, zones on another level {wrong}")
    print(f"{len(files)} files x {seeds} seeds: {totals['maps']} maps generated, {totals['failed']} not; "
          f"one-way links leading nowhere {totals['dead_one_way']}, towns unreachable {totals['towns_unreachable']}, "
          f"fixed limits exceeded {totals['limits_exceeded']}, zones on another level {totals['wrong_level']} "
          f"(mirror links whose template asks for one-way entrance pairs, ZON-31/36: {totals['mirror_pairs']})")
    for line in lines:
        print(line)
    bad = totals["dead_one_way"] + totals["towns_unreachable"] + totals["limits_exceeded"] + totals["wrong_level"]
    return 1 if bad else 0


def main(argv):
    jobs = os.cpu_count() or 2
    every = 4
    args = []
    it = iter(argv)
    for a in it:
        if a == "--jobs":
            jobs = int(next(it))
        elif a == "--every":
            every = int(next(it))
        else:
            args.append(a)
    if len(args) < 3 or args[0] not in ("water", "land"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    mode, rmg, corpus = args[0], args[1], args[2]
    seeds = int(args[3]) if len(args) > 3 else 3
    classes = playability.load_classes(os.path.join(HERE, "..", "content"))
    if mode == "land":
        return land(rmg, corpus, seeds, every, jobs, classes)
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
