"""Reports: the per-task HTML fragment, the run summary and the pytest wiring (no Docker)."""

from __future__ import annotations

import base64
import io
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pytest_spider2v.reports.html import render_task
from pytest_spider2v.reports.overview import render_overview
from pytest_spider2v.reports.summary import GroupFigures, format_summary, summarize
from pytest_spider2v.reports.task_summary import TaskSummary, usage_totals
from pytest_spider2v.run.records import public_settings
from pytest_spider2v.run.results import Flag, TaskResult

SECRET = "sk-very-secret-value"


def _png(path: Path, size: tuple[int, int], colour: str) -> None:
    Image.new("RGB", size, colour).save(path, format="PNG")


@pytest.fixture
def record_dir(tmp_path: Path) -> tuple[TaskResult, Path]:
    """A finished record as the runner writes it: result.json and one screenshot per step."""
    directory = tmp_path / "run" / "airbyte" / "task-1"
    directory.mkdir(parents=True)
    for index, colour in enumerate(("red", "green", "blue")):
        _png(directory / f"step_{index:03d}.png", (1920, 1080), colour)
    (directory / "step_002.xml").write_text("<desktop-frame/>", encoding="utf-8")
    result = {
        "task_id": "task-1", "nodeid": "tasks/airbyte/task-1/task.json::task-1[abstract]",
        "app": "airbyte", "apps": ["airbyte", "chromium"], "category": "data_ingestion_and_integration",
        "interface": "cli+gui", "difficulty": "medium", "variant": "abstract", "account": False,
        "instruction": "Sync <b>the</b> connection", "agent": "oracle",
        "settings": {"max_steps": 15, "api_key": SECRET, "agent_options": {"model": "gpt-x", "openai_token": SECRET}},
        "status": "failed", "score": 0.5, "detail": "one of two checks failed",
        "evaluation": [{"func": "check_csv", "score": 1.0, "detail": "ok"},
                       {"func": "compare_table", "score": 0.0, "detail": "row 3 differs"}],
        "initial_observation": {"screenshot": "step_000.png"},
        "steps": [
            {"index": 1, "response": "I will click. <script>alert('x')</script>", "action": "pyautogui.click(10, 20)",
             "kind": "code", "info": {"status": "success", "output": "clicked", "error": "", "returncode": 0},
             "duration": 1.25, "observation": {"screenshot": "step_001.png"}, "usage": {"input_tokens": 100, "output_tokens": 20}},
            {"index": 2, "response": "long thought\n" * 40, "action": "import sys; sys.exit(3)", "kind": "code",
             "info": {"status": "error", "output": "", "error": "Traceback: boom happened", "returncode": 3},
             "duration": 0.5, "observation": {"screenshot": "step_002.png", "accessibility_tree": "step_002.xml"}, "usage": {"input_tokens": 150, "output_tokens": 30}},
            {"index": 3, "response": "hmm", "action": None, "kind": "none",
             "info": {"status": "error", "message": "no valid action in the reply"}, "duration": 0.0},
            {"index": 3, "response": "", "action": "DONE", "kind": "DONE", "info": {}, "duration": 0.0,
             "observation": {"screenshot": "step_003.png"}},
        ],
        "timings": {"started": 1700000000.0, "reset": 12.5, "episode": 40.25, "evaluation": 3.0, "total": 56.0},
        "usage": {},
    }
    (directory / "result.json").write_text(json.dumps(result), encoding="utf-8")
    return TaskResult.from_json(result), directory


def _images(html: str) -> list[Image.Image]:
    return [Image.open(io.BytesIO(base64.b64decode(data)))
            for data in re.findall(r'src="data:image/jpeg;base64,([A-Za-z0-9+/=]+)"', html)]


def test_every_existing_screenshot_is_embedded_downscaled_and_linked(record_dir) -> None:
    result, directory = record_dir
    html = render_task(result, directory, link_base=directory.parent.parent)
    images = _images(html)
    assert len(images) == 3  # step 0 and steps 1-2; step 3's file does not exist
    assert all(img.format == "JPEG" and img.size == (1280, 720) for img in images)
    assert [img.getpixel((640, 360))[0] > 200 for img in images] == [True, False, False]  # red first (step 0)
    assert 'href="airbyte/task-1/step_002.png"' in html and 'href="airbyte/task-1/step_002.xml"' in html
    assert "missing step_003.png" in html


