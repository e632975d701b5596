"""examples/python run as a user would run them (subprocess, the runner's environment)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import rmg
from conftest import SMALL_YAML, source_dir

EXAMPLES = source_dir() / "examples" / "python"


def run(script: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(source_dir() / "bindings" / "python")
    env["RMG_LIBRARY"] = str(Path(rmg.library_path()).resolve())
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=str(cwd), capture_output=True,
                          text=True, timeout=300, env=env)


def test_generate_and_plot_writes_the_png(tmp_path: Path) -> None:
    out = run("generate_and_plot.py", "--seed", "4", "--size", "S", "-o", "m.png", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"
    assert "fingerprint" in out.stdout and "wrote m.png" in out.stdout
    if importlib.util.find_spec("matplotlib") is None:
        assert "matplotlib is not installed" in out.stdout
    else:
        assert (tmp_path / "m_plot.png").read_bytes()[:4] == b"\x89PNG"


def test_generate_and_plot_reports_a_failure(tmp_path: Path) -> None:
    (tmp_path / "pair.yaml").write_text(SMALL_YAML, encoding="utf-8")
    out = run("generate_and_plot.py", "pair.yaml", "--size", "G", cwd=tmp_path)
    assert out.returncode == 1 and "generation failed" in out.stderr


def test_batch_stats_over_seeds(tmp_path: Path) -> None:
    (tmp_path / "pair.yaml").write_text(SMALL_YAML, encoding="utf-8")
    out = run("batch_stats.py", "pair.yaml", "--runs", "6", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["succeeded"] + sum(summary["failures"].values()) == 6
    assert summary["deterministic"] is True and summary["distinct_maps"] == summary["succeeded"]
    assert summary["per_map"]["zones"]["min"] >= 3
    assert summary["per_map"]["towns"]["min"] >= 2
    text = run("batch_stats.py", "--runs", "2", cwd=tmp_path)
    assert text.returncode == 0 and "2/2 maps generated" in text.stdout


def test_replace_placement_example_puts_zones_on_a_grid(tmp_path: Path) -> None:
    out = run("replace_placement.py", "--size", "M", "-o", "grid.png", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    centres = [line for line in out.stdout.splitlines() if line.startswith("zone ")]
    assert len(centres) >= 4 and "centre 12,12, 576 tiles" in centres[0]
    assert "warning: place plugin:" in out.stdout and "zones placed on a grid" in out.stdout
    assert (tmp_path / "grid.png").read_bytes()[:4] == b"\x89PNG"
