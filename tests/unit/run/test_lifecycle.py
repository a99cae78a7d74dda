"""TaskRun's charges and retry rule: a fault before the agent's first action, or one the engine
shows an outside cause for, is the environment's and starts the task over; a score, an environment
the agent's action broke from inside, and a fault after its first action with no outside cause
are the agent's, scored 0 and never retried; the harness's own exceptions are the harness's.

The environments here are stand-ins (the end-to-end test kills a real container); what is under
test is which endings are retried and what the record keeps.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from _pytest.outcomes import Skipped

from pytest_spider2v.environments.base import BrokenFromInside, EnvironmentFault, ExecResult
from pytest_spider2v.run import lifecycle as taskrun
from pytest_spider2v.run.agent import Observation, Turn
from pytest_spider2v.run.lifecycle import TaskRun
from pytest_spider2v.run.settings import EpisodeSettings, RunSettings
from pytest_spider2v.signals import stopping
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import constant_evaluator, make_task, start_record, task_document
from pytest_spider2v.testing.fakes import Command, FakeEnvironment, FakeProvider, FakeWitness, OneActionAgent


def task(expected: str = "x", config: list | None = None) -> Task:
    return make_task(task_document(id="t", instruction="x", related_apps=["terminal"],
                                   tags=["traditional_data_processing", "cli"], config=config or [],
                                   evaluator=constant_evaluator(expected=expected)))


KILLED = "env-1 was sent signal 9 by its engine (docker kill, stop or rm) at 12:00:00"


def guest(broken: bool, setup_works: bool = False, outside: str | None = KILLED) -> FakeEnvironment:
    """A guest whose actions fail while it is ``broken`` (its server is gone), the engine showing
    ``outside`` as the cause, and whose setup commands fail (a full disk) unless ``setup_works``."""

    def execute(command: Command) -> ExecResult:
        if command[:2] == ["python3", "-c"]:  # an action: run_python runs it so
            if broken:
                raise EnvironmentFault("POST /execute failed: connection refused")
            return ExecResult(0, "", "")
        if command[:2] == ["env", "-0"] or setup_works:  # the baseline asks the guest for its environment
            return ExecResult(0, "HOME=/home/user\0", "")
        raise OSError("no space left on device")

    return FakeEnvironment(screen=b"png", on_execute=execute, witness=FakeWitness(outside=outside if broken else None))


def fake_provider(broken: int = 0, failing_setups: int | None = None, outside: str | None = KILLED) -> FakeProvider:
    """Hands out environments; the first ``broken`` of them fail when used (with ``outside`` as the
    cause the engine shows), and the first ``failing_setups`` fail their setup's command (a service
    that did not come up; default: all)."""

    def make(n: int) -> FakeEnvironment:
        return guest(broken=n < broken, setup_works=failing_setups is not None and n >= failing_setups,
                     outside=outside)

    return FakeProvider(make)


@pytest.fixture(autouse=True)
def instant_first_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taskrun, "first_observation", lambda env, with_tree: Observation(env.screenshot()))


def make_run(tmp_path: Path, provider: FakeProvider, agent: OneActionAgent, retries: int,
             the_task: Task | None = None) -> TaskRun:
    the_task = the_task or task()
    record = start_record(tmp_path / "record", the_task)
    settings = RunSettings(EpisodeSettings(max_steps=5, sleep_after_action=0), retries=retries)
    return TaskRun(the_task, record, "fake", lambda: agent, lambda: provider, settings)


def test_a_fault_the_engine_shows_an_outside_cause_for_is_retried_on_a_fresh_environment(tmp_path: Path) -> None:
    provider, agent = fake_provider(broken=1), OneActionAgent()
    run = make_run(tmp_path, provider, agent, retries=2)
    assert run.outcome().score == 1.0
    run.close()
    assert len(provider.acquired) == 2 and provider.released == provider.acquired
    assert agent.resets == 2
    result = run.record.result
    assert result.status == "passed" and [a.number for a in result.attempts] == [1]
    assert "POST /execute failed" in result.attempts[0].detail and KILLED in result.attempts[0].detail
    assert result.charge is None  # a pass is charged to no one


def test_faults_beyond_the_retries_end_the_task_as_an_error_charged_to_the_environment(tmp_path: Path) -> None:
    provider = fake_provider(broken=3)
    run = make_run(tmp_path, provider, OneActionAgent(), retries=1)
    with pytest.raises(EnvironmentFault):
        run.outcome()
    assert len(provider.acquired) == 2 and provider.released == provider.acquired
    result = run.record.result
    assert result.status == "error" and len(result.attempts) == 1
    assert result.charge is not None and result.charge.party == "environment"
    assert KILLED in result.charge.evidence


def test_a_fault_after_the_first_action_without_an_outside_cause_is_the_agents_0_never_retried(
        tmp_path: Path) -> None:
    """The agent made its output unreadable, or killed the display: its environment fails after it
    acted, and its engine shows nothing done to it from outside."""
    provider = fake_provider(broken=3, outside=None)
    run = make_run(tmp_path, provider, OneActionAgent(), retries=2)
    evaluation = run.outcome()
    run.close()
    result = run.record.result
    assert evaluation.score == 0.0 and (result.status, result.score, result.attempts) == ("failed", 0.0, [])
    assert len(provider.acquired) == 1
    assert result.charge is not None and result.charge.party == "agent"
    assert "POST /execute failed" in result.charge.cause
    assert "not killed, stopped or paused from outside" in result.charge.evidence[0]


def test_a_container_killed_while_the_model_thought_is_an_outside_cause_though_it_fails_the_first_action(
        tmp_path: Path) -> None:
    """The kill comes before the first action (the model is still answering), the failure at it:
    the engine's events count from the attempt's start, so the fault is the environment's, retried."""
    provider = fake_provider(broken=1)

    class KilledWhileThinking(OneActionAgent):
        def act(self, instruction: str, observation: Observation) -> Turn:
            witness = provider.acquired[-1].witness
            if self.resets == 1 and self.turns == 0 and isinstance(witness, FakeWitness):
                witness.outside_at = time.time()  # docker kill, while the model answers
                time.sleep(0.01)
            return super().act(instruction, observation)

    run = make_run(tmp_path, provider, KilledWhileThinking(), retries=1)
    assert run.outcome().score == 1.0
    run.close()
    result = run.record.result
    assert len(provider.acquired) == 2 and [a.number for a in result.attempts] == [1]
    assert KILLED in result.attempts[0].detail


