"""Fakes of the contracts, for unit tests of steps, getters, the episode and anything else that
talks to an environment, a provider, a witness or an agent: each answers only what the test
scripted and records what it was asked.

:class:`FakeEnvironment`, :class:`FakeWitness` and :class:`FakeProvider` subclass the protocols
they stand in for, so mypy names a method a contract gains and they lack. Unlike the stand-ins
(:mod:`.local`, :mod:`.screen`), which run real commands in a folder of the host, a fake runs
nothing: a test states every reply.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.base import Environment, EnvironmentFault, ExecResult
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.environments.witness import Change, ChangeKind, FileState, Listener, Process, Witness
from pytest_spider2v.run.agent import Agent, Observation, Turn
from pytest_spider2v.tasks.model import Task

Command = str | list[str]


# -- an environment, its witness and its provider -------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One method call an environment received: its name, arguments and keyword options."""

    method: str
    args: tuple[Any, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(eq=False)
class FakeEnvironment(Environment):
    """An environment that answers only what the test scripted and records every call in
    ``calls``; anything unscripted raises :class:`EnvironmentFault` naming the call (a harness
    error: the run never turns it into a score), never a silent None.

    Scripts: ``on_execute`` (a function of the command) or else ``replies`` (taken in order) answer
    :meth:`execute`, and so the actions :meth:`run_python` runs through it; ``files`` is the
    guest's file system for :meth:`upload`, :meth:`download` and :meth:`open`; ``screen`` (a
    still picture: settled at once, its size read from the PNG) and ``tree`` are the observation.
    ``launch``, ``activate_window`` and ``close`` succeed, recorded. No guest port is reachable
    and there is no live view or recorder: a test that needs them (a browser, watching)
    subclasses this. Identity, not equal fields, tells two environments apart, as a provider's do.
    """

    name: str = "fake"
    display: bool = True
    on_execute: Callable[[Command], ExecResult] | None = None
    replies: list[ExecResult] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    screen: bytes | None = None
    tree: str | None = None
    calls: list[Call] = field(default_factory=list)
    witness: Witness | None = None

    def calls_to(self, method: str) -> list[Call]:
        """The calls of ``method``, in order."""
        return [call for call in self.calls if call.method == method]

    @property
    def commands(self) -> list[Command]:
        """The commands :meth:`execute` was given, in order (an action's ``python3 -c`` among them)."""
        return [call.args[0] for call in self.calls_to("execute")]

    def _not_scripted(self, call: str) -> EnvironmentFault:
        return EnvironmentFault(f"{self.name}: {call} was not scripted by the test")

    def _screen(self, call: str) -> bytes:
        if self.screen is None:
            if not self.display:
                raise EnvironmentFault(f"{self.name}: {call}: no screen")
            raise self._not_scripted(call)
        return self.screen

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        self.calls.append(Call("host_url", (guest_port,), {"scheme": scheme}))
        raise self._not_scripted(f"host_url({guest_port})")

    def close(self) -> None:
        self.calls.append(Call("close"))

    def screenshot(self) -> bytes:
        self.calls.append(Call("screenshot"))
        return self._screen("screenshot()")

    def wait_settled(self, quiet: float = 1.0, timeout: float = 10.0) -> bool:
        self.calls.append(Call("wait_settled", (), {"quiet": quiet, "timeout": timeout}))
        self._screen("wait_settled()")
        return True

    def accessibility_tree(self, walk: str = "fast") -> str:
        self.calls.append(Call("accessibility_tree", (), {"walk": walk}))
        if self.tree is None:
            raise self._not_scripted("accessibility_tree()")
        return self.tree

    def screen_size(self) -> tuple[int, int]:
        self.calls.append(Call("screen_size"))
        screen = self._screen("screen_size()")
        if not screen.startswith(PNG_SIGNATURE):
            raise EnvironmentFault(f"{self.name}: screen_size(): the scripted screen is not a PNG")
        width, height = struct.unpack(">II", screen[16:24])  # the IHDR chunk, first after the signature
        return width, height

    def live_view(self, *, view_only: bool = True) -> str:
        self.calls.append(Call("live_view", (), {"view_only": view_only}))
        raise self._not_scripted("live_view()")

    def start_recording(self, guest_path: str) -> None:
        self.calls.append(Call("start_recording", (guest_path,)))
        raise self._not_scripted("start_recording()")

    def stop_recording(self) -> dict[str, Any]:
        self.calls.append(Call("stop_recording"))
        raise self._not_scripted("stop_recording()")

    def execute(self, command: Command, *, shell: bool = False, timeout: float = 300.0) -> ExecResult:
        self.calls.append(Call("execute", (command,), {"shell": shell, "timeout": timeout}))
        if self.on_execute is not None:
            return self.on_execute(command)
        if self.replies:
            return self.replies.pop(0)
        raise self._not_scripted(f"execute({command!r})")

    def run_python(self, code: str, *, timeout: float = 90.0) -> ExecResult:
        """Recorded, then run as the contract runs it: through :meth:`execute`."""
        self.calls.append(Call("run_python", (code,), {"timeout": timeout}))
        return super().run_python(code, timeout=timeout)

    def launch(self, command: Command, *, shell: bool = False) -> None:
        self.calls.append(Call("launch", (command,), {"shell": shell}))

    def open(self, path: str) -> None:
        self.calls.append(Call("open", (path,)))
        if path not in self.files:
            raise EnvironmentFault(f"{self.name}: open {path}: no such file")

    def activate_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        self.calls.append(Call("activate_window", (window_name,), {"strict": strict, "by_class": by_class}))

    def upload(self, data: bytes | Path, guest_path: str) -> None:
        self.calls.append(Call("upload", (data, guest_path)))
        self.files[guest_path] = data.read_bytes() if isinstance(data, Path) else data

    def download(self, guest_path: str) -> bytes | None:
        self.calls.append(Call("download", (guest_path,)))
        return self.files.get(guest_path)


@dataclass(eq=False)
class FakeWitness(Witness):
    """An environment seen from a scripted engine: its writable ``layer`` (path -> change), the
    sockets ``listening`` on its ports, its process ``table``, its ``files`` (what :meth:`read`
    and :meth:`write` reach), the ``outside`` cause it shows (to a question about any time up to
    ``outside_at``, where that is set: when the cause came); ``on_run`` answers commands (each
    recorded in ``runs``), else they succeed. :meth:`touch` writes a file as a process inside
    would: the layer gets a new state for it, with a later change time."""

    ports: tuple[int, ...] = (5000,)
    layer: dict[str, Change] = field(default_factory=dict)
    listening: dict[int, list[Listener]] = field(default_factory=lambda: {5000: [Listener(5000, 1, 1000, 8, "/usr/bin/python3")]})
    table: list[Process] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    outside: str | None = None
    outside_at: float | None = None
    on_run: Callable[[list[str]], ExecResult] | None = None
    runs: list[list[str]] = field(default_factory=list)
    clock: int = 0

    def touch(self, path: str, data: bytes | None = None, kind: ChangeKind = "added", mode: int = 0o100644) -> None:
        """A process inside writes ``path`` (``kind``: as the layer will call it)."""
        self.clock += 1
        self.layer[path] = Change(path, kind, FileState(mode, len(data or b""), self.clock, self.clock, 1000 + self.clock))
        if data is not None:
            self.files[path] = data

    def changes(self) -> list[Change]:
        return sorted(self.layer.values(), key=lambda change: change.path)

    def states(self, paths: Any) -> dict[str, FileState]:
        return {path: change.state for path in paths
                if (change := self.layer.get(path)) is not None and change.state is not None}

    def processes(self) -> list[Process]:
        return list(self.table)

    def listeners(self, ports: Any) -> dict[int, list[Listener]]:
        return {port: list(found) for port, found in self.listening.items() if port in ports and found}

    def run(self, argv: Any, *, env: Any, workdir: str, timeout: float, as_root: bool = False) -> ExecResult:
        self.runs.append(list(argv))
        return self.on_run(list(argv)) if self.on_run is not None else ExecResult(0, "", "")

    def start(self, argv: Any, *, env: Any, workdir: str) -> None:
        self.runs.append(list(argv))

    def read(self, path: str) -> bytes | None:
        return self.files.get(path)

    def write(self, path: str, data: bytes) -> None:
        self.touch(path, data)

    def outside_cause(self, since: float) -> str | None:
        return self.outside if self.outside_at is None or since <= self.outside_at else None


@dataclass(eq=False)
class FakeProvider(Provider):
    """Hands out the environments ``make`` builds (``make(n)`` for the n-th acquire, from 0: a test
    decides which of them fail) and records which were acquired and released."""

    make: Callable[[int], Environment]
    acquired: list[Environment] = field(default_factory=list)
    released: list[Environment] = field(default_factory=list)

    def acquire(self, snapshot: str) -> Environment:
        env = self.make(len(self.acquired))
        self.acquired.append(env)
        return env

    def release(self, env: Environment) -> None:
        self.released.append(env)

    def close(self) -> None:
        for env in self.acquired:
            if env not in self.released:
                self.release(env)

    def cleanup_stale(self) -> int:
        """Nothing of a fake outlives its test."""
        return 0

    def remove_run(self, wait: float = 0.0) -> int:
        """The acquired environments not released yet, released now."""
        left = [env for env in self.acquired if env not in self.released]
        for env in left:
            self.release(env)
        return len(left)


# -- an agent -------------------------------------------------------------------------------------


class OneActionAgent(Agent):
    """Takes one action (``pass``, whose effect a test's environment scripts), then DONE; counts
    its resets (one per attempt)."""

    needs_accessibility_tree = False

    def __init__(self) -> None:
        self.resets = 0
        self.turns = 0

    def reset(self, task: Task) -> None:
        self.resets += 1
        self.turns = 0

    def act(self, instruction: str, observation: Observation) -> Turn:
        self.turns += 1
        return Turn("go", ["pass"]) if self.turns == 1 else Turn("DONE", ["DONE"])
