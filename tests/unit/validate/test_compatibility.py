"""The compatibility report: over the real Spider2-V sample (read in place), over tmp trees (an
unknown metric, a missing snapshot, scripts calling a program no image has), its rendering, and
``--verify`` reading the records of a (faked) pytest run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.cli import compat
from pytest_spider2v.run.records import task_dir
from pytest_spider2v.tasks.availability import Accounts
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.testing.factories import start_record, task_document, write_checkout_task
from pytest_spider2v.validate import compatibility
from tests.support.shared import REPO, require, sample, shared, task_files

SAMPLE = shared("spider2v-sample")
#: Facts of the published benchmark: its excel tasks, and its dbt tasks that need a dbt Cloud account.
EXCEL_TASKS = 62
DBT_CLOUD_TASKS = 20
#: The sample's BigQuery tasks, measured: 4 pairs run against bqemulator (--cloud emulate; column
#: defaults with the clouds image's patch), 14 tasks need Google's own service (public datasets,
#: connections, Google Drive, a service account's key), 2 cannot run (a names.zip missing from the
#: checkout).
BIGQUERY_COLUMNS = {"here": 0, "with_emulator": 8, "with_accounts": 14, "not_runnable": 2}
#: The sample's Snowflake tasks, measured: 1 pair runs against fakesnow, the other 24 need
#: Snowflake itself (Snowsight's charts, pages, worksheets, folders and filters, Marketplace shares,
#: S3, event tables, users, Hasura Cloud).
SNOWFLAKE_COLUMNS = {"here": 0, "with_emulator": 2, "with_accounts": 24, "not_runnable": 0}
#: A file six superset tasks of the sample load, which the sample does not have.
MISSING_SQL = "needs evaluation_examples/examples/superset/all_databases.sql, missing from the checkout"


@pytest.fixture(scope="module", autouse=True)
def registrations() -> None:
    compatibility.load_registrations()


@pytest.fixture(scope="module")
def sample_report() -> compatibility.Report:
    require(SAMPLE / "evaluation_examples")
    return compatibility.build_report(SAMPLE, Accounts())


@pytest.mark.sample
def test_sample_collects_all_with_nothing_unknown(sample_report: compatibility.Report) -> None:
    files = len(task_files(sample()))
    assert sample_report.files == files
    assert sample_report.collected == files
    assert sum(app.files for app in sample_report.apps.values()) == files
    assert sample_report.collection_errors == []
    assert sample_report.unknown == []
    assert sample_report.apps["excel"].runnable == EXCEL_TASKS


@pytest.mark.sample
def test_sample_account_tasks_reported_with_their_account(sample_report: compatibility.Report) -> None:
    dbt = sample_report.apps["dbt"]
    dbt_cloud = {i for reason, ids in dbt.emulator_reasons.items() if "needs a dbt_cloud account" in reason for i in ids}
    assert len(dbt_cloud) == DBT_CLOUD_TASKS  # no emulator of dbt Cloud: with the user's account only
    assert (dbt.with_emulator, dbt.with_accounts, len(dbt.reasons)) == (0, DBT_CLOUD_TASKS, 0)


@pytest.mark.sample
def test_sample_account_tasks_in_four_columns_with_the_reasons(sample_report: compatibility.Report) -> None:
    data = sample_report.as_json()["apps"]["bigquery"]
    assert {column: data[column] for column in BIGQUERY_COLUMNS} == BIGQUERY_COLUMNS
    off = data["emulator_reasons"]
    assert {i for ids in off.values() for i in ids} >= set(
        next(ids for reason, ids in off.items() if "bigquery-public-data.covid19_open_data" in reason))
    assert data["runnable"] == 0  # a run without --settings-dir or --cloud emulate runs none of them
    emulated = compatibility.build_report(require(sample()) / "bigquery", Accounts(Path("unused"), emulate=True))
    assert emulated.runnable == BIGQUERY_COLUMNS["with_emulator"]
    snowflake = sample_report.as_json()["apps"]["snowflake"]
    assert {column: snowflake[column] for column in SNOWFLAKE_COLUMNS} == SNOWFLAKE_COLUMNS


@pytest.mark.sample
def test_sample_needs_are_reasons_with_their_places(sample_report: compatibility.Report) -> None:
    superset = sample_report.apps["superset"]
    assert len(superset.reasons[MISSING_SQL]) == 6
    internet = {i for reason, ids in sample_report.apps["dagster"].reasons.items()
                if reason == "downloads from hacker-news.firebaseio.com (no internet here)" for i in ids}
    assert internet
    for key in internet:  # the precise reason names the file and line the host is in
        assert any(r.startswith("downloads from hacker-news.firebaseio.com (") and ".py line " in r
                   for r in sample_report.apps["dagster"].details[key])
    for app in sample_report.apps.values():
        not_runnable = {i for ids in app.reasons.values() for i in ids}
        assert len(not_runnable) == app.collected - app.here - app.with_emulator - app.with_accounts
        assert not_runnable | {i for ids in app.emulator_reasons.values() for i in ids} == set(app.details)


@pytest.mark.sample
def test_main_prints_totals_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    examples = require(sample())
    files = len(task_files(examples))
    out = tmp_path / "compat.json"
    assert compat.main([str(examples), "--json", str(out)]) == 0
    text = capsys.readouterr().out
    data = json.loads(out.read_text())
    totals = data["totals"]
    assert (totals["task_files"], totals["collected"], totals["collection_errors"]) == (files, files, 0)
    assert (f"task files: {files}; tasks collected: {files}; here: {totals['here']}; with an emulator: "
            f"{totals['with_emulator']}; with accounts: {totals['with_accounts']};") in text
    assert "unknown step types/getters/metrics: 0" in text
    assert totals["unknown"]["total"] == 0
    dbt = data["apps"]["dbt"]
    assert dbt["files"] == len(task_files(examples, "dbt"))
    assert dbt["runnable"] == dbt["here"] == dbt["collected"] - len(dbt["details"])


def write_task(root: Path, task_id: str, func: str, config_type: str = "sleep", script: str | None = None,
               app: str = "calc") -> Path:
    config: list[dict[str, Any]] = [{"type": config_type, "parameters": {"seconds": 0.1}}]
    if script is not None:
        folder = root / "evaluation_examples" / "examples" / app / task_id
        folder.mkdir(parents=True)
        (folder / "init.sh").write_text(script)
        config.append({"type": "script_and_execute",
                       "parameters": {"src": f"evaluation_examples/examples/{app}/{task_id}/init.sh"}})
    return write_checkout_task(root, task_document(
        id=task_id, instruction="Do it.", related_apps=[app], tags=["gui", "abstract"], action_number=2, config=config,
        evaluator={"func": func, "result": {"type": "rule", "rules": 1}, "expected": {"type": "rule", "rules": 1}}))


def test_unknown_metric_and_step_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_task(tmp_path, "good", "exact_match")
    write_task(tmp_path, "bad", "no_such_metric", config_type="no_such_step")
    report = compatibility.build_report(tmp_path, Accounts())
    assert report.files == 2 and report.collected == 1 and report.runnable == 1
    assert report.unknown_counts() == {"setup step": 1, "getter": 0, "metric": 1}
    assert {u["name"] for u in report.unknown} == {"no_such_metric", "no_such_step"}
    assert len(report.collection_errors) == 1 and "bad" in report.collection_errors[0]["error"]
    assert compat.main([str(tmp_path)]) == 1
    assert "unknown step types/getters/metrics: 2 (step types 1, getters 0, metrics 1)" in capsys.readouterr().out


def test_snapshot_without_recipe_is_a_reason(tmp_path: Path) -> None:
    path = write_task(tmp_path, "nosnap", "exact_match")
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "snapshot": "no-such-snapshot"}))
    report = compatibility.build_report(tmp_path, Accounts())
    assert report.runnable == 0
    (reason,) = report.apps["calc"].reasons
    assert "snapshot 'no-such-snapshot' has no environment recipe" in reason


def test_reasons_group_across_tasks_and_render_with_counts(tmp_path: Path) -> None:
    write_task(tmp_path, "first", "exact_match", script="mkdir -p ~/x\nzz-no-such-tool run\n")
    write_task(tmp_path, "second", "exact_match", script="zz-no-such-tool start --now\n")
    write_task(tmp_path, "third", "exact_match")
    report = compatibility.build_report(tmp_path, Accounts())
    app = report.apps["calc"]
    assert (app.files, app.collected, app.runnable) == (3, 3, 1)
    summary = "needs program 'zz-no-such-tool', not in image 'desktop'"
    assert app.reasons == {summary: ["calc/first", "calc/second"]}
    assert app.details["calc/first"] == [
        "needs program 'zz-no-such-tool' (called in init.sh line 2: zz-no-such-tool run), not in image 'desktop'"]
    text = compat.render(report)
    assert "calc       3          3     1              0              0             2                  0" in text
    assert "calc: why 2 of 3 tasks cannot run here" in text
    assert f"     2 x {summary}  [first, second]" in text
    assert "verified" not in text


def test_tasks_of_the_needs_patterns_are_counted_as_they_run(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The patterns the needs analysis once got wrong, in the project's images: an evaluation
    importing the module the instruction has the agent write, a notebook the task only opens;
    beside them their negatives, a module nothing writes and a notebook the task runs."""
    notebook = json.dumps({"cells": [{"cell_type": "code", "source": "import zz_not_installed_anywhere\n"}]})
    cases = {
        ("dagster", "writes-its-job"): ("Create hacker_news/jobs.py defining hacker_news_job.", "eval.py",
                                        "from hacker_news.jobs import hacker_news_job\n"),
        ("dagster", "module-missing"): ("Add an hourly schedule to hacker_news_job.", "eval.py",
                                        "from zz_not_installed_anywhere import hacker_news_job\n"),
        ("jupyter", "only-opens"): ("Open analysis.ipynb in JupyterLab at port 1036.", "analysis.ipynb", notebook),
        ("jupyter", "runs-it"): ("Run all cells of analysis.ipynb and save it.", "analysis.ipynb", notebook),
    }
    for (app, task_id), (instruction, name, text) in cases.items():
        folder = tmp_path / "evaluation_examples" / "examples" / app / task_id
        folder.mkdir(parents=True)
        (folder / name).write_text(text)
        step = {"type": "copyfile_from_host_to_guest",
                "parameters": {"src": f"evaluation_examples/examples/{app}/{task_id}/{name}",
                               "dest": f"/home/user/{name}"}}
        write_checkout_task(tmp_path, task_document(id=task_id, snapshot=app, instruction=instruction,
                                                    related_apps=[app], config=[step]))
    report = compatibility.build_report(tmp_path, Accounts())
    assert {app: (r.collected, r.runnable) for app, r in report.apps.items()} == {"dagster": (2, 1), "jupyter": (2, 1)}
    assert set(report.apps["dagster"].details) == {"dagster/module-missing"}
    assert set(report.apps["jupyter"].details) == {"jupyter/runs-it"}
    compat.main([str(tmp_path)])
    assert "; here: 2; with an emulator: 0; with accounts: 0; not runnable: 2;" in capsys.readouterr().out