def test_without_a_witness_a_fault_after_the_first_action_is_the_agents_by_the_rule(tmp_path: Path) -> None:
    def make(n: int) -> FakeEnvironment:
        env = guest(broken=True)
        env.witness = None
        return env

    provider = FakeProvider(make)
    run = make_run(tmp_path, provider, OneActionAgent(), retries=2)
    assert run.outcome().score == 0.0
    charge = run.record.result.charge
    assert charge is not None and charge.party == "agent" and "no witness" in charge.evidence[0]
    assert run.record.result.integrity is None  # it never reached the evaluation


def test_a_harness_exception_is_an_error_charged_to_the_harness(tmp_path: Path) -> None:
    class Crashing(OneActionAgent):
        def act(self, instruction: str, observation: Observation) -> Turn:
            raise ZeroDivisionError("a bug of the harness's agent code")

    run = make_run(tmp_path, fake_provider(failing_setups=0), Crashing(), retries=2)
    with pytest.raises(ZeroDivisionError):
        run.outcome()
    charge = run.record.result.charge
    assert run.record.result.status == "error" and charge is not None and charge.party == "harness"


def test_a_score_of_0_is_a_result_charged_to_the_agent_and_never_retried(tmp_path: Path) -> None:
    provider = fake_provider()
    run = make_run(tmp_path, provider, OneActionAgent(), retries=3, the_task=task(expected="y"))
    assert run.outcome().score == 0.0
    assert len(provider.acquired) == 1 and run.record.result.attempts == []
    assert run.record.result.status == "failed"
    charge = run.record.result.charge
    assert charge is not None and (charge.party, charge.cause) == ("agent", "scored 0")


def test_an_agent_that_breaks_its_environment_scores_0_and_is_never_retried(tmp_path: Path) -> None:
    """A limit reached (or the guest killed) by the agent's own action is the agent's failure."""

    def hog(command: Command) -> ExecResult:
        if command[:2] == ["python3", "-c"]:
            raise BrokenFromInside("env-1: the environment hit its memory limit of 2g (1 process OOM-killed)")
        return ExecResult(0, "", "")

    provider = FakeProvider(lambda n: FakeEnvironment(screen=b"png", on_execute=hog))
    run = make_run(tmp_path, provider, OneActionAgent(), retries=2)
    evaluation = run.outcome()
    run.close()
    result = run.record.result
    assert evaluation.score == 0.0 and (result.status, result.score) == ("failed", 0.0)
    assert len(provider.acquired) == 1 and result.attempts == []  # not retried
    assert [(f.kind, f.reason) for f in result.flags] == [
        ("agent_broke_environment", "env-1: the environment hit its memory limit of 2g (1 process OOM-killed)")]
    assert result.detail.startswith("score 0: step 1: the agent's action broke its environment: env-1: the environment")
    (step,) = result.steps
    assert step.info["status"] == "error" and "memory limit of 2g" in str(step.info["message"])
    assert result.stop_reason == "the agent's action broke its environment (step 1)"
    assert result.charge is not None and result.charge.party == "agent"


