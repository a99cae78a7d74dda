"""pytest-spider2v: the Spider2-V benchmark as a pytest plugin, one test item per task.

This module is the API for extension authors: everything needed to add a setup step, a getter, a
metric, an agent, a provider or a task format, without knowing where the package keeps it
(README, "Extending"). Register into the registries from a ``conftest.py``, a pytest plugin or a
module of the ``pytest_spider2v`` entry-point group::

    from pytest_spider2v import TaskContext, metrics

    @metrics.register()
    def same_rowcount(result, expected, **options) -> float: ...

The package's own layout is described in ARCHITECTURE.md.
"""

from pytest_spider2v.environments.base import Environment, EnvironmentFault, ExecResult
from pytest_spider2v.environments.http import HttpEnvironment
from pytest_spider2v.environments.provider import Provider, owner_alive
from pytest_spider2v.registry import (
    Scored,
    Unavailable,
    UnknownName,
    agents,
    getters,
    metrics,
    providers,
    setup_steps,
    task_formats,
)
from pytest_spider2v.run.agent import (
    Action,
    Agent,
    AgentSettings,
    Observation,
    RecordedOutcome,
    Turn,
    done_with_answer,
)
from pytest_spider2v.run.context import TaskContext
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.formats import TaskFormat
from pytest_spider2v.tasks.loading import validated_spec
from pytest_spider2v.tasks.model import Task, TaskFormatError, TaskSpec

__all__ = [
    # the registries, and what registered code raises or returns
    "setup_steps", "getters", "metrics", "agents", "providers", "task_formats",
    "Scored", "Unavailable", "UnknownName",
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
