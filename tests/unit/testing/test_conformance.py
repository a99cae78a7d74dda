"""The testing kit's conformance suites run against the kit's own stand-ins and a built-in agent
(they must pass, as any provider's or agent's would), against ones that break the contract (the
suite must fail them, naming what broke), and against the docs' example agent."""

from __future__ import annotations

import pytest

from pytest_spider2v.agents.noop import NoopAgent
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.run.agent import Agent
from pytest_spider2v.testing.agent_conformance import AgentConformance
from pytest_spider2v.testing.fakes import OneActionAgent
from pytest_spider2v.testing.local import LocalProvider
from pytest_spider2v.testing.provider_conformance import ProviderConformance, ScreenConformance
from pytest_spider2v.testing.screen import ScreenProvider
from tests.support.docs import example_blocks
from tests.support.shared import REPO

TESTING_KIT_PAGE = REPO / "docs" / "extending" / "testing-kit.md"


class TestLocalProvider(ProviderConformance):
    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls) -> Provider:
        return LocalProvider()


class TestScreenProvider(ScreenConformance):
    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls) -> Provider:
        return ScreenProvider()


class TestOneActionAgent(AgentConformance):
    @pytest.fixture
    def agent(self) -> Agent:
        return OneActionAgent()


class TestNoopAgent(AgentConformance):
    @pytest.fixture
    def agent(self) -> Agent:
        return NoopAgent()


REUSING_PROVIDER = """
import pytest
from pytest_spider2v.testing.local import LocalProvider
from pytest_spider2v.testing.provider_conformance import ProviderConformance

class ReusingProvider(LocalProvider):
    '''Hands the same folder out again: what one task left, the next one sees.'''

    def acquire(self, snapshot):
        if not self.acquired:
            return super().acquire(snapshot)
        self.table[snapshot]
        return self.acquired[0]

    def release(self, env):
        pass

class TestReusingProvider(ProviderConformance):
    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls):
        return ReusingProvider()
"""


def test_a_provider_that_reuses_environments_fails_restore_and_isolation(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_reusing=REUSING_PROVIDER)
    result = pytester.runpytest_subprocess("-p", "no:spider2v", "-q")
    result.assert_outcomes(passed=7, failed=2)
    result.stdout.fnmatch_lines(["FAILED *test_restore_leaves_no_trace*",
                                 "FAILED *test_concurrent_environments_are_isolated*"])


WRONG_AGENT = """
import pytest
from pytest_spider2v.run.agent import Agent, Turn
from pytest_spider2v.testing.agent_conformance import AgentConformance

class WrongAgent(Agent):
    '''Answers with an action the episode cannot run.'''

    def reset(self, task):
        pass

    def act(self, instruction, observation):
        return Turn("click", [42])

class TestWrongAgent(AgentConformance):
    @pytest.fixture
    def agent(self):
        return WrongAgent()
"""


def test_an_agent_answering_what_cannot_run_fails(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_wrong=WRONG_AGENT)
    result = pytester.runpytest_subprocess("-p", "no:spider2v", "-q")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(["*an action is code, a special word or a dict, not 42*"])


def test_the_docs_agent_example_passes_the_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_wave_agent=example_blocks("agent-kit-example", TESTING_KIT_PAGE)["python"])
    pytester.runpytest_subprocess("-q").assert_outcomes(passed=5)  # as a reader runs it: the plugin loaded
