"""Faults that name the limit an environment hit.

When a container's memory or process limit stops agent code, the guest may answer with an
ordinary error (the hog was killed, returncode -9), answer nothing (the guest server itself was
killed), or hang (no process left to serve the request). Either way the environment is no
longer what the task expects, and "connection refused" would send whoever reads the record
looking in the wrong place; so the task ends with an :class:`EnvironmentFault` saying which
limit was hit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx
from docker.errors import DockerException
from docker.models.containers import Container

from ..environment import Environment, EnvironmentFault
from .cgroups import ContainerCgroups, LimitHits
from .limits import Limits, format_memory


def breach_message(limits: Limits, hits: LimitHits, *, oom_killed: bool = False) -> str | None:
    """What a task's fault says about the limits hit, or None when none was."""
    if hits.oom_kills or oom_killed:
        what = (f"{hits.oom_kills} process{'es' if hits.oom_kills != 1 else ''} OOM-killed"
                if hits.oom_kills else "OOM-killed")
        if not limits.memory:
            return f"the environment ran out of memory ({what}; no memory limit was set)"
        return f"the environment hit its memory limit of {format_memory(limits.memory)} ({what})"
    if hits.refused_forks:
        refused = f"{hits.refused_forks} fork{'s' if hits.refused_forks != 1 else ''} refused"
        return f"the environment reached its process limit of {limits.pids} ({refused})"
    return None


class LimitGuard:
    """Watches one container's limits; every hit since the container started counts."""

    def __init__(self, container: Container, limits: Limits) -> None:
        self.container = container
        self.limits = limits
        self.cgroups = ContainerCgroups.of_process(container.attrs["State"]["Pid"], str(container.id))

    def breach(self, *, inspect: bool = False) -> str | None:
        """The limit hit, if any; ``inspect`` also asks Docker (slower: for when a request failed)."""
        oom_killed = False
        if inspect:
            try:
                self.container.reload()
                oom_killed = bool(self.container.attrs["State"].get("OOMKilled"))
            except DockerException:
                pass  # a removed container: the counters have the last word
        return breach_message(self.limits, self.cgroups.read(), oom_killed=oom_killed)


@dataclass
class DockerEnvironment(Environment):
    """An environment in a Docker container, whose guest faults name the limit the container hit.

    ``host`` is where the guest ports are reached: 127.0.0.1 for published ports, the container's
    own address on an isolated network (which cannot publish ports).
    """

    host: str = field(default="127.0.0.1", kw_only=True)
    guard: LimitGuard = field(kw_only=True)

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        try:
            return f"{scheme}://{self.host}:{self.ports[guest_port]}"
        except KeyError:
            raise EnvironmentFault(f"{self.name}: guest port {guest_port} is not published") from None

    def _request(self, method: str, path: str, *, timeout: float | None = None, **kw: Any) -> httpx.Response:
        # Checked before, too: after a fork bomb the guest may hang rather than fail.
        self._check_limits()
        try:
            response = super()._request(method, path, timeout=timeout, **kw)
        except EnvironmentFault as exc:
            self._check_limits(inspect=True, cause=exc)
            raise
        self._check_limits()
        return response

    def _check_limits(self, *, inspect: bool = False, cause: Exception | None = None) -> None:
        breach = self.guard.breach(inspect=inspect)
        if breach is not None:
            raise EnvironmentFault(f"{self.name}: {breach}") from cause
