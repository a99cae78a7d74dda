"""Environments for the end-to-end tests, from a provider under test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.provider import Provider


@contextmanager
def environment_of(provider: Provider, snapshot: str) -> Iterator[Environment]:
    """A ready environment of ``snapshot``, released afterwards; the test is skipped when the
    snapshot's image is not built."""
    try:
        environment = provider.acquire(snapshot)
    except EnvironmentFault as exc:
        if "is not built" in str(exc):
            pytest.skip(str(exc))
        raise
    try:
        yield environment
    finally:
        provider.release(environment)
