"""Evaluation scripts that set the time (two dbt tasks: `sudo date -s "+6 hours"`, then `dbt
source freshness`) run on the desktop's settable clock, the image's ``spider2v-clock``; every
other script runs as it is. The clock itself is exercised in a real desktop by
``tests/e2e/test_settable_clock_in_container.py``."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.getters.builtin import SETTABLE_CLOCK, sets_clock, vm_script_output
from pytest_spider2v.testing.factories import make_context, make_task
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.shared import require, sample


@pytest.mark.parametrize("line", [
    '_=$(echo "password" | sudo -S date -s "+6 hours")',
    'sudo date --set="2024-01-01 10:00:00"',
    "sudo date --set tomorrow",
    "date -s2024-01-01",
    'sudo date -u -s "2024-01-01 10:00"',
    'echo password | sudo -S timedatectl set-time "2024-01-01 10:00:00"',
])
def test_setting_the_time_is_recognised(line: str) -> None:
    assert sets_clock(f"#!/bin/bash\ncd ~/projects\n{line}\n".encode())


@pytest.mark.parametrize("line", [
    "date +%s",
    'echo "$(date -d yesterday +%F)"',
    "sudo apt-get update -s",
    "date; grep -s pattern file",
    "date '+%F' | sort -s",
    "timedatectl status",
    "validate --set-up",
])
def test_other_uses_of_date_are_not(line: str) -> None:
    assert not sets_clock(f"#!/bin/bash\n{line}\n".encode())


@pytest.mark.sample
def test_in_the_sample_only_the_two_freshness_checks_set_the_time() -> None:
    scripts = sorted(require(sample()).glob("*/*/*.sh"))
    setting = {f"{p.parent.parent.name}/{p.parent.name[:8]}/{p.name}" for p in scripts if sets_clock(p.read_bytes())}
    assert len(scripts) > 100
    assert setting == {"dbt/4b7c0a4c/eval.sh", "dbt/cb82ed0a/eval.sh"}


@pytest.mark.parametrize("shell", [False, True])
@pytest.mark.parametrize(("script", "on_clock"), [
    ('_=$(echo "password" | sudo -S date -s "+6 hours")\ndbt source freshness\n', True),
    ("dbt run\n", False),
])
def test_only_a_script_that_sets_the_time_runs_on_the_settable_clock(tmp_path: Path, shell: bool, script: str,
                                                                      on_clock: bool) -> None:
    (tmp_path / "eval.sh").write_text(script)
    guest = FakeEnvironment(on_execute=lambda command: ExecResult(0, "dbt source freshness succeed\n", ""))
    ctx = make_context(guest, make_task(root=tmp_path))
    spec = {"type": "vm_script_output", "src": "eval.sh", "dest": "/home/user/eval.sh", "shell": shell}
    assert vm_script_output(ctx, spec) == "dbt source freshness succeed\n"
    assert guest.files == {"/home/user/eval.sh": script.encode()}
    # bash runs the task's own text, $0 naming the copy: a copy rewritten in the guest runs nothing
    bash = ["/bin/bash", "-c", script, "/home/user/eval.sh"]
    command = [*SETTABLE_CLOCK, *bash] if on_clock else bash
    ran = guest.calls_to("execute")[-1]
    assert (ran.args[0], ran.options["shell"]) == ((shlex.join(command), True) if shell else (command, False))
