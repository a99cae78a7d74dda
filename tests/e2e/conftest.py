"""Fixtures of the end-to-end tests: providers, a shared desktop, task contexts.

``SPIDER2V_PROVIDER`` (default ``docker``) selects the provider under test, so any new
provider runs the same conformance module.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

import pytest_spider2v.environments.provider  # noqa: F401  (registers the built-in providers)
from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider, owner_token
from pytest_spider2v.registry import providers
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.model import Task, TaskSpec
from tests.support.environments import environment_of


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


@pytest.fixture(scope="module")
def desktop_env(conformance_provider: Provider) -> Iterator[Environment]:
    """One ready desktop for a whole test module (skipped when its image is not built)."""
    with environment_of(conformance_provider, "desktop") as environment:
        yield environment


@pytest.fixture(scope="session")
def make_context(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., TaskContext]:
    """``make_context(env, app)``: a TaskContext with a new, empty task folder, where host paths
    named by steps and getters resolve."""

    def make(env: Environment, app: str) -> TaskContext:
        root = tmp_path_factory.mktemp(app) / "task"
        root.mkdir()
        spec = TaskSpec.model_validate({
            "id": f"e2e-{app}", "snapshot": "desktop", "instruction": "end-to-end check",
            "related_apps": [app], "tags": ["gui"], "action_number": 1,
            "evaluator": {"func": "exact_match", "result": {"type": "rule", "rules": {}}},
        })
        task = Task(spec, root / "task.json", root, "project", "abstract", spec.instruction, "e2e")
        return TaskContext(env=env, task=task, cache_dir=root.parent / "cache")

    return make
