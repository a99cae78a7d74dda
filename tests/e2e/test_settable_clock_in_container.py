"""The desktop's settable clock (``spider2v-clock``, with the ``date`` and ``timedatectl``
wrappers) in a real desktop container: an evaluation script that sets the time, as two original
dbt tasks do, sees the new time in every later process, and nothing else does."""

from __future__ import annotations

import time

import pytest

import pytest_spider2v.getters.builtin  # noqa: F401  (registers vm_script_output)
from pytest_spider2v.environments.base import Environment
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext

pytestmark = pytest.mark.e2e

SIX_HOURS = 6 * 3600


@pytest.fixture
def ctx(desktop_env: Environment, make_context) -> TaskContext:
    return make_context(desktop_env, "dbt")


def script_output(ctx: TaskContext, script: str) -> list[int]:
    (ctx.task.root / "eval.sh").write_text("#!/bin/bash\n" + script)
    out = getters.get("vm_script_output")(ctx, {"type": "vm_script_output", "src": "eval.sh",
                                                 "dest": "/home/user/eval.sh"})
    return [int(float(word)) for word in out.split()]


def test_setting_the_time_moves_the_clock_of_the_rest_of_the_script(ctx: TaskContext) -> None:
    before, shell, python, duckdb, after = script_output(ctx, """
date +%s
_=$(echo "password" | sudo -S date -s "+6 hours")
date +%s
python3 -c 'import time; print(time.time())'
python3 -c 'import duckdb; print(duckdb.sql("select epoch(current_timestamp)").fetchone()[0])'
echo "password" | sudo -S timedatectl set-ntp true
date +%s
""")
    now = time.time()
    assert abs(before - now) < 120
    for seen in (shell, python, duckdb):
        assert abs(seen - before - SIX_HOURS) < 60
    assert abs(after - now) < 120  # set-ntp true: back to the real time, as NTP would


def test_the_clock_moves_only_for_scripts_that_set_it_and_only_as_root(ctx: TaskContext) -> None:
    plain = ctx.env.execute(["bash", "-c", "echo ${LD_PRELOAD:-none}; date -s '+1 day'; echo $?; "
                                           "spider2v-clock offset"])
    assert plain.stdout.split()[0] == "none"
    assert "cannot set date: Operation not permitted" in plain.stderr
    assert plain.stdout.split()[-2:] == ["1", "0"]
    [seen] = script_output(ctx, "date +%s\n")
    assert abs(seen - time.time()) < 120
