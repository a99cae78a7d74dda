"""pytest-spider2v: the Spider2-V benchmark as a pytest plugin, one test item per task.

This module and :mod:`pytest_spider2v.registry` are the API for extension authors: the types a
setup step, a getter, a metric, an agent, a provider or a task format receives and returns are
here, the registries they are added to in ``registry`` (docs/extending/index.md). Register from a
``conftest.py``, a pytest plugin or a module of the ``pytest_spider2v`` entry-point group::

    from typing import TypedDict

    from pytest_spider2v import TaskContext
    from pytest_spider2v.registry import getters

    class RowCountSpec(TypedDict):  # the fields the getter reads of the task's getter object
        table: str

    @getters.register()
    def row_count(ctx: TaskContext, spec: RowCountSpec) -> int: ...

What each registry holds is typed there (``SetupStep``, ``Getter``, ``Metric``, ``AgentFactory``,
...), and so are the keywords a registration takes (``Meta``: ``account``, ``console``, ...).

The registries are not re-exported here: ``pytest_spider2v.getters`` (like ``metrics``,
``agents``, ``providers``) is the package of the built-in ones, which Python binds to that name
once the extensions load. The package's own layout is described in ARCHITECTURE.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_spider2v.environments.base import Environment, EnvironmentFault, ExecResult
    from pytest_spider2v.environments.http import HttpEnvironment
    from pytest_spider2v.environments.provider import Provider, owner_alive
    from pytest_spider2v.registry import NearMiss, Scored, Unavailable, UnknownName
    from pytest_spider2v.run.agent import (
        Action,
        Agent,
        AgentSettings,
        Observation,
        RecordedOutcome,
        Turn,
        done_with_answer,
    )
    from pytest_spider2v.run.settings import EpisodeSettings
    from pytest_spider2v.run.task_context import TaskContext
    from pytest_spider2v.tasks.formats import TaskFormat
    from pytest_spider2v.tasks.loading import validated_spec
    from pytest_spider2v.tasks.model import Task, TaskFormatError, TaskSpec

#: Where each public name is defined. A name is imported when it is first used, not when the
#: package is: every module of the package, and so every pytest start-up (the plugin's entry
#: point), imports this one, and most need none of these.
_DEFINED_IN = {
    **dict.fromkeys(("Environment", "EnvironmentFault", "ExecResult"), "pytest_spider2v.environments.base"),
    "HttpEnvironment": "pytest_spider2v.environments.http",
    **dict.fromkeys(("Provider", "owner_alive"), "pytest_spider2v.environments.provider"),
    **dict.fromkeys(("NearMiss", "Scored", "Unavailable", "UnknownName"), "pytest_spider2v.registry"),
    **dict.fromkeys(("Action", "Agent", "AgentSettings", "Observation", "RecordedOutcome", "Turn", "done_with_answer"),
                    "pytest_spider2v.run.agent"),
    "EpisodeSettings": "pytest_spider2v.run.settings",
    "TaskContext": "pytest_spider2v.run.task_context",
    "TaskFormat": "pytest_spider2v.tasks.formats",
    "validated_spec": "pytest_spider2v.tasks.loading",
    **dict.fromkeys(("Task", "TaskFormatError", "TaskSpec"), "pytest_spider2v.tasks.model"),
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    if name not in _DEFINED_IN:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_DEFINED_IN[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_DEFINED_IN})


__all__ = [
    # what registered code returns or raises
    "NearMiss", "Scored", "Unavailable", "UnknownName",
    # setup steps and getters: what they receive
    "TaskContext", "Task", "TaskSpec",
    # environments and providers
    "Environment", "EnvironmentFault", "ExecResult", "HttpEnvironment", "Provider", "owner_alive",
    # agents
    "Agent", "AgentSettings", "Action", "Observation", "Turn", "EpisodeSettings", "RecordedOutcome",
    "done_with_answer",
    # task formats
    "TaskFormat", "TaskFormatError", "validated_spec",
]
__version__ = "0.1.0"
