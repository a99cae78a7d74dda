"""The Extending example (docs/extending/index.md), run as a reader would: its code as a
``conftest.py``, its task file under ``tasks/``, pytest started with the agent and provider it
registers, in a real container."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.docs import example_blocks

pytestmark = pytest.mark.e2e


def run(folder: Path, agent: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    done = subprocess.run([sys.executable, "-m", "pytest", "tasks/notes", "--agent", agent, "--provider", "docker-1cpu",
                           "-p", "no:cacheprovider", "--results-dir", "results"],
                          cwd=folder, capture_output=True, text=True, timeout=600)
    (result,) = folder.glob(f"results/{agent}/**/result.json")
    return done, json.loads(result.read_text())


def test_the_examples_agent_scores_1_through_its_step_getter_metric_and_provider(tmp_path: Path) -> None:
    blocks = example_blocks("extending-example")
    (tmp_path / "conftest.py").write_text(blocks["python"])
    task = tmp_path / "tasks" / "notes" / "shout-the-note" / "task.json"
    task.parent.mkdir(parents=True)
    task.write_text(blocks["json"])
    done, record = run(tmp_path, "shouter")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert (record["status"], record["score"], record["settings"]["provider"]) == ("passed", 1.0, "docker-1cpu")
    done, record = run(tmp_path, "noop")
    assert (done.returncode, record["score"]) == (1, 0.0)
