"""Packaging: one version everywhere, and the package builds and installs without a network."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import rmg
from rmg import _lib
from conftest import source_dir


def cmake_version() -> str:
    text = (source_dir() / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(rmg VERSION (\d+\.\d+\.\d+)", text)
    assert match, "CMakeLists.txt: project(rmg VERSION x.y.z) not found"
    return match.group(1)


def test_versions_agree() -> None:
    pyproject = (source_dir() / "bindings" / "python" / "pyproject.toml").read_text(encoding="utf-8")
    declared = re.search(r'^version = "([^"]+)"', pyproject, re.MULTILINE)
    assert declared and declared.group(1) == rmg.__version__
    assert rmg.__version__ == cmake_version()
    assert tuple(int(n) for n in cmake_version().split(".")[:2]) == rmg.EXPECTED_ABI
    assert rmg.library_version().split(".")[:2] == [str(n) for n in rmg.EXPECTED_ABI]


def test_wheel_builds_offline_with_the_in_tree_backend(tmp_path: Path) -> None:
    project = source_dir() / "bindings" / "python"
    sys.path.insert(0, str(project))
    try:
        import rmg_build
    finally:
        sys.path.remove(str(project))
    assert rmg_build.get_requires_for_build_wheel() == []  # nothing to download
    name = rmg_build.build_wheel(str(tmp_path))
    with zipfile.ZipFile(tmp_path / name) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"rmg-{rmg.__version__}.dist-info/METADATA").decode()
    assert {"rmg/__init__.py", "rmg/py.typed", "rmg/_lib.py", f"rmg-{rmg.__version__}.dist-info/RECORD"} <= names
    assert not any("__pycache__" in n for n in names)
    assert f"Version: {rmg.__version__}" in metadata
    # The installed package imports from the wheel alone (no source tree on the path).
    code = "import rmg, sys; print(rmg.__file__); print(rmg.Context(seed=1).generate(size='S').width)"
    env_path = str(tmp_path / name)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=_env_with_path(env_path), cwd=str(tmp_path))
    assert out.stdout.split()[0].startswith(env_path) and out.stdout.split()[1] == "36"


def _env_with_path(path: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = path
    env["RMG_LIBRARY"] = _lib.path()
    return env


def test_pip_installs_offline(tmp_path: Path) -> None:
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        pytest.skip("pip is not installed for this interpreter")
    target = tmp_path / "site"
    env = _env_with_path("")
    env["PIP_NO_INDEX"] = "1"  # no index: any download attempt fails the install
    env.pop("PIP_FIND_LINKS", None)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target), str(source_dir() / "bindings" / "python")],
        capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (target / "rmg" / "py.typed").exists() and (target / f"rmg-{rmg.__version__}.dist-info").is_dir()
    code = "import rmg; print(rmg.__file__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=_env_with_path(str(target)), cwd=str(tmp_path))
    assert out.stdout.strip() == str(target / "rmg" / "__init__.py")