def test_text_is_escaped_and_long_replies_fold(record_dir) -> None:
    result, directory = record_dir
    html = render_task(result, directory)
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html
    assert "Sync &lt;b&gt;the&lt;/b&gt; connection" in html
    assert html.count("<details>") == 1 and "(520 chars)" in html



def test_an_actions_overlong_line_folds_alone_and_the_code_around_it_stays_in_view(record_dir) -> None:
    result, directory = record_dir
    installed = "import sys; exec(" + repr("x = 1\n" * 100) + ")"
    result.steps[0] = replace(result.steps[0], action=f"# helper\n{installed}\nfrom helper import go\ngo()")
    html = render_task(result, directory)
    head, folded, tail = re.search(r"<pre># helper</pre><details><summary><code>(.*?)</code> &hellip; "
                                   r"\((\d+) chars\)</summary>.*?</details><pre>(.*?)</pre>", html, re.S).groups()
    assert installed.startswith(head.replace("&#39;", "'")) and len(head) >= 100
    assert int(folded) == len(installed)
    assert tail == "from helper import go\ngo()"


def test_outcome_evaluation_errors_timings_and_usage_are_shown(record_dir) -> None:
    result, directory = record_dir
    html = render_task(result, directory)
    assert "status-failed" in html and "<b>Score</b> 0.5" in html
    assert "compare_table" in html and "row 3 differs" in html
    assert '<pre class="err">Traceback: boom happened</pre>' in html
    assert "(rc 3)" in html
    assert "40.25 s" in html
    assert "300" in html  # tokens summed over the steps (100+20+150+30)
    assert '<span class="kind">DONE</span>' in html
    assert '<span class="kind">no action</span>' in html and "no valid action in the reply" in html


def test_flags_come_before_the_instruction(record_dir) -> None:
    result, directory = record_dir
    assert "Flags" not in render_task(result, directory)
    flagged = replace(result, flags=[Flag("errata", "lax_evaluator: any <DAG> passes")])
    html = render_task(flagged, directory)
    assert "<li><b>errata</b>: lax_evaluator: any &lt;DAG&gt; passes</li>" in html
    assert html.index("Flags") < html.index("Instruction")


def test_secret_looking_settings_never_appear(record_dir) -> None:
    result, directory = record_dir
    html = render_task(result, directory)
    assert SECRET not in html
    assert "&#34;api_key&#34;: &#34;***&#34;" in html and "&#34;openai_token&#34;: &#34;***&#34;" in html
    assert "max_steps" in html and "gpt-x" in html
    assert public_settings({"a": [{"Password": 1, "b": 2}]}) == {"a": [{"Password": "***", "b": 2}]}
    # a count of tokens is no secret: a run's manifest states it; a token is one
    assert public_settings({"max_tokens": 500, "a11y_max_tokens": 5000, "access_token": "t", "tokens": "x"}) == {
        "max_tokens": 500, "a11y_max_tokens": 5000, "access_token": "***", "tokens": "x"}


def task_summary(**result: Any) -> TaskSummary:
    """The summary of a record holding ``result`` (and defaults for the rest)."""
    return TaskSummary.of(TaskResult.from_json(result))


def _props(nodeid: str, apps: list[str], category: str, difficulty: str, status: str, score: float | None,
           variant: str = "abstract", detail: str = "") -> TaskSummary:
    return task_summary(nodeid=nodeid, task_id=nodeid, app=apps[0], apps=apps, category=category,
                        difficulty=difficulty, interface="gui", variant=variant, status=status, score=score,
                        usage={"tokens": 10, "cost": 0.01}, timings={"total": 10.0},
                        detail=detail or f"{nodeid} happened\nsecond line")


