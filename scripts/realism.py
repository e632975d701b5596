#!/usr/bin/env python3
"""Realism comparison (issue 32): the measures of two folders of .h3m maps side by side, the
game's own random maps against librmg's, read by the project's own reader.

Usage: scripts/realism.py REAL_DIR MAPS_DIR [--rmg RMG] [--jobs N] [--json FILE|-]
       scripts/realism.py REAL_DIR --generate N [--template FILE] [--keep DIR] [...]

Every .h3m file of each folder is read twice through `rmg` (`rmg render MAP -o MAP.json`, the
map JSON of docs/map-json.md, and `rmg info MAP --json`, what the JSON does not say: the file's
tiles by river and road type, the object templates with their sprites, each object's kind and
monsters' AI values). For each measure the script prints, per folder, the median, the 10th and
90th percentiles over the maps, and the ratio of the medians (ours / real), as a Markdown table;
--json writes the same figures and every map's values as JSON (`-`: on standard output, instead
of the table). docs/realism.md defines every measure.

--generate N makes the second folder itself: `rmg generate TEMPLATE --game sod --size XL
--monsters strong --players 2 --humans 2 --town 1=TOWN --seed S` for seeds 1..N, TOWN being the
town choice of the real maps' settings.tsv rows in turn (seed S takes row (S-1) mod rows), into
a temporary folder (or --keep DIR), then compares. --jobs runs that many rmg processes at once
(default 2). Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

COLOURS = ["red", "blue", "tan", "green", "orange", "purple", "teal", "pink"]
TERRAIN_KEYS = ["dirt", "sand", "grass", "snow", "swamp", "rough", "subterranean", "lava", "water", "rock",
                "highlands", "wasteland"]
WATER, ROCK = 8, 9
ROADS = ["dirt", "gravel", "cobblestone"]
RIVERS = ["clear", "icy", "muddy", "lava"]

# Object classes of the game (the file's template class, ../shared/data/object-classes.tsv).
ARTIFACT_CLASSES = {5, 65, 66, 67, 68, 69}      # artifact, random (any, treasure, minor, major, relic)
BANK_CLASSES = {16, 24, 25, 84, 85}             # creature banks, derelict ship, dragon utopia, crypt, shipwreck
PRISON_CLASSES = {62}
SCROLL_CLASSES = {93}
PANDORA_CLASSES = {6}
BIG_GUARD = 50000                               # AI value of a "big" guard

# (key, label): the rows of the table, in order.
MEASURES = [
    ("objects", "objects"),
    ("monsters", "monsters"),
    ("monster_ai_value", "monsters' total AI value"),
    ("guards_50k", "guards of 50,000 AI value or more"),
    ("artifacts", "artifacts"),
    ("creature_banks", "creature banks"),
    ("prisons", "prisons"),
    ("mines", "mines"),
    ("spell_scrolls", "spell scrolls"),
    ("pandoras", "Pandora's boxes"),
    ("towns", "towns"),
    ("main_town_nearest_town", "main town to the nearest other town (tiles, entries)"),
    ("road_tiles", "road tiles"),
    ("road_dirt", "road tiles: dirt"),
    ("road_gravel", "road tiles: gravel"),
    ("road_cobblestone", "road tiles: cobblestone"),
    ("river_tiles", "river tiles"),
    ("river_clear", "river tiles: clear"),
    ("river_icy", "river tiles: icy"),
    ("river_muddy", "river tiles: muddy"),
    ("river_lava", "river tiles: lava"),
    ("obstacles", "obstacle objects"),
    ("obstacle_tiles", "tiles obstacles cover"),
    ("obstacle_tiles_per_obstacle", "blocked tiles per obstacle"),
    ("obstacle_sprites", "distinct obstacle sprites (defs) used"),
    ("file_sprites", "distinct sprites (defs) in the file's template table"),
    ("land_share", "land share of the map (%)"),
    ("passable_land_share", "passable share of the land (%)"),
    ("centre_share", "centre region share of the map (%)"),
    ("objects_per_100_land", "objects per 100 land tiles"),
    ("content_per_100_land", "content objects (not obstacles or monsters) per 100 land tiles"),
    ("monsters_per_100_land", "monsters per 100 land tiles"),
    ("centre_content_per_100", "centre: content objects per 100 tiles"),
    ("outside_content_per_100", "outside the centre: content objects per 100 land tiles"),
    ("centre_ai_value_per_100", "centre: monsters' AI value per 100 tiles"),
    ("outside_ai_value_per_100", "outside the centre: monsters' AI value per 100 land tiles"),
]


def run(cmd, timeout=600):
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode('utf-8', 'replace').strip()}")
    return p.stdout


def read_map(rmg, path):
    """The map JSON and the info JSON of one .h3m file, through the project's reader."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "map.json")
        run([rmg, "render", path, "-o", out])
        with open(out, encoding="utf-8") as fh:   # strict: the reader must write valid UTF-8
            doc = json.load(fh)
    info = json.loads(run([rmg, "info", path, "--json"]).decode("utf-8"))
    return doc, info


