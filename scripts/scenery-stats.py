#!/usr/bin/env python3
"""Scenery measures of .h3m maps, read with the project's own reader (`rmg render MAP.h3m -o
MAP.json`): obstacle objects, the tiles they cover, distinct obstacle sprites (defs), the mix of
obstacle sizes, and the passable share of the land (land = every tile but water and rock;
passable = no object's blocked footprint on it).

    scripts/scenery-stats.py RMG MAPS_DIR [OTHER_DIR]

RMG is the `rmg` command. With one folder it prints the median, p10 and p90 of each measure over
its maps; with two, both and the ratio of the medians (OTHER / MAPS), e.g. the game's maps against
librmg's. An obstacle is an object whose key is a content obstacle (`obstacle_<def>`) or, for a
def the content does not know, an object of an obstacle class (`h3m_<class>_<subclass>`)."""
import json
import os
import subprocess
import sys
import tempfile

OBSTACLE_CLASSES = set(range(114, 139)) | set(range(143, 212)) - {162, 163, 164}
WATER, ROCK = 8, 9
SIZES = [(1, 1, "1"), (2, 2, "2"), (3, 5, "3-5"), (6, 9, "6-9"), (10, 14, "10-14"), (15, 48, "15+")]


def is_obstacle(key):
    if key.startswith("obstacle_"):
        return True
    if key.startswith("h3m_"):
        parts = key.split("_")
        return len(parts) == 3 and parts[1].isdigit() and int(parts[1]) in OBSTACLE_CLASSES
    return False


def measure(rmg, path, tmp):
    out = os.path.join(tmp, "map.json")
    subprocess.run([rmg, "render", path, "-o", out], check=True, stdout=subprocess.DEVNULL)
    with open(out, "rb") as f:
        doc = json.loads(f.read().decode("latin-1"))
    w, h, levels = doc["width"], doc["height"], doc["levels"]
    terrain = doc["tiles"]["terrain"]
    blocked = bytearray(w * h * levels)
    covered = bytearray(w * h * levels)
    n_obstacles = 0
    defs = set()
    sizes = {name: 0 for _, _, name in SIZES}
    for o in doc["objects"]:
        obstacle = is_obstacle(o["key"])
        for x, y, z in o["footprint"]:
            t = (z * h + y) * w + x
            blocked[t] = 1
            if obstacle:
                covered[t] = 1
        if obstacle:
            n_obstacles += 1
            defs.add(o["key"])
            n = len(o["footprint"])
            for lo, hi, name in SIZES:
                if lo <= n <= hi:
                    sizes[name] += 1
    land = [t for t in range(w * h * levels) if terrain[t] not in (WATER, ROCK)]
    passable = sum(1 for t in land if not blocked[t])
    m = {"obstacles": n_obstacles, "tiles covered": sum(covered), "distinct defs": len(defs),
         "tiles per obstacle": sum(covered) / n_obstacles if n_obstacles else 0.0,
         "passable % of land": 100.0 * passable / len(land) if land else 0.0}
    for _, _, name in SIZES:
        m[f"size {name}"] = sizes[name]
    return m


def quantile(values, q):
    v = sorted(values)
    if not v:
        return 0.0
    i = q * (len(v) - 1)
    lo = int(i)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (i - lo)


def folder(rmg, d, tmp):
    files = sorted(f for f in os.listdir(d) if f.lower().endswith(".h3m"))
    return [measure(rmg, os.path.join(d, f), tmp) for f in files]


def summary(maps):
    keys = list(maps[0].keys()) if maps else []
    return {k: (quantile([m[k] for m in maps], 0.5), quantile([m[k] for m in maps], 0.1),
                quantile([m[k] for m in maps], 0.9)) for k in keys}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    rmg = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        sets = [folder(rmg, d, tmp) for d in sys.argv[2:]]
    if not all(sets):
        sys.exit("no .h3m maps in " + " or ".join(sys.argv[2:]))
    sums = [summary(s) for s in sets]
    head = f"{'measure':22}" + "".join(f"  {os.path.basename(os.path.normpath(d)) + ' (' + str(len(s)) + ')':>30}"
                                         for d, s in zip(sys.argv[2:], sets))
    print(head + ("   ratio" if len(sets) == 2 else ""))
    print(f"{'':22}" + "".join(f"  {'median   p10   p90':>30}" for _ in sets))
    for k in sums[0]:
        line = f"{k:22}" + "".join(f"  {s[k][0]:10.1f} {s[k][1]:8.1f} {s[k][2]:8.1f}" for s in sums)
        if len(sets) == 2:
            line += f"   {sums[1][k][0] / sums[0][k][0]:.2f}" if sums[0][k][0] else "      -"
        print(line)


if __name__ == "__main__":
    main()
