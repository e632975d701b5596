"""Every kind of generated map validates against docs/map.schema.json (issue 10): corpus packs of
each format, a mirror pack, water maps, two levels. The JSON read back agrees with the API."""

from __future__ import annotations

import json

import jsonschema
import pytest

import rmg
from conftest import shared_dir

CASES = [
    pytest.param("h3t", "Jebus_Cross.h3t", {}, marks=pytest.mark.shared),
    # mirror pack: two levels, the underground a copy
    pytest.param("h3t", "mt_Diamond.h3t", {}, marks=pytest.mark.shared),
    pytest.param("sod", "2SM2c__rmg.txt", {}, marks=pytest.mark.shared),
    pytest.param("vcmi", "jebusCross.json", {}, marks=pytest.mark.shared),
    (None, None, {"water": "islands", "size": "M"}),
    (None, None, {"underground": True, "size": "L"}),
]


def find(kind: str, suffix: str):
    folder = shared_dir() / "corpus" / kind
    hits = sorted(p for p in folder.rglob("*") if p.is_file() and p.name.endswith(suffix)) if folder.is_dir() else []
    if not hits:
        pytest.skip(f"no corpus file *{suffix} under {folder} (set RMG_SHARED_DIR)")
    return hits[0]


@pytest.mark.parametrize("kind, suffix, options", CASES)
def test_generated_json_matches_schema_and_api(ctx: rmg.Context, builtin: rmg.Template, src, kind, suffix, options):
    schema = json.loads((src / "docs" / "map.schema.json").read_text(encoding="utf-8"))
    template = ctx.load_template(find(kind, suffix)) if kind else builtin
    generate_options = {"size": None, "underground": None, "players": 0}
    generate_options.update(options)
    m = ctx.generate(template, **generate_options)
    doc = json.loads(m.to_json())
    jsonschema.validate(doc, schema)
    n = doc["width"] * doc["height"] * doc["levels"]
    assert all(len(doc["tiles"][layer]) == n for layer in ("terrain", "zone", "passable", "road"))
    assert len(doc["zones"]) == len(m.zones)
    assert len(doc["objects"]) == len(m.objects)
    assert len(doc["connections"]) == len(m.connections)
    assert len(doc["groups"]) == len(m.groups)
    assert doc["fingerprint"] == m.fingerprint
    # One terrain numbering: the JSON's tile terrains are the C layer's ids and rmg.Terrain's.
    assert doc["tiles"]["terrain"] == list(m.layer("terrain"))
    assert doc["terrain_keys"] == [t.name.lower() for t in rmg.Terrain]
    assert [doc["terrain_keys"].index(z["terrain"]) for z in doc["zones"]] == [z.terrain for z in m.zones]
    assert m.validate() == []