def fake_pytest(outcomes: dict[str, tuple[str, str, bool]], seen: list[list[str]]) -> Any:
    """A stand-in for the pytest subprocess: writes each task's record as a noop run would."""

    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        seen.append(command)
        results = Path(command[command.index("--results-dir") + 1])
        for arg in command:
            if arg.endswith(".json"):
                (task,) = load_tasks(Path(arg))
                if task.id not in outcomes:
                    continue
                status, detail, set_up = outcomes[task.id]
                record = start_record(task_dir(results, compatibility.VERIFY_RUN, task), task, agent="noop",
                                      nodeid=task.key)
                if set_up:
                    record.time("setup", 1.0)
                record.finish(status, 0.0 if status == "failed" else None, detail)
        return subprocess.CompletedProcess(command, 1, "", "")

    return run


def test_verify_measures_what_set_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("ok", "broken", "skips", "lost"):
        write_task(tmp_path / "tree", name, "exact_match")
    write_task(tmp_path / "tree", "offline", "exact_match", script="zz-no-such-tool\n")
    stale = tmp_path / "results" / compatibility.VERIFY_RUN / "calc" / "lost"
    stale.mkdir(parents=True)
    (stale / "result.json").write_text("{}")  # an earlier run's record must not count
    seen: list[list[str]] = []
    monkeypatch.setattr(compatibility.subprocess, "run", fake_pytest({
        "ok": ("failed", "score 0", True),
        "broken": ("error", "SetupFailed: setup failed: StepError: sleep: the guest is gone", False),
        "skips": ("skipped", "needs something found only at run time", False),
    }, seen))
    code = compat.main([str(tmp_path / "tree"), "--verify", "--results-dir", str(tmp_path / "results"),
                        "--json", str(tmp_path / "out.json")])
    assert code == 1
    (command,) = seen
    files = [arg for arg in command if arg.endswith(".json")]
    assert sorted(Path(f).stem for f in files) == ["broken", "lost", "ok", "skips"]  # the runnable ones only
    assert command[command.index("--agent") + 1] == "noop" and command[command.index("-n") + 1] == "2"
    assert "no:cacheprovider" in command
    verified = json.loads((tmp_path / "out.json").read_text())["apps"]["calc"]["verified"]
    assert verified["set_up"] == 1
    assert verified["setup_errors"] == [{"task": "calc/broken", "step": "config[0] sleep",
                                         "message": "SetupFailed: setup failed: StepError: sleep: the guest is gone"}]
    assert verified["skipped"] == [{"task": "calc/skips", "reason": "needs something found only at run time"}]
    assert verified["not_run"] == ["calc/lost"]
    text = capsys.readouterr().out
    assert "verified with the do-nothing agent: 1 of 4 runnable tasks set up without error" in text
    assert "  setup error  calc/broken  config[0] sleep: SetupFailed: setup failed: StepError: sleep: the guest is gone" in text
    assert "  no record    calc/lost" in text
    assert "set up (verified)" in text


