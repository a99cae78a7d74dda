"""Issue 37 end to end, on the project's own tasks in real containers: ``--repeat`` on fresh
environments, a scripted model that solves a task once in two repeats (flaky), the manifest in the
run folder, the JUnit XML and the HTML report (looked at in headless Chromium), and
``spider2v-report compare / merge / table`` over those runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_spider2v.reports.command import main
from tests.support.llm_server import LLMServer

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SELECTION = ("-k", "restock or retail")  # 2 task folders x 2 variants: 4 tasks


def run_pytest(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tasks/", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=2400, env=env)


def records(run: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(run.rglob("result.json"))]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The runs the tests read: the oracle with --repeat 2 over the selection, the same as two
    halves (each with --repeat 2), and noop over the selection."""
    results = tmp_path_factory.mktemp("runs")
    out = results.parent
    oracle = run_pytest(*SELECTION, "--agent", "oracle", "--repeat", "2", "-n", "2", "--results-dir", str(results),
                        f"--html={out / 'report.html'}", "--self-contained-html", f"--junitxml={out / 'junit.xml'}")
    assert oracle.returncode == 0, oracle.stdout[-6000:] + oracle.stderr[-3000:]
    (out / "oracle.out").write_text(oracle.stdout)
    for half, pattern in (("half-1", "restock"), ("half-2", "retail")):
        proc = run_pytest("-k", pattern, "--agent", "oracle", "--repeat", "2", "-n", "2", "--results-dir",
                          str(results), "--run-name", half)
        assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    noop = run_pytest(*SELECTION, "--agent", "noop", "-n", "2", "--results-dir", str(results))
    assert noop.returncode == 1 and "4 failed" in noop.stdout, noop.stdout[-6000:] + noop.stderr[-3000:]
    return results


def test_every_task_runs_twice_on_a_fresh_environment_with_its_record(runs: Path) -> None:
    done = records(runs / "oracle")
    assert len(done) == 8 and {(r["status"], r["score"]) for r in done} == {("passed", 1.0)}
    assert sorted((r["task_id"], r["variant"], r["repeat"]["index"]) for r in done) == sorted(
        (task, variant, index) for task in ("restock-low-inventory", "retail-star-schema")
        for variant in ("abstract", "verbose") for index in (1, 2))
    # each repeat set up its own environment: its own restore, setup and first screenshot
    assert all(r["timings"]["restore"] > 0 and r["timings"]["setup"] > 0 for r in done)
    assert all(r["image"].startswith("spider2v/") and "@sha256:" in r["image"] for r in done)
    out = (runs.parent / "oracle.out").read_text()
    assert "8 runs (4 tasks attempted, --repeat 2): success rate 100.0%" in out
    assert "95% interval [51.0%, 100.0%] over the 4 tasks attempted (Wilson score, the task as the unit); " \
           "pass@2 100.0%, pass^2 100.0%; 0 flaky (repeats disagree)" in out
    assert "where the time went" in out


def test_the_manifest_is_in_the_run_folder_the_summary_and_the_junit_xml(runs: Path) -> None:
    manifest = json.loads((runs / "oracle" / "manifest.json").read_text())
    summary = json.loads((runs / "oracle" / "summary.json").read_text())
    assert summary["manifest"] == manifest and summary["pass_hat_k"] == 1.0
    assert manifest["tasks"]["count"] == 4 and manifest["repeats"] == 2 and manifest["images"]
    assert {r["image"].rpartition("@")[0] for r in records(runs / "oracle")} == set(manifest["images"])
    properties = {p.get("name"): p.get("value") for p in ET.parse(runs.parent / "junit.xml").iter("property")}
    assert properties["spider2v.tasks.digest"] == manifest["tasks"]["digest"]
    assert properties["spider2v.settings.max_steps"] == "15"


def test_the_html_report_shows_the_manifest_and_charts_with_error_bars_in_a_browser(runs: Path) -> None:
    seen = look_at(runs.parent / "report.html")
    assert seen["manifest"] and "tasks.digest" in seen["manifest_text"]
    assert seen["charts"] >= 5 and seen["error_bars"] >= 5


