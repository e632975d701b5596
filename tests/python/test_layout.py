"""The ctypes Structures match the C headers: every field's offset and every struct's size, as
the C compiler sees them (skipped where no compiler or no build tree is at hand)."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import rmg
from rmg import _structs as S
from conftest import source_dir


def layout_program() -> str:
    lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <rmg/rmg.h>", "int main(void)", "{"]
    for cls, c_name in S.C_NAMES.items():
        lines.append(f'    printf("{c_name} size %zu\\n", sizeof({c_name}));')
        for field, *_ in cls._fields_:
            lines.append(f'    printf("{c_name} {field} %zu\\n", offsetof({c_name}, {field}));')
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def expected_layout() -> str:
    out = []
    for cls, c_name in S.C_NAMES.items():
        out.append(f"{c_name} size {ctypes.sizeof(cls)}")
        out += [f"{c_name} {field} {getattr(cls, field).offset}" for field, *_ in cls._fields_]
    return "\n".join(out) + "\n"


def test_structs_match_the_c_headers(tmp_path: Path) -> None:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    build = Path(rmg.library_path()).resolve().parent
    generated = build / "include"
    if not compiler or not (generated / "rmg" / "version.h").exists():
        pytest.skip("needs a C compiler and the library's build tree (include/rmg/version.h)")
    program = tmp_path / "layout.c"
    program.write_text(layout_program(), encoding="utf-8")
    exe = tmp_path / "layout"
    include = source_dir() / "include"
    subprocess.run([compiler, "-std=c11", f"-I{include}", f"-I{generated}", str(program), "-o", str(exe)], check=True)
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)  # the probe is not instrumented
    result = subprocess.run([str(exe)], check=True, capture_output=True, text=True, env=env)
    assert result.stdout == expected_layout()


def test_every_declared_struct_starts_with_struct_size() -> None:
    for cls in S.C_NAMES:
        if cls is not S.Rng:  # rmg_rng is plain state, not a versioned struct
            assert cls._fields_[0][0] == "struct_size", cls
