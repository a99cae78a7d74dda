"""SIGTERM to the controller of a ``-n 2`` run (what a CI timeout sends) ends it as Ctrl-C does:
within 30 s no container of the run remains, and each task it cut short has a record that says
it was interrupted, and by what. Before, the controller died at once, xdist's workers were cut
off mid-cleanup ("OSError: cannot send (already closed?)") and two containers stayed up."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from pytest_spider2v.environments.provider import owner_token
from pytest_spider2v.providers.docker.provider import OWNER_LABEL
from pytest_spider2v.testing.factories import task_document, write_task

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
#: The acceptance bound: from the signal to the last container of the run gone.
CLEAN_WITHIN = 30.0


def test_sigterm_to_the_controller_removes_every_container_and_records_the_interruption(tmp_path: Path) -> None:
    for name in ("first", "second"):  # each holds its worker in setup, its container up
        write_task(tmp_path / "suite", task_document(
            id=f"{name}-long-setup", snapshot="analysis", related_apps=["terminal"],
            tags=["traditional_data_processing", "cli"], config=[{"type": "sleep", "parameters": {"seconds": 600}}]))
    results = tmp_path / "results"
    controller = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path / "suite" / "tasks"), "--agent", "noop",
         "-n", "2", "--results-dir", str(results)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    client = docker.from_env()
    owned = {"label": [f"{OWNER_LABEL}={owner_token(controller.pid)}"]}
    try:
        deadline = time.monotonic() + 300
        while len(_setting_up(results)) < 2 or len(client.containers.list(filters=owned, ignore_removed=True)) < 2:
            assert controller.poll() is None and time.monotonic() < deadline, "the two tasks never reached setup"
            time.sleep(1)
        os.kill(controller.pid, signal.SIGTERM)  # the controller only: its workers are not told by anyone else
        stopped = time.monotonic()
        while client.containers.list(all=True, filters=owned, ignore_removed=True):
            assert time.monotonic() - stopped < CLEAN_WITHIN, client.containers.list(all=True, filters=owned, ignore_removed=True)
            time.sleep(0.5)
        output, _ = controller.communicate(timeout=60)
    finally:
        if controller.poll() is None:
            os.killpg(controller.pid, signal.SIGKILL)
        for container in client.containers.list(all=True, filters=owned, ignore_removed=True):
            container.remove(force=True)  # a failed run's leftovers, so the next run need not
    records = [json.loads(path.read_text()) for path in results.rglob("result.json")]
    assert [(r["status"], r["detail"]) for r in records] == [
        ("interrupted", "the run was stopped (SIGTERM) before this task ended")] * 2, output[-3000:]
    assert controller.returncode == 2, output[-3000:]  # pytest's "interrupted"
    assert "cannot send" not in output, output[-3000:]


def _setting_up(results: Path) -> list[Path]:
    """The records of tasks whose environment is up and whose setup is under way."""
    found = []
    for path in results.rglob("result.json"):
        record = json.loads(path.read_text())
        if record["status"] == "running" and "restore" in record.get("timings", {}):
            found.append(path)
    return found