def test_summary_rates_count_an_error_as_0_leave_skips_out_and_count_every_related_app() -> None:
    entries = [
        _props("a", ["dbt", "chromium"], "data_transformation", "easy", "passed", 1.0),
        _props("b", ["dbt"], "data_transformation", "hard", "failed", 0.0, variant="verbose"),
        _props("c", ["airflow", "chromium"], "data_orchestration", "easy", "failed", 0.5),
        _props("d", ["airflow"], "data_orchestration", "easy", "error", None),
        _props("e", ["dbt"], "data_transformation", "easy", "skipped", None),
    ]
    summary = summarize(entries)
    assert summary.overall.total == 5 and summary.overall.scored == 3
    assert summary.overall.success_rate == pytest.approx(0.375)  # (1 + 0 + 0.5 + 0) / 4: the error is a 0
    assert summary.overall.success_rate_completed == pytest.approx(0.5)  # (1 + 0 + 0.5) / 3, beside it
    assert summary.errors == ["d"] and summary.skipped == ["e"]
    assert summary.overall.tokens == 50 and summary.overall.cost == pytest.approx(0.05)
    by_app = summary.groups["app"]
    assert set(by_app) == {"airflow", "chromium", "dbt"}
    assert (by_app["chromium"].total, by_app["chromium"].success_rate) == (2, 0.75)
    assert (by_app["dbt"].total, by_app["dbt"].scored, by_app["dbt"].skipped) == (3, 2, 1)
    assert by_app["airflow"].errors == 1 and by_app["airflow"].success_rate == 0.25
    assert by_app["airflow"].success_rate_completed == 0.5
    assert summary.groups["category"]["data_orchestration"].success_rate == 0.25
    easy = summary.groups["difficulty"]["easy"]
    assert easy.interval is not None and easy.interval.low < 0.5 < easy.interval.high  # over its 3 tasks attempted
    assert replace(easy, interval=None) == GroupFigures(total=4, scored=2, success_rate=0.5, passed=1,
                                                                errors=1, skipped=1, flagged=0,
                                                                success_rate_without_errata=0.5,
                                                                attempted_without_errata=3, tokens=40,
                                                                cost=0.04, seconds=40.0, success_rate_completed=0.75,
                                                                errors_charged={"unknown": 1}, tasks_attempted=3)
    assert summary.groups["difficulty"]["easy"].runnable == 3
    assert summary.groups["difficulty"]["hard"].success_rate == 0.0
    assert summary.groups["variant"]["verbose"].total == 1


def test_summary_json_keeps_its_layout() -> None:
    """summary.json: the overall figures (the rate over every task attempted first, the rate over
    those that completed beside it) with the lists of tasks in place of the error and skip counts,
    then each grouping, then the tasks."""
    summary = summarize([_props("a", ["dbt"], "x", "easy", "passed", 1.0), _props("d", ["dbt"], "x", "easy", "error", None)])
    written = json.loads(json.dumps(summary.to_json()))
    assert list(written) == ["total", "runnable", "scored", "success_rate", "success_rate_completed", "passed",
                             "errors", "errors_charged", "tampered", "skipped", "flagged",
                             "success_rate_without_errata", "tokens", "cost", "seconds", "tasks_attempted",
                             "interval", "retried", "time", "by_app",
                             "by_category", "by_difficulty", "by_variant", "by_interface", "tasks"]
    assert (written["success_rate"], written["success_rate_completed"]) == (0.5, 1.0)
    assert (written["errors"], written["skipped"], written["by_app"]["dbt"]["errors"]) == (["d"], [], 1)
    assert written["tasks"][0] == {
        "nodeid": "a", "task_id": "a", "app": "dbt", "apps": ["dbt"], "category": "x", "difficulty": "easy",
        "interface": "gui", "variant": "abstract", "status": "passed", "score": 1.0, "tokens": 10, "cost": 0.01,
        "seconds": 10.0, "detail": "a happened", "retried": [],
        "time_parts": {"reset": 0.0, "setup": 0.0, "thinking": 0.0, "actions": 0.0, "observations": 0.0,
                       "evaluation": 0.0, "other": 10.0}}
    assert [TaskSummary.from_json(task) for task in written["tasks"]] == summary.tasks  # as the controller reads them


def test_a_run_against_emulators_says_so_in_the_text_the_json_and_the_overview() -> None:
    flag = Flag.emulated(["BigQuery: bqemulator 1.4"], []).to_json()
    emulated = task_summary(nodeid="e", task_id="e", app="bigquery", status="passed", score=1.0, flags=[flag])
    plain = _props("p", ["excel"], "x", "easy", "passed", 1.0)
    summary = summarize([emulated, plain])
    assert "1 tasks ran against emulators (--cloud emulate): their scores prove the harness and do not score a model" \
        in format_summary(summary)
    assert summary.to_json()["emulated"] == 1 and "emulated" not in summarize([plain]).to_json()
    assert TaskSummary.from_json(emulated.to_json()).emulated
    assert "1 tasks ran against emulators" in render_overview(summary)
    assert "emulators" not in render_overview(summarize([plain]))


