"""The testing kit's provider conformance suite, run against the toy provider of this folder and
against the Docker provider pytest-spider2v ships: each is one subclass with a ``provider`` fixture.

Run it with ``pytest`` in this folder, where only pytest-spider2v is installed. The Docker half
needs a Docker daemon and the project's desktop image (``spider2v-build``); without them it is
skipped with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.environments.provider import Provider, owner_token
from pytest_spider2v.registry import providers
from pytest_spider2v.testing.provider_conformance import DesktopConformance, ProviderConformance


def provider_named(name: str) -> Provider:
    """A provider from the registry, as ``--provider NAME`` makes one, owned by this process."""
    return providers.get(name)(owner=owner_token(), worker="provider-kit")


class TestToyProvider(ProviderConformance):
    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls) -> Iterator[Provider]:
        made = provider_named("toy")
        yield made
        made.close()


class TestDockerProvider(DesktopConformance):
    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls) -> Iterator[Provider]:
        try:
            made = provider_named("docker")
        except EnvironmentFault as exc:  # no Docker daemon to reach
            pytest.skip(str(exc))
        try:
            made.release(made.acquire(cls.snapshot))
        except EnvironmentFault as exc:
            made.close()
            if "is not built" in str(exc):
                pytest.skip(str(exc))
            raise
        yield made
        made.close()
