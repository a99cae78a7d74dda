"""A stand-in for environments without a screen, for tests of the whole pipeline without Docker.

The guest's home (``/home/user``) is a temporary folder on the host, every command runs there,
and ``python3`` is the test's interpreter. Collection, fixtures, the episode, the getters and
metrics, records, the summary and ``--validate`` then run on tasks that need no screen (DABench
questions, say) as they do in the ``analysis`` image.

Commands behave as the guest server runs them: a string is split like a shell line unless
``shell`` is given, a leading ``~/`` names the home, a program that cannot start is a failed
result (127) and one that outlives its timeout is killed and reported (124). The provider knows
the snapshots of the project's table (``snapshots.yaml``) and refuses any other, as the real
providers do, so it passes
:class:`~pytest_spider2v.testing.provider_conformance.ProviderConformance`.

Both classes subclass the contracts they stand in for (:class:`Environment`, :class:`Provider`),
so a member the contract gains is one they must implement too.

In a pytest run, ``register()`` (from a ``conftest.py``) makes it ``--provider local``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.base import Environment, EnvironmentFault, ExecResult
from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.provider import Provider, SnapshotTable

GUEST_HOME = "/home/user"


@dataclass
class LocalEnvironment(Environment):
    """An environment without a screen whose guest is a folder of the host: what needs a screen
    (observing, watching, opening a file or a window) raises :class:`EnvironmentFault`, and no
    port of the guest is published."""

    home: Path
    name: str = "local"
    display: bool = False

    def _host(self, guest_path: str) -> Path:
        for prefix in (GUEST_HOME + "/", "~/"):
            if guest_path.startswith(prefix):
                return self.home / guest_path[len(prefix):]
        return self.home / guest_path

    def _args(self, command: str | list[str], shell: bool) -> str | list[str]:
        """A command as the host runs it: split and ``~/`` expanded as the guest server does, and
        the guest's ``python3`` is the test's interpreter."""
        if shell:
            return command if isinstance(command, str) else shlex.join(command)
        args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        return [sys.executable if a == "python3" else str(self.home / a[2:]) if a.startswith("~/") else a
                for a in args]

    def _env(self) -> dict[str, str]:
        return {"HOME": str(self.home), "PATH": "/usr/bin:/bin"}

    def _no_screen(self) -> EnvironmentFault:
        return EnvironmentFault(f"{self.name}: no screen")

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        raise EnvironmentFault(f"{self.name}: guest port {guest_port} is not published (a folder serves nothing)")

    def close(self) -> None:
        """Nothing to let go of: the provider removes the folder."""

    def screenshot(self) -> bytes:
        raise self._no_screen()

    def wait_settled(self, quiet: float = 1.0, timeout: float = 10.0) -> bool:
        raise self._no_screen()

    def accessibility_tree(self, walk: str = "fast") -> str:
        raise self._no_screen()

    def screen_size(self) -> tuple[int, int]:
        raise self._no_screen()

    def live_view(self, *, view_only: bool = True) -> str:
        raise self._no_screen()

    def start_recording(self, guest_path: str) -> None:
        raise self._no_screen()

    def stop_recording(self) -> dict[str, Any]:
        raise self._no_screen()

    def execute(self, command: str | list[str], *, shell: bool = False, timeout: float = 300.0) -> ExecResult:
        try:
            proc = subprocess.Popen(self._args(command, shell), shell=shell, cwd=self.home, env=self._env(),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, errors="replace", start_new_session=True)
        except OSError as exc:  # the program cannot start: a failed result, as the guest reports it
            return ExecResult(127, "", f"{exc}\n")
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            try:
                out, err = proc.communicate(timeout=5)
            except subprocess.TimeoutExpired:  # a grandchild escaped the group and holds the pipes
                out, err = "", ""
            return ExecResult(124, out, err + f"\ncommand timed out after {timeout:g} s\n")
        return ExecResult(proc.returncode, out, err)

    def launch(self, command: str | list[str], *, shell: bool = False) -> None:
        subprocess.Popen(self._args(command, shell), shell=shell, cwd=self.home, env=self._env(),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)

    def open(self, path: str) -> None:
        raise self._no_screen()

    def activate_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        raise self._no_screen()

    def upload(self, data: bytes | Path, guest_path: str) -> None:
        target = self._host(guest_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.read_bytes() if isinstance(data, Path) else data)

    def download(self, guest_path: str) -> bytes | None:
        path = self._host(guest_path)
        return path.read_bytes() if path.is_file() else None


class LocalProvider(Provider):
    """Hands out a fresh, empty home folder per task, for any snapshot of the project's table;
    removes it afterwards."""

    def __init__(self, **options: Any) -> None:
        self.acquired: list[LocalEnvironment] = []
        self.table = SnapshotTable(RECIPES_DIR, "local")

    def acquire(self, snapshot: str) -> LocalEnvironment:
        self.table[snapshot]  # an unknown snapshot is a fault naming it, as with every provider
        env = self.new_environment(Path(tempfile.mkdtemp(prefix="spider2v-local-")))
        self.acquired.append(env)
        return env

    def new_environment(self, home: Path) -> LocalEnvironment:
        """The environment whose guest is ``home`` (a stand-in with more to it overrides this)."""
        return LocalEnvironment(home)

    def release(self, env: Environment) -> None:
        if not isinstance(env, LocalEnvironment):
            raise TypeError(f"{type(env).__name__} is not an environment of this provider")
        shutil.rmtree(env.home, ignore_errors=True)

    def close(self) -> None:
        for env in self.acquired:
            self.release(env)

    def cleanup_stale(self) -> int:
        """Nothing outlives a run: every folder is removed when its task or the run ends."""
        return 0

    def remove_run(self, wait: float = 0.0) -> int:
        """Each process's folders are its own, removed as its tasks end: none is another's to remove."""
        return 0


def register() -> None:
    from pytest_spider2v.registry import providers

    providers.add("local", lambda owner, worker, **options: LocalProvider(**options))
