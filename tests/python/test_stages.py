"""Stage plugins written in Python: replaced output shows in the map; failures per policy."""

from __future__ import annotations

import sys
from typing import List

import pytest

import rmg
from conftest import source_dir

sys.path.insert(0, str(source_dir() / "examples" / "python"))
from replace_placement import grid_cells, grid_placement  # noqa: E402 - the example's stage, tested here


def test_replaced_placement_shows_in_the_map(ctx: rmg.Context, builtin: rmg.Template) -> None:
    ctx.set_stage("place", grid_placement)
    m = ctx.generate(builtin, size="M", template_name="Duet")
    zone_layer = m.layer("zone")
    placed = [z for z in m.zones if z.template_zone]
    for zone, (x0, y0, x1, y1) in zip(placed, grid_cells(72, 72, len(placed))):
        assert (zone.center_x, zone.center_y, zone.level) == ((x0 + x1) // 2, (y0 + y1) // 2, 0)
        assert zone.tiles == (x1 - x0) * (y1 - y0)
        assert all(zone_layer[y * 72 + x] == zone.id for y in range(y0, y1) for x in range(x0, x1))
    builtin_map = rmg.Context(seed=1).generate(builtin, size="M", template_name="Duet")
    assert [z.center_x for z in builtin_map.zones] != [z.center_x for z in m.zones]
    ctx.set_stage("place", None)  # the built-in stage again
    assert ctx.generate(builtin, size="M", template_name="Duet").fingerprint == builtin_map.fingerprint


def test_wrapping_the_builtin_stage_and_the_plugin_stream(ctx: rmg.Context, builtin: rmg.Template) -> None:
    seen: List[str] = []

    def objects_then_note(view: rmg.StageView) -> None:
        assert view.stage == rmg.Stage.OBJECTS
        before = len(view.map.objects)
        view.run_builtin()
        after = len(view.map.objects)
        draw = view.rng.range(1, 1000)
        seen.append(f"{before}->{after}:{draw}")
        view.warn(f"objects stage placed {after - before} objects, drew {draw}")

    ctx.set_stage(rmg.Stage.OBJECTS, objects_then_note)
    m = ctx.generate(builtin, size="S", seed=9)
    again = ctx.generate(builtin, size="S", seed=9)
    assert seen[0] == seen[1]  # the plugin's stream is deterministic
    note = [w for w in m.warnings if w.startswith("objects plugin: objects stage placed")]
    assert len(note) == 1 and note[0].endswith(seen[0].split(":")[1])
    assert m.fingerprint == again.fingerprint


def test_a_forbidden_write_raises_inside_the_stage(ctx: rmg.Context) -> None:
    caught: List[rmg.Error] = []

    def build(view: rmg.StageView) -> None:
        try:
            view.set_tile_zone(0, 0, 0, 1)  # only the place stage may
        except rmg.Error as err:
            caught.append(err)
        view.run_builtin()

    ctx.set_stage("build", build)  # the connect stage's old name still works
    ctx.generate(size="S")
    assert caught and caught[0].status == rmg.Status.ERR_INVALID_ARG
    assert "not allowed in the connect stage" in caught[0].message


def test_failing_plugin_with_policy_fail_raises_its_exception(ctx: rmg.Context) -> None:
    def broken(view: rmg.StageView) -> None:
        raise ValueError("no room for the zones")

    ctx.set_stage("place", broken, policy="fail")
    with pytest.raises(ValueError, match="no room for the zones") as info:
        ctx.generate(size="S")
    cause = info.value.__cause__
    assert isinstance(cause, rmg.PluginError) and cause.status == rmg.Status.ERR_PLUGIN
    assert cause.stage == "place" and "plugin failed" in cause.message
    ctx.set_stage("place", None)
    assert ctx.generate(size="S").width == 36  # the context is fine afterwards


def test_failing_plugin_with_policy_fallback_runs_the_builtin(ctx: rmg.Context, builtin: rmg.Template) -> None:
    def broken(view: rmg.StageView) -> None:
        raise RuntimeError("grid too small")

    ctx.set_stage("place", broken, policy="fallback")
    m = ctx.generate(builtin, size="S")
    assert any("Python RuntimeError: grid too small" in w for w in m.warnings)
    assert any("the place plugin failed" in w and "built-in stage ran instead" in w for w in m.warnings)
    plain = rmg.Context(seed=1).generate(builtin, size="S")
    assert [z.center_x for z in m.zones] == [z.center_x for z in plain.zones]


def test_plugin_returning_a_status_fails_the_generation(ctx: rmg.Context) -> None:
    ctx.set_stage("guard", lambda view: rmg.Status.ERR_INVALID_DATA)
    with pytest.raises(rmg.PluginError) as info:
        ctx.generate(size="S")
    assert "RMG_ERR_INVALID_DATA" in info.value.message


def test_a_view_error_left_uncaught_keeps_the_library_message(ctx: rmg.Context) -> None:
    ctx.set_stage("place", lambda view: view.set_tile_zone(0, 0, 0, 999))
    with pytest.raises(rmg.Error, match="zone id 999 does not exist") as info:
        ctx.generate(size="S")
    assert isinstance(info.value.__cause__, rmg.PluginError)
    assert "zone id 999 does not exist" in info.value.__cause__.message


def test_the_view_dies_with_its_stage(ctx: rmg.Context) -> None:
    kept: List[rmg.StageView] = []

    def keep(view: rmg.StageView) -> None:
        kept.append(view)
        view.run_builtin()

    ctx.set_stage("finish", keep)
    ctx.generate(size="S")
    with pytest.raises(ValueError):
        kept[0].warn("too late")
    with pytest.raises(ValueError):
        kept[0].map.width
    with pytest.raises(ValueError):
        kept[0].rng.next()


def test_keyboard_interrupt_in_a_plugin_is_not_swallowed_by_fallback(ctx: rmg.Context) -> None:
    def interrupted(view: rmg.StageView) -> None:
        raise KeyboardInterrupt

    ctx.set_stage("objects", interrupted, policy="fallback")
    with pytest.raises(KeyboardInterrupt):
        ctx.generate(size="S")


def test_generating_again_from_inside_a_stage_is_refused(ctx: rmg.Context) -> None:
    def nested(view: rmg.StageView) -> None:
        view.context.generate(size="S")  # would recurse into this very plugin

    ctx.set_stage("finish", nested)
    with pytest.raises(RuntimeError, match="same context"):
        ctx.generate(size="S")
    ctx.set_stage("finish", None)
    assert ctx.generate(size="S").width == 36


def test_objects_stage_blocks_and_reserves_tiles_before_the_builtin(ctx: rmg.Context) -> None:
    blocked: List[tuple] = []
    reserved: List[tuple] = []

    def carve(view: rmg.StageView) -> None:
        # A retried stage runs the plugin again on the restored map: the last run's tiles count.
        blocked.clear()
        reserved.clear()
        m = view.map
        for index, open_land in enumerate(m.layer("passable")):
            if not open_land or len(reserved) == 10:
                continue
            tile = m.tile_xyz(index)
            try:
                if len(blocked) < 20:
                    view.set_blocked(*tile, True)
                    blocked.append(tile)
                else:
                    view.reserve_path(*tile)
                    reserved.append(tile)
            except rmg.Error as err:  # borders, passages: the view refuses, the plugin goes on
                assert err.status == rmg.Status.ERR_INVALID_ARG
        view.run_builtin()
        with pytest.raises(rmg.Error, match="only before the built-in objects run"):
            view.set_blocked(*reserved[0], True)

    ctx.set_stage("objects", carve)
    m = ctx.generate(size="S", seed=2)
    assert len(blocked) == 20 and len(reserved) == 10
    objects = {o.id: o for o in m.objects}
    for tile in blocked:
        assert m.passable_at(*tile) == 0
        assert objects[m.object_at(*tile)].kind == rmg.ObjectKind.OBSTACLE
    for tile in reserved:
        assert m.passable_at(*tile) == 1
