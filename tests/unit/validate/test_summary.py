"""The per-app table of a --validate run: checked, set up and solved come from the reports."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_spider2v.plugin.config import RunConfig
from pytest_spider2v.plugin.keys import RUN_CONFIG
from pytest_spider2v.validate.checks import ERRATUM_SHOWN, GUI_ROUTE, NEAR_MISSES, SET_UP
from pytest_spider2v.validate.near_miss import NearMisses, Trial, Uncovered
from pytest_spider2v.validate.selection import PROPERTY
from pytest_spider2v.validate.summary import ValidationSummary


def report(task: str, check: str, outcome: str, when: str = "call", set_up: bool = False,
           shown: bool = False, gui_route: str | None = None, near_misses: NearMisses | None = None) -> pytest.TestReport:
    properties: list[tuple[str, Any]] = [(PROPERTY, {"task": task, "check": check, "checks": [], "fingerprint": ""})]
    if near_misses is not None:
        properties.append((NEAR_MISSES, near_misses.to_json()))
    if set_up:
        properties.append((SET_UP, True))
    if shown:
        properties.append((ERRATUM_SHOWN, True))
    if gui_route:
        properties.append((GUI_ROUTE, gui_route))
    return pytest.TestReport(f"{task}[{check}]", ("", 0, ""), {}, outcome, None, when, user_properties=properties)


def run_config(args: list[str], folder: Path) -> SimpleNamespace:
    """The parts of a pytest config the summary reads: the arguments, the folder, the run's
    configuration (the defaults)."""
    stash = pytest.Stash()
    stash[RUN_CONFIG] = RunConfig()
    return SimpleNamespace(args=args, invocation_params=SimpleNamespace(dir=folder), getoption=lambda name: None,
                           stash=stash)


def summary(*reports: pytest.TestReport) -> ValidationSummary:
    config = run_config([], Path.cwd())
    plugin = ValidationSummary(config)  # type: ignore[arg-type]
    for each in reports:
        plugin.pytest_runtest_logreport(each)
    return plugin


def test_checked_set_up_and_solved_per_app() -> None:
    plugin = summary(
        report("excel/a", "reference", "passed", set_up=True, gui_route="cells formatted"),  # solved, by the GUI
        report("excel/a", "reset", "passed", set_up=True),
        report("excel/b", "reference", "failed", set_up=True),       # scored, but not 1
        report("excel/c", "reference", "failed"),                    # setup failed
        report("excel/c", "reset", "failed", when="setup"),
        report("dbt/d", "reference", "skipped", when="setup"),       # cannot run here
        report("dbt/d", "reset", "skipped", when="setup"),
        report("dbt/e", "reset", "passed", when="teardown", set_up=True),  # only call reports count
        report("excel/f", "reference", "passed", set_up=True, shown=True),  # on the errata list: shown, not solved
    )
    lines = plugin.table()
    assert lines[0].split() == ["app", "files", "collected", "runnable", "checked", "set", "up", "solved", "errata",
                                "gui", "route"]
    assert lines[1].split() == ["dbt", "0", "0", "0", "0", "0", "0", "0", "0"]
    assert lines[2].split() == ["excel", "0", "0", "0", "4", "3", "1", "1", "1"]
    assert lines[3].split() == ["total", "0", "0", "0", "4", "3", "1", "1", "1"]


def test_a_path_inside_another_given_path_is_counted_once(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "calc" / "t1"
    task.mkdir(parents=True)
    (task / "task.json").write_text("{}")
    config = run_config(["tasks", "tasks/calc", "tasks/calc/t1/task.json::t1"], tmp_path)
    once = ValidationSummary(config)._static_figures()  # type: ignore[arg-type]
    config.args = ["tasks"]
    assert once == ValidationSummary(config)._static_figures() == {"calc": (1, 0, 0)}  # type: ignore[arg-type]


def test_near_misses_per_app_and_per_part_never_count_a_crash_as_caught() -> None:
    table = NearMisses([Trial("compare_table", "value changed", "cell B2", 0.0, "sheet_data"),
                        Trial("compare_table", "pivot item hidden", "field 0", 0.0, "pivot_table.filter",
                              "KeyError: 0"),
                        Trial("compare_table", "chart type changed", "barChart", 1.0, "chart.type")],
                       [Uncovered("compare_table", "pivot_table.name", "no near-miss maker varies it")])
    nothing = NearMisses(uncovered=[Uncovered("compare_images", "", "no near-miss maker for this metric")])
    plugin = summary(report("excel/a", "near-miss", "failed", near_misses=table),
                     report("excel/a", "near-miss", "failed", when="teardown", near_misses=table),  # counted once
                     report("excel/b", "near-miss", "passed", near_misses=nothing),
                     report("excel/c", "near-miss", "passed", near_misses=NearMisses()))
    lines = plugin.near_miss_table()
    assert lines[0].split() == ["app", "tasks", "tried", "caught", "crashed", "lax", "not", "covered"]
    assert lines[1].split() == ["excel", "3", "3", "1", "1", "1", "3"]
    assert lines[3:] == [
        "lax: excel/a: compare_table: chart type changed (barChart) still scored 1",
        "crashed: excel/a: compare_table: pivot item hidden (field 0) crashed the metric: KeyError: 0",
        "not covered: excel/a: compare_table pivot_table.name: no near-miss maker varies it",
        "not covered: excel/b: compare_images: no near-miss maker for this metric",
        "not covered: excel/c: no near miss tried"]
    assert [line.split() for line in plugin.part_table()] == [
        ["metric", "/", "part", "tried", "caught", "crashed", "lax", "not", "covered"],
        ["compare_images", "0", "0", "0", "0", "1"],
        ["compare_table", "chart.type", "1", "0", "0", "1", "0"],
        ["compare_table", "pivot_table.filter", "1", "0", "1", "0", "0"],
        ["compare_table", "pivot_table.name", "0", "0", "0", "0", "1"],
        ["compare_table", "sheet_data", "1", "1", "0", "0", "0"],
        ["total", "3", "1", "1", "1", "2"]]
