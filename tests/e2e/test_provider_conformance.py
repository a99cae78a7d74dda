"""The provider conformance suite (:mod:`pytest_spider2v.testing.provider_conformance`) run against
the provider under test (``SPIDER2V_PROVIDER``: docker by default, or swarm), with what the Docker
provider adds: its containers' labels, its spares, and removing what a crashed run left.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable

import docker
import pytest

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider, owner_token
from pytest_spider2v.testing.provider_conformance import DesktopConformance
from pytest_spider2v.testing.waiting import wait_until

pytestmark = pytest.mark.e2e

LABEL = "pytest-spider2v"

docker_only = pytest.mark.skipif(
    os.environ.get("SPIDER2V_PROVIDER", "docker") != "docker", reason="inspects Docker labels",
)


class TestSelectedProvider(DesktopConformance):
    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls, conformance_provider: Provider) -> Provider:
        return conformance_provider

    # -- Docker bookkeeping -----------------------------------------------------------------------
    @docker_only
    def test_close_removes_every_container_it_created(
            self, new_conformance_provider: Callable[[str], Provider]) -> None:
        provider = new_conformance_provider(f"close-{uuid.uuid4().hex[:6]}")
        envs = [provider.acquire(self.snapshot) for _ in range(2)]
        client = docker.from_env()
        worker_filter = {"label": [f"{LABEL}.worker={provider.worker}"]}
        names = {c.name for c in client.containers.list(all=True, filters=worker_filter)}
        assert {e.name for e in envs} <= names  # (plus a booting spare, if the provider keeps one)
        labels = client.containers.get(envs[0].name).labels
        assert labels[LABEL] == "1" and labels[f"{LABEL}.owner"] == owner_token()
        provider.close()
        assert client.containers.list(all=True, filters=worker_filter) == []

    @docker_only
    def test_only_the_last_acquired_snapshot_keeps_a_spare(
            self, new_conformance_provider: Callable[[str], Provider]) -> None:
        """A worker that runs tasks family by family must not keep an idle desktop per family."""
        provider = new_conformance_provider(f"spares-{uuid.uuid4().hex[:6]}")
        client = docker.from_env()

        def containers(snapshot: str) -> list[str]:
            labels = [f"{LABEL}.worker={provider.worker}", f"{LABEL}.snapshot={snapshot}"]
            return [c.name for c in client.containers.list(all=True, filters={"label": labels})]

        try:
            provider.release(provider.acquire("desktop"))
            wait_until(lambda: containers("desktop"), timeout=60, what="the desktop snapshot's spare")
            provider.release(provider.acquire("excel"))
            assert containers("desktop") == []  # acquiring removes other snapshots' spares before it returns
            wait_until(lambda: containers("excel"), lambda spares: len(spares) == 1, timeout=60,
                       what="the excel snapshot's spare, alone")
        finally:
            provider.close()

    @docker_only
    def test_cleanup_stale_removes_dead_owners_only(self, provider: Provider, env: Environment) -> None:
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead_owner = owner_token(dead.pid)
        dead.wait()
        client = docker.from_env()
        stale = client.containers.run(
            "spider2v/desktop:latest", ["sleep", "600"], detach=True,
            labels={LABEL: "1", f"{LABEL}.owner": dead_owner, f"{LABEL}.worker": "crashed"},
        )
        try:
            assert provider.cleanup_stale() >= 1
            with pytest.raises(docker.errors.NotFound):
                client.containers.get(stale.id)
            assert client.containers.get(env.name).status == "running"  # a live owner's: untouched
        finally:
            try:
                stale.remove(force=True)
            except docker.errors.NotFound:
                pass
