"""Every template in every setup (issue 30) from Python, as in C and the command: the template's
own water level by default, and start zones of players not in the game neutral."""

from __future__ import annotations

import json

import rmg
from rmg import _lib
from conftest import SMALL_YAML


def test_water_is_the_templates_choice_by_default(ctx: rmg.Context) -> None:
    """A template whose filter names islands and normal water gets normal water when ``water``
    is left out, and the description says so; ``water="none"`` is refused by its filter."""
    wet = SMALL_YAML.replace("    players: {min_total: 2, max_total: 2}\n",
                             "    players: {min_total: 2, max_total: 2}\n    water: [islands, normal]\n")
    pack = rmg.Template.from_yaml(wet, name="wet.yaml")
    m = ctx.generate(pack, size="S")
    assert m.options["water"] == rmg.Water.NORMAL
    assert json.loads(m.to_json())["options"]["water"] == "normal"
    version = _lib.lib().rmg_version_string().decode()
    assert m.description == (f"Random map by librmg {version}. Template Pair (pack python test pack), "
                             f"seed {ctx.seed}, size S, 2 players (1 human), normal water (the template's choice), "
                             "normal monsters.")
    same = rmg.Context(seed=ctx.seed).generate(pack, size="S", water="template")
    assert same.fingerprint == m.fingerprint
    assert ctx.generate(pack, size="S", water="islands").options["water"] == rmg.Water.ISLANDS
    dry = rmg.Context(seed=1).generate(rmg.Template.from_yaml(SMALL_YAML), size="S")
    assert dry.options["water"] == rmg.Water.NONE and ", no water, " in dry.description


def test_absent_players_start_zone_is_neutral(ctx: rmg.Context) -> None:
    """Pair for one player: zone 2 and its castle belong to nobody in the API and the JSON, and
    the balance report has one player."""
    solo = SMALL_YAML.replace("{min_total: 2, max_total: 2}", "{min_total: 1, max_total: 2}")
    m = ctx.generate(rmg.Template.from_yaml(solo), size="S", players=1)
    owners = {z.template_zone: z.owner for z in m.zones if z.template_zone}
    assert owners == {1: 1, 2: 0, 3: 0}
    doc = json.loads(m.to_json())
    assert {z["template_zone"]: z["owner"] or 0 for z in doc["zones"] if z.get("template_zone")} == owners
    assert [p["player"] for p in m.balance()["players"]] == [1]
