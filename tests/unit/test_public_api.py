"""The Extending example (docs/extending/index.md) registers one of each kind of extension through
the public API (its run in a real container is tests/e2e/test_extending_example.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest_spider2v
from tests.support.docs import example_blocks

CHECK = """
import json, sys
from pytest_spider2v import AgentSettings, Observation
from pytest_spider2v.registry import agents, getters, load_extensions, metrics, providers, setup_steps
load_extensions()  # as a pytest run has before any conftest.py: the built-in packages bound to their names
exec(compile(sys.stdin.read(), "docs/extending/index.md", "exec"), {})
agent = agents.get("shouter")(AgentSettings("shouter"))
agent.reset(None)
first, second = agent.act("x", Observation(None)), agent.act("x", Observation(None))
print(json.dumps({
    "step": "write_note" in setup_steps, "getter": "note_text" in getters, "provider": "docker-1cpu" in providers,
    "metric": [metrics.get("shouted")("HELLO\\n", "hello"), metrics.get("shouted")("hello", "hello")],
    "turns": [len(first.actions), second.actions],
}))
"""


def test_the_example_registers_a_step_a_getter_a_metric_an_agent_and_a_provider() -> None:
    code = example_blocks("extending-example")["python"]
    done = subprocess.run([sys.executable, "-c", CHECK], input=code, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"step": True, "getter": True, "provider": True, "metric": [1.0, 0.0],
                                       "turns": [1, ["DONE"]]}


def test_the_example_task_is_a_valid_task_file(tmp_path) -> None:
    task = json.loads(example_blocks("extending-example")["json"])
    assert task["config"][0]["type"] == "write_note" and task["evaluator"]["func"] == "shouted"


def test_the_public_api_names_only_what_it_exports() -> None:
    assert all(hasattr(pytest_spider2v, name) for name in pytest_spider2v.__all__)
