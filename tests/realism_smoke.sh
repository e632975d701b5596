#!/bin/bash
# CI smoke test of the realism comparison (scripts/realism.py, docs/realism.md; issue 32): what
# `rmg info MAP.h3m --json` adds to the map JSON agrees with it on a generated map; a game map's
# name in Windows-1251 reads as UTF-8; the tool run on 2 of the game's maps against 2 maps it
# generates prints every measure with sane values and writes the same figures as JSON. The full
# comparison is a benchmark (bench/QUALITY.md), not this test.
# usage: bash tests/realism_smoke.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
rmg="$build/rmg"
command -v python3 > /dev/null || { echo "SKIPPED: python3 is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# rmg info --json against the map JSON of the same file (the built-in pack: no shared folder).
"$rmg" generate --seed 3 --size S --quiet -o "$out/gen.h3m"
"$rmg" render "$out/gen.h3m" -o "$out/gen.json"
"$rmg" info "$out/gen.h3m" --json > "$out/gen.info.json"
"$rmg" info --json "$out/gen.h3m" | cmp -s - "$out/gen.info.json" || { echo "--json before the map differs"; exit 1; }
python3 - "$out/gen.json" "$out/gen.info.json" <<'EOF'
import json, sys
doc, info = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
n = doc["width"] * doc["height"] * doc["levels"]
assert info["size"] == doc["width"] and info["levels"] == doc["levels"], info["size"]
for layer in ("terrain", "river", "road"):
    assert sum(info["tiles"][layer]) == n, layer
terrain = [doc["tiles"]["terrain"].count(i) for i in range(12)]
assert info["tiles"]["terrain"] == terrain, (info["tiles"]["terrain"], terrain)
road = [doc["tiles"]["road"].count(i) for i in range(4)]
assert info["tiles"]["road"] == road, (info["tiles"]["road"], road)
assert len(info["objects"]) == len(doc["objects"]) > 0
uses = [0] * len(info["templates"])
for o in info["objects"]:
    uses[o["template"]] += 1
assert uses == [t["objects"] for t in info["templates"]]
monsters = [(o, i) for o, i in zip(doc["objects"], info["objects"]) if i["kind"] == "monster"]
assert monsters and all(o["key"] == "monster" and i["count"] == o["count"] > 0 and i["ai_value"] > 0
                        for o, i in monsters)
assert all(i["kind"] == "town" for o, i in zip(doc["objects"], info["objects"]) if o["key"] == "town")
assert any(i["kind"] == "obstacle" for i in info["objects"])
assert all(t["def"].lower().endswith(".def") for t in info["templates"])
print("rmg info --json agrees with the map JSON:", len(info["objects"]), "objects")
EOF
# rmg info's text (issue 29): the map's description, and kinds of objects by the ruleset's names.
"$rmg" info "$out/gen.h3m" > "$out/gen.info.txt"
grep -q '^about     The built-in template pack of librmg\.$' "$out/gen.info.txt" || { echo "no description"; exit 1; }
grep -q '^          Random map by librmg .*, seed 3, size S' "$out/gen.info.txt" || { echo "no generator's line"; exit 1; }
# every listed kind named from the ruleset (which kinds lead depends on the map: obstacles, mostly)
kinds=$(grep -cE '^ +[0-9]+  [A-Z][^ ].* +class [0-9]+, subclass [0-9]+$' "$out/gen.info.txt" || true)
[ "$kinds" -ge 10 ] || { echo "no named kinds ($kinds)"; cat "$out/gen.info.txt"; exit 1; }
if grep -qE '^ +class [0-9]+ +[0-9]+$' "$out/gen.info.txt"; then echo "a kind without a name"; exit 1; fi

. "$src/tests/support/shared.sh"
need_shared real-maps/Generated2.h3m real-maps/Generated4.h3m real-maps/settings.tsv \
    corpus/sod/sokie__heroes3-template-util__templates__sod_complete__Jebus_Cross__rmg.txt

# The game's strings are Windows-1251 here: the JSON is valid UTF-8 with the Cyrillic decoded.
"$rmg" render "$shared/real-maps/Generated2.h3m" -o "$out/real.json"
python3 - "$out/real.json" <<'EOF'
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))   # strict: raises on invalid UTF-8
assert doc["template"]["name"] == "16Dec03 0141 Ihromant vs \u041a\u043e\u043c\u043f\u044c\u044e\u0442\u0435\u0440", doc["template"]["name"]
assert doc["description"].startswith("Map created by the Random Map Generator.  Template was Jebus Cross")
EOF
"$rmg" info "$shared/real-maps/Generated2.h3m" > "$out/real.info.txt"
grep -q '^about     Map created by the Random Map Generator\.  Template was Jebus Cross' "$out/real.info.txt" &&
    grep -qE '^ +[0-9]+  Mountain +class 134, subclass 0$' "$out/real.info.txt" ||
    { echo "rmg info of a game map: no description or names"; cat "$out/real.info.txt"; exit 1; }

