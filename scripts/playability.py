#!/usr/bin/env python3
"""Whether generated maps play as the game moves heroes, judged from their JSON alone.

Usage: scripts/playability.py [--content DIR] [--summary] MAP.json...

An implementation of the game's movement rules separate from the library's (lib/map/map_reach.c),
so that each checks the other:
  - a hero walks to the 8 neighbours that are passable (the JSON `passable` layer);
  - he visits an object by stepping onto one of its entries; objects other than monsters,
    heroes, artifacts, resources, treasure and a few sea and pass-through classes cannot be
    entered from the three tiles above the entry; after a visit he stands on the entry;
  - monsters are fought (their tile opens); two-way monoliths lead to the other monoliths of
    their colour and shape, one-way entrances to the exits of their colour and shape (to the
    other entrances when the map has no such exit), gates to the gate the game pairs them with
    (surface gates by row then column, each to the nearest free underground gate);
  - a Border Guard opens once a Keymaster's Tent of its colour was visited;
  - a visited shipyard builds a boat on the first free water tile of twelve around its entry in
    the game's order (the columns two to each side, the row below, the row above), boarded like a
    Boat from a neighbouring tile; a boat sails over free water, visits sea objects and lands on
    any passable land beside it.
Per map it prints one JSON line: for each player the objects and towns he cannot reach, the
template connections realized by one-way monoliths whose entrances lead to no exit (pairs of
entrances), the mirror links whose template asks for entrance pairs, and per water zone its shipyards, boats and
sea objects, and the water crossings worth a guard that stand unguarded. Exit status 1 when a
map is not playable (an object or town some player cannot reach, or a dead one-way link).
"""
import json
import os
import sys

import yaml

FROM_TOP = {5, 6, 8, 9, 11, 12, 22, 29, 33, 34, 36, 54, 59, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 79,
            81, 82, 86, 93, 101, 111, 162, 163, 164, 212, 214, 215, 219}
MONSTERS = {54, 71, 72, 73, 74, 75, 162, 163, 164}
GUARD_THRESHOLD = 2000  # GRD-05: no guard below this total
# Where the game puts a shipyard's boat, relative to the entry, in the order it tries them.
BOAT_OFFSETS = [(-2, 0), (2, 0), (-2, 1), (2, 1), (-1, 1), (1, 1), (0, 1), (-2, -1), (2, -1), (-1, -1), (1, -1),
                (0, -1)]


