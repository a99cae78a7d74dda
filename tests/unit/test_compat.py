"""The compatibility report: over the real Spider2-V sample (read in place) and over a tmp tree
with a task that names an unknown metric."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_spider2v import compat
from tests.support.shared import require, sample, shared, task_files

SAMPLE = shared("spider2v-sample")
#: Facts of the published benchmark: its excel tasks, and its dbt tasks that need a dbt Cloud account.
EXCEL_TASKS = 62
DBT_CLOUD_TASKS = 20
ACCOUNT_REASON = "needs cloud account settings"


@pytest.fixture(scope="module", autouse=True)
def registrations() -> None:
    compat.load_registrations()


@pytest.fixture(scope="module")
def sample_report() -> compat.Report:
    require(SAMPLE / "evaluation_examples")
    return compat.build_report(SAMPLE, settings_dir=None)


def test_sample_collects_all_with_nothing_unknown(sample_report: compat.Report) -> None:
    files = len(task_files(sample()))
    assert sample_report.files == files
    assert sample_report.collected == files
    assert sample_report.collection_errors == []
    assert sample_report.unknown == []
    assert sample_report.apps["excel"].runnable == EXCEL_TASKS


def test_sample_account_tasks_reported_with_their_account(sample_report: compat.Report) -> None:
    dbt = sample_report.apps["dbt"]
    account_ids = next(ids for reason, ids in dbt.reasons.items() if reason.startswith(ACCOUNT_REASON))
    assert len(account_ids) == DBT_CLOUD_TASKS
    assert dbt.collected - dbt.runnable == DBT_CLOUD_TASKS
    dbt_cloud = {i for reason, ids in dbt.reasons.items() if "needs a dbt Cloud account" in reason for i in ids}
    assert dbt_cloud == set(account_ids)


def test_main_prints_totals_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    examples = require(sample())
    files = len(task_files(examples))
    out = tmp_path / "compat.json"
    assert compat.main([str(examples), "--json", str(out)]) == 0
    text = capsys.readouterr().out
    data = json.loads(out.read_text())
    totals = data["totals"]
    assert (totals["task_files"], totals["collected"], totals["collection_errors"]) == (files, files, 0)
    assert f"task files: {files}; tasks collected: {files}; runnable here: {totals['runnable']};" in text
    assert "unknown step types/getters/metrics: 0" in text
    assert totals["unknown"]["total"] == 0
    assert data["apps"]["dbt"]["runnable"] == len(task_files(examples, "dbt")) - DBT_CLOUD_TASKS


def write_task(root: Path, task_id: str, func: str, config_type: str = "sleep") -> Path:
    folder = root / "evaluation_examples" / "examples" / "calc" / task_id
    folder.mkdir(parents=True)
    path = folder / f"{task_id}.json"
    path.write_text(json.dumps({
        "id": task_id, "snapshot": "desktop", "instruction": "Do it.", "related_apps": ["calc"],
        "tags": ["gui", "abstract"], "action_number": 2,
        "config": [{"type": config_type, "parameters": {"seconds": 0.1}}],
        "evaluator": {"func": func, "result": {"type": "rule", "rules": 1}, "expected": {"type": "rule", "rules": 1}},
    }))
    return path


def test_unknown_metric_and_step_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_task(tmp_path, "good", "exact_match")
    write_task(tmp_path, "bad", "no_such_metric", config_type="no_such_step")
    report = compat.build_report(tmp_path, settings_dir=None)
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
    report = compat.build_report(tmp_path, settings_dir=None)
    assert report.runnable == 0
    (reason,) = report.apps["calc"].reasons
    assert "snapshot 'no-such-snapshot' has no environment recipe" in reason
