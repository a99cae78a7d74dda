"""Controller or xdist worker: the one place that tells, from pytest-xdist's own ``workerinput``
(never from environment variables, which a run started inside another run inherits).
"""

from __future__ import annotations

from typing import Any

import pytest


def is_worker(config: pytest.Config) -> bool:
    """Whether this process is an xdist worker (which runs items and reports to the controller)."""
    return hasattr(config, "workerinput")


def worker_id(config: pytest.Config) -> str | None:
    """``gw0``, ``gw1``, ... on an xdist worker; None on the controller or without xdist."""
    return worker_input(config).get("workerid")


def worker_input(config: pytest.Config) -> dict[str, Any]:
    """What the controller handed this worker as it started (nothing on the controller)."""
    return getattr(config, "workerinput", {})


def tell_controller(config: pytest.Config, key: str, value: Any) -> None:
    """On a worker, leave ``value`` for the controller, which reads it from the node's
    ``workeroutput`` when the worker is done (``pytest_testnodedown``); nothing elsewhere."""
    if is_worker(config):
        getattr(config, "workeroutput")[key] = value
