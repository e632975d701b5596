"""The balance report and fairness-aware generation through the bindings (docs/balance.md)."""

from __future__ import annotations

import pytest

import rmg
from conftest import SMALL_YAML

MEASURES = {"path_cost", "path_tiles", "strongest_guard", "guard_sum", "weakest_exit_guard", "value_1", "value_2",
            "value_3", "value_7", "mine_wood", "mine_mercury", "mine_ore", "mine_sulfur", "mine_crystal", "mine_gems",
            "mine_gold"}


def test_report_follows_the_contract(builtin: rmg.Template) -> None:
    m = rmg.Context(seed=3).generate(builtin, size="M")
    report = m.balance()
    assert report["format"] == "rmg-balance" and report["day_points"] == 1500
    players = report["players"]
    assert [p["player"] for p in players] == sorted(p["player"] for p in players) and len(players) >= 2
    for p in players:
        x, y, z = p["town"]
        assert 0 <= x < m.width and 0 <= y < m.height and 0 <= z < m.levels
        assert {t["player"] for t in p["to"]} == {q["player"] for q in players} - {p["player"]}
        for t in p["to"]:
            assert set(t) == {"player", "path_tiles", "path_cost", "guards", "strongest_guard", "guard_sum"}
            if t["path_tiles"] is not None:
                # a step costs at least a cobblestone road's 50 points
                assert t["path_cost"] >= 50 * t["path_tiles"]
                assert t["strongest_guard"] <= t["guard_sum"]
        assert set(p["value_by_day"]) == {"1", "2", "3", "7"}
        days = [p["value_by_day"][d] for d in ("1", "2", "3", "7")]
        assert days == sorted(days)
        assert set(p["nearest_mine"]) == {"wood", "mercury", "ore", "sulfur", "crystal", "gems", "gold"}
    assert set(report["spread"]) == MEASURES
    assert all(0 <= v <= 1 for v in report["spread"].values())
    assert 0 <= report["score"] <= 100


def test_day_points_change_the_reach(builtin: rmg.Template) -> None:
    m = rmg.Context(seed=3).generate(builtin, size="M")
    short, long = m.balance(day_points=500), m.balance(day_points=3000)
    assert short["day_points"] == 500
    for a, b in zip(short["players"], long["players"]):
        assert a["value_by_day"]["1"] <= b["value_by_day"]["1"]
        assert a["to"][0]["path_cost"] == b["to"][0]["path_cost"]
    with pytest.raises(rmg.Error):
        m.balance(day_points=20)


def test_best_of_is_the_fairest_and_deterministic() -> None:
    pack = rmg.Template.from_yaml(SMALL_YAML)
    ctx = rmg.Context(seed=11)
    best = ctx.generate(pack, size="S", best_of=4, threads=2)
    info = best.best_of
    assert info is not None and info["candidates"] == 4 and 0 <= info["candidate"] < 4
    assert best.seed == info["seed"] == rmg.derive(11, "best-of", info["candidate"])
    assert best.balance()["score"] == pytest.approx(info["score"], abs=0.01)
    # every candidate is the map of its sub-seed; none is fairer than the winner
    scores = [rmg.Context(seed=rmg.derive(11, "best-of", i)).generate(pack, size="S").balance()["score"]
              for i in range(4)]
    assert max(scores) == pytest.approx(info["score"], abs=0.01)
    assert scores.index(max(scores)) == info["candidate"]
    again = rmg.Context(seed=11).generate(pack, size="S", best_of=4)
    assert again.fingerprint == best.fingerprint and again.best_of == info
    assert rmg.Context(seed=11).generate(pack, size="S").best_of is None
