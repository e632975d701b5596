"""Generation through the bindings: the map's facts, layers, records, exports, determinism."""

from __future__ import annotations

import json
from collections import Counter

import jsonschema
import pytest

import rmg
from conftest import SMALL_YAML


def test_readme_one_liner_shape(builtin: rmg.Template) -> None:
    m = rmg.Context(seed=1).generate(builtin, size="S")
    # The built-in template puts zones underground: left open, the levels are its choice (two).
    assert (m.width, m.height, m.levels) == (36, 36, 2)
    assert m.fingerprint == rmg.Context(seed=1).generate(rmg.default_template(), size="S").fingerprint
    assert len(m.fingerprint) == 16 and int(m.fingerprint, 16) > 0  # hex, as in the JSON and the CLI
    assert m.seed == 1
    assert m.template_name in builtin.template_names
    assert m.pack_name == builtin.name
    assert m.attempts >= 1


def test_determinism_same_seed_same_bytes(builtin: rmg.Template) -> None:
    a = rmg.Context(seed=77).generate(builtin, size="S")
    b = rmg.Context(seed=77).generate(builtin, size="S")
    c = rmg.Context(seed=78).generate(builtin, size="S")
    assert a.to_json() == b.to_json()
    assert a.fingerprint == b.fingerprint
    assert a.layer_bytes("terrain") == b.layer_bytes("terrain")
    assert a.fingerprint != c.fingerprint


def test_reseeding_a_context_per_call(builtin: rmg.Template) -> None:
    ctx = rmg.Context()
    first = ctx.generate(builtin, size="S", seed=5).fingerprint
    ctx.generate(builtin, size="S", seed=6)
    assert ctx.generate(builtin, size="S", seed=5).fingerprint == first
    assert ctx.seed == 5


def test_options_reach_the_library(ctx: rmg.Context, builtin: rmg.Template) -> None:
    m = ctx.generate(builtin, size="M", underground=True, players=2, humans=2, monsters="strong", template_name="Duet")
    assert (m.width, m.height, m.levels) == (72, 72, 2)
    assert m.template_name == "Duet"
    opts = m.options
    assert opts["humans"] == 2 and opts["players"] == 2
    assert opts["monsters"] == rmg.MapMonsters.STRONG
    assert any(z.level == 1 for z in m.zones)
    assert m.layer("terrain").buffer_info()[1] == 72 * 72 * 2


def test_zones_agree_with_the_zone_layer(ctx: rmg.Context, builtin: rmg.Template) -> None:
    m = ctx.generate(builtin, size="S")
    layer = m.layer(rmg.Layer.ZONE)
    assert len(layer) == m.width * m.height * m.levels
    counts = Counter(layer)
    assert [z.id for z in m.zones] == list(range(1, len(m.zones) + 1))
    for zone in m.zones:
        assert counts[zone.id] == zone.tiles, zone
        assert isinstance(zone.kind, rmg.ZoneKind)
        assert m.zone_at(zone.center_x, zone.center_y, zone.level) >= 0
    assert sum(counts.values()) == sum(z.tiles for z in m.zones)
    starts = [z for z in m.zones if z.kind in (rmg.ZoneKind.HUMAN_START, rmg.ZoneKind.COMPUTER_START)]
    assert {z.owner for z in starts} == {1, 2}
    for zone in starts:
        assert zone.towns and zone.main_town in zone.towns


def test_single_tile_reads_match_layers(ctx: rmg.Context, builtin: rmg.Template) -> None:
    m = ctx.generate(builtin, size="S")
    terrain, passable, roads, objects = (m.layer(n) for n in ("terrain", "passable", "road", "object"))
    for x, y in [(0, 0), (5, 7), (35, 35), (20, 11)]:
        i = m.tile_index(x, y)
        assert m.tile_xyz(i) == (x, y, 0)
        assert m.terrain_at(x, y) == terrain[i]
        assert m.passable_at(x, y) == passable[i]
        assert m.road_at(x, y) == roads[i]
        assert m.object_at(x, y) == objects[i]
    assert m.terrain_at(36, 0) == -1 and m.zone_at(-1, 0) == -1


