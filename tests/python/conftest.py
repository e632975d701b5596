"""Shared fixtures of the Python binding tests (run by tests/python_tests.sh)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

import rmg


def source_dir() -> Path:
    """The checkout: $RMG_SOURCE_DIR (set by the runner) or two levels above this file."""
    env = os.environ.get("RMG_SOURCE_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2]


def shared_dir() -> Path:
    """The project's shared data (template corpus): $RMG_SHARED_DIR or ../shared beside the checkout."""
    env = os.environ.get("RMG_SHARED_DIR")
    return Path(env) if env else source_dir().parent / "shared"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shared: reads the shared folder (../shared); skipped without it")
    config.addinivalue_line("markers", "corpus_full: a slow run over the whole corpus (CTest label corpus-full)")


def shared_corpus(kind: str) -> Path:
    """A folder of the shared corpus ("h3t", "sod", "vcmi"); skips the test when it is absent."""
    folder = shared_dir() / "corpus" / kind
    if not folder.is_dir():
        pytest.skip(f"SKIPPED: {folder} is absent (the shared folder; set RMG_SHARED_DIR)")
    return folder


def under_asan() -> bool:
    """True when the sanitizer runtime is in the process (the library is an ASan build)."""
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        return any("libasan" in line for line in maps)


@pytest.fixture
def src() -> Path:
    return source_dir()


@pytest.fixture
def ctx() -> Iterator[rmg.Context]:
    context = rmg.Context(seed=1)
    yield context
    context.close()


@pytest.fixture(scope="session")
def builtin() -> rmg.Template:
    return rmg.default_template()


#: A two-player pack of our own: two start zones with a castle each, joined by a guarded
#: connection through a treasure zone.
SMALL_YAML = """\
version: 1
name: python test pack
templates:
  - name: Pair
    min_size: 1
    max_size: 8
    players: {min_total: 2, max_total: 2}
    zones:
      - id: 1
        kind: human_start
        owner: 1
        size: 20
        player_towns: {castles: 1}
        treasure:
          - {min: 500, max: 3000, density: 9}
      - id: 2
        kind: human_start
        owner: 2
        size: 20
        player_towns: {castles: 1}
        treasure:
          - {min: 500, max: 3000, density: 9}
      - id: 3
        kind: treasure
        size: 15
        treasure:
          - {min: 3000, max: 6000, density: 6}
    connections:
      - {a: 1, b: 3, value: 4000}
      - {a: 2, b: 3, value: 4000}
"""
