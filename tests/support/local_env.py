"""A stand-in for environments without a screen, for tests of the whole pipeline without Docker.

The guest's home (``/home/user``) is a temporary folder on the host, every command runs there,
and ``python3`` is the test's interpreter (it has pandas). Collection, fixtures, the episode, the
getters and metrics, records, the summary and ``--validate`` then run on DABench questions as
they do in the ``analysis`` image, which the end-to-end tests use instead.

In a pytest run, ``register()`` (from a ``conftest.py``) makes it ``--provider local``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.base import Environment, ExecResult

GUEST_HOME = "/home/user"


@dataclass
class LocalEnvironment:
    """An environment without a screen whose guest is a folder of the host."""

    home: Path
    name: str = "local"
    display: bool = False

    run_python = Environment.run_python

    def _host(self, guest_path: str) -> Path:
        for prefix in (GUEST_HOME + "/", "~/"):
            if guest_path.startswith(prefix):
                return self.home / guest_path[len(prefix):]
        return self.home / guest_path

    def execute(self, command: str | list[str], *, shell: bool = False, timeout: float = 300.0) -> ExecResult:
        args = command if isinstance(command, str) else [sys.executable if a == "python3" else a for a in command]
        done = subprocess.run(args, shell=shell, cwd=self.home, capture_output=True, text=True, timeout=timeout,
                              env={"HOME": str(self.home), "PATH": "/usr/bin:/bin"})
        return ExecResult(done.returncode, done.stdout, done.stderr)

    def upload(self, data: bytes | Path, guest_path: str) -> None:
        target = self._host(guest_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.read_bytes() if isinstance(data, Path) else data)

    def download(self, guest_path: str) -> bytes | None:
        path = self._host(guest_path)
        return path.read_bytes() if path.is_file() else None

    def close(self) -> None:
        pass


class LocalProvider:
    """Hands out a fresh, empty home folder per task; removes it afterwards."""

    def __init__(self, **options: Any) -> None:
        self.acquired: list[LocalEnvironment] = []

    def acquire(self, snapshot: str) -> LocalEnvironment:
        env = LocalEnvironment(Path(tempfile.mkdtemp(prefix="spider2v-local-")))
        self.acquired.append(env)
        return env

    def release(self, env: LocalEnvironment) -> None:
        shutil.rmtree(env.home, ignore_errors=True)

    def close(self) -> None:
        for env in self.acquired:
            self.release(env)

    def cleanup_stale(self) -> int:
        return 0


def register() -> None:
    from pytest_spider2v.registry import providers

    providers.add("local", lambda owner, worker, **options: LocalProvider(**options))