def test_objects_connections_groups_are_consistent(ctx: rmg.Context, builtin: rmg.Template) -> None:
    m = ctx.generate(builtin, size="S")
    objects = {o.id: o for o in m.objects}
    assert len(objects) == len(m.objects) > 0
    object_layer = m.layer("object")
    kinds = Counter(o.kind for o in m.objects)
    assert kinds[rmg.ObjectKind.TOWN] >= 2 and kinds[rmg.ObjectKind.MONSTER] > 0
    for obj in m.objects:
        for tile in obj.footprint:
            assert object_layer[tile] == obj.id
        if obj.guard:
            assert objects[obj.guard].kind == rmg.ObjectKind.MONSTER
    for conn in m.connections:
        assert 1 <= conn.zone_a <= len(m.zones) and 1 <= conn.zone_b <= len(m.zones)
        assert len(conn.tiles) == conn.tile_count and len(conn.guards) == conn.guard_count
        assert all(objects[g].kind == rmg.ObjectKind.MONSTER for g in conn.guards)
        if conn.realized == rmg.Realization.UNREALIZED:
            assert conn.why
    for group in m.groups:
        assert len(group.objects) == group.object_count
        assert all(objects[o].group == group.id for o in group.objects)


def test_json_export_matches_the_schema_and_the_accessors(ctx: rmg.Context, builtin: rmg.Template, src) -> None:
    m = ctx.generate(builtin, size="S")
    schema = json.loads((src / "docs" / "map.schema.json").read_text(encoding="utf-8"))
    doc = m.to_dict()
    jsonschema.validate(doc, schema)
    assert json.loads(m.to_json()) == doc
    flat = json.dumps(doc)
    for value in (str(m.width), m.template_name):
        assert value in flat
    assert len(m.validate()) == 0


def test_zone_treasure_counts_match_the_json(ctx: rmg.Context, builtin: rmg.Template) -> None:
    m = ctx.generate(builtin, size="M")
    doc = m.to_dict()
    by_id = {z["id"]: z for z in doc["zones"]}
    asked = 0
    for zone in m.zones:
        groups = by_id[zone.id].get("treasure_groups")
        if groups is None:
            assert zone.treasure_requested == (0, 0, 0)
            continue
        assert list(zone.treasure_requested) == groups["requested"]
        assert list(zone.treasure_placed) == groups["placed"]
        assert list(zone.treasure_exhausted) == groups["exhausted"]
        asked += sum(zone.treasure_requested)
    assert asked > 0


def test_setup_matches_the_json(ctx: rmg.Context, builtin: rmg.Template) -> None:
    """Map.setup (rmg_map_setup, rmg_map_allowed) is the JSON's setup member (issue 22)."""
    m = ctx.generate(builtin, size="M")
    setup = m.setup
    assert setup == json.loads(m.to_json())["setup"]
    assert setup["special_weeks"] is True and setup["max_battle_rounds"] is None
    assert "castle" in setup["allowed_towns"] and setup["banned"]["artifacts"]


def test_game_sod_gives_sod_content_like_the_cli(builtin: rmg.Template) -> None:
    """Context(game="sod") is the CLI's --game sod: only SoD towns (issue 22 point 6)."""
    with rmg.Context(seed=3, game="sod") as ctx:
        m = ctx.generate(builtin, size="M")
        factions = {z["faction"] for z in m.to_dict()["zones"] if z.get("faction")}
        assert not factions & {"cove", "factory"}
    with pytest.raises(ValueError):
        rmg.Context(game="wog")


def test_h3m_save_and_load(builtin: rmg.Template, tmp_path) -> None:
    """Map.save("x.h3m") writes the game's file; Context.load_h3m reads it back (issue 22)."""
    for game in ("hota", "sod"):
        with rmg.Context(seed=2, game=game) as ctx:
            m = ctx.generate(builtin, size="M")
            path = tmp_path / f"{game}.h3m"
            m.save(path)
            data = path.read_bytes()
            assert data[:3] == b"\x1f\x8b\x08"
            back = ctx.load_h3m(path)
            assert (back.width, back.height, back.levels) == (m.width, m.height, m.levels)
            assert len(back.objects) == len(m.objects)
            assert back.layer("passable") == m.layer("passable")
    with rmg.Context() as ctx, pytest.raises(rmg.Error):
        ctx.load_h3m(tmp_path / "missing.h3m")


