"""The published Spider2-V task files, run as a user would: every local task sets up and is
evaluated by its own metric (noop scores 0), every account task is skipped with the reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.shared import REPO, require, sample

EXAMPLES = sample()
pytestmark = [pytest.mark.e2e, pytest.mark.sample]


@pytest.fixture(autouse=True)
def _sample_present() -> None:
    require(EXAMPLES)


def run_noop(app: str, results: Path) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(EXAMPLES / app),
                           "--agent", "noop", "-n", "2", "--results-dir", str(results)],
                          cwd=REPO, capture_output=True, text=True, timeout=1800)
    return proc, [json.loads(p.read_text()) for p in results.rglob("result.json")]


def test_every_excel_task_sets_up_and_scores_0_from_its_metric(tmp_path: Path) -> None:
    proc, done = run_noop("excel", tmp_path)
    assert len(done) == 62, proc.stdout[-3000:]
    assert {(r["status"], r["score"]) for r in done} == {("failed", 0.0)}, proc.stdout[-3000:]
    assert all(r["evaluation"] and r["evaluation"][0]["func"] == "compare_table" for r in done)
    assert "62 failed" in proc.stdout.splitlines()[-1]


def test_dbt_local_tasks_score_0_and_account_tasks_skip_with_the_reason(tmp_path: Path) -> None:
    proc, done = run_noop("dbt", tmp_path)
    local = [r for r in done if not r["account"]]
    account = [r for r in done if r["account"]]
    assert (len(local), len(account)) == (20, 20), proc.stdout[-3000:]
    assert {(r["status"], r["score"]) for r in local} == {("failed", 0.0)}, proc.stdout[-3000:]
    assert {r["status"] for r in account} == {"skipped"}
    assert all("needs cloud account settings" in r["detail"] for r in account)
    assert "20 failed, 20 skipped" in proc.stdout.splitlines()[-1]


def test_compat_report_knows_every_name_in_the_sample(tmp_path: Path) -> None:
    out = tmp_path / "compat.json"
    proc = subprocess.run([str(Path(sys.executable).with_name("spider2v-compat")), str(EXAMPLES.parents[1]),
                           "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "unknown step types/getters/metrics: 0" in proc.stdout
