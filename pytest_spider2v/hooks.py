"""Hooks that extensions implement (registered by the plugin via ``pytest_addhooks``)."""

from __future__ import annotations

import pytest


def pytest_spider2v_agent_options(config: pytest.Config) -> dict[str, str]:
    """Agent options an extension derives from its own command-line flags.

    Every implementation's dict is merged into ``AgentSettings.options`` (after the
    ``--agent-option`` values, which therefore can be overridden by first-class flags). This
    lets an agent family offer flags such as ``--temperature`` without the core knowing them.
    """
