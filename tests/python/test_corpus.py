"""Real templates from the shared corpus (HotA h3t, SoD rmg.txt) through the bindings."""

from __future__ import annotations

from pathlib import Path

import pytest

import rmg
from conftest import shared_dir

pytestmark = pytest.mark.shared


def corpus_file(kind: str, index: int = 0) -> Path:
    folder = shared_dir() / "corpus" / kind
    files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    if len(files) <= index:
        pytest.skip(f"no {kind} corpus at {folder} (set RMG_SHARED_DIR)")
    return files[index]


@pytest.mark.parametrize("kind, fmt", [("h3t", rmg.TemplateFormat.H3T), ("sod", rmg.TemplateFormat.SOD)])
def test_corpus_pack_loads_and_generates_with_the_templates_own_setup(ctx: rmg.Context, kind: str, fmt) -> None:
    pack = ctx.load_template(corpus_file(kind))
    assert pack.format == fmt and len(pack) >= 1
    m = ctx.generate(pack, size=None, underground=None, players=0)
    assert m.template_name in pack.template_names
    summary = pack.templates[pack.find(m.template_name)]
    assert m.options["players"] >= 1 and m.width >= 36
    assert len([z for z in m.zones if z.template_zone]) <= summary.zone_count
    assert m.validate() == []


def test_corpus_pack_with_a_setup_it_refuses_says_why(ctx: rmg.Context) -> None:
    pack = ctx.load_template(corpus_file("h3t"))
    low = min(t.min_size for t in pack.templates)
    if low <= 1:
        pytest.skip("this pack accepts every size")
    with pytest.raises(rmg.ImpossibleError) as info:
        ctx.generate(pack, size="S", underground=False)
    assert "size" in info.value.message and info.value.stage == "select"