def centre_region(terrain, w, h, centre_terrain):
    """The tiles (surface) of the largest 4-connected region of `centre_terrain` (ties: the one
    reached first in row order); an empty set when the surface has none of it."""
    seen, best = set(), set()
    for start in range(w * h):
        if terrain[start] != centre_terrain or start in seen:
            continue
        region, stack = {start}, [start]
        while stack:
            t = stack.pop()
            x, y = t % w, t // w
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= nx < w and 0 <= ny < h:
                    n = ny * w + nx
                    if n not in region and terrain[n] == centre_terrain:
                        region.add(n)
                        stack.append(n)
        seen |= region
        if len(region) > len(best):
            best = region
    return best


def town_tile(o):
    """A town's entry tile (its gate), else its anchor."""
    e = o.get("entries") or []
    return tuple(e[0]) if e else (o["x"], o["y"], o["z"])


def main_town_distance(objects, info):
    towns = [o for o in objects if o["key"] == "town"]
    main = [o for o in towns if o.get("main") and o.get("owner") == 1]
    main = main or [o for o in towns if o.get("main")]
    if not main:
        return None
    m = town_tile(main[0])
    dists = [math.dist(m[:2], town_tile(o)[:2]) for o in towns if o is not main[0] and town_tile(o)[2] == m[2]]
    return min(dists) if dists else None


