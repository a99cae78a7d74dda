"""Built-in providers: where environments come from. Importing this package registers them in
:data:`pytest_spider2v.registry.providers`, through the ``pytest_spider2v`` entry-point group like
every other extension: ``docker``, every environment a container on the local Docker engine
(:mod:`.docker`), and ``swarm``, every environment a service on a Docker Swarm (:mod:`.swarm`).
"""

from __future__ import annotations

from typing import Any

from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.registry import providers


def docker_provider(owner: str, worker: str, **options: Any) -> Provider:
    """The ``docker`` registry entry, importing :mod:`.docker` (the Docker SDK, requests,
    urllib3) only when a run makes a provider: collection and the controller never need it."""
    from pytest_spider2v.providers.docker.provider import factory

    return factory(owner, worker, **options)


providers.add("docker", docker_provider)


def swarm_provider(owner: str, worker: str, **options: Any) -> Provider:
    """The ``swarm`` registry entry, importing :mod:`.swarm.provider` only when a run makes one."""
    from pytest_spider2v.providers.swarm.provider import factory

    return factory(owner, worker, **options)


providers.add("swarm", swarm_provider)
