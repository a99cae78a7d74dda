"""A toy provider, as a third-party package would write one: every environment is a fresh folder
of the host, run by the testing kit's screenless stand-in environment.

A package registers it by naming this module in the ``pytest_spider2v`` entry-point group of its
``pyproject.toml``; pytest-spider2v imports the module when pytest starts, and the import adds
the provider to the registry, so ``--provider toy`` picks it::

    [project.entry-points.pytest_spider2v]
    toy = "toy_provider"

This folder is not installed, so its ``conftest.py`` imports the module instead.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.registry import providers
from pytest_spider2v.testing.local import LocalEnvironment

#: The snapshots the toy restores (to nothing but an empty home).
SNAPSHOTS = ("desktop",)


class ToyProvider(Provider):
    """Hands out an empty home folder per environment, all under one folder of its own."""

    def __init__(self, owner: str, worker: str) -> None:
        self.owner, self.worker = owner, worker
        self.root = Path(tempfile.mkdtemp(prefix=f"toy-provider-{worker}-"))
        self.live: list[LocalEnvironment] = []

    def acquire(self, snapshot: str) -> Environment:
        if snapshot not in SNAPSHOTS:
            raise EnvironmentFault(f"toy provider: unknown snapshot {snapshot!r} (known: {', '.join(SNAPSHOTS)})")
        home = Path(tempfile.mkdtemp(dir=self.root))
        env = LocalEnvironment(home, name=f"toy-{home.name}")
        self.live.append(env)
        return env

    def release(self, env: Environment) -> None:
        if not isinstance(env, LocalEnvironment) or env not in self.live:
            raise EnvironmentFault(f"toy provider: {env.name} is not one of its environments")
        self.live.remove(env)
        shutil.rmtree(env.home, ignore_errors=True)

    def close(self) -> None:
        self.remove_run()
        shutil.rmtree(self.root, ignore_errors=True)

    def cleanup_stale(self) -> int:
        """A folder outlives no run of the toy: its owner removes it, so none is ever stale."""
        return 0

    def remove_run(self, wait: float = 0.0) -> int:
        left = list(self.live)
        for env in left:
            self.release(env)
        return len(left)


providers.add("toy", lambda owner, worker, **options: ToyProvider(owner, worker))
