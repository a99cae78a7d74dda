"""The plugin's own hooks, for extensions that are pytest plugins (registered through
``pytest_addhooks``). The hooks that add to the HTML report (a column, a section) are the
reports' own: :mod:`pytest_spider2v.reports.hookspecs`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_spider2v.plugin.collection import TaskFile
    from pytest_spider2v.tasks.model import Task


def pytest_spider2v_agent_options(config: pytest.Config) -> dict[str, str]:
    """Agent options an extension derives from its own command-line flags.

    Every implementation's dict is merged into ``AgentSettings.options`` (after the
    ``--agent-option`` values, which therefore can be overridden by first-class flags). This
    lets an agent family offer flags such as ``--temperature`` without the core knowing them.
    """


def pytest_spider2v_provider_options(config: pytest.Config, provider: str) -> dict[str, Any]:
    """Provider options an extension derives from its own command-line flags (a cluster's
    address), merged into what the provider's factory is given besides the core's limits;
    ``provider`` is the ``--provider`` the run uses."""


@pytest.hookspec(firstresult=True)
def pytest_spider2v_make_items(collector: TaskFile, tasks: list[Task]) -> list[pytest.Item] | None:
    """The test items of the tasks of one task file, instead of one item per task.

    The first answer that is not None wins. ``--validate`` answers with its checks' items, each
    a :class:`~pytest_spider2v.plugin.collection.TaskItem` whose stash names the agent it runs
    (:data:`~pytest_spider2v.plugin.keys.AGENT`) and its record folder's suffix.
    """


@pytest.hookspec(firstresult=True)
def pytest_spider2v_task_fingerprint(task: Task) -> str | None:
    """A digest of everything the task's score depends on (its files, the code that scores it,
    its environment's recipe), kept in its record: a run's manifest digests its tasks' ones, so
    two runs on different task sets, or on tasks whose scoring changed, are told apart."""


def pytest_spider2v_manifest(config: pytest.Config) -> dict[str, Any]:
    """Entries an extension adds to the run's manifest (:mod:`pytest_spider2v.reports.manifest`):
    the flags of its own that change scores (a seed, a sampling setting). Secrets are masked."""
