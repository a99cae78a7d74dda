"""Host-side evidence of an environment: what decides a score, read from outside the agent's reach.

The agent commands its environment as the desktop user, who has sudo: the guest server, the
programs an evaluation script calls and every file of the environment are the agent's to change,
and a process it leaves behind keeps running while the evaluation does. So nothing that decides a
score may be taken from inside on trust. A :class:`Witness` speaks for an environment from the
engine that runs it (Docker's, on this machine or on a cluster node):

* :meth:`~Witness.changes`: the container's writable layer against its image, as the engine
  stores it (a process inside cannot hide a write from it, nor set a file's change time back);
* :meth:`~Witness.processes`: the process table as the engine reports it;
* :meth:`~Witness.run`, :meth:`~Witness.read`, :meth:`~Witness.write`: commands and files through
  the engine, never through the guest server, with exactly the environment they are given, in
  processes that no process of the environment can trace or read (:data:`SEALED_CAPABILITY`);
* :meth:`~Witness.outside_cause`: what ended the environment that was not the agent's doing (the
  engine's events: the container killed, stopped or paused from outside; the host short of memory
  or disk; the node lost).

Providers whose environments have an engine give one (``Environment.witness``); an environment
without one (a test's stand-in) is evaluated through its guest, and its record says the integrity
of its evaluation was not checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from pytest_spider2v.environments.execution import ExecResult

ChangeKind = Literal["added", "changed", "deleted"]
#: The capability an evaluation's processes hold and the desktop user's do not. Linux lets a
#: process trace another, or open its ``/proc/<pid>/fd``, only when it holds every capability
#: of the other (and, across users, ``CAP_SYS_PTRACE``, which no container is given): so a
#: process the agent left running cannot read or write the evaluation's pipes, nor patch its
#: memory, whether it runs as the user or as root. This one grants nothing else that matters here
#: (binding ports below 1024).
SEALED_CAPABILITY = "net_bind_service"


@dataclass(frozen=True)
class FileState:
    """What tells one version of a file from another. Any write gives a file a new change time,
    which no process in a container can set back (that needs ``CAP_SYS_TIME``); a file replaced by
    another gets a new inode."""

    mode: int
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int

    @property
    def is_dir(self) -> bool:
        return (self.mode & 0o170000) == 0o040000


@dataclass(frozen=True)
class Change:
    """One path of the writable layer: added (not in the image), changed (in the image, now
    different: a file's content or metadata, a directory whose entries changed) or deleted."""

    path: str
    kind: ChangeKind
    state: FileState | None = None  #: None for a deletion


@dataclass(frozen=True)
class Process:
    """A process of the environment as the engine lists it."""

    pid: int  #: in the engine's own namespace: stable for the process's life
    uid: int
    command: str


@dataclass(frozen=True)
class Listener:
    """A socket listening on a TCP port inside the environment."""

    port: int
    inode: int  #: the socket's own: the same for as long as the process that opened it holds it
    uid: int  #: the user that opened it
    pid: int | None = None  #: inside the environment; None where the desktop user may not look
    executable: str | None = None  #: its process's program (``/proc/<pid>/exe``), which no command line can fake


@runtime_checkable
class Witness(Protocol):
    """An environment seen from its engine (module docstring)."""

    #: the guest ports the host reaches (the guest server's, Chromium's, the applications')
    ports: tuple[int, ...]

    def changes(self) -> list[Change]:
        """The writable layer's changes against the image, each with its file's state."""
        ...

    def states(self, paths: Sequence[str]) -> dict[str, FileState]:
        """The state of each of ``paths`` that exists (not following a final link), read the way
        :meth:`changes` reads a file's state, so the two compare."""
        ...

    def processes(self) -> list[Process]:
        ...

    def listeners(self, ports: Sequence[int]) -> dict[int, list[Listener]]:
        """The sockets listening on each of ``ports`` (more than one where a process bound a
        port's specific address beside another's wildcard); ports nobody serves are left out."""
        ...

    def run(self, argv: Sequence[str], *, env: Mapping[str, str], workdir: str, timeout: float,
            as_root: bool = False) -> ExecResult:
        """Run ``argv`` to completion with exactly ``env``, as the desktop user (sealed from the
        environment's other processes) or as root; a command still running at ``timeout`` is
        killed and returns 124, as the guest server's do."""
        ...

    def start(self, argv: Sequence[str], *, env: Mapping[str, str], workdir: str) -> None:
        """Start ``argv`` as the desktop user without waiting for it."""
        ...

    def read(self, path: str) -> bytes | None:
        """A file's bytes (its target's, for a symbolic link), or None when there is no file."""
        ...

    def write(self, path: str, data: bytes) -> None:
        """Write a file owned by the desktop user, making its folder as the user would."""
        ...

    def outside_cause(self, since: float) -> str | None:
        """Why the environment failed since ``since`` (epoch seconds) by no doing of its own, or
        None when the engine and the host show no such cause."""
        ...
