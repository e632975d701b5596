"""C errors as Python exceptions: status, the library's message, and where the input is wrong."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import rmg
from rmg import _lib
from conftest import SMALL_YAML


def test_bad_yaml_raises_parse_error_with_line_and_column() -> None:
    text = SMALL_YAML.replace("    zones:\n", "    zones: [\n", 1)
    with pytest.raises(rmg.ParseError) as info:
        rmg.Template.from_yaml(text, name="broken.yaml")
    err = info.value
    assert err.status == rmg.Status.ERR_PARSE
    assert err.file == "broken.yaml"
    assert err.line > 0 and err.column > 0
    assert err.message.startswith(f"broken.yaml:{err.line}:{err.column}:")
    assert "RMG_ERR_PARSE" in str(err)


def test_template_validation_names_the_connection_and_line() -> None:
    text = SMALL_YAML.replace("{a: 2, b: 3, value: 4000}", "{a: 2, b: 9, value: 4000}")
    pack = rmg.Template.from_yaml(text, name="dangling.yaml")
    errors = [m for m in pack.validate() if m.severity == "error"]
    assert [m.code for m in errors] == ["dangling-zone"]
    line = text.splitlines().index("      - {a: 2, b: 9, value: 4000}") + 1
    assert (errors[0].file, errors[0].line, errors[0].connection) == ("dangling.yaml", line, 1)
    assert "zone 9" in errors[0].text
    assert rmg.Template.from_yaml(SMALL_YAML).validate() == []


def test_missing_file_is_an_io_error(ctx: rmg.Context, tmp_path) -> None:
    with pytest.raises(OSError) as info:  # rmg.FileError is an OSError and an rmg.Error
        ctx.load_template(tmp_path / "nope.yaml")
    assert isinstance(info.value, rmg.FileError) and isinstance(info.value, rmg.Error)
    assert info.value.status == rmg.Status.ERR_IO
    assert "nope.yaml" in info.value.message
    with pytest.raises(OSError):
        ctx.generate(size="S").save(tmp_path / "no-such-folder" / "m.json")


def test_bad_generation_options_carry_the_message(ctx: rmg.Context) -> None:
    with pytest.raises(ValueError) as info:  # rmg.InvalidArgumentError is a ValueError
        ctx.generate(size="S", players=2, humans=3)
    assert isinstance(info.value, rmg.InvalidArgumentError) and isinstance(info.value, rmg.Error)
    assert info.value.status == rmg.Status.ERR_INVALID_ARG
    assert "human" in info.value.message
    assert ctx.errmsg == info.value.message


def test_unknown_template_name_is_not_found(ctx: rmg.Context, builtin: rmg.Template) -> None:
    with pytest.raises(KeyError):  # rmg.NotFoundError is a KeyError
        builtin.find("No Such Template")
    with pytest.raises(rmg.NotFoundError) as info:
        ctx.generate(builtin, size="S", template_name="No Such Template")
    assert isinstance(info.value, KeyError) and isinstance(info.value, rmg.Error)
    assert str(info.value).startswith("select: ")  # the message, not KeyError's quoted repr
    assert info.value.status == rmg.Status.ERR_NOT_FOUND
    assert "No Such Template" in info.value.message
    assert info.value.stage == "select"


def test_setup_no_template_accepts_is_impossible(ctx: rmg.Context) -> None:
    pack = rmg.Template.from_yaml(SMALL_YAML)
    with pytest.raises(rmg.ImpossibleError) as info:
        ctx.generate(pack, size="G")  # the pack stops at size code 8
    assert info.value.status == rmg.Status.ERR_IMPOSSIBLE and info.value.message


def test_python_side_argument_errors(ctx: rmg.Context) -> None:
    with pytest.raises(ValueError, match="map size"):
        ctx.generate(size="XXL")
    with pytest.raises(ValueError, match="water"):
        ctx.generate(size="S", water="lava")
    with pytest.raises(ValueError, match="stage"):
        ctx.set_stage("paint", lambda view: None)
    with pytest.raises(rmg.Error) as info:
        ctx.set_stage("select", lambda view: None)
    assert "cannot be replaced" in info.value.message
    with pytest.raises(TypeError):
        rmg.Template()


def test_bad_options_raise_invalid_argument_error_with_the_valid_values(ctx: rmg.Context) -> None:
    """Issue 29: every bad option is an rmg.InvalidArgumentError (a ValueError) listing what is
    valid, with the library's "did you mean" (rmg_name_suggest)."""
    cases = [
        (dict(size="XXXL"), "unknown map size 'XXXL'"),
        (dict(size="m"), None),
        (dict(size=(36,)), "size: expected (width, height)"),
        (dict(size="S", water="nromal"), "unknown water level 'nromal'; did you mean 'normal'?"),
        (dict(size="S", monsters="strnog"), "did you mean 'strong'?"),
        (dict(size="S", players="many"), "players: expected a whole number, got 'many'"),
        (dict(size="S", humans=1.5), "humans: expected a whole number"),
        (dict(size="S", towns={1: "rampat"}), "unknown town for player 1 'rampat'; did you mean 'rampart'?"),
        (dict(size="S", towns={1: "neutral"}), "unknown town for player 1 'neutral'"),
        (dict(size="S", towns={9: "castle"}), "not within 1..8"),
        (dict(size="S", best_of="two"), "best_of: expected a whole number"),
    ]
    for kwargs, text in cases:
        if text is None:
            continue
        with pytest.raises(rmg.InvalidArgumentError) as info:
            ctx.generate(**kwargs)
        assert isinstance(info.value, ValueError)
        assert info.value.status == rmg.Status.ERR_INVALID_ARG
        assert text in str(info.value), (kwargs, str(info.value))
    # The town names listed are exactly those accepted: every town type and "random", never "neutral".
    with pytest.raises(rmg.InvalidArgumentError) as info:
        ctx.generate(size="S", towns={1: "elves"})
    listed = str(info.value).split("(one of ", 1)[1].split(")")[0]
    names = [n.strip().strip("'") for n in listed.split(",")]
    assert names == ["castle", "rampart", "tower", "inferno", "necropolis", "dungeon", "stronghold", "fortress",
                     "conflux", "cove", "factory", "random"]
    for name in names:
        ctx.generate(size="S", players=2, towns={1: name}).close()
    with pytest.raises(rmg.InvalidArgumentError, match="did you mean 'sod'"):
        rmg.Context(game="sd")
    with pytest.raises(rmg.InvalidArgumentError, match="empty range"):
        rmg.Rng(1).range(3, 2)
    with pytest.raises(rmg.InvalidArgumentError, match="did you mean 'weak'"):
        rmg.guard_strength(100, "waek", "normal")