def test_summary_text_states_the_rule_lists_errors_and_groups_skips() -> None:
    skip = "needs cloud account settings; pass --settings-dir"
    lines = format_summary(summarize([_props("ok", ["excel"], "x", "easy", "passed", 1.0),
                                      _props("bad", ["excel"], "x", "easy", "error", None),
                                      _props("s1", ["bigquery"], "x", "easy", "skipped", None, detail=skip),
                                      _props("s2", ["bigquery"], "x", "easy", "skipped", None, detail=skip)]))
    assert lines[0] == ("4 tasks: success rate 50.0% over 2 attempted (1 errors counted as 0 (1 with no charge "
                        "recorded), as the papers score a failed run); 100.0% over the 1 that completed; 0 tampered; "
                        "2 skipped, not attempted")
    # tasks, runnable, scored, passed, errors, skipped, errata, success, completed, w/o errata, tokens, cost, time
    assert any(re.match(r"excel\s+2\s+2\s+1\s+1\s+1\s+0\s+0\s+50.0%\s+100.0%\s+50.0%\s+\[9\.5%, 90\.5%\]\s+20\s+\$0\.0200\s+20s$", line)
               for line in lines)
    assert any(re.match(r"bigquery\s+2\s+0\s+0\s+0\s+0\s+2\s+0\s+n/a\s+n/a\s+n/a\s", line) for line in lines)
    assert "passed 1, tokens 40, cost $0.0400, wall time 40s (summed over tasks)" in lines
    assert "  bad  -- bad happened" in lines
    assert lines[-2:] == ["skipped (not attempted, not counted): 2", "     2  needs cloud account settings"]


def test_the_headline_names_whom_the_errors_are_charged_to_and_lists_the_tampered() -> None:
    environment = task_summary(nodeid="env", app="excel", status="error", score=None,
                               charged_to={"party": "environment", "cause": "killed from outside"})
    harness = task_summary(nodeid="bug", app="excel", status="error", score=None,
                           charged_to={"party": "harness", "cause": "ZeroDivisionError"})
    tampered = task_summary(nodeid="forged", app="excel", status="failed", score=0.0, detail="score 0: tampered",
                            flags=[{"kind": "tampered", "reason": "/usr/bin/bash"}],
                            charged_to={"party": "agent", "cause": "tampered"})
    summary = summarize([environment, harness, tampered, _props("ok", ["excel"], "x", "easy", "passed", 1.0)])
    assert summary.overall.errors_charged == {"environment": 1, "harness": 1}
    assert (summary.overall.success_rate, summary.overall.tampered) == (0.25, 1)
    lines = format_summary(summary)
    assert "(2 errors counted as 0 (1 charged to the environment, 1 charged to the harness)" in lines[0]
    assert "; 1 tampered;" in lines[0]
    assert lines[lines.index("tampered (scored 0): 1") + 1] == "  forged  -- score 0: tampered"
    assert summary.to_json()["errors_charged"] == {"environment": 1, "harness": 1}
    assert TaskSummary.from_json(json.loads(json.dumps(tampered.to_json()))) == tampered
    html = render_overview(summary)
    assert "<b>Success rate 25.0%</b> over 4 tasks attempted of 4 (2 errors counted as 0 (1 charged to the " in html