def measure(doc, info, centre_terrain):
    """Every measure of one map (a dict key -> number or None) and its notes."""
    notes = []
    w, h, levels = doc["width"], doc["height"], doc["levels"]
    tiles = doc["tiles"]
    terrain, passable, road = tiles["terrain"], tiles["passable"], tiles["road"]
    objects = doc["objects"]
    iobjects, templates = info["objects"], info["templates"]
    if len(iobjects) != len(objects):
        raise RuntimeError("rmg render and rmg info disagree on the number of objects")
    n_tiles = len(terrain)
    land = [t for t in range(n_tiles) if terrain[t] not in (WATER, ROCK)]
    n_land = len(land)
    v = {}
    v["objects"] = len(objects)
    cls = [templates[io["template"]]["class"] for io in iobjects]
    kinds = [io["kind"] for io in iobjects]

    monsters = [i for i, k in enumerate(kinds) if k == "monster"]
    values = []
    unvalued = 0
    for i in monsters:
        ai, count = iobjects[i].get("ai_value"), iobjects[i].get("count") or 0
        if ai is None or count == 0:
            unvalued += 1
            values.append(0)
        else:
            values.append(ai * count)
    if unvalued:
        notes.append(f"{unvalued} monsters without a creature or count (random monsters) valued 0")
    v["monsters"] = len(monsters)
    v["monster_ai_value"] = sum(values)
    v["guards_50k"] = sum(1 for x in values if x >= BIG_GUARD)
    v["artifacts"] = sum(1 for c in cls if c in ARTIFACT_CLASSES)
    v["creature_banks"] = sum(1 for c in cls if c in BANK_CLASSES)
    v["prisons"] = sum(1 for c in cls if c in PRISON_CLASSES)
    v["mines"] = sum(1 for k in kinds if k == "mine")
    v["spell_scrolls"] = sum(1 for c in cls if c in SCROLL_CLASSES)
    v["pandoras"] = sum(1 for c in cls if c in PANDORA_CLASSES)
    v["towns"] = sum(1 for o in objects if o["key"] == "town")
    v["main_town_nearest_town"] = main_town_distance(objects, info)

    v["road_tiles"] = sum(1 for r in road if r)
    for i, name in enumerate(ROADS, 1):
        v["road_" + name] = sum(1 for r in road if r == i)

    if "river" in tiles:
        river = tiles["river"]
        counts = [sum(1 for r in river if r == i) for i in range(1, 5)]
    else:
        counts = info["tiles"]["river"][1:5]
        notes.append("no river layer in the map JSON: rivers counted from the file's tiles (rmg info --json)")
    v["river_tiles"] = sum(counts)
    for name, c in zip(RIVERS, counts):
        v["river_" + name] = c

    obstacles = [i for i, k in enumerate(kinds) if k == "obstacle"]
    covered = set()
    for i in obstacles:
        for x, y, z in objects[i]["footprint"]:
            covered.add((z * h + y) * w + x)
    v["obstacles"] = len(obstacles)
    v["obstacle_tiles"] = len(covered)
    v["obstacle_tiles_per_obstacle"] = len(covered) / len(obstacles) if obstacles else None
    v["obstacle_sprites"] = len({templates[iobjects[i]["template"]]["def"].lower() for i in obstacles})
    v["file_sprites"] = len({t["def"].lower() for t in templates})

    v["land_share"] = 100.0 * n_land / n_tiles
    v["passable_land_share"] = 100.0 * sum(1 for t in land if passable[t]) / n_land if n_land else None

    region = centre_region(terrain[: w * h], w, h, centre_terrain)
    v["centre_share"] = 100.0 * len(region) / (w * h)
    content = [i for i, k in enumerate(kinds) if k not in ("obstacle", "monster")]
    v["objects_per_100_land"] = 100.0 * len(objects) / n_land if n_land else None
    v["content_per_100_land"] = 100.0 * len(content) / n_land if n_land else None
    v["monsters_per_100_land"] = 100.0 * len(monsters) / n_land if n_land else None

    def inside(i):
        o = objects[i]
        return o["z"] == 0 and (o["y"] * w + o["x"]) in region

    outside_land = n_land - len(region)
    c_in = sum(1 for i in content if inside(i))
    ai_in = sum(val for i, val in zip(monsters, values) if inside(i))
    v["centre_content_per_100"] = 100.0 * c_in / len(region) if region else None
    v["outside_content_per_100"] = 100.0 * (len(content) - c_in) / outside_land if outside_land > 0 else None
    v["centre_ai_value_per_100"] = 100.0 * ai_in / len(region) if region else None
    v["outside_ai_value_per_100"] = 100.0 * (v["monster_ai_value"] - ai_in) / outside_land if outside_land > 0 else None
    if not region:
        notes.append(f"no {TERRAIN_KEYS[centre_terrain]} on the surface: no centre region")
    if v["main_town_nearest_town"] is None:
        notes.append("no main town or no other town on its level")
    return v, notes


