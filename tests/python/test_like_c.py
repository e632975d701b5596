"""Python like C (issue 21): the defaults of generate are the library's and the command's, so the
same template and seed give the same map from Python and from `rmg generate` with no options;
named enums; the fingerprint in hex; objects read in bulk; every public member documented."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import time
from pathlib import Path
from typing import List, Optional

import pytest

import rmg
from conftest import shared_dir

SEED = 3


def rmg_command() -> Path:
    """The `rmg` command built beside the library the tests use."""
    return Path(os.environ.get("RMG_LIBRARY", rmg.library_path())).resolve().parent / "rmg"


def cli_fingerprint(template: Optional[Path]) -> Optional[str]:
    """The fingerprint `rmg generate TEMPLATE --seed SEED` prints, None when it fails."""
    cmd = [str(rmg_command()), "generate"] + ([str(template)] if template else []) + ["--seed", str(SEED)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    found = re.search(r"^fingerprint ([0-9a-f]{16})$", out.stdout, re.M)
    return found.group(1) if out.returncode == 0 and found else None


def python_fingerprint(template: Optional[Path]) -> Optional[str]:
    """The fingerprint of Context(seed=SEED).generate(template) with no options, None on failure."""
    with rmg.Context(seed=SEED) as ctx:
        try:
            pack = ctx.load_template(template) if template else None
            return ctx.generate(pack).fingerprint
        except rmg.Error:
            return None


def corpus_files(full: bool) -> List[Path]:
    """Every corpus template file (h3t, sod, vcmi), or every 16th of them for the quick run."""
    root = shared_dir() / "corpus"
    files = sorted(p for kind in ("h3t", "sod", "vcmi") for p in (root / kind).rglob("*") if p.is_file())
    return files if full else files[::16]


def agree_over(files: List[Path]) -> None:
    if not files:
        pytest.skip(f"SKIPPED: {shared_dir() / 'corpus'} is absent (the shared folder; set RMG_SHARED_DIR)")
    if not rmg_command().exists():
        pytest.skip(f"the rmg command is not built beside the library ({rmg_command()})")
    differ = []
    generated = 0
    for path in files:
        cli, py = cli_fingerprint(path), python_fingerprint(path)
        generated += cli is not None
        if cli != py:
            differ.append(f"{path.name}: command {cli}, Python {py}")
    print(f"Python and the command agree on {len(files) - len(differ)} of {len(files)} corpus files "
          f"({generated} generated, the rest refused by both)")
    assert not differ, "\n".join(differ)


def test_defaults_are_the_library_defaults() -> None:
    params = inspect.signature(rmg.Context.generate).parameters
    for name in ("size", "underground", "players", "humans", "water", "monsters", "template_name"):
        assert params[name].default is None, name  # None = rmg_generate_options_init's value
    assert cli_fingerprint(None) == python_fingerprint(None)


@pytest.mark.shared
def test_jebus_cross_generates_with_no_options_as_the_command_does() -> None:
    hits = sorted((shared_dir() / "corpus" / "h3t").glob("*Jebus_Cross*.h3t"))
    if not hits:
        pytest.skip(f"SKIPPED: {shared_dir() / 'corpus' / 'h3t'} is absent (the shared folder)")
    m = rmg.Context(seed=SEED).generate(rmg.Template.from_file(hits[0]))
    assert m.fingerprint == cli_fingerprint(hits[0])


@pytest.mark.shared
def test_python_and_the_command_agree_on_a_corpus_sample() -> None:
    agree_over(corpus_files(full=False))


@pytest.mark.shared
@pytest.mark.corpus_full
def test_python_and_the_command_agree_on_every_corpus_file() -> None:
    agree_over(corpus_files(full=True))


def test_enums_have_names(ctx: rmg.Context) -> None:
    m = ctx.generate(size="M", underground=True, water="normal")
    assert all(isinstance(z.terrain, rmg.Terrain) and isinstance(z.faction, rmg.Faction) for z in m.zones)
    assert {m.terrain_at(x, y, 0) for x in range(0, 72, 6) for y in range(0, 72, 6)} <= set(rmg.Terrain)
    assert m.terrain_at(-1, 0) == -1 and m.road_at(0, 0) in set(rmg.Road)
    towns = [o for o in m.objects if o.kind == rmg.ObjectKind.TOWN]
    assert towns and all(isinstance(o.faction, rmg.Faction) and o.faction != rmg.Faction.NONE for o in towns)
    assert all(o.faction == rmg.Faction.NONE for o in m.objects if o.kind == rmg.ObjectKind.OBSTACLE)
    assert rmg.Terrain.WATER == 8 and rmg.Faction.NEUTRAL == 31


def test_fingerprint_is_hex_as_in_the_json(ctx: rmg.Context) -> None:
    m = ctx.generate(size="S")
    assert re.fullmatch(r"[0-9a-f]{16}", m.fingerprint)
    assert m.to_dict()["fingerprint"] == m.fingerprint


def test_objects_are_read_no_slower_than_the_map_is_generated(ctx: rmg.Context) -> None:
    start = time.perf_counter()
    m = ctx.generate(size="XL", underground=True)
    generating = time.perf_counter() - start
    start = time.perf_counter()
    objects = m.objects
    values = sum(o.value for o in objects) + sum(o.x + o.y for o in objects)
    reading = time.perf_counter() - start
    print(f"{len(objects)} objects: generated in {generating:.3f} s, read in {reading:.3f} s")
    assert values > 0 and len(objects) > 1000
    assert reading <= generating


def test_objects_agree_with_the_json_and_outlive_nothing_they_need(ctx: rmg.Context) -> None:
    m = ctx.generate(size="S")
    doc = m.to_dict()["objects"]
    objects = m.objects
    assert [(o.id, o.key, o.x, o.y, o.z, o.zone) for o in objects] == [
        (d["id"], d["key"], d["x"], d["y"], d["z"], d["zone"]) for d in doc]
    width, height = m.width, m.height
    assert [sorted(o.footprint) for o in objects] == [
        sorted(x + y * width + z * width * height for x, y, z in d["footprint"]) for d in doc]
    first = objects[0]
    assert first == m.objects[0] and hash(first) == hash(m.objects[0])
    assert set(first.as_dict()) == set(rmg.MapObject.__doc__ and _object_fields())
    m.close()
    assert first.key == doc[0]["key"]  # read with the object, not from the map
    with pytest.raises(ValueError):
        objects[1].entries  # fetched on first access: needs the map


def _object_fields() -> List[str]:
    from rmg._objects import FIELDS

    return list(FIELDS)


def public_members():
    for name in rmg.__all__:
        value = getattr(rmg, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            yield name, value
            if inspect.isclass(value) and not issubclass(value, BaseException):
                for member, attr in vars(value).items():
                    if not member.startswith("_") and (callable(attr) or isinstance(attr, property)):
                        yield f"{name}.{member}", attr


def test_every_public_member_is_documented() -> None:
    missing = [name for name, value in public_members() if not inspect.getdoc(value)]
    assert not missing, f"undocumented: {', '.join(missing)}"
    for cls in (rmg.Zone, rmg.Connection, rmg.Group, rmg.TemplateSummary, rmg.TemplateMessage, rmg.GuardResult,
                rmg.GuardStrength):
        doc = inspect.getdoc(cls) or ""
        fields = [f for f in cls.__dataclass_fields__]
        assert all(f"``{f}``" in doc for f in fields), (cls.__name__, [f for f in fields if f"``{f}``" not in doc])
    doc = inspect.getdoc(rmg.MapObject) or ""
    assert all(f"``{f}``" in doc for f in _object_fields()), [f for f in _object_fields() if f"``{f}``" not in doc]


def test_templates_back_to_hota(ctx: rmg.Context, builtin: rmg.Template, tmp_path: Path) -> None:
    warnings: List[str] = []
    data = builtin.to_h3t(warnings=warnings)
    assert data.splitlines()[3].startswith(b"12\t10\t4\t8\t10\t18\t4\t")  # HotA 1.8 by default
    assert warnings == []  # the template player filters go into the zones' restrictions (issue 29)
    back = ctx.template_from_string(data, name="b.h3t", format="auto")
    assert back.format == rmg.TemplateFormat.H3T and back.template_names == builtin.template_names
    builtin.save_h3t(tmp_path / "b17.h3t", version="1.7")
    assert (tmp_path / "b17.h3t").read_bytes().splitlines()[3].startswith(b"11\t10\t4\t8\t10\t18\t4\t")
    assert rmg.Template.from_file(tmp_path / "b17.h3t").template_names == builtin.template_names
    with pytest.raises(ValueError):
        builtin.to_h3t(version="1.9")
