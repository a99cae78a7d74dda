"""The environment as the evaluation sees it: commands and files through the engine.

During the episode the guest server is the agent's channel, and the agent may have killed or
replaced it by the end. The evaluation's postconfig steps and getters therefore reach the
environment through its witness (:mod:`pytest_spider2v.environments.witness`): every command runs
through the engine, as the desktop user, sealed from the processes the agent left, with exactly
the environment the guest gave commands when the setup ended (:class:`~.integrity.Baseline`);
files are read and written through the engine. Only what needs the screen (screenshots, the
accessibility tree, the window manager's settle) still asks the guest server, whose port the
integrity check has found served by the setup's own process.

Writing where the agent had put a file, or reading a file the agent put as a metric's expected
side, is tampering (:class:`Tampered`): the evaluation stops and the task scores 0.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.base import Environment, EnvironmentFault, ExecResult
from pytest_spider2v.environments.witness import Witness
from pytest_spider2v.run.integrity import Finding, Integrity

_VARIABLE = re.compile(r"\$(\w+|\{[^}]*\})")


class Tampered(Exception):
    """The evaluation met what the agent may not touch, touched (:mod:`.integrity`)."""

    def __init__(self, findings: list[Finding]) -> None:
        super().__init__("; ".join(str(finding) for finding in findings))
        self.findings = findings


@dataclass
class SealedEnvironment(Environment):
    """``inner``'s screen, and its commands and files through ``witness`` (module docstring)."""

    inner: Environment
    witness: Witness = field()  # never None here (the contract's default is)
    integrity: Integrity
    environment: Mapping[str, str]
    name: str = field(init=False)
    display: bool = field(init=False)
    node: str = field(init=False)

    def __post_init__(self) -> None:
        self.name, self.display, self.node = self.inner.name, self.inner.display, self.inner.node

    @property
    def home(self) -> str:
        return self.environment.get("HOME", "/")

    def guest_path(self, raw: str) -> str:
        """A path as the guest server reads one: ``~`` and ``$VARIABLE`` expanded."""
        def variable(match: re.Match[str]) -> str:
            name = match.group(1).strip("{}")
            return self.environment.get(name, match.group(0))

        path = _VARIABLE.sub(variable, raw)
        if path == "~" or path.startswith("~/"):
            path = self.home + path[1:]
        return path

    def argv(self, command: str | list[str], shell: bool) -> list[str]:
        """A command as the guest server runs it: a string through ``/bin/sh`` with ``shell``,
        else split; a leading ``~/`` in an argument expanded."""
        if shell:
            return ["/bin/sh", "-c", command if isinstance(command, str) else shlex.join(command)]
        args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        return [self.home + a[1:] if a.startswith("~/") else a for a in args]

    # -- commands -----------------------------------------------------------------------------
    def execute(self, command: str | list[str], *, shell: bool = False, timeout: float = 300.0) -> ExecResult:
        return self.witness.run(self.argv(command, shell), env=self.environment, workdir=self.home, timeout=timeout)

    def launch(self, command: str | list[str], *, shell: bool = False) -> None:
        self.witness.start(self.argv(command, shell), env=self.environment, workdir=self.home)

    def open(self, path: str) -> None:
        target = self.guest_path(path)
        if not self.witness.states([target]):
            raise EnvironmentFault(f"{self.name}: open {path}: no such file")
        self.witness.start(["xdg-open", target], env=self.environment, workdir=self.home)

    def activate_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        flags = "-" + ("x" if by_class else "") + ("F" if strict else "") + "a"
        self.execute(["wmctrl", flags, window_name], timeout=10)

    # -- files --------------------------------------------------------------------------------
    def upload(self, data: bytes | Path, guest_path: str) -> None:
        path = self.guest_path(guest_path)
        if self.integrity.placed_by_agent(path):
            finding = Finding(path, "the evaluation writes it, and the agent had placed it there")
            self.integrity.findings.append(finding)
            raise Tampered([finding])
        payload = data.read_bytes() if isinstance(data, Path) else data
        self.witness.write(path, payload)
        self.integrity.wrote(path, payload)

    def download(self, guest_path: str) -> bytes | None:
        path = self.guest_path(guest_path)
        if self.integrity.side == "expected" and (finding := self.integrity.read_expected(path)) is not None:
            raise Tampered([finding])
        return self.witness.read(path)

    # -- the screen, through the guest server -----------------------------------------------------
    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        return self.inner.host_url(guest_port, scheme)

    def close(self) -> None:
        self.inner.close()

    def screenshot(self) -> bytes:
        return self.inner.screenshot()

    def wait_settled(self, quiet: float = 1.0, timeout: float = 10.0) -> bool:
        return self.inner.wait_settled(quiet, timeout)

    def accessibility_tree(self, walk: str = "fast") -> str:
        return self.inner.accessibility_tree(walk)

    def screen_size(self) -> tuple[int, int]:
        return self.inner.screen_size()

    def live_view(self, *, view_only: bool = True) -> str:
        return self.inner.live_view(view_only=view_only)

    def start_recording(self, guest_path: str) -> None:
        self.inner.start_recording(guest_path)

    def stop_recording(self) -> dict[str, Any]:
        return self.inner.stop_recording()