mkdir "$out/real"
cp "$shared/real-maps/Generated2.h3m" "$shared/real-maps/Generated4.h3m" "$shared/real-maps/settings.tsv" "$out/real/"
python3 "$src/scripts/realism.py" "$out/real" --generate 2 --rmg "$rmg" \
    --template "$shared/corpus/sod/sokie__heroes3-template-util__templates__sod_complete__Jebus_Cross__rmg.txt" \
    --json "$out/r.json" > "$out/table.md"
cat "$out/table.md"
grep -q '^real: .* (2 maps); ours: --generate 2 (2 maps)$' "$out/table.md"
python3 - "$out/r.json" "$out/table.md" "$src/scripts" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[3])
import realism
r = json.load(open(sys.argv[1], encoding="utf-8"))
table = open(sys.argv[2], encoding="utf-8").read()
assert [m["key"] for m in r["measures"]] == [k for k, _ in realism.MEASURES]
for key, label in realism.MEASURES:
    assert f"| {label} |" in table, f"missing row: {label}"
m = {x["key"]: x for x in r["measures"]}
for side in ("real", "ours"):
    assert r[side]["maps"] == 2 and not r[side]["failed"], r[side]["failed"]
    for key, _ in realism.MEASURES:
        s = m[key][side]
        assert s["n"] == 2 and s["p10"] <= s["median"] <= s["p90"], (side, key, s)
    med = lambda k: m[k][side]["median"]
    assert 3000 < med("objects") < 12000 and 100 < med("monsters") < 1000, side
    assert 1e6 < med("monster_ai_value") < 1e8 and 0 < med("guards_50k") < med("monsters"), side
    assert med("towns") >= 4 and med("mines") >= 60 and med("artifacts") > 0 and med("creature_banks") > 0, side
    assert 0 < med("main_town_nearest_town") < 144, side
    assert med("road_tiles") == med("road_dirt") + med("road_gravel") + med("road_cobblestone") > 0, side
    assert 0 < med("obstacles") < med("obstacle_tiles") < 144 * 144, side
    assert 0 < med("obstacle_sprites") <= med("file_sprites"), side
    assert 0 < med("passable_land_share") < 100 and 0 < med("centre_share") < 60, side
    assert med("land_share") == 100.0, side   # Jebus Cross: no water, no rock
    for k in ("centre_content_per_100", "outside_content_per_100", "centre_ai_value_per_100"):
        assert med(k) > 0, (side, k)
# The game's maps: 60 mines (the template's minimum), rivers, cobblestone roads only.
assert m["mines"]["real"]["median"] == 60
assert m["river_tiles"]["real"]["median"] > 0
assert m["road_cobblestone"]["real"]["median"] == m["road_tiles"]["real"]["median"]
for x in r["measures"]:
    a, b = x["real"]["median"], x["ours"]["median"]
    assert x["ratio"] == (b / a if a else None), x
# Every map's values are kept (the medians of two maps are their means).
per = r["real"]["per_map"]
assert sorted(per) == ["Generated2.h3m", "Generated4.h3m"]
assert m["objects"]["real"]["median"] == sum(p["objects"] for p in per.values()) / 2
EOF
# Usage errors: no second folder, or both.
if python3 "$src/scripts/realism.py" "$out/real" --rmg "$rmg" > /dev/null 2>&1; then
    echo "a missing MAPS_DIR was accepted"
    exit 1
fi
echo "realism smoke test passed"
