"""The fixtures that run one task, in the order data flows:

``spider2v_provider`` (one per worker) -> ``spider2v_env`` (restored snapshot + setup steps)
-> ``spider2v_agent`` -> ``spider2v_outcome`` (episode + evaluation, recorded). The test body of
every task item only asserts on the outcome, so environment and setup faults surface as pytest
*errors* and only the agent's score decides pass or fail. Each fixture can be overridden in a
``conftest.py``.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.agent import Agent, AgentSettings, agent_factory
from pytest_spider2v.context import TaskContext
from pytest_spider2v.environment import EnvironmentFault
from pytest_spider2v.providers import OWNER_ENV, Provider
from pytest_spider2v.records import SECRET_NAME, TaskRecord, read_result, recorded_outcome, task_dir
from pytest_spider2v.registry import Unavailable, providers
from pytest_spider2v.runner import EpisodeSettings, first_observation, run_episode
from pytest_spider2v.scoring import Evaluation, evaluate, run_steps
from pytest_spider2v.stash import RECORD, RUN_DIR
from pytest_spider2v.task import Task, unavailable_reasons

log = logging.getLogger(__name__)


def agent_options(config: pytest.Config) -> dict[str, str]:
    """``--agent-option KEY=VALUE`` values, then what extensions add through the hook."""
    options = dict(o.split("=", 1) if "=" in o else (o, "") for o in config.getoption("spider2v_agent_options"))
    for extra in config.hook.pytest_spider2v_agent_options(config=config):
        options.update(extra)
    return options


@pytest.fixture(scope="session")
def spider2v_provider(request: pytest.FixtureRequest) -> Iterator[Provider]:
    """This worker's environment provider; removes a crashed run's leftovers first."""
    name = request.config.getoption("spider2v_provider")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    provider = providers.get(name)(owner=os.environ[OWNER_ENV], worker=worker)
    provider.cleanup_stale()
    try:
        yield provider
    finally:
        provider.close()


@pytest.fixture
def spider2v_task(request: pytest.FixtureRequest) -> Task:
    task = getattr(request.node, "task", None)
    if task is None:
        raise pytest.UsageError(f"{request.node.nodeid} is not a task item")
    return task


@pytest.fixture
def spider2v_settings_dir(request: pytest.FixtureRequest) -> Path | None:
    value = request.config.getoption("spider2v_settings_dir")
    return Path(value).expanduser() if value else None


@pytest.fixture
def spider2v_record(request: pytest.FixtureRequest, spider2v_task: Task) -> TaskRecord:
    """The task's record; a finished one is kept (not restarted) when ``--resume`` applies."""
    config = request.config
    agent = _agent_name(request)
    directory = task_dir(config.stash[RUN_DIR].parent, config.stash[RUN_DIR].name, spider2v_task)
    check = getattr(request.node, "check", None)
    if check is not None:  # --validate: one record per check
        directory = directory.with_name(f"{directory.name}-{check.name}")
    previous = read_result(directory)
    if config.getoption("spider2v_resume") and recorded_outcome(previous, agent):
        record = TaskRecord(directory, previous)
    else:
        record = TaskRecord.start(directory, spider2v_task, request.node.nodeid, agent, _public_settings(config))
    request.node.stash[RECORD] = record
    return record


def _public_settings(config: pytest.Config) -> dict[str, Any]:
    """Run settings worth recording; agent options whose names look secret are masked."""
    options = agent_options(config)
    return {
        "provider": config.getoption("spider2v_provider"),
        "max_steps": config.getoption("spider2v_max_steps"),
        "task_timeout": config.getoption("spider2v_task_timeout"),
        "sleep_after_action": config.getoption("spider2v_sleep_after_action"),
        "agent_options": {k: ("***" if SECRET_NAME.search(k) else v) for k, v in options.items()},
    }


