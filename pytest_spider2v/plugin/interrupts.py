"""A stopped run leaves nothing behind: Ctrl-C or SIGTERM (:mod:`pytest_spider2v.signals.stopping`)
on the controller reaches its xdist workers, each records its unfinished task as interrupted and
releases its environment, and the controller then removes whatever of the run remains.

xdist ends its workers ten seconds after the session finishes, whatever they are doing; a worker
still removing a container then would leave it running (measured: SIGTERM to a ``-n 2`` run's
controller left two desktop containers of worker ``gw1``). So the controller first waits, up to
:data:`RELEASE_WAIT`, for the workers to release their environments, and removes what is left
once they are gone. A run without workers tears its own fixtures down and removes what is left
at its end.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.plugin import ownership
from pytest_spider2v.plugin.keys import RUN_CONFIG
from pytest_spider2v.plugin.workers import is_worker
from pytest_spider2v.registry import providers
from pytest_spider2v.signals import stopping

log = logging.getLogger(__name__)

#: How long a stopped run's controller waits for its workers to release their environments.
RELEASE_WAIT = 20.0


class Interrupts:
    """The stop signals' handling in this process; on the controller (or the only process), the
    forwarding to the workers and the cleanup after a stop."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.controller = not is_worker(config)
        self.workers: dict[str, int] = {}  #: xdist worker id -> pid, while it runs
        self.restore = stopping.install(forward=lambda: list(self.workers.values()))

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodeready(self, node: Any) -> None:
        self.workers[node.gateway.id] = node.gateway._rinfo().pid  # execnet's info, cached by xdist

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        self.workers.pop(node.gateway.id, None)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self) -> None:
        if stopping.stop_reason() is not None and self.workers:  # before xdist ends the workers
            self.remove_run(RELEASE_WAIT)

    def pytest_unconfigure(self) -> None:
        if self.controller and stopping.stop_reason() is not None:
            self.remove_run(0.0)
        self.restore()

    def remove_run(self, wait: float) -> None:
        config = self.config
        try:
            run = config.stash[RUN_CONFIG]
            provider = providers.get(run.provider)(owner=ownership.owner(config), worker="controller",
                                                   **run.provider_options)
        except (EnvironmentFault, pytest.UsageError) as exc:  # no engine, or a provider never usable
            log.info("after the stop, no provider to look for the run's environments: %s", exc)
            return
        try:
            left = provider.remove_run(wait)
        finally:
            provider.close()
        if left:
            log.warning("the run was stopped (%s): removed %d environment(s) its workers left",
                        stopping.stop_reason(), left)


def configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Interrupts(config), "spider2v-interrupts")
