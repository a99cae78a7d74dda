"""Read by mypy (`tox -e type`), never run: registrations the registries' types must refuse.

Each refused registration carries `# type: ignore[type-var]`; mypy warns of an unused ignore, so
should a registry stop checking what is registered in it, this file fails the type check. The
accepted ones must keep their own signature for whoever calls them directly.
"""

# mypy: disable-error-code="empty-body"
from __future__ import annotations

from typing import assert_type

from pytest_spider2v.registry import NearMiss, agents, getters, metrics, near_misses, setup_steps
from pytest_spider2v.run.agent import Agent, AgentSettings
from pytest_spider2v.run.task_context import TaskContext


@setup_steps.register()
def a_step(ctx: TaskContext, path: str, strict: bool = False) -> None: ...


@setup_steps.register()  # type: ignore[type-var]
def a_step_without_the_context(path: str) -> None: ...


@getters.register()
def a_getter(ctx: TaskContext, spec: dict[str, str]) -> int: ...


@getters.register()  # type: ignore[type-var]
def a_getter_of_something_else(ctx: str, spec: dict[str, str]) -> int: ...


@metrics.register()
def a_metric(result: str, expected: str, *, strict: bool = True) -> float: ...


@metrics.register()  # type: ignore[type-var]
def a_metric_scoring_text(result: str, expected: str) -> str: ...


@near_misses.register()
def a_maker(result: str, expected: str, options: dict[str, object], workdir: object) -> list[NearMiss]: ...


@near_misses.register()  # type: ignore[type-var]
def a_maker_of_text(result: str, expected: str, options: dict[str, object], workdir: object) -> str: ...


@agents.register()
def an_agent(settings: AgentSettings) -> Agent: ...


@agents.register()  # type: ignore[type-var]
def an_agent_of_nothing(settings: AgentSettings) -> None: ...


assert_type(a_getter(TaskContext.__new__(TaskContext), {}), int)
