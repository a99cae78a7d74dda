"""``noop``: answers DONE at once. Every task must score 0 with it (the do-nothing baseline)."""

from __future__ import annotations

from pytest_spider2v.registry import agents
from pytest_spider2v.run.agent import Agent, AgentSettings, Observation, Turn
from pytest_spider2v.tasks.model import Task


class NoopAgent(Agent):
    needs_accessibility_tree = False

    def reset(self, task: Task) -> None:
        pass

    def act(self, instruction: str, observation: Observation) -> Turn:
        return Turn(response="DONE", actions=["DONE"])


@agents.register("noop")
def make_noop(settings: AgentSettings) -> NoopAgent:
    return NoopAgent()
