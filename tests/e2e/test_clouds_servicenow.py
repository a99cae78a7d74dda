"""ServiceNow through WorkArena's task session in the ``clouds`` image, as far as this machine
allows (no ServiceNow instance is reachable from here): a ServiceNow task runs its setup, the
session attaches to the guest's Chromium with WorkArena's own Playwright, makes the WorkArena task
and reports WorkArena's own error for the unreachable instance, naming it; the instance's
password appears in no record, log line or report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_spider2v.testing.factories import task_document, write_task

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "evaluation_examples/settings/servicenow/settings.json"
PASSWORD = "Wh1te-Rabbit-Instance-Pwd"
#: Inside the environment, where nothing listens: WorkArena checks the instance before its task.
INSTANCE = "http://127.0.0.1:9/"


def test_workarena_session_sets_up_the_task_and_names_an_unreachable_instance(tmp_path: Path) -> None:
    config = [{"type": "google_chrome_browser", "parameters": {"debugging_port": 1337, "listening_port": 9222}},
              {"type": "workarena_task_init", "parameters": {"listening_port": 9222, "settings_file": SETTINGS,
                                                             "task_name": "OrderIpadMiniTask", "task_kwargs": {}}}]
    write_task(tmp_path / "suite", task_document(
        id="order-ipad", snapshot="servicenow", related_apps=["chromium", "servicenow"], config=config,
        tags=["account", "it_service_management", "cli+gui"],
        evaluator={"func": "check_include_exclude", "result": {"type": "workarena_task_result", "settings_file": SETTINGS},
                   "expected": {"type": "rule", "rules": {"include": ["succeed"], "exclude": ["failed"]}}}))
    settings = tmp_path / "settings" / "servicenow"
    settings.mkdir(parents=True)
    (settings / "settings.json").write_text(json.dumps(
        {"SNOW_INSTANCE_URL": INSTANCE, "SNOW_INSTANCE_UNAME": "admin", "SNOW_INSTANCE_PWD": PASSWORD}))
    results, report = tmp_path / "results", tmp_path / "report.html"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path / "suite" / "tasks"), "--agent", "noop",
         "--settings-dir", str(tmp_path / "settings"), "--results-dir", str(results), "--html", str(report),
         "--self-contained-html", "--log-level", "DEBUG", "-o", "log_cli=true", "-rA"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    record = json.loads(next(results.rglob("result.json")).read_text())
    assert record["status"] == "error", run.stdout[-3000:]
    assert "WorkArena's session, /setup" in record["detail"], record["detail"]
    assert f"ServiceNow instance at {INSTANCE.rstrip('/')} is not reachable" in record["detail"], record["detail"]
    written = {path: path.read_bytes().decode("utf-8", "replace") for path in [report, *results.rglob("*")] if path.is_file()}
    written["stdout"], written["stderr"] = run.stdout, run.stderr
    assert not [str(where) for where, text in written.items() if PASSWORD in text]