@pytest.fixture
def spider2v_env(request: pytest.FixtureRequest, spider2v_task: Task, spider2v_record: TaskRecord,
                 spider2v_settings_dir: Path | None) -> Iterator[TaskContext]:
    """A pristine environment of the task's snapshot with the task's setup steps run.

    A task that cannot run here is skipped before any environment is started.
    """
    task, record = spider2v_task, spider2v_record
    reasons = unavailable_reasons(task, spider2v_settings_dir)
    if reasons:
        record.finish("skipped", None, "; ".join(reasons))
        pytest.skip("; ".join(reasons))
    provider: Provider = request.getfixturevalue("spider2v_provider")
    started = time.monotonic()
    env = _acquire(provider, task.spec.snapshot, record)
    try:
        record.time("restore", time.monotonic() - started)
        ctx = TaskContext(env, task, record.directory / "cache", spider2v_settings_dir)
        setup_started = time.monotonic()
        try:
            run_steps(ctx, task.spec.config)
        except Unavailable as exc:
            record.finish("skipped", None, str(exc))
            pytest.skip(str(exc))
        except Exception as exc:
            record.finish("error", None, f"setup failed: {type(exc).__name__}: {exc}")
            raise
        record.time("setup", time.monotonic() - setup_started)
        yield ctx
    finally:
        provider.release(env)


def _acquire(provider: Provider, snapshot: str, record: TaskRecord) -> Any:
    """Acquire an environment, retrying once: a fresh container is always safe to retry."""
    try:
        return provider.acquire(snapshot)
    except EnvironmentFault as first:
        log.warning("acquiring %s failed, retrying once: %s", snapshot, first)
        try:
            return provider.acquire(snapshot)
        except Exception as exc:
            record.finish("error", None, f"environment failed: {exc}")
            raise


def _agent_name(request: pytest.FixtureRequest) -> str:
    """``--agent``, unless the item is a ``--validate`` check that names its own agent."""
    check = getattr(request.node, "check", None)
    return check.agent if check is not None and check.agent else request.config.getoption("spider2v_agent")


@pytest.fixture
def spider2v_agent(request: pytest.FixtureRequest) -> Agent:
    config = request.config
    name = _agent_name(request)
    settings = AgentSettings(name=name, max_steps=config.getoption("spider2v_max_steps"), options=agent_options(config))
    return agent_factory(name)(settings)


@pytest.fixture
def spider2v_outcome(request: pytest.FixtureRequest, spider2v_task: Task, spider2v_record: TaskRecord) -> Evaluation:
    """Run the episode and the evaluation; the score and its explanation."""
    record = spider2v_record
    if request.config.getoption("spider2v_resume") and recorded_outcome(record.result, _agent_name(request)):
        return Evaluation(float(record.result["score"]), record.result.get("detail", ""), record.result.get("evaluation", []))
    try:  # the agent first: one that cannot run here skips the task before any environment starts
        agent: Agent = request.getfixturevalue("spider2v_agent")
        agent.reset(spider2v_task)
    except Unavailable as exc:
        record.finish("skipped", None, str(exc))
        pytest.skip(str(exc))
    ctx: TaskContext = request.getfixturevalue("spider2v_env")
    config = request.config
    settings = EpisodeSettings(
        max_steps=config.getoption("spider2v_max_steps"),
        time_limit=config.getoption("spider2v_task_timeout"),
        sleep_after_action=config.getoption("spider2v_sleep_after_action"),
    )
    try:
        started = time.monotonic()
        first = first_observation(ctx.env, agent.needs_accessibility_tree)
        record.result["initial_observation"] = record.observation(0, first.screenshot, first.accessibility_tree)
        timings = record.result["timings"]
        record.time("reset", timings.get("restore", 0) + timings.get("setup", 0) + time.monotonic() - started)
        started = time.monotonic()
        episode = run_episode(ctx, agent, record, first, settings)
        record.result["stop_reason"] = episode.stop_reason
        record.time("episode", time.monotonic() - started)
        started = time.monotonic()
        evaluation = evaluate(ctx)
        record.time("evaluation", time.monotonic() - started)
    except Unavailable as exc:
        record.finish("skipped", None, str(exc))
        pytest.skip(str(exc))
    except BaseException as exc:
        record.finish("error", None, f"{type(exc).__name__}: {exc}")
        raise
    status = "passed" if evaluation.score == 1 else "failed"
    record.finish(status, evaluation.score, evaluation.detail, evaluation.metrics)
    return evaluation
