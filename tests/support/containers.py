"""The Docker containers of a benchmark run that a test started as a subprocess: the tests watch
them (a container appearing, a step running in it, a file a person typed into it) while the
run goes on, and count what is left when it has ended."""

from __future__ import annotations

import docker
from docker.models.containers import Container

from pytest_spider2v.providers.docker.provider import LABEL, OWNER_LABEL


def containers_of(pid: int) -> list[Container]:
    """The containers the run of process ``pid`` owns (its owner label is ``"<pid>:<start time>"``),
    running or not: spares included."""
    found = docker.from_env().containers.list(all=True, filters={"label": LABEL}, ignore_removed=True)
    return [c for c in found if c.labels.get(OWNER_LABEL, "").startswith(f"{pid}:")]


def runs(container: Container, command: str) -> bool:
    """Whether a process of ``container`` has ``command`` in its command line (False while the
    container is not running: not yet, or not any more)."""
    try:
        return any(command in " ".join(p) for p in container.top()["Processes"] or [])
    except docker.errors.APIError:
        return False
