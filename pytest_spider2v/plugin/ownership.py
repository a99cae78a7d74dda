"""Who owns the run's environments: the controller process (or the only one, without xdist).

The controller makes the owner token that marks every environment of the run
(:func:`pytest_spider2v.environments.provider.owner_token`, its pid and start time) and hands it to
each xdist worker through ``workerinput`` as the worker starts, so a provider's stale-owner cleanup
can tell a crashed run's leftovers from the environments of a live run's workers.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_spider2v.environments.provider import owner_token
from pytest_spider2v.plugin.keys import OWNER
from pytest_spider2v.plugin.workers import is_worker, worker_input

#: the ``workerinput`` entry that carries the controller's owner token to a worker
OWNER_INPUT = "spider2v_owner"


def owner(config: pytest.Config) -> str:
    """The token of the controller process that owns this run's environments."""
    return config.stash[OWNER]


def configure(config: pytest.Config) -> None:
    """Make (controller) or receive (worker) the owner token, and pass it on to the workers."""
    if is_worker(config):
        config.stash[OWNER] = worker_input(config)[OWNER_INPUT]
    else:
        config.stash[OWNER] = owner_token()
        config.pluginmanager.register(_OwnerToWorkers(config.stash[OWNER]), "spider2v-owner-to-workers")


class _OwnerToWorkers:
    def __init__(self, token: str) -> None:
        self.token = token

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[OWNER_INPUT] = self.token