def test_saving_png_json_and_text(ctx: rmg.Context, builtin: rmg.Template, tmp_path) -> None:
    m = ctx.generate(builtin, size="S")
    png = tmp_path / "map.png"
    m.save_png(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    m.save(tmp_path / "map.json")
    assert json.loads((tmp_path / "map.json").read_text(encoding="utf-8")) == m.to_dict()
    m.save(str(tmp_path / "map.txt"))
    assert (tmp_path / "map.txt").read_text(encoding="utf-8") == m.to_text()


def test_template_from_yaml_generates_and_round_trips(ctx: rmg.Context) -> None:
    pack = rmg.Template.from_yaml(SMALL_YAML, name="pair.yaml")
    assert pack.name == "python test pack" and pack.template_names == ["Pair"] and len(pack) == 1
    assert pack.find("Pair") == 0
    m = ctx.generate(pack, size="S")
    assert m.template_name == "Pair"
    assert sorted(z.template_zone for z in m.zones if z.template_zone) == [1, 2, 3]
    again = rmg.Template.from_yaml(pack.to_yaml())
    assert rmg.Context(seed=1).generate(again, size="S").fingerprint == m.fingerprint


def test_load_template_from_a_file(ctx: rmg.Context, tmp_path) -> None:
    path = tmp_path / "pair.yaml"
    path.write_text(SMALL_YAML, encoding="utf-8")
    pack = ctx.load_template(path)
    assert pack.context is ctx and pack.format == rmg.TemplateFormat.YAML
    assert ctx.generate(pack, size="S").template_name == "Pair"


def test_stage_timings_and_repr(ctx: rmg.Context) -> None:
    m = ctx.generate(size="S")  # no template: the built-in pack
    assert set(m.stage_ms) == {s.name.lower() for s in rmg.Stage}
    assert all(ms >= 0 for ms in m.stage_ms.values())
    assert f"fingerprint={m.fingerprint}" in repr(m)


@pytest.mark.parametrize(
    "value, zone, world, connection, index, total, guarded",
    [
        (9000, "strong", "strong", False, 5, 19500.0, True),  # GRD-10 vector 1
        (5000, "weak", "weak", False, 1, 1250.0, False),  # GRD-10 vector 4
        (6000, "weak", "strong", True, 4, 9250.0, True),  # GRD-10 vector 5: zone term 0
        (1833, "strong", "normal", False, 4, 1999.5, False),  # GRD-11: 1999.5 is not guarded
        (3000, "none", "normal", False, 0, 0.0, False),  # TRS-08: zone content unguarded
    ],
)
def test_grd10_guard_strength(value, zone, world, connection, index, total, guarded) -> None:
    g = rmg.guard_strength(value, zone, world, connection=connection)
    assert (g.index, g.total, g.guarded) == (index, total, guarded)


def test_guard_compute_through_the_context(ctx: rmg.Context) -> None:
    g = ctx.guard(9000, "strong", "normal", stream=3)
    assert g.guarded and g.creature_key and g.count > 0 and g.strength_index == 4
    assert g == ctx.guard(9000, "strong", "normal", stream=3)
    assert not ctx.guard(100, "weak", "weak").guarded


def test_numpy_view_when_available(ctx: rmg.Context) -> None:
    numpy = pytest.importorskip("numpy")  # optional dependency of the bindings
    m = ctx.generate(size="S")
    zones = m.layer_numpy("zone")
    assert zones.shape == (m.levels, 36, 36) and zones.dtype == numpy.uint16
    assert zones[0, 7, 5] == m.zone_at(5, 7)


def test_objects_carry_their_content(builtin: rmg.Template) -> None:
    """Issue 8's details pass through the bindings: the record fields match the JSON export
    (MIS-02 pile sizes, OBJ-16 scroll spells, spell Pandora's boxes, MIS-31 prison heroes)."""
    seen = Counter()
    for seed in range(1, 5):
        m = rmg.Context(seed=seed).generate(builtin, size="M")
        exported = {o["id"]: o for o in json.loads(m.to_json())["objects"]}
        heroes = [o.hero for o in m.objects if o.hero is not None]
        assert len(heroes) == len(set(heroes))
        for o in m.objects:
            doc = exported[o.id]
            assert o.spell == doc.get("spell") and o.hero == doc.get("hero") and o.artifact == doc.get("artifact")
            assert list(o.spells) == doc.get("spells", [])
            assert o.reward == doc.get("reward") and o.link == doc.get("link", 0)
            if o.key.startswith("resource_"):
                assert o.amount > 0
                seen["piles"] += 1
            if o.key.startswith("spell_scroll_"):
                assert o.spell
                seen["scrolls"] += 1
            if o.key.startswith("prison_"):
                assert o.hero
            if o.key.startswith("pandora_spells_"):
                assert o.spells
    assert seen["piles"] > 0 and seen["scrolls"] > 0


def test_players_choose_their_town(src) -> None:
    """Issue 20 item 1 (MIS-37, MIS-38, MIS-08): towns={player: town}; the pack's list limits the
    choice, not the random towns of the other players."""
    probe = rmg.Template.from_file(src / "tests" / "probes" / "town_choice.yaml")
    ctx = rmg.Context(seed=3)
    m = ctx.generate(probe, size="M", players=3, towns={1: "tower", 2: rmg.Faction.CONFLUX})
    objects = {o.id: o for o in m.objects}
    by_owner = {z.owner: z for z in m.zones if z.owner}
    assert {objects[t].faction for t in by_owner[1].towns} == {rmg.Faction.TOWER}
    assert {objects[t].faction for t in by_owner[2].towns} == {rmg.Faction.CONFLUX}
    assert json.loads(m.to_json())["options"]["towns"] == {"1": "tower", "2": "conflux"}
    with pytest.raises(rmg.Error, match=r"player 1's town 'rampart' is not among the pack's allowed towns"):
        ctx.generate(probe, size="M", players=3, towns={1: "rampart"})
    with pytest.raises(ValueError, match="not within 1..8"):
        ctx.generate(probe, size="M", players=3, towns={9: "castle"})
    with pytest.raises(ValueError, match="unknown town"):
        ctx.generate(probe, size="M", players=3, towns={1: "elves"})
    random = ctx.generate(probe, size="M", players=3, towns={1: "random"})
    assert random.fingerprint == ctx.generate(probe, size="M", players=3).fingerprint
    assert "towns" not in json.loads(random.to_json())["options"]


def test_river_layer(builtin: rmg.Template) -> None:
    """Rivers (issue 32): the layer, the single-tile read and the JSON agree; icy rivers lie in
    snow zones and clear ones in dirt, grass and swamp zones, on land (objects may stand over
    them, as on the game's maps; rivers block nothing)."""
    river_terrains = {rmg.Terrain.SNOW: rmg.River.ICY, rmg.Terrain.DIRT: rmg.River.CLEAR,
                      rmg.Terrain.GRASS: rmg.River.CLEAR, rmg.Terrain.SWAMP: rmg.River.CLEAR}
    for seed in range(1, 30):
        m = rmg.Context(seed=seed).generate(builtin, size="M")
        rivers, zones, terrain = m.layer("river"), m.layer("zone"), m.layer("terrain")
        tiles = [i for i, r in enumerate(rivers) if r]
        if not tiles:
            assert all(z.terrain not in river_terrains for z in m.zones if z.tiles)
            continue
        terrain_of = {z.id: z.terrain for z in m.zones}
        for i in tiles:
            assert terrain[i] not in (rmg.Terrain.WATER, rmg.Terrain.ROCK)
            assert rivers[i] == river_terrains[terrain_of[zones[i]]]
            x, y, z = m.tile_xyz(i)
            assert m.river_at(x, y, z) == rivers[i]
        assert m.river_at(-1, 0) == -1
        assert json.loads(m.to_json())["tiles"]["river"] == list(rivers)
        return
    raise AssertionError("no map of seeds 1-29 has rivers")