def test_no_bare_value_error_is_raised_by_the_bindings(src: Path) -> None:
    """Issue 29: the package raises rmg.Error subclasses (InvalidArgumentError for bad
    arguments) and TypeError, never a bare ValueError of its own."""
    import ast

    bare = []
    for path in sorted((src / "bindings" / "python" / "rmg").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                call = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(call, ast.Name) and call.id == "ValueError":
                    bare.append(f"{path.name}:{node.lineno}")
    assert bare == []


def test_a_context_keeps_working_after_an_error(ctx: rmg.Context) -> None:
    with pytest.raises(rmg.Error):
        ctx.generate(size="S", template_name="missing")
    assert ctx.generate(size="S").width == 36


def test_closed_objects_refuse_use() -> None:
    ctx = rmg.Context(seed=3)
    m = ctx.generate(size="S")
    pack = ctx.builtin_template()
    ctx.close()
    ctx.close()  # idempotent
    with pytest.raises(ValueError, match="closed"):
        m.width
    with pytest.raises(ValueError, match="closed"):
        pack.handle
    with pytest.raises(ValueError, match="closed"):
        ctx.generate(size="S")


def test_library_version_mismatch_is_refused(monkeypatch) -> None:
    path = rmg.library_path()
    monkeypatch.setattr(_lib, "EXPECTED_ABI", (9, 9))
    with pytest.raises(rmg.LibraryNotFoundError) as info:
        _lib._open(path, path, False)
    text = str(info.value)
    assert f"librmg {rmg.library_version()}" in text and "need librmg 9.9.x" in text


def test_wrong_library_path_is_refused(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("RMG_LIBRARY", str(tmp_path / "librmg.so"))
    with pytest.raises(rmg.LibraryNotFoundError, match="no such file"):
        _lib.load()
    not_a_library = tmp_path / "librmg.so"
    not_a_library.write_bytes(b"not an ELF file")
    with pytest.raises(rmg.LibraryNotFoundError, match="could not be loaded"):
        _lib.load()


def test_elf_reader_lists_the_needed_libraries() -> None:
    needed = _lib.needed_libraries(rmg.library_path())
    assert any(name.startswith("libc.so") for name in needed), needed
    assert _lib.needed_libraries(__file__) == []


def test_build_tree_search_prefers_release_and_explains_failures(monkeypatch, tmp_path) -> None:
    real = Path(rmg.library_path()).resolve()
    monkeypatch.delenv("RMG_LIBRARY", raising=False)
    monkeypatch.setattr(_lib.ctypes.util, "find_library", lambda name: None)
    monkeypatch.setattr(_lib, "_source_root", lambda: tmp_path)
    broken = tmp_path / "build" / "newer" / "librmg.so"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"\x7fELF but not really")
    with pytest.raises(rmg.LibraryNotFoundError) as info:
        _lib.load()
    assert str(broken) in str(info.value) and "RMG_LIBRARY" in str(info.value)
    release = tmp_path / "build" / "release" / "librmg.so"
    release.parent.mkdir()
    release.symlink_to(real)
    os.utime(broken)  # newer than the release build, still tried after it
    assert _lib._build_tree_candidates() == [str(release), str(broken)]
    if _lib._needs_asan(str(real)) and not _lib._asan_loaded():
        return
    assert _lib.load()[1] == str(release)


def test_asan_builds_are_recognised() -> None:
    needs = _lib._needs_asan(rmg.library_path())
    if needs:
        assert _lib._asan_loaded()  # else this process could not have loaded it
    if "RMG_SOURCE_DIR" in os.environ:  # run by tests/python_tests.sh: the ELF reader agrees with ldd
        assert needs == (os.environ.get("RMG_TEST_ASAN") == "1")
