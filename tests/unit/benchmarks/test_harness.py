"""The benchmark's figures file and the Figures page's table (docs/figures.md) generated from it
(the script lives in benchmarks/, outside the package, and is loaded from its path)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.shared import REPO

ROOT = REPO
SCRIPT = ROOT / "benchmarks" / "harness.py"


@pytest.fixture(scope="module")
def harness():
    spec = importlib.util.spec_from_file_location("spider2v_harness", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIGURES = {
    "accessibility_tree": {"calc": {"fast": {"p50": 0.5}, "naive": {"p50": 6.0}, "speedup": 12.0, "nodes": 3051,
                                    "equal": True, "task": "tasks/calc/x/task.json",
                                    "application_cpu": {"fast": {"p50": 0.41}, "naive": {"p50": 2.5}}}},
    "reset": {"desktop": {"spare": {"p50": 1.2}, "no_spare": {"p50": 2.0}, "task": "tasks/calc/x/task.json"}},
    "suite": {"n1": {"seconds": 3000.0, "passed": 86}, "n2": {"seconds": 1700.0, "passed": 86}, "speedup": 1.76},
    "idle_memory_mb": {"desktop": 410.0, "airflow": 700.0},
}


def test_targets_are_judged_on_the_p50_and_unmeasured_ones_say_so(harness) -> None:
    verdicts = harness.verdicts(FIGURES)
    assert verdicts["accessibility_tree.calc.fast"] == {"target": "≤ 0.3 s", "measured": 0.5, "met": False}
    assert verdicts["accessibility_tree.calc.speedup"]["met"] is False
    assert verdicts["reset.desktop.spare"]["met"] is True
    assert verdicts["suite.speedup"]["met"] is True
    assert verdicts["idle_memory_mb.desktop"]["met"] is True
    assert verdicts["step_overhead.som_calc"] == {"target": "≤ 0.6 s", "measured": None, "met": None}


def test_new_parts_merge_into_the_file_keeping_the_others(harness, tmp_path: Path) -> None:
    path = tmp_path / "figures.json"
    harness.write_figures({"reset": FIGURES["reset"]}, path)
    data = harness.write_figures({"suite": FIGURES["suite"]}, path)
    assert set(data["figures"]) == {"reset", "suite"} and set(data["measured_at"]) == {"reset", "suite"}
    assert json.loads(path.read_text())["targets"]["suite.speedup"]["met"] is True


def test_the_table_shows_each_figure_beside_its_baseline_and_target(harness) -> None:
    text = harness.table({"figures": FIGURES, "targets": harness.verdicts(FIGURES), "machine": {"cpus": 2}})
    assert "| accessibility tree, calc task desktop (3051 nodes, equal trees) | 0.50 s | naive walk 6.00 s (12.0× faster)" in text
    assert "≤ 0.3 s: **not met**" in text
    assert "| LibreOffice's own CPU time per walk of the calc desktop" in text and "| 0.41 s | naive walk 2.50 s |" in text
    assert "without a spare container 2.00 s" in text
    assert "speed-up 1.76 | ≥ 1.6 x: met" in text
    assert "| idle container memory, airflow | 700 MB |" in text


def test_what_recording_costs_a_step_is_judged_on_the_whole_step(harness) -> None:
    figures = {"video": {"step_off": {"p50": 0.72}, "step_on": {"p50": 0.75}, "harness_off": {"p50": 0.2},
                         "harness_on": {"p50": 0.23}, "step_cost_percent": 4.2, "harness_cost_percent": 15.0}}
    verdicts = harness.verdicts(figures)
    assert verdicts["video.step_cost_percent"] == {"target": "≤ 10 %", "measured": 4.2, "met": True}
    text = harness.table({"figures": figures, "targets": verdicts, "machine": {"cpus": 2}})
    assert ("| step with `--record-video` (action, 0.5 s settle, screenshot) | 0.75 s, +4.2 % | without 0.72 s; "
            "the harness's share alone 0.20 s → 0.23 s (+15 %) | ≤ 10 %: met |") in text


def test_the_docs_table_matches_the_committed_figures() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "--table", "--check", str(ROOT / "docs" / "figures.md")],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_the_tamper_checks_cost_is_judged_on_its_p50(harness) -> None:
    figures = {"integrity": {"run": {"seconds": 700.0, "passed": 43}, "tasks": 43, "checked": 43, "flagged": 0,
                             "seconds": {"p50": 0.42, "p95": 0.8, "min": 0.2, "max": 1.3, "n": 43}}}
    assert harness.verdicts(figures)["integrity.seconds"] == {"target": "≤ 1 s", "measured": 0.42, "met": True}
    table = harness.table({"figures": figures, "targets": harness.verdicts(figures)})
    assert "| tamper checks per task (baseline, before and after the evaluation), the suite's 43 tasks once each, " \
           "reference agent, 0 flagged | 0.42 s (p95 0.80 s, max 1.30 s) | | ≤ 1 s: met |" in table


def test_the_reports_figure_merges_halves_that_add_up_to_its_first_run(harness, tmp_path: Path) -> None:
    """The runs the `reports` figure times are what they claim: its halves merge into its first run."""
    import random

    from pytest_spider2v.reports.merging import merge
    from pytest_spider2v.reports.runs import RecordedRun
    from pytest_spider2v.reports.tables import render_table

    harness.write_run(tmp_path / "a", 0.4, random.Random("a"))
    harness.write_run(tmp_path / "h1", 0.4, random.Random("a"), lambda index: index % 2 == 0)
    harness.write_run(tmp_path / "h2", 0.4, random.Random("a"), lambda index: index % 2 == 1)
    merged = merge([RecordedRun.read(tmp_path / "h1"), RecordedRun.read(tmp_path / "h2")], tmp_path / "m")
    whole = RecordedRun.read(tmp_path / "a")
    assert len(whole.tasks) == harness.REPORT_TASKS * harness.REPORT_REPEATS
    assert render_table(merged.summary, "json") == render_table(whole.summary, "json")
    assert 0.3 < (whole.summary.overall.success_rate or 0) < 0.5


def test_startup_is_judged_on_the_ratio_of_the_medians_without_the_runs_that_warm_the_caches(
        harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command's first run writes the caches and is left out; the ratio is of the medians."""
    took = iter([9.0, 9.0,  # the warm-up runs: bare import, collection
                 0.5, 2.0, 0.4, 1.9, 0.6, 2.1])
    commands: list[list[str]] = []
    monkeypatch.setattr(harness.subprocess, "run", lambda command, **kwargs: commands.append(command))
    monkeypatch.setattr(harness, "timed", lambda fn: (fn(), next(took))[1])
    figures = harness.startup_figures(samples=3)
    assert figures["bare_import"]["p50"] == 0.5 and figures["collect"]["p50"] == 2.0 and figures["ratio"] == 4.0
    assert figures["collect"]["n"] == 3 and commands[1][-3:] == ["tasks/", "--collect-only", "-q"]
    assert harness.verdicts({"startup": figures})["startup.ratio"] == {"target": "≤ 4 x", "measured": 4.0, "met": True}
    assert harness.verdicts({"startup": {"ratio": 6.3}})["startup.ratio"]["met"] is False
    table = harness.table({"figures": {"startup": figures}, "targets": harness.verdicts({"startup": figures})})
    assert ("| `pytest tasks/ --collect-only`, a fresh process (start-up and collection) | 2.00 s, 4× the bare import "
            "| bare `import pytest, xdist, pytest_html` 0.50 s | ≤ 4 x: met |") in table