def load_classes(content_dir):
    classes = {}
    for name, section in (("objects.yaml", "objects"), ("map_objects.yaml", "map_objects")):
        with open(os.path.join(content_dir, name), encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
        for key, row in (doc.get(section) or {}).items():
            if isinstance(row, dict) and "class" in row:
                classes.setdefault(key, int(row["class"]))
    return classes


class Map:
    def __init__(self, doc, classes):
        self.doc = doc
        self.w, self.h, self.levels = doc["width"], doc["height"], doc["levels"]
        tiles = doc["tiles"]
        self.terrain, self.passable, self.zone = tiles["terrain"], tiles["passable"], tiles["zone"]
        self.water_id = doc["terrain_keys"].index("water")
        self.objects = doc["objects"]
        self.entry_of = {}  # tile -> object index
        self.blocked_by_object = set()
        self.cls = []
        for i, o in enumerate(self.objects):
            key = o["key"]
            cls = classes.get(key)
            if cls is None:
                for prefix in ("keymaster_tent", "border_guard", "monolith_two_way", "monolith_one_way_entrance",
                               "monolith_one_way_exit", "dwelling", "resource", "mine"):
                    if key.startswith(prefix):
                        cls = classes.get(prefix, {"dwelling": 17, "resource": 79, "mine": 53}.get(prefix))
                        break
            self.cls.append(cls if cls is not None else -1)
            for x, y, z in o["entries"]:
                self.entry_of[self.idx(x, y, z)] = i
            for x, y, z in o["footprint"] + o["entries"]:
                self.blocked_by_object.add(self.idx(x, y, z))
        self.partner = self.pair_gates()

    def idx(self, x, y, z):
        return (z * self.h + y) * self.w + x

    def xyz(self, t):
        return t % self.w, (t // self.w) % self.h, t // (self.w * self.h)

    def neighbours(self, t):
        x, y, z = self.xyz(t)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if (dx or dy) and 0 <= x + dx < self.w and 0 <= y + dy < self.h:
                    yield self.idx(x + dx, y + dy, z), dy

    def water(self, t):
        return self.terrain[t] == self.water_id

    def open_water(self, t):
        return self.water(t) and t not in self.blocked_by_object

    def boat_spot(self, t):
        x, y, z = self.xyz(t)
        for dx, dy in BOAT_OFFSETS:
            if 0 <= x + dx < self.w and 0 <= y + dy < self.h and self.open_water(self.idx(x + dx, y + dy, z)):
                return self.idx(x + dx, y + dy, z)
        return None

    def channel(self, i):
        o = self.objects[i]
        shape = o.get("teleport")
        if o["key"].startswith("monolith_two_way"):
            return ("two", o.get("color"), shape)
        if o["key"].startswith("monolith_one_way"):
            return ("one", o.get("color"), shape)
        return None

    def pair_gates(self):
        gates = [i for i, c in enumerate(self.cls) if c == 103 and self.objects[i]["entries"]]
        top = sorted((g for g in gates if self.objects[g]["z"] == 0),
                     key=lambda g: (self.objects[g]["entries"][0][1], self.objects[g]["entries"][0][0]))
        low = [g for g in gates if self.objects[g]["z"] == 1]
        partner, taken = {}, set()
        for g in top:
            gx, gy, _ = self.objects[g]["entries"][0]
            best = None
            for u in low:
                if u in taken:
                    continue
                ux, uy, _ = self.objects[u]["entries"][0]
                d = (ux - gx) ** 2 + (uy - gy) ** 2
                if best is None or d < best[0]:
                    best = (d, u)
            if best:
                partner[g], partner[best[1]] = best[1], g
                taken.add(best[1])
        return partner

    def destinations(self, i):
        ch = self.channel(i)
        o = self.objects[i]
        if self.cls[i] == 103:
            return [self.partner[i]] if i in self.partner else []
        if ch is None or o["key"].startswith("monolith_one_way_exit"):
            return []
        same = [j for j in range(len(self.objects)) if j != i and self.channel(j) == ch]
        if ch[0] == "two":
            return same
        exits = [j for j in same if self.objects[j]["key"].startswith("monolith_one_way_exit")]
        return exits or [j for j in same if self.objects[j]["key"].startswith("monolith_one_way_entrance")]

    def flood(self, start):
        """Tiles reached (on foot or in a boat) and objects visited from the start tile."""
        on_foot, in_boat, visited = set(), set(), set()
        keys, waiting, boats_waiting = set(), {}, set()
        todo = []

        def stand(t, boat):
            seen = in_boat if boat else on_foot
            if t not in seen:
                seen.add(t)
                todo.append((t, boat))

        def arrive(j):
            visited.add(j)
            for x, y, z in self.objects[j]["entries"]:
                t = self.idx(x, y, z)
                stand(t, self.water(t))

        def visit(i, t, boat):
            first = i not in visited
            visited.add(i)
            cls, o = self.cls[i], self.objects[i]
            if cls in (43, 45, 103):
                if first:
                    for j in self.destinations(i):
                        arrive(j)
            elif cls in (9, 212):
                colour = o.get("color")
                if colour in keys:
                    stand(t, boat)
                else:
                    waiting.setdefault(colour, []).append((t, boat))
            elif cls == 10:
                stand(t, boat)
                colour = o.get("color")
                if colour not in keys:
                    keys.add(colour)
                    for u, b in waiting.pop(colour, []):
                        stand(u, b)
            elif cls == 87 and o["key"] != "airship_yard":
                stand(t, boat)
                spot = self.boat_spot(t)
                if spot is not None:
                    boats_waiting.add(spot)
                    if any(u == t or u in on_foot for u, _ in self.neighbours(spot)):
                        stand(spot, True)
            elif cls == 8:
                stand(t, True)
            else:
                stand(t, boat)

        if start in self.entry_of:
            visited.add(self.entry_of[start])
        stand(start, self.water(start))
        while todo:
            t, boat = todo.pop()
            for u, dy in self.neighbours(t):
                i = self.entry_of.get(u)
                if i is not None:
                    if dy == 1 and self.cls[i] not in FROM_TOP:
                        continue
                    if boat != self.water(u) and self.cls[i] != 8:
                        continue
                    visit(i, u, boat)
                elif (boat or u in boats_waiting) and self.open_water(u):
                    stand(u, True)
                elif self.passable[u]:
                    stand(u, False)
        return on_foot | in_boat, visited


def judge(doc, classes):
    m = Map(doc, classes)
    report = {"template": doc["template"]["name"], "seed": doc["seed"], "water": doc["options"]["water"],
              "players": {}, "dead_one_way_links": [], "mirror_entrance_pairs": [], "water_zones": {},
              "unguarded_crossings": []}
    playable = True
    towns = [o for o in m.objects if o["key"] in ("town", "castle")]
    for o in towns:
        if not (o.get("main") and o.get("owner")):
            continue
        x, y, z = o["entries"][0]
        _, visited = m.flood(m.idx(x, y, z))
        missed = [i for i, ob in enumerate(m.objects) if ob["entries"] and i not in visited]
        towns_missed = [i for i in missed if m.objects[i]["key"] in ("town", "castle")]
        report["players"][str(o["owner"])] = {"objects_missed": len(missed), "towns_missed": len(towns_missed),
                                              "first_missed": m.objects[missed[0]]["id"] if missed else None}
        playable = playable and not missed
    by_id = {ob["id"]: i for i, ob in enumerate(m.objects)}
    for c in doc["connections"]:
        if c["realized"] != "one_way_monolith":
            continue
        for oid in c["objects"]:
            i = by_id[oid]
            if m.objects[i]["key"].startswith("monolith_one_way_entrance") and not any(
                    m.objects[j]["key"].startswith("monolith_one_way_exit") for j in m.destinations(i)):
                # A template connection's entrance pairs are `monolith` links (ZON-36), never
                # `one_way_monolith`; a mirror link pairs entrances when its template asks for it
                # (ZON-31), which the guide says acts two-way (ZON-36).
                if c["template_index"] is not None:
                    report["dead_one_way_links"].append(c["id"])
                    playable = False
                else:
                    report["mirror_entrance_pairs"].append(c["id"])
                break
    kinds = {z["id"]: z["kind"] for z in doc["zones"]}
    for z in doc["zones"]:
        if z["kind"] == "water":
            report["water_zones"][str(z["id"])] = {"tiles": z["tiles"], "shipyards": 0, "boats": 0, "sea_objects": 0}
    for i, o in enumerate(m.objects):
        if not o["entries"]:
            continue
        x, y, zl = o["entries"][0]
        t = m.idx(x, y, zl)
        if m.cls[i] == 87 and o["key"] != "airship_yard":
            spot = m.boat_spot(t)
            if spot is not None and kinds.get(m.zone[spot]) == "water":
                report["water_zones"][str(m.zone[spot])]["shipyards"] += 1
        elif m.water(t) and kinds.get(m.zone[t]) == "water":
            entry = report["water_zones"][str(m.zone[t])]
            if m.cls[i] == 8:
                entry["boats"] += 1
            elif m.cls[i] not in MONSTERS:
                entry["sea_objects"] += 1
    for c in doc["connections"]:
        if c["realized"] == "water" and c["value"] >= GUARD_THRESHOLD and c["kind"] != "wide" and not c["guards"]:
            report["unguarded_crossings"].append(c["id"])
    report["playable"] = playable
    return report


def main(argv):
    content = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "content")
    paths, summary = [], False
    it = iter(argv)
    for a in it:
        if a == "--content":
            content = next(it)
        elif a == "--summary":
            summary = True
        else:
            paths.append(a)
    if not paths:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    classes = load_classes(content)
    bad = 0
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            r = judge(json.load(fh), classes)
        r["file"] = p
        bad += not r["playable"]
        if not summary or not r["playable"]:
            print(json.dumps(r, sort_keys=True))
    if summary:
        print(f"{len(paths) - bad} of {len(paths)} maps playable")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