def test_failed_step_names_the_step_or_the_phase(tmp_path: Path) -> None:
    (task,) = load_tasks(write_task(tmp_path, "t", "exact_match", script="true\n"))
    assert compatibility.failed_step(task, "SetupFailed: setup failed: StepError: script_and_execute: boom") == \
        "config[1] script_and_execute"
    assert compatibility.failed_step(task, "SetupFailed: setup failed: TimeoutError: timed out") == "setup"
    assert compatibility.failed_step(task, "EnvironmentFault: container exited") == "environment"


@pytest.mark.sample
def test_docs_coverage_table_is_the_commands_output_on_the_sample() -> None:
    assert compat.main([str(require(SAMPLE)), "--check", str(REPO / "docs" / "tasks" / "spider2v.md")]) == 0


def test_coverage_table_counts_each_app_with_its_reasons_and_check_catches_a_stale_one(tmp_path: Path) -> None:
    tasks = tmp_path / "checkout"
    write_task(tasks, "first", "exact_match", script="zz-no-such-tool run\n")
    write_task(tasks, "second", "exact_match", script="zz-no-such-tool start | zz-other\n")
    write_task(tasks, "third", "exact_match")
    table = compat.coverage_table(compatibility.build_report(tasks, Accounts()))
    assert "| calc | 3 | 1 | 0 | 0 | 2 | 2 x needs program 'zz-no-such-tool', not in image 'desktop'; " \
           "1 x needs program 'zz-other', not in image 'desktop' |" in table
    assert "| **total** | 3 | 1 | 0 | 0 | 2 | |" in table
    page = tmp_path / "page.md"
    page.write_text(f"intro\n{compat.COVERAGE_BEGIN}\n{compat.COVERAGE_END}\noutro\n")
    assert compat.main([str(tasks), "--check", str(page)]) == 1  # empty: stale
    assert compat.main([str(tasks), "--write", str(page)]) == 0
    assert compat.main([str(tasks), "--check", str(page)]) == 0
    assert page.read_text().startswith(f"intro\n{compat.COVERAGE_BEGIN}\n3 task files, 3 tasks.\n")
    write_task(tasks, "fourth", "exact_match", script="zz-no-such-tool\n", app="jupyter")  # the tree changed
    assert compat.main([str(tasks), "--check", str(page)]) == 1
