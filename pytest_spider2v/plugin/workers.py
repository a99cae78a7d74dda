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
    workerinput: dict[str, Any] = getattr(config, "workerinput", {})
    return workerinput.get("workerid")
