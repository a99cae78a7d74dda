"""Provider fixtures for the provider conformance tests.

``SPIDER2V_PROVIDER`` (default ``docker``) selects the provider under test, so any new
provider runs the same conformance module.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

import pytest_spider2v.providers  # noqa: F401  (registers the built-in providers)
from pytest_spider2v.providers import Provider, owner_token
from pytest_spider2v.registries import providers


def make_conformance_provider(worker: str) -> Provider:
    """A provider of the selected kind owned by this (live) test process."""
    name = os.environ.get("SPIDER2V_PROVIDER", "docker")
    return providers.get(name)(owner=owner_token(), worker=worker)


@pytest.fixture(scope="session")
def new_conformance_provider() -> Callable[[str], Provider]:
    """For tests that need a provider of their own (to close it, for example)."""
    return make_conformance_provider


@pytest.fixture(scope="module")
def conformance_provider() -> Iterator[Provider]:
    provider = make_conformance_provider(f"conformance-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")
    try:
        yield provider
    finally:
        provider.close()