def percentile(xs, p):
    """The p-th percentile (0..100) of the sorted list xs, linear between the closest ranks."""
    if not xs:
        return None
    k = (len(xs) - 1) * p / 100.0
    lo = math.floor(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def summary(per_map, key):
    xs = sorted(m[key] for m in per_map.values() if m.get(key) is not None)
    return {"n": len(xs), "median": percentile(xs, 50), "p10": percentile(xs, 10), "p90": percentile(xs, 90)}


def h3m_files(folder):
    return sorted((n for n in os.listdir(folder) if n.lower().endswith(".h3m")),
                  key=lambda n: (len(n), n))


def measure_folder(rmg, folder, centre_terrain, jobs):
    """{file: measures}, {file: notes}, {file: error} of every .h3m in the folder."""
    files = h3m_files(folder)
    per_map, notes, failed = {}, {}, {}

    def one(name):
        doc, info = read_map(rmg, os.path.join(folder, name))
        return measure(doc, info, centre_terrain)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(one, name) for name in files}
        for name in files:
            try:
                per_map[name], n = futures[name].result()
                if n:
                    notes[name] = n
            except (RuntimeError, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
                failed[name] = str(e)
    return per_map, notes, failed


def read_settings(real_dir):
    """The rows of REAL_DIR/settings.tsv (tab-separated, a header line), [] without the file."""
    path = os.path.join(real_dir, "settings.tsv")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        lines = [line.rstrip("\n").split("\t") for line in fh if line.strip()]
    return [dict(zip(lines[0], row)) for row in lines[1:]]


def town_options(row):
    """`--town P=TOWN` for each `colour=town` of a settings row's town_choice (`;`-separated)."""
    out = []
    for part in (row.get("town_choice") or "").replace(",", ";").split(";"):
        colour, _, town = part.strip().partition("=")
        if colour in COLOURS and town:
            out += ["--town", f"{COLOURS.index(colour) + 1}={town}"]
    return out


def generate(rmg, args, out_dir, settings):
    """Seeds 1..N into out_dir; {file: error} of the runs that failed."""
    def one(seed):
        cmd = [rmg, "generate", args.template, "--game", args.game, "--size", args.size, "--monsters", args.monsters,
               "--players", str(args.players), "--humans", str(args.humans), "--seed", str(seed), "--quiet"]
        if settings:
            cmd += town_options(settings[(seed - 1) % len(settings)])
        cmd += ["-o", os.path.join(out_dir, f"seed{seed}.h3m")]
        run(cmd)

    failed = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {seed: pool.submit(one, seed) for seed in range(1, args.generate + 1)}
        for seed, f in futures.items():
            try:
                f.result()
            except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
                failed[f"seed{seed}.h3m"] = str(e)
    return failed


def fmt(x, key):
    if x is None:
        return "–"
    if key == "monster_ai_value" or key.endswith("ai_value_per_100"):
        return f"{x / 1e6:.2f} M" if abs(x) >= 1e6 else f"{x:,.0f}"
    if isinstance(x, float) and not x.is_integer() or key.endswith(("share", "per_100", "per_100_land",
                                                                      "per_obstacle", "nearest_town")):
        return f"{x:,.1f}"
    return f"{x:,.0f}"


def markdown(result):
    r, o = result["real"], result["ours"]
    lines = [f"real: {r['dir']} ({r['maps']} maps{', ' + str(len(r['failed'])) + ' unreadable' if r['failed'] else ''}); "
             f"ours: {o['dir']} ({o['maps']} maps{', ' + str(len(o['failed'])) + ' failed' if o['failed'] else ''})",
             "",
             "| measure | real median | real p10 | real p90 | ours median | ours p10 | ours p90 | ours / real |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for m in result["measures"]:
        k, a, b = m["key"], m["real"], m["ours"]
        ratio = "–" if m["ratio"] is None else f"{m['ratio']:.2f}"
        lines.append(f"| {m['label']} | {fmt(a['median'], k)} | {fmt(a['p10'], k)} | {fmt(a['p90'], k)} | "
                     f"{fmt(b['median'], k)} | {fmt(b['p10'], k)} | {fmt(b['p90'], k)} | {ratio} |")
    notes = sorted({n for side in (r, o) for ns in side["notes"].values() for n in ns})
    if notes or r["failed"] or o["failed"]:
        lines.append("")
    for n in notes:
        lines.append(f"- note: {n}")
    for side in (r, o):
        for name, err in sorted(side["failed"].items()):
            lines.append(f"- failed: {name}: {err}")
    return "\n".join(lines) + "\n"


def default_rmg():
    env = os.environ.get("RMG")
    if env:
        return env
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for b in ("build/release/rmg", "build/rel/rmg"):
        if os.access(os.path.join(here, b), os.X_OK):
            return os.path.join(here, b)
    return shutil.which("rmg") or "rmg"


def default_template():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shared = os.environ.get("RMG_SHARED_DIR") or os.path.join(here, "..", "shared")
    return os.path.join(shared, "corpus", "sod",
                        "sokie__heroes3-template-util__templates__sod_complete__Jebus_Cross__rmg.txt")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("real_dir", help="folder of the game's .h3m maps (and its settings.tsv)")
    ap.add_argument("maps_dir", nargs="?", help="folder of librmg's .h3m maps (not with --generate)")
    ap.add_argument("--rmg", default=default_rmg(), help="the rmg command (default: $RMG, the checkout's build, PATH)")
    ap.add_argument("--jobs", type=int, default=2, help="rmg processes at once (default 2)")
    ap.add_argument("--json", metavar="FILE", help="write the figures and every map's values as JSON ('-': stdout)")
    ap.add_argument("--centre-terrain", default="sand", choices=TERRAIN_KEYS,
                    help="the terrain the template gives the centre zone (default sand, Jebus Cross)")
    ap.add_argument("--generate", type=int, metavar="N", help="generate seeds 1..N as the second folder")
    ap.add_argument("--template", default=default_template(), help="template of --generate (default: Jebus Cross rmg.txt)")
    ap.add_argument("--game", default="sod")
    ap.add_argument("--size", default="XL")
    ap.add_argument("--monsters", default="strong")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--humans", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR", help="--generate into DIR (kept) instead of a temporary folder")
    args = ap.parse_args(argv)
    if (args.generate is None) == (args.maps_dir is None):
        ap.error("give MAPS_DIR or --generate N (one of them)")
    if args.generate is not None and args.generate < 1:
        ap.error("--generate needs N >= 1")
    if args.jobs < 1:
        ap.error("--jobs needs N >= 1")
    if not os.path.isdir(args.real_dir):
        ap.error(f"{args.real_dir}: not a folder")
    centre = TERRAIN_KEYS.index(args.centre_terrain)

    tmp = None
    gen_failed = {}
    maps_dir = args.maps_dir
    if args.generate is not None:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            maps_dir = args.keep
        else:
            tmp = tempfile.mkdtemp(prefix="realism-")
            maps_dir = tmp
        gen_failed = generate(args.rmg, args, maps_dir, read_settings(args.real_dir))
    elif not os.path.isdir(maps_dir):
        ap.error(f"{maps_dir}: not a folder")
    try:
        sides = {}
        for side, folder in (("real", args.real_dir), ("ours", maps_dir)):
            per_map, notes, failed = measure_folder(args.rmg, folder, centre, args.jobs)
            if side == "ours":
                failed.update(gen_failed)
            label = f"--generate {args.generate}" if side == "ours" and tmp else folder
            sides[side] = {"dir": label, "maps": len(per_map),
                           "failed": failed, "notes": notes, "per_map": per_map}
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    result = {"format": "rmg-realism", "format_version": 1, "centre_terrain": args.centre_terrain,
              "real": sides["real"], "ours": sides["ours"], "measures": []}
    for key, label in MEASURES:
        a, b = summary(sides["real"]["per_map"], key), summary(sides["ours"]["per_map"], key)
        ratio = b["median"] / a["median"] if a["median"] and b["median"] is not None else None
        result["measures"].append({"key": key, "label": label, "real": a, "ours": b, "ratio": ratio})
    if args.json:
        text = json.dumps(result, indent=1, sort_keys=False) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text)
    if args.json != "-":
        sys.stdout.write(markdown(result))
    if not sides["real"]["maps"] or not sides["ours"]["maps"]:
        print("realism: a folder gave no readable map", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
