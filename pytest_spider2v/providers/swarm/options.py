"""The ``swarm`` provider's flags: where the cluster's manager, registry and node engines are. Each
defaults to its environment variable, as ``scripts/swarm-lab.sh env`` prints them."""

from __future__ import annotations

import os
from typing import Any

import pytest

MANAGER_VARIABLE = "SPIDER2V_SWARM_MANAGER"
REGISTRY_VARIABLE = "SPIDER2V_SWARM_REGISTRY"
NODE_ENGINE_VARIABLE = "SPIDER2V_SWARM_NODE_ENGINE"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("spider2v-swarm", "spider2v: --provider swarm")
    group.addoption("--swarm-manager", dest="spider2v_swarm_manager", default=os.environ.get(MANAGER_VARIABLE),
                    metavar="URL", help=f"a Swarm manager's engine API: tcp://HOST:2375, ssh://USER@HOST (${MANAGER_VARIABLE})")
    group.addoption("--swarm-registry", dest="spider2v_swarm_registry", default=os.environ.get(REGISTRY_VARIABLE),
                    metavar="HOST:PORT", help="the registry the nodes pull images from, as `spider2v-build --push` "
                                              f"named it (${REGISTRY_VARIABLE})")
    group.addoption("--swarm-node-engine", dest="spider2v_swarm_node_engine",
                    default=os.environ.get(NODE_ENGINE_VARIABLE), metavar="URL",
                    help="each node's engine API, {address} standing for the node's address: "
                         "tcp://{address}:2376 (TLS as DOCKER_TLS_VERIFY and DOCKER_CERT_PATH say); the harness "
                         f"reads the evidence that decides scores there (${NODE_ENGINE_VARIABLE})")


def pytest_spider2v_provider_options(config: pytest.Config, provider: str) -> dict[str, Any]:
    if provider != "swarm":
        return {}
    options = {"manager": config.getoption("spider2v_swarm_manager"),
               "registry": config.getoption("spider2v_swarm_registry"),
               "node_engine": config.getoption("spider2v_swarm_node_engine")}
    missing = [f"--swarm-{name.replace('_', '-')} (or ${variable})" for (name, value), variable
               in zip(options.items(), (MANAGER_VARIABLE, REGISTRY_VARIABLE, NODE_ENGINE_VARIABLE)) if not value]
    if missing:
        raise pytest.UsageError(f"--provider swarm needs {' and '.join(missing)}")
    return options
