"""The kernel's count of limit hits in a container: OOM kills and refused forks.

Docker's ``State.OOMKilled`` speaks of the container's main process, but a memory hog run by an
agent is a child of the guest server: the kernel kills it and the container carries on. The
container's cgroups count every such event (``oom_kill`` in ``memory.oom_control`` on cgroup v1,
in ``memory.events`` on v2; ``max`` in ``pids.events``, one per fork refused at the process
limit), and reading them costs microseconds, so they can be checked around every guest request.
They are read on the Docker host; where that is not this machine the counters read as zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class LimitHits:
    oom_kills: int = 0
    refused_forks: int = 0


@dataclass(frozen=True)
class ContainerCgroups:
    """Where a container's memory and pids counters are; None where they cannot be found."""

    memory_events: Path | None
    pids_events: Path | None

    @classmethod
    def of_process(cls, pid: int, container_id: str, root: Path = CGROUP_ROOT) -> ContainerCgroups:
        """The cgroups of the container's main process (``/proc/<pid>/cgroup``).

        A path must name the container: a pid read from a remote daemon may be some unrelated
        local process.
        """
        try:
            lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
        except OSError:
            return cls(None, None)
        return cls.from_lines(lines, container_id, root)

    @classmethod
    def from_lines(cls, lines: list[str], container_id: str, root: Path = CGROUP_ROOT) -> ContainerCgroups:
        """From ``/proc/<pid>/cgroup`` lines (``id:controllers:path``); the first file that exists
        wins, as a hybrid host lists a v2 path for controllers that are mounted as v1."""
        memory: list[Path] = []
        pids: list[Path] = []
        for line in lines:
            _, controllers, path = line.split(":", 2)
            if container_id not in path:
                continue
            relative = path.lstrip("/")
            if controllers == "":  # cgroup v2 (or the unified half of a hybrid host)
                memory.append(root / relative / "memory.events")
                pids.append(root / relative / "pids.events")
            if "memory" in controllers.split(","):
                memory.append(root / controllers / relative / "memory.oom_control")
            if "pids" in controllers.split(","):
                pids.append(root / controllers / relative / "pids.events")
        return cls(_first_file(memory), _first_file(pids))

    def read(self) -> LimitHits:
        return LimitHits(_counter(self.memory_events, "oom_kill"), _counter(self.pids_events, "max"))


def _first_file(paths: list[Path]) -> Path | None:
    return next((path for path in paths if path.is_file()), None)


def _counter(path: Path | None, key: str) -> int:
    """The value of ``key`` in a flat-keyed cgroup file (``key value`` per line); 0 if unreadable,
    such as once the container is removed."""
    if path is None:
        return 0
    try:
        text = path.read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            return int(value)
    return 0