def test_summary_gives_the_rate_with_and_without_the_errata() -> None:
    """A task on the errata list counts in the success rate as published, and the rate without
    the flagged tasks stands beside it, overall and per group."""
    flagged = [{"kind": "errata", "reason": "lax_evaluator: any DAG's graph view passes"}]
    entries = [task_summary(nodeid="lax", app="airflow", apps=["airflow"], status="passed", score=1.0, flags=flagged),
               task_summary(nodeid="ok", app="airflow", apps=["airflow"], status="failed", score=0.0),
               task_summary(nodeid="x", app="excel", apps=["excel"], status="passed", score=1.0)]
    summary = summarize(entries)
    assert entries[0].errata == "lax_evaluator: any DAG's graph view passes"
    assert (summary.overall.flagged, summary.overall.success_rate) == (1, 0.6667)
    assert summary.overall.success_rate_without_errata == 0.5
    airflow = summary.groups["app"]["airflow"]
    assert (airflow.flagged, airflow.success_rate, airflow.success_rate_without_errata) == (1, 0.5, 0.0)
    lines = format_summary(summary)
    assert lines[1] == "95% interval [20.8%, 93.9%] over the 3 tasks attempted (Wilson score, the task as the unit)"
    assert lines[2] == "without the 1 tasks on the errata list: success rate 50.0% over 2 tasks attempted"
    assert TaskSummary.from_json(json.loads(json.dumps(entries[0].to_json()))) == entries[0]


def test_summary_lists_tasks_started_over_after_an_environment_fault() -> None:
    retried = task_summary(nodeid="t", app="dbt", status="passed", score=1.0,
                           attempts=[{"attempt": 1, "detail": "EnvironmentFault: POST /setup/upload failed\nmore"}])
    summary = summarize([retried, _props("u", ["dbt"], "x", "easy", "passed", 1.0)])
    assert summary.retried == ["t"] and summary.overall.success_rate == 1.0
    lines = format_summary(summary)
    assert lines[-2:] == ["started over after an environment fault (--retries): 1",
                          "  t  -- 1x: EnvironmentFault: POST /setup/upload failed"]


def test_usage_prefers_record_totals_over_step_sums() -> None:
    steps = [{"usage": {"prompt_tokens": 5, "completion_tokens": 1, "cost": 0.5}}, {"usage": {}}]
    assert usage_totals(TaskResult.from_json({"usage": {"total_tokens": 99, "cost": 2}, "steps": steps})) == (99, 2.0)
    assert usage_totals(TaskResult.from_json({"usage": {}, "steps": steps})) == (6, 0.5)
    assert usage_totals(TaskResult.from_json({"steps": []})) == (None, None)


CONFTEST = '''
import pytest
from PIL import Image
from pytest_spider2v.run.records import TaskRecord
from pytest_spider2v.run.results import ObservationFiles, TaskResult
from pytest_spider2v.plugin.keys import RECORD, RUN_DIR


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    if RUN_DIR not in config.stash:
        config.stash[RUN_DIR] = config.rootpath / "results" / "fake"


def _record(request, directory, status, score, detail=""):
    directory.mkdir()
    Image.new("RGB", (64, 48), "red").save(directory / "step_000.png")
    request.node.stash[RECORD] = TaskRecord(directory, TaskResult(
        task_id=request.node.name, nodeid=request.node.nodeid, task_file="task.json", app="airbyte",
        apps=["airbyte", "chromium"], category="data_ingestion_and_integration", difficulty="easy",
        interface="gui", variant="abstract", account=False, instruction="<i>sync</i>", agent="oracle", settings={},
        status=status, score=score, initial_observation=ObservationFiles("step_000.png"), detail=detail))


@pytest.fixture
def passed_task(request, tmp_path):
    _record(request, tmp_path / "record", "passed", 1.0)


@pytest.fixture
def broken_task(request, tmp_path):
    _record(request, tmp_path / "record", "error", None, "RuntimeError: environment failed")
    raise RuntimeError("environment failed")


@pytest.fixture
def account_task(request, tmp_path):
    _record(request, tmp_path / "record", "skipped", None, "needs cloud account settings; pass --settings-dir")
    pytest.skip("needs cloud account settings")
'''


