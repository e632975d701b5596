"""Bulk generation beyond one machine (issue 29): rmg.stats and examples/python/dask_stats.py
gather the same fingerprints, balance scores and summaries as `rmg stats --balance` for the same
seeds, here and on a Dask LocalCluster of two worker processes (determinism across processes)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

import rmg
from conftest import SMALL_YAML, source_dir

RUNS = 6


def rmg_command() -> Path:
    return Path(rmg.library_path()).resolve().parent / "rmg"


def command_stats(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(rmg_command()), "stats", *args, "--runs", str(RUNS), "--balance", "--threads", "2"],
                          capture_output=True, text=True, timeout=600)


def without_ms(doc: Dict[str, Any]) -> Dict[str, Any]:
    for row in doc["results"]:
        row.pop("ms")
    return doc


def balance_part(text: str) -> str:
    return text[text.index("balance over "):]


def require_distributed() -> None:
    if importlib.util.find_spec("distributed") is None:
        if os.environ.get("CI"):
            pytest.fail("CI runs the Dask test: install python3-distributed (scripts/setup.sh --test does)")
        pytest.skip("SKIPPED: the Dask test needs the 'distributed' package (apt-get install python3-distributed)")


def test_stats_here_equals_the_command(tmp_path: Path) -> None:
    pack = tmp_path / "pair.yaml"
    pack.write_text(SMALL_YAML, encoding="utf-8")
    for template, args in ((None, ["--size", "S"]), (pack, [str(pack), "--size", "S"])):
        report = rmg.stats(template, RUNS, size="S")
        text, doc = command_stats(*args), command_stats(*args, "--json")
        assert text.returncode == 0 and doc.returncode == 0, text.stderr + doc.stderr
        assert without_ms(report.to_json()) == without_ms(json.loads(doc.stdout))
        assert report.balance_text() == balance_part(text.stdout)
        assert len(report.fingerprints) == RUNS and report.failed == 0


def test_stats_reports_failures_and_bad_arguments() -> None:
    report = rmg.stats(SMALL_YAML.encode(), 2, size="G")  # the pack stops below G
    assert report.failed == 2 and all(r["error"] for r in report.results)
    assert report.balance_text() == "balance: no report\n"
    with pytest.raises(rmg.InvalidArgumentError):
        rmg.stats(runs=0)


def test_dask_local_cluster_equals_the_command(tmp_path: Path) -> None:
    require_distributed()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(source_dir() / "bindings" / "python")
    env["RMG_LIBRARY"] = str(Path(rmg.library_path()).resolve())
    script = source_dir() / "examples" / "python" / "dask_stats.py"
    outs: List[subprocess.CompletedProcess] = []
    for extra in (["--json"], ["--fingerprints"]):
        outs.append(subprocess.run([sys.executable, str(script), "--runs", str(RUNS), "--size", "S",
                                    "--local-workers", "2", "--batch", "2", *extra], cwd=str(tmp_path),
                                   capture_output=True, text=True, timeout=600, env=env))
        assert outs[-1].returncode == 0, outs[-1].stderr
    text, doc = command_stats("--size", "S", "--fingerprints"), command_stats("--size", "S", "--json")
    assert without_ms(json.loads(outs[0].stdout)) == without_ms(json.loads(doc.stdout))
    assert f"{RUNS}/{RUNS} maps generated on 2 workers" in outs[1].stdout
    assert balance_part(outs[1].stdout) == balance_part(text.stdout)
