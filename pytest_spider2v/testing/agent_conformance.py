"""The agent conformance suite: what the run asks of every agent, as a base class an agent's own
tests subclass.

An agent author writes one test class and supplies an ``agent`` fixture::

    from pytest_spider2v.testing.agent_conformance import AgentConformance

    class TestMyAgent(AgentConformance):
        @pytest.fixture
        def agent(self) -> Agent:
            return MyAgent(AgentSettings("mine"))

The suite checks the contract of :class:`~pytest_spider2v.run.agent.Agent`: it is one; after
:meth:`~pytest_spider2v.run.agent.Agent.reset` it answers a turn whose actions are pyautogui code,
a special word or a computer_13 dict; a second reset starts over; it answers the episode's limits;
and it drives a whole episode, written into a record, in the screen stand-in (:mod:`.screen`),
where its code runs on the host without pyautogui: an agent must carry on when an action failed.
The ``task`` fixture (by default :func:`~.factories.make_task`) is what it is reset for; override
it for an agent that needs a task of its own kind.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.run.agent import SPECIAL_ACTIONS, Action, Agent, Observation, Turn, action_kind
from pytest_spider2v.run.episode import first_observation, run_episode
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_context, make_task, start_record
from pytest_spider2v.testing.screen import ScreenProvider

#: The turns the episode test allows: enough to see an agent answer more than once.
EPISODE_TURNS = 3


def assert_is_action(action: Action) -> None:
    """``action`` is one the episode can run: code, a special word, or a computer_13 dict."""
    if isinstance(action, dict):
        assert isinstance(action.get("action_type"), str), f"a computer_13 action needs an action_type: {action!r}"
    else:
        assert isinstance(action, str), f"an action is code, a special word or a dict, not {action!r}"
        assert action.strip(), "an empty action"
    assert action_kind(action) in (*SPECIAL_ACTIONS, "code")


def assert_is_turn(turn: Turn) -> None:
    """``turn`` is an answer the episode and the record take: a response, a list of actions."""
    assert isinstance(turn, Turn), f"act() must return a Turn, not {type(turn).__name__}"
    assert isinstance(turn.response, str) and isinstance(turn.actions, list)
    for action in turn.actions:
        assert_is_action(action)


class AgentConformance:
    """The contract of every agent (see the module). Needs an ``agent`` fixture; subclass it as
    ``Test...``."""

    @pytest.fixture
    def task(self) -> Task:
        """The task the agent is reset for."""
        return make_task()

    @pytest.fixture
    def environment(self) -> Iterator[Environment]:
        """An environment of the screen stand-in, for the agent's observations and its episode."""
        provider = ScreenProvider()
        yield provider.acquire("desktop")
        provider.close()

    @pytest.fixture
    def observation(self, environment: Environment) -> Observation:
        return Observation(environment.screenshot(), environment.accessibility_tree())

    def test_is_an_agent(self, agent: Agent) -> None:
        assert isinstance(agent, Agent)

    def test_answers_a_turn(self, agent: Agent, task: Task, observation: Observation) -> None:
        agent.reset(task)
        assert_is_turn(agent.act(task.instruction, observation))

    def test_reset_starts_over(self, agent: Agent, task: Task, observation: Observation) -> None:
        for _attempt in range(2):
            agent.reset(task)
            assert_is_turn(agent.act(task.instruction, observation))

    def test_answers_the_episode_limits(self, agent: Agent) -> None:
        assert isinstance(agent.episode_settings(EpisodeSettings()), EpisodeSettings)

    def test_drives_an_episode_into_a_record(self, agent: Agent, task: Task, environment: Environment,
                                             tmp_path: Path) -> None:
        record = start_record(tmp_path / "record", task, agent=type(agent).__name__)
        context = make_context(environment, task, cache_dir=record.cache_dir)
        agent.reset(task)
        first = first_observation(environment, agent.needs_accessibility_tree)
        episode = run_episode(context, agent, record, first,
                              EpisodeSettings(max_steps=EPISODE_TURNS, sleep_after_action=0.0))
        assert episode.stop_reason in ("DONE", "FAIL", f"step limit of {EPISODE_TURNS} turns reached")
        for action in episode.actions:
            assert_is_action(action)
        assert [step.action for step in record.result.steps if step.action is not None] == episode.actions
