"""The swarm provider's flags: they reach the provider only when it is chosen, and a run that
chooses it without a manager, a registry or the nodes' engines is refused naming the flag and its
variable."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_spider2v.providers.swarm.options import pytest_spider2v_provider_options


class Config:
    def __init__(self, **options: Any) -> None:
        self.options = {"spider2v_swarm_manager": None,
                        "spider2v_swarm_registry": None, "spider2v_swarm_node_engine": None, **options}

    def getoption(self, name: str) -> Any:
        return self.options[name]


def test_the_flags_reach_the_swarm_provider_only() -> None:
    given = {"spider2v_swarm_manager": "tcp://10.0.0.1:2375", "spider2v_swarm_registry": "registry.lab:5000",
             "spider2v_swarm_node_engine": "tcp://{address}:2376"}
    assert pytest_spider2v_provider_options(Config(**given), "swarm") == {  # type: ignore[arg-type]
        "manager": "tcp://10.0.0.1:2375", "registry": "registry.lab:5000", "node_engine": "tcp://{address}:2376"}
    assert pytest_spider2v_provider_options(Config(**given), "docker") == {}  # type: ignore[arg-type]


def test_swarm_without_a_manager_registry_or_node_engines_is_refused_naming_each() -> None:
    with pytest.raises(pytest.UsageError, match=r"--provider swarm needs --swarm-manager \(or \$SPIDER2V_SWARM_MANAGER\) "
                                                r"and --swarm-registry \(or \$SPIDER2V_SWARM_REGISTRY\) and "
                                                r"--swarm-node-engine \(or \$SPIDER2V_SWARM_NODE_ENGINE\)"):
        pytest_spider2v_provider_options(Config(), "swarm")  # type: ignore[arg-type]
    with pytest.raises(pytest.UsageError, match=r"needs --swarm-registry .* and --swarm-node-engine"):
        pytest_spider2v_provider_options(Config(spider2v_swarm_manager="tcp://m:2375"), "swarm")  # type: ignore[arg-type]
    with pytest.raises(pytest.UsageError, match=r"needs --swarm-node-engine \(or \$SPIDER2V_SWARM_NODE_ENGINE\)$"):
        pytest_spider2v_provider_options(Config(spider2v_swarm_manager="tcp://m:2375",  # type: ignore[arg-type]
                                                spider2v_swarm_registry="r:5000"), "swarm")
