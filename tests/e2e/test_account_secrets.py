"""Credentials given with ``--settings-dir`` reach no record, log line or report: an account task
runs with a settings folder of well-formed fake credentials (a service account's key, a Google
password), its setup reads them and fails at Google's client (no network here), and every file
the run writes, and its output with debug logging on, is searched for each secret."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_spider2v.testing.factories import task_document, write_task

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
GOOGLE = "evaluation_examples/settings/google/"
PROJECT_ID = "acme-analytics-7"
SECRETS = {
    "password": "Tr0ub4dor-and-3-horses",
    "private_key_id": "5c1f0e0b8d7a4a3c9e2f1d0c7b6a5948",
    "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7secretsecret\n-----END PRIVATE KEY-----\n",
    "client_email": f"runner@{PROJECT_ID}.iam.gserviceaccount.com",
}


def settings_folder(root: Path) -> Path:
    google = root / "google"
    google.mkdir(parents=True)
    (google / "gcp_config.json").write_text(json.dumps([{
        "project_name": "bigquery-project", "project_id": PROJECT_ID, "email": "owner@example.com",
        "keyfile_path": GOOGLE + "{project_id}.json"}]))
    (google / f"{PROJECT_ID}.json").write_text(json.dumps({
        "type": "service_account", "project_id": PROJECT_ID, "private_key_id": SECRETS["private_key_id"],
        "private_key": SECRETS["private_key"], "client_email": SECRETS["client_email"], "client_id": "1",
        "token_uri": "https://oauth2.googleapis.com/token"}))
    (google / "settings.json").write_text(json.dumps({"email": "owner@example.com", "password": SECRETS["password"]}))
    return root


def test_credentials_from_the_settings_folder_appear_in_no_record_log_or_report(tmp_path: Path) -> None:
    config = [{"type": "bigquery_init", "parameters": {"config_file": GOOGLE + "gcp_config.json",
                                                       "project_name": "bigquery-project",
                                                       "actions": [{"type": "empty"}]}}]
    write_task(tmp_path / "suite", task_document(
        id="drop-datasets", snapshot="bigquery", related_apps=["bigquery"], config=config,
        tags=["account", "cli", "data_warehousing"],
        evaluator={"func": "is_not_in_list", "result": {"type": "bigquery_datasets", "config_file": GOOGLE + "gcp_config.json"},
                   "expected": {"type": "rule", "rules": {"exclude": ["old"]}}}))
    settings = settings_folder(tmp_path / "settings")
    results, report, junit = tmp_path / "results", tmp_path / "report.html", tmp_path / "junit.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path / "suite" / "tasks"), "--agent", "noop",
         "--settings-dir", str(settings), "--results-dir", str(results), "--html", str(report),
         "--self-contained-html", "--junitxml", str(junit), "--log-level", "DEBUG", "-o", "log_cli=true", "-rA"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    record = json.loads(next(results.rglob("result.json")).read_text())
    assert record["status"] == "error", run.stdout[-3000:]  # setup read the key and failed at Google's client
    assert "bigquery" in record["detail"].lower() or "credentials" in record["detail"].lower() or "key" in record["detail"].lower()
    written = {path: path.read_bytes().decode("utf-8", "replace") for path in [report, junit, *results.rglob("*")]
               if path.is_file()}
    written["stdout"], written["stderr"] = run.stdout, run.stderr
    for name, secret in SECRETS.items():
        for fragment in {secret, *secret.split("\n")} - {"", "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"}:
            leaked = [str(where) for where, text in written.items() if fragment in text]
            assert not leaked, f"{name} ({fragment[:12]}...) appears in {leaked}"