def test_compare_oracle_with_noop_every_task_flips(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = runs.parent / "compare.html"
    assert main(["compare", str(runs / "oracle"), str(runs / "noop"), "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "compared over the 4 tasks every run attempted" in out and "WARNING" not in out
    assert ("oracle - noop: difference +100.0%, 95% interval [+100.0%, +100.0%] (paired t over tasks); "
            "sign test (exact McNemar for one attempt per task): p = 0.125 (oracle better on 4, noop on 0)") in out
    assert "tasks that flip (pass in one, not the other): 4" in out
    seen = look_at(page)
    assert seen["charts"] == 2 and seen["error_bars"] >= 2 and seen["manifest"]


def test_compare_warns_naming_a_different_task_set(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(runs / "oracle"), str(runs / "half-1")]) == 0
    out = capsys.readouterr().out
    assert "WARNING: the runs differ in what changes scores:" in out
    assert "oracle vs half-1: tasks: 4 vs 2 tasks, 2 only in the first, 0 only in the second; compared on the 2 " \
           "shared" in out


def test_merging_the_two_halves_gives_the_single_runs_table(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["merge", str(runs / "half-1"), str(runs / "half-2"), "--into", str(runs / "merged")]) == 0
    capsys.readouterr()
    for fmt in ("md", "json"):
        assert main(["table", str(runs / "oracle"), "--format", fmt]) == 0
        single = capsys.readouterr().out
        assert main(["table", str(runs / "merged"), "--format", fmt]) == 0
        assert capsys.readouterr().out == single
    assert "| app: sqlite3 | 2 | 100.0% |" in single or '"group": "sqlite3"' in single


def test_a_model_that_solves_a_task_in_one_repeat_of_two_is_listed_flaky(tmp_path: Path) -> None:
    from pytest_spider2v.agents.oracle import solution_actions

    cells = solution_actions(ROOT / "tasks/sqlite3/restock-low-inventory/solution.py")
    solve = [c if c in ("WAIT", "DONE", "FAIL") else f"```python\n{c}\n```" for c in cells]
    with LLMServer() as server:
        server.script(*solve, "FAIL")  # the first repeat is given the solution, the second gives up
        proc = run_pytest("-k", "restock and abstract", "--repeat", "2", "--agent", "gpt-4o", "--llm-base-url",
                          server.openai_url, "--observation", "screenshot", "--results-dir", str(tmp_path), "-v",
                          env={**os.environ, "OPENAI_API_KEY": "sk-dummy"})
    assert "restock-low-inventory[abstract-1-2] PASSED" in proc.stdout, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "restock-low-inventory[abstract-2-2] FAILED" in proc.stdout
    summary = json.loads((tmp_path / "gpt-4o" / "summary.json").read_text())
    assert summary["flaky"] == [{"nodeid": "tasks/sqlite3/restock-low-inventory/task.json::restock-low-inventory"
                                           "[abstract]", "passed": 1, "runs": 2}]
    assert (summary["pass_at_k"], summary["pass_hat_k"]) == (1.0, 0.0)
    assert summary["manifest"]["agent"]["parameters"]["temperature"] == 0.5  # the default, stated
    assert "flaky (their 2 repeats disagree): 1" in proc.stdout


def look_at(page: Path) -> dict:
    """What headless Chromium shows of a report page: the manifest, the charts, their error bars."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                             args=["--no-sandbox"])
        try:
            view = browser.new_page()
            view.goto(page.as_uri())
            manifest = view.locator("#spider2v-manifest")
            return {
                "manifest": manifest.count() == 1 and manifest.is_visible(),
                "manifest_text": manifest.inner_text() if manifest.count() else "",
                "charts": view.locator("svg.spider2v-chart").count(),
                "error_bars": view.locator("svg.spider2v-chart [id^='errorbar-']").count(),
            }
        finally:
            browser.close()