def test_session_prints_summary_writes_json_and_fills_html_and_junit(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_fake="def test_ok(passed_task): pass\n\ndef test_broken(broken_task): pass\n"
                                  "\ndef test_plain(): pass\n\ndef test_cloud(account_task): pass\n")
    result = pytester.runpytest("--html=report.html", "--self-contained-html", "--junitxml=junit.xml")
    result.assert_outcomes(passed=2, errors=1, skipped=1)
    result.stdout.fnmatch_lines([
        "*spider2v summary*",
        "3 tasks: success rate 50.0% over 2 attempted (1 errors counted as 0 *); 100.0% over the 1 that completed*",
        "airbyte *3 *2 *1 *1 *1 *1 *0 *50.0% *100.0% *50.0% *-",
        "errors (each counted as 0): 1",
        "  test_fake.py::test_broken  -- RuntimeError: environment failed",
        "skipped (not attempted, not counted): 1",
        "     1  needs cloud account settings",
    ])
    [summary_file] = pytester.path.rglob("summary.json")
    summary = json.loads(summary_file.read_text())
    assert summary["total"] == 3 and summary["errors"] == ["test_fake.py::test_broken"]
    assert summary["by_app"]["chromium"]["total"] == 3 and summary["skipped"] == ["test_fake.py::test_cloud"]
    report = (pytester.path / "report.html").read_text()
    assert report.count("data:image/jpeg;base64") == 3 and "Spider2-V run" in report
    assert ">Score</th>" in report and "col-score" in report
    # the run at a glance opens the report, above the results table
    assert report.index('<section id="spider2v-overview"') < report.index('id="results-table"')
    assert "<b>Success rate 50.0%</b> over 2 tasks attempted of 3 (1 errors counted as 0" in report
    assert "100.0% over the 1 that completed" in report
    assert "<i>sync" not in report and "&amp;lt;i&amp;gt;sync" in report  # escaped, then escaped into the page's data
    junit = (pytester.path / "junit.xml").read_text()
    assert junit.count('property name="spider2v"') == 3
    scores = re.findall(r'<testcase [^>]*name="(\w+)"[^>]*>\s*<properties>.*?<property name="score" value="([^"]*)"',
                        junit, re.S)
    assert dict(scores) == {"test_ok": "1.00", "test_broken": "error", "test_cloud": "skipped"}
    assert junit.count('property name="app" value="airbyte"') == 3


def test_tasks_that_ran_on_a_clusters_nodes_are_counted_per_node_in_the_text_the_json_and_the_overview() -> None:
    placed = [replace(_props(name, ["dbt"], "x", "easy", "passed", 1.0), node=node)
              for name, node in (("a", "node1"), ("b", "node2"), ("c", "node1"))]
    summary = summarize(placed)
    assert {name: (f.total, f.seconds) for name, f in summary.groups["node"].items()} == {
        "node1": (2, 20.0), "node2": (1, 10.0)}
    assert summary.to_json()["by_node"]["node1"]["total"] == 2
    assert any(line.startswith("by node") for line in format_summary(summary))
    assert 'id="spider2v-by-node"' in render_overview(summary)
    assert TaskSummary.from_json(placed[0].to_json()).node == "node1"
    local = summarize([_props("d", ["dbt"], "x", "easy", "passed", 1.0)])  # this machine: no node table
    assert "by_node" not in local.to_json() and not any(line.startswith("by node") for line in format_summary(local))


def test_the_task_report_names_whom_it_is_charged_to_and_what_the_tamper_checks_found(tmp_path: Path) -> None:
    tampered = TaskResult.from_json({
        "task_id": "t", "status": "failed", "score": 0.0, "detail": "score 0: tampered",
        "flags": [{"kind": "tampered", "reason": "/usr/bin/bash (a system program or library, changed)"}],
        "charged_to": {"party": "agent", "cause": "tampered with what the evaluation takes as given",
                       "evidence": ["score 0: tampered"]},
        "integrity": {"checked": True, "findings": ["/usr/bin/bash (a system program or library, changed)"],
                      "left_running": ["sh -c while :; do :; done"], "seconds": 0.41}})
    html = render_task(tampered, tmp_path)
    assert "<b>tampered</b>: /usr/bin/bash" in html  # the flag, first
    assert "<b>agent</b>: tampered with what the evaluation takes as given" in html
    assert '<li class="err">/usr/bin/bash (a system program or library, changed)</li>' in html
    assert "<code>sh -c while :; do :; done</code>" in html and "0.41 s" in html
    unsealed = TaskResult.from_json({"task_id": "u", "status": "passed", "score": 1.0,
                                     "integrity": {"checked": False, "reason": "the environment has no witness"}})
    assert "none: the environment has no witness" in render_task(unsealed, tmp_path)
    assert "Charge and integrity" not in render_task(TaskResult.from_json({"task_id": "v"}), tmp_path)
