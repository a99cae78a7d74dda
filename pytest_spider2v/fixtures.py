"""The plugin's fixtures, in the order data flows:

``spider2v_provider`` (one per worker) -> ``spider2v_record`` -> ``spider2v_run`` (a
:class:`~pytest_spider2v.taskrun.TaskRun`: environment, agent, episode, evaluation) ->
``spider2v_outcome`` (the evaluation). A task item's body only asserts on the outcome, so
environment and setup faults surface as pytest *errors* and only the agent's score decides pass
or fail. :mod:`pytest_spider2v.plugin` registers this module with itself: one plugin.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .agent import Agent, AgentSettings, agent_factory
from .announce import announcer
from .providers import OWNER_ENV, Provider
from .records import SECRET_NAME, TaskRecord, read_result, recorded_outcome, task_dir
from .registry import providers
from .runner import EpisodeSettings
from .scoring import Evaluation
from .stash import RECORD, RUN_DIR
from .task import Task
from .taskrun import RunSettings, TaskRun


def agent_options(config: pytest.Config) -> dict[str, str]:
    """``--agent-option KEY=VALUE`` values, then what extensions add through the hook."""
    options = dict(o.split("=", 1) if "=" in o else (o, "") for o in config.getoption("spider2v_agent_options"))
    for extra in config.hook.pytest_spider2v_agent_options(config=config):
        options.update(extra)
    return options


def provider_options(config: pytest.Config) -> dict[str, Any]:
    """The environment limits and isolation given on the command line, and only those: a
    provider that knows none of them (a third-party one) still works for runs that set none."""
    given = {key: config.getoption(f"spider2v_env_{key}") for key in ("memory", "cpus", "pids")}
    options: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
    if config.getoption("spider2v_isolate_network"):
        options["isolate_network"] = True
    return options


def agent_name(item: pytest.Item) -> str:
    """``--agent``, unless the item is a ``--validate`` check that names its own agent."""
    check = getattr(item, "check", None)
    return check.agent if check is not None and check.agent else item.config.getoption("spider2v_agent")


@pytest.fixture(scope="session")
def spider2v_provider(request: pytest.FixtureRequest) -> Iterator[Provider]:
    """This worker's environment provider; removes a crashed run's leftovers first."""
    name = request.config.getoption("spider2v_provider")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    provider = providers.get(name)(owner=os.environ[OWNER_ENV], worker=worker, **provider_options(request.config))
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
    agent = agent_name(request.node)
    directory = task_dir(config.stash[RUN_DIR].parent, config.stash[RUN_DIR].name, spider2v_task)
    check = getattr(request.node, "check", None)
    if check is not None:  # --validate: one record per check
        directory = directory.with_name(f"{directory.name}-{check.name}")
    previous = recorded_outcome(read_result(directory), agent) if config.getoption("spider2v_resume") else None
    if previous is not None:
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
        "retries": config.getoption("spider2v_retries"),
        "live": config.getoption("spider2v_live"),
        "record_video": config.getoption("spider2v_record_video"),
        "environment": provider_options(config),
        "agent_options": {k: ("***" if SECRET_NAME.search(k) else v) for k, v in options.items()},
    }


@pytest.fixture
def spider2v_run(request: pytest.FixtureRequest, spider2v_task: Task, spider2v_record: TaskRecord,
                 spider2v_settings_dir: Path | None) -> Iterator[TaskRun]:
    """The task's run. Its environment and agent are made on first use, so a task that cannot
    run here is skipped before either exists; the environment is released afterwards."""
    config = request.config
    name = agent_name(request.node)

    def make_agent() -> Agent:
        settings = AgentSettings(name=name, max_steps=config.getoption("spider2v_max_steps"),
                                 options=agent_options(config))
        return agent_factory(name)(settings)

    def provider() -> Provider:  # the session's provider, started only when a task needs one
        return request.getfixturevalue("spider2v_provider")

    settings = RunSettings(
        episode=EpisodeSettings(
            max_steps=config.getoption("spider2v_max_steps"),
            time_limit=config.getoption("spider2v_task_timeout"),
            sleep_after_action=config.getoption("spider2v_sleep_after_action"),
        ),
        retries=config.getoption("spider2v_retries"),
        live=config.getoption("spider2v_live"),
        record_video=config.getoption("spider2v_record_video"),
    )
    run = TaskRun(spider2v_task, spider2v_record, name, make_agent, provider, settings, spider2v_settings_dir,
                  announce=announcer(config))
    try:
        yield run
    finally:
        run.close()


@pytest.fixture
def spider2v_outcome(spider2v_run: TaskRun) -> Evaluation:
    """The episode and the evaluation: the score and its explanation."""
    return spider2v_run.outcome()
