"""Providers: where restored desktops come from.

A provider turns a task's ``snapshot`` name into a running, pristine :class:`Environment` and
takes it back afterwards. Providers are looked up by name in the ``providers`` registry; each is
registered as ``factory(owner: str, worker: str, **options) -> Provider``.

``owner`` identifies the pytest controller process that a provider's resources belong to, as
``"<pid>:<start time>"``: the start time makes the token unique even when a pid is reused, so
:meth:`Provider.cleanup_stale` can tell the leftovers of a crashed run (owner dead) from the
environments of parallel workers of a live run, which it must never touch.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar, runtime_checkable

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.limits import Limits, snapshot_limits
from pytest_spider2v.environments.snapshots import Snapshot, load_snapshots, recipe_tables


@runtime_checkable
class Provider(Protocol):
    def acquire(self, snapshot: str) -> Environment:
        """A new environment restored to ``snapshot``, ready (``/health`` answered)."""

    def release(self, env: Environment) -> None:
        """Discard an environment; nothing of it is reused."""

    def close(self) -> None:
        """Discard everything this provider created."""

    def cleanup_stale(self) -> int:
        """Discard resources left by owners that are no longer running; returns how many."""

    def remove_run(self, wait: float = 0.0) -> int:
        """Discard every environment of this provider's owner (the run), whichever worker made
        it, after waiting up to ``wait`` seconds for the workers to release theirs; returns how
        many were left to discard. A stopped run's controller calls it, so that nothing of the
        run outlives it even when a worker is ended before its own cleanup is done."""


def _start_time(pid: int) -> str | None:
    """Field 22 of ``/proc/<pid>/stat`` (clock ticks since boot), or None if no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may contain spaces or ')'.
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[19]


def owner_token(pid: int | None = None) -> str:
    """``"<pid>:<start time>"`` of a process (default: this one)."""
    pid = os.getpid() if pid is None else pid
    start = _start_time(pid)
    if start is None:
        raise ProcessLookupError(f"no process {pid}")
    return f"{pid}:{start}"


def owner_alive(token: str) -> bool:
    """False only when the process named by an :func:`owner_token` is known to be gone.

    A token that is not ``"<pid>:<start time>"`` cannot be judged, so it counts as alive:
    cleaning up must never remove what might belong to a running owner.
    """
    pid, _, start = token.partition(":")
    if not pid.isdigit() or not start.isdigit():
        return True
    return _start_time(int(pid)) == start


Resource = TypeVar("Resource")


def left_after(owned: Callable[[], list[Resource]], wait: float, poll: float) -> list[Resource]:
    """What ``owned()`` still lists after up to ``wait`` seconds, looked at every ``poll``
    seconds: the run's environments its workers did not release in time (``remove_run``)."""
    deadline = time.monotonic() + wait
    while (left := owned()) and time.monotonic() < deadline:
        time.sleep(poll)
    return left


class SnapshotTable:
    """``snapshots.yaml`` as a provider reads it: each snapshot's image and ports, and the limits
    its environments run under, the run's ``memory``, ``cpus``, ``pids`` and ``disk`` options (0
    lifting a limit) over the table's. Every provider places environments by these same values."""

    def __init__(self, environments_dir: Path, provider: str, *, memory: str | int | None = None,
                 cpus: float | str | None = None, pids: int | str | None = None,
                 disk: str | int | None = None) -> None:
        self.provider = provider
        self.snapshots = load_snapshots(environments_dir)
        self.limits = snapshot_limits(*recipe_tables("snapshots.yaml", environments_dir))
        self.overrides = Limits.from_options(memory, cpus, pids, disk)

    def __getitem__(self, name: str) -> Snapshot:
        try:
            return self.snapshots[name]
        except KeyError:
            known = ", ".join(sorted(self.snapshots))
            raise EnvironmentFault(
                f"{self.provider} provider: unknown snapshot {name!r} (known: {known}); "
                "add it to pytest_spider2v/environments/snapshots.yaml"
            ) from None

    def limits_of(self, snapshot: str) -> Limits:
        return self.overrides.over(self.limits.get(snapshot, Limits()))