def test_the_same_fault_in_a_setup_step_stays_an_error_and_is_retried(tmp_path: Path) -> None:
    """Broken from inside, but not by the agent: the task's own setup is the harness's business."""
    def broken_setup(command: Command) -> ExecResult:
        raise BrokenFromInside("env: the environment reached its process limit of 1024 (3 forks refused)")

    provider = FakeProvider(lambda n: FakeEnvironment(screen=b"png", on_execute=broken_setup))
    setup = task(config=[{"type": "execute", "parameters": {"command": ["true"]}}])
    run = make_run(tmp_path, provider, OneActionAgent(), retries=1, the_task=setup)
    with pytest.raises((EnvironmentFault, taskrun.SetupFailed)):
        run.outcome()
    run.close()
    assert len(provider.acquired) == 2 and run.record.result.status == "error"
    assert run.record.result.flags == []


def test_a_failing_setup_step_is_retried_then_reported(tmp_path: Path) -> None:
    provider = fake_provider()
    failing = task(config=[{"type": "execute", "parameters": {"command": ["false"]}}])
    run = make_run(tmp_path, provider, OneActionAgent(), retries=1, the_task=failing)
    with pytest.raises(taskrun.SetupFailed, match="setup failed"):
        run.context()
    assert len(provider.acquired) == 2 and run.record.result.status == "error"
    charge = run.record.result.charge
    assert charge is not None and charge.party == "environment" and charge.evidence[0] == "before the agent acted"


SETUP = [{"type": "execute", "parameters": {"command": ["spider2v-service", "start", "airflow"]}}]


def test_the_reset_checks_extra_environment_is_retried_after_a_setup_fault(tmp_path: Path) -> None:
    provider = fake_provider(failing_setups=1)
    run = make_run(tmp_path, provider, OneActionAgent(), retries=1, the_task=task(config=SETUP))
    with run.extra_environment() as extra:
        assert extra.env is provider.acquired[1]
    assert len(provider.acquired) == 2 and provider.released == provider.acquired
    attempts = run.record.result.attempts
    assert len(attempts) == 1 and "setup failed" in attempts[0].detail


def test_the_extra_environments_faults_beyond_the_retries_end_the_task_as_an_error(tmp_path: Path) -> None:
    provider = fake_provider(failing_setups=5)
    run = make_run(tmp_path, provider, OneActionAgent(), retries=1, the_task=task(config=SETUP))
    with pytest.raises(taskrun.SetupFailed, match="no space left"):
        with run.extra_environment():
            pytest.fail("an environment whose setup failed was handed out")
    assert len(provider.acquired) == 2 and provider.released == provider.acquired
    assert run.record.result.status == "error"


def test_an_agent_that_cannot_run_skips_before_any_environment(tmp_path: Path) -> None:
    from pytest_spider2v.registry import Unavailable

    class NoKey(OneActionAgent):
        def reset(self, task: Task) -> None:
            raise Unavailable("agent", "gpt-4o", "set OPENAI_API_KEY")

    provider = fake_provider()
    run = make_run(tmp_path, provider, NoKey(), retries=1)
    with pytest.raises(Skipped):
        run.outcome()
    assert provider.acquired == [] and run.record.result.status == "skipped"


def test_a_failed_check_of_the_task_ends_it_as_failed_without_a_score(tmp_path: Path) -> None:
    provider = fake_provider()
    run = make_run(tmp_path, provider, OneActionAgent(), retries=1)
    with pytest.raises(pytest.fail.Exception, match="two resets gave different accessibility trees"):
        run.fail("two resets gave different accessibility trees: ...")
    assert (run.record.result.status, run.record.result.score) == ("failed", None)
    assert run.record.result.detail == "two resets gave different accessibility trees: ..."


class StoppedAgent(OneActionAgent):
    """An agent whose episode the run's stop cuts short: SIGTERM arrives during its first turn."""

    def act(self, instruction: str, observation: Observation) -> Turn:
        os.kill(os.getpid(), signal.SIGTERM)
        raise AssertionError("the stop signal raises before this line")


def test_a_stopped_run_records_its_unfinished_task_as_interrupted(tmp_path: Path) -> None:
    provider = fake_provider(failing_setups=0)
    run = make_run(tmp_path, provider, StoppedAgent(), retries=2)
    restore = stopping.install()
    try:
        with pytest.raises(KeyboardInterrupt, match="SIGTERM"):
            run.outcome()
        run.close()
    finally:
        restore()
    result = run.record.result
    assert (result.status, result.score) == ("interrupted", None)
    assert result.detail == "the run was stopped (SIGTERM) before this task ended"
    assert result.charge is not None and result.charge.party == "harness"
    assert len(provider.acquired) == 1 and provider.released == provider.acquired  # not retried, released


def test_without_a_stop_closing_an_unfinished_run_leaves_its_record_as_it_is(tmp_path: Path) -> None:
    run = make_run(tmp_path, fake_provider(failing_setups=0), OneActionAgent(), retries=0)
    run.context()  # a validate check's environment, then closed without an outcome
    run.close()
    assert run.record.result.status == "running"
