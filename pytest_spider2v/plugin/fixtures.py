"""The plugin's fixtures, in the order data flows:

``spider2v_provider`` (one per worker) -> ``spider2v_record`` -> ``spider2v_run`` (a
:class:`~pytest_spider2v.run.lifecycle.TaskRun`: environment, agent, episode, evaluation) ->
``spider2v_outcome`` (the evaluation). A task item's body only asserts on the outcome, so
environment and setup faults surface as pytest *errors* and only the agent's score decides pass
or fail.

The run's machinery (:mod:`pytest_spider2v.run.lifecycle`: episode, evaluation, integrity,
recording) is imported by the fixture that runs a task, not with this module, which every pytest
start-up registers: ``--collect-only`` and ``-k`` never load it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from pytest_spider2v.plugin import options, ownership, workers
from pytest_spider2v.plugin.keys import AGENT, RECORD, RECORD_SUFFIX, REPEAT, RUN_CONFIG, RUN_DIR, TASK
from pytest_spider2v.plugin.terminal import announcer
from pytest_spider2v.registry import providers

if TYPE_CHECKING:  # the run's types, imported by the fixtures that run a task (start-up loads this module)
    from pytest_spider2v.environments.provider import Provider
    from pytest_spider2v.run.agent import Agent, AgentSettings
    from pytest_spider2v.run.evaluation import Evaluation
    from pytest_spider2v.run.lifecycle import TaskRun
    from pytest_spider2v.run.records import TaskRecord
    from pytest_spider2v.tasks.availability import Accounts
    from pytest_spider2v.tasks.model import Task


def agent_name(item: pytest.Item) -> str:
    """``--agent``, unless the item names its own agent (a ``--validate`` check)."""
    return item.stash.get(AGENT, None) or item.config.stash[RUN_CONFIG].agent or ""


def agent_settings(item: pytest.Item) -> AgentSettings:
    """What the item's agent is made with: its name, the agent options and the worker it runs in
    (a task format whose items run without an environment makes its own agents from these too)."""
    return item.config.stash[RUN_CONFIG].agent_settings(agent_name(item), workers.worker_id(item.config))


@pytest.fixture(scope="session")
def spider2v_provider(request: pytest.FixtureRequest) -> Iterator[Provider]:
    """This worker's environment provider; removes a crashed run's leftovers first."""
    config = request.config
    run = config.stash[RUN_CONFIG]
    provider = providers.get(run.provider)(
        owner=ownership.owner(config), worker=workers.worker_id(config) or "main", **run.provider_options)
    provider.cleanup_stale()
    try:
        yield provider
    finally:
        provider.close()


@pytest.fixture
def spider2v_task(request: pytest.FixtureRequest) -> Task:
    if TASK not in request.node.stash:
        raise pytest.UsageError(f"{request.node.nodeid} is not a task item")
    return request.node.stash[TASK]


@pytest.fixture
def spider2v_accounts(request: pytest.FixtureRequest) -> Accounts:
    """Where the run's account tasks find their services: the user's accounts or emulators."""
    return options.accounts(request.config)


@pytest.fixture
def spider2v_record(request: pytest.FixtureRequest, spider2v_task: Task) -> TaskRecord:
    """The task's record; a finished one is kept (not restarted) when ``--resume`` applies."""
    from pytest_spider2v.run.records import TaskRecord, read_result, recorded_outcome, task_dir

    config, item = request.config, request.node
    agent = agent_name(item)
    directory = task_dir(config.stash[RUN_DIR].parent, config.stash[RUN_DIR].name, spider2v_task)
    if RECORD_SUFFIX in item.stash:
        directory = directory.with_name(f"{directory.name}-{item.stash[RECORD_SUFFIX]}")
    repeat = item.stash.get(REPEAT, None)
    if repeat is not None and repeat.index > 1:  # the first keeps the task's folder: a run without --repeat resumes
        directory = directory.with_name(f"{directory.name}-repeat-{repeat.index}")
    previous = recorded_outcome(read_result(directory), agent) if config.stash[RUN_CONFIG].resume else None
    if previous is not None:
        record = TaskRecord(directory, replace(previous, repeat=repeat))
    else:
        fingerprint = config.hook.pytest_spider2v_task_fingerprint(task=spider2v_task) or ""
        record = TaskRecord.start(directory, spider2v_task, item.nodeid, agent,
                                  config.stash[RUN_CONFIG].recorded_settings(), repeat, fingerprint)
    item.stash[RECORD] = record
    return record


@pytest.fixture
def spider2v_run(request: pytest.FixtureRequest, spider2v_task: Task, spider2v_record: TaskRecord,
                 spider2v_accounts: Accounts) -> Iterator[TaskRun]:
    """The task's run. Its environment and agent are made on first use, so a task that cannot
    run here is skipped before either exists; the environment is released afterwards."""
    from pytest_spider2v.run.agent import agent_factory
    from pytest_spider2v.run.lifecycle import TaskRun

    config = request.config
    name = agent_name(request.node)

    def make_agent() -> Agent:
        agent: Agent = agent_factory(name)(agent_settings(request.node))
        return agent

    def provider() -> Provider:  # the session's provider, started only when a task needs one
        value: Provider = request.getfixturevalue("spider2v_provider")
        return value

    run = TaskRun(spider2v_task, spider2v_record, name, make_agent, provider, config.stash[RUN_CONFIG].run_settings,
                  spider2v_accounts, announce=announcer(config))
    try:
        yield run
    finally:
        run.close()


@pytest.fixture
def spider2v_outcome(spider2v_run: TaskRun) -> Evaluation:
    """The episode and the evaluation: the score and its explanation."""
    return spider2v_run.outcome()
