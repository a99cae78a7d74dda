"""Faults that name the limit an environment hit.

When a container's memory or process limit stops agent code, the guest may answer with an
ordinary error (the hog was killed, returncode -9), answer nothing (the guest server itself was
killed), or hang (no process left to serve the request). Either way the environment is no
longer what the task expects, and "connection refused" would send whoever reads the record
looking in the wrong place; so the task ends with an :class:`EnvironmentFault` saying which
limit was hit.
"""

from __future__ import annotations

from docker.errors import DockerException
from docker.models.containers import Container

from pytest_spider2v.environments.limits import Limits, format_memory
from pytest_spider2v.providers.docker.cgroups import ContainerCgroups, LimitHits
from pytest_spider2v.providers.docker.disk import DiskWatch


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
    """Watches one container's limits. Every hit since the container started counts, until
    :meth:`mark` (the agent's first action): from then on only the hits since, so a limit the
    setup reached is never charged to the agent."""

    def __init__(self, container: Container, limits: Limits) -> None:
        self.container = container
        self.limits = limits
        self.cgroups = ContainerCgroups.of_process(container.attrs["State"]["Pid"], str(container.id))
        self._since = LimitHits()
        self._oom_killed_before = False
        self.disk: DiskWatch | None = None  #: set once the container is ready, where a disk limit applies

    def mark(self) -> None:
        """Count only the hits from now on."""
        self._since = self.cgroups.read()
        try:
            self.container.reload()
            self._oom_killed_before = bool(self.container.attrs["State"].get("OOMKilled"))
        except DockerException:
            pass

    def breach(self, *, inspect: bool = False) -> str | None:
        """The limit hit, if any; ``inspect`` also asks Docker (slower: for when a request failed)."""
        if self.disk is not None and self.disk.breach is not None:
            return self.disk.breach
        oom_killed = False
        if inspect:
            try:
                self.container.reload()
                oom_killed = bool(self.container.attrs["State"].get("OOMKilled")) and not self._oom_killed_before
            except DockerException:
                pass  # a removed container: the counters have the last word
        now = self.cgroups.read()
        hits = LimitHits(now.oom_kills - self._since.oom_kills, now.refused_forks - self._since.refused_forks)
        return breach_message(self.limits, hits, oom_killed=oom_killed)
