"""Controller or xdist worker: the one place that tells, from pytest-xdist's own ``workerinput``
(never from environment variables, which a run started inside another run inherits).

The controller (or the only process, without xdist) owns the run: it makes the owner token that
marks every environment of the run (:func:`pytest_spider2v.environments.provider.owner_token`),
and hands it to each worker through ``workerinput`` as the worker starts.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_spider2v.environments.provider import owner_token
from pytest_spider2v.plugin.keys import OWNER

#: the ``workerinput`` entry that carries the controller's owner token to a worker
OWNER_INPUT = "spider2v_owner"


def is_worker(config: pytest.Config) -> bool:
    """Whether this process is an xdist worker (which runs items and reports to the controller)."""
    return hasattr(config, "workerinput")


def worker_id(config: pytest.Config) -> str | None:
    """``gw0``, ``gw1``, ... on an xdist worker; None on the controller or without xdist."""
    workerinput: dict[str, Any] = getattr(config, "workerinput", {})
    return workerinput.get("workerid")


def owner(config: pytest.Config) -> str:
    """The token of the controller process that owns this run's environments."""
    return config.stash[OWNER]


def configure(config: pytest.Config) -> None:
    """Make (controller) or receive (worker) the owner token, and pass it on to the workers."""
    if is_worker(config):
        config.stash[OWNER] = getattr(config, "workerinput")[OWNER_INPUT]
    else:
        config.stash[OWNER] = owner_token()
        config.pluginmanager.register(_OwnerToWorkers(config.stash[OWNER]), "spider2v-owner-to-workers")


class _OwnerToWorkers:
    def __init__(self, token: str) -> None:
        self.token = token

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[OWNER_INPUT] = self.token
