"""One task item's run: environment, episode, evaluation and record, with retries for faults.

:class:`TaskRun` is what the plugin's ``spider2v_run`` fixture hands a task item. The item's body
asks it for the outcome (or, for a ``--validate`` check, first for its environments), so the flow
stays one-way (task -> setup -> episode -> evaluation -> record) and nothing reaches into
fixtures by name.

Whose outcome: every outcome that is not a pass is charged to someone, on evidence
(:class:`~pytest_spider2v.run.results.Charge`). A score below 1 is the agent's. From the agent's
first action on, a failure to observe, to read the final state or to run the evaluation is the
agent's too, scored 0 with its cause, unless the host shows an outside cause (the environment's
witness: the container killed, stopped or paused by its engine, the host short of memory or disk,
the node lost); with one it is the environment's. Before the first action every fault is the
environment's. The harness's own exceptions, and a run stopped before the task ended, are the
harness's.

Retries: a fault charged to the environment (the container dies or hangs, a guest request fails,
a setup step fails) ends the attempt; with ``retries=N`` it is recorded (its steps move to
``attempt_K/``) and the task starts over on a fresh environment, at most N more times. A score,
even 0, is a result and is never retried, nor is anything charged to the agent: a fresh
environment would meet the same agent.

Integrity: where the environment has a witness, the state the setup left is taken just before the
first action (:class:`~pytest_spider2v.run.integrity.Baseline`), and the evaluation runs sealed
(:mod:`pytest_spider2v.run.sealed`) between two tamper checks; tampering scores 0, flagged.

Watching: with ``live`` (or an agent that works through the live view, a person) each
environment is served to a browser as soon as it is acquired, so its setup can be watched too,
and the URL is announced and recorded. With ``record_video`` the episode is recorded from the
first observation to the end of the evaluation (:mod:`pytest_spider2v.run.recording`).

Stopping: a run stopped by Ctrl-C or SIGTERM (:mod:`pytest_spider2v.signals.stopping`) records each
task it cut short as ``interrupted``, naming the signal; ``--resume`` runs such a task again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import NoReturn

import pytest

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.registry import Unavailable
from pytest_spider2v.run.agent import Agent
from pytest_spider2v.run.episode import AgentBrokeEnvironment, first_observation, run_episode
from pytest_spider2v.run.evaluation import Evaluation, evaluate
from pytest_spider2v.run.integrity import Baseline, Integrity
from pytest_spider2v.run.recording import recording
from pytest_spider2v.run.records import TaskRecord, recorded_outcome
from pytest_spider2v.run.results import Charge, Flag, IntegrityCheck
from pytest_spider2v.run.sealed import SealedEnvironment, Tampered
from pytest_spider2v.run.settings import RunSettings
from pytest_spider2v.run.setup_steps import SetupFailed, set_up
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.signals.stopping import stop_reason
from pytest_spider2v.tasks.availability import Accounts, task_emulators, unavailable_reasons
from pytest_spider2v.tasks.model import Task

log = logging.getLogger(__name__)


#: What a new attempt on a fresh environment may cure.
INFRASTRUCTURE_FAULTS: tuple[type[BaseException], ...] = (EnvironmentFault, SetupFailed)


class TaskRun:
    """The run of one task item. The environment is acquired on first use, so a task that
    cannot run here (account, unavailable name, agent without a key) never starts one."""

    def __init__(self, task: Task, record: TaskRecord, agent_name: str, make_agent: Callable[[], Agent],
                 provider: Callable[[], Provider], settings: RunSettings, accounts: Accounts = Accounts(),
                 announce: Callable[[str], None] = log.info) -> None:
        self.task = task
        self.record = record
        self.agent_name = agent_name
        self._make_agent = make_agent
        self._provider = provider
        self.settings = settings
        self.accounts = accounts
        self._announce = announce
        self._ctx: TaskContext | None = None
        self._agent: Agent | None = None  #: once made: whether it works through the live view
        self._attempts_left = settings.retries
        self._acted = False  #: whether the agent's first action of this attempt ran
        self._began = 0.0  #: when this attempt began (epoch seconds): outside causes count from here

    # -- environments -------------------------------------------------------------------------
    def skip_if_unavailable(self) -> None:
        """Skip (and record why) a task that needs what this run does not have."""
        reasons = unavailable_reasons(self.task, self.accounts)
        if reasons:
            self.skip("; ".join(reasons))

    def context(self) -> TaskContext:
        """The task's environment, restored and set up (once; again after a retried fault)."""
        while self._ctx is None:
            self.skip_if_unavailable()
            try:
                self._ctx = self._prepare()
            except INFRASTRUCTURE_FAULTS as exc:
                self._fault(exc)
        return self._ctx

    @contextmanager
    def extra_environment(self) -> Iterator[TaskContext]:
        """Another environment of the task, set up but not recorded (the reset check compares
        two). Released before the task's own is acquired, so a worker holds one at a time. A fault
        while it is set up is retried on a fresh environment like the task's own, from the same
        ``retries``: a service that did not come up once says nothing of the task's resets."""
        if self._ctx is not None:
            raise RuntimeError("an extra environment must come before the task's own")
        provider = self._provider()
        while True:
            env = _acquire(provider, self.task.spec.snapshot)
            try:
                ctx = TaskContext(env, self.task, self.record.cache_dir / "extra", self.accounts.settings_dir,
                                  emulated=self.accounts.emulate)
                self._setup(ctx)
                break
            except INFRASTRUCTURE_FAULTS as exc:
                provider.release(env)
                self._fault(exc)
            except BaseException:
                provider.release(env)
                raise
        try:
            yield ctx
        finally:
            provider.release(env)

    def _prepare(self) -> TaskContext:
        provider = self._provider()
        started = time.monotonic()
        env = _acquire(provider, self.task.spec.snapshot)
        try:
            self.record.time("restore", time.monotonic() - started)
            if env.node:
                self.record.placed(env.node)
            if env.image:
                self.record.ran_from(env.image)
            self._open_live_view(env)
            ctx = TaskContext(env, self.task, self.record.cache_dir, self.accounts.settings_dir,
                              emulated=self.accounts.emulate)
            started = time.monotonic()
            self._setup(ctx)
            self.record.time("setup", time.monotonic() - started)
            if ctx.emulated and self.task.account:
                titles = [emulator.title for emulator in task_emulators(self.task).values() if emulator is not None]
                self.record.flag(Flag.emulated(titles, ctx.waived))
            return ctx
        except BaseException:
            provider.release(env)
            raise

    def _open_live_view(self, env: Environment) -> None:
        """Serve ``env`` to a browser when the run or the agent asks for it: view-only, or with
        input for an agent that needs it (which cannot work without one: its failure is a fault)."""
        with_input = self._agent is not None and self._agent.needs_live_input
        if not (self.settings.live or with_input):
            return
        who = self.record.result.nodeid or self.task.key
        if not env.display:
            reason = f"the '{self.task.spec.snapshot}' environment has no screen"
            if with_input:
                self.skip(f"agent '{self.agent_name}' works through the live view, and {reason}")
            self.record.not_watched(reason)
            self._announce(f"no live view of {who}: {reason}")
            return
        try:
            url = env.live_view(view_only=not with_input)
        except EnvironmentFault as exc:
            if with_input:
                raise
            self.record.not_watched(str(exc))
            self._announce(f"no live view of {who}: {exc}")
            return
        page = self._agent.live_view_opened(url) if self._agent is not None else None
        self.record.watched(url, view_only=not with_input, page=page)
        self._announce(f"live view of {who}: {url}" + (" (input enabled)" if with_input else ""))
        if page:
            self._announce(f"{self.agent_name} agent's page for {who}: {page}")

    def _setup(self, ctx: TaskContext) -> None:
        try:
            set_up(ctx)
        except Unavailable as exc:
            self.skip(str(exc))

    def _release(self) -> None:
        if self._ctx is not None:
            ctx, self._ctx = self._ctx, None
            self._provider().release(ctx.env)

    def close(self) -> None:
        """Release the environment; a run stopped by a signal first records, in a task it cut
        short, that it was interrupted and by what (the record stays resumable)."""
        if stop_reason() is not None:
            self._interrupted()
        self._release()

    def _interrupted(self) -> None:
        """Record, in a task still under way, that the run was stopped, and by what."""
        if self.record.result.status == "running":
            reason = stop_reason() or "KeyboardInterrupt"
            detail = f"the run was stopped ({reason}) before this task ended"
            self.record.finish("interrupted", None, detail, charge=Charge("harness", detail))

    # -- outcome --------------------------------------------------------------------------------
    def outcome(self) -> Evaluation:
        """The task's score and its explanation: the agent's episode, then the evaluation."""
        # A record is finished before the episode only when --resume kept an earlier one.
        result = recorded_outcome(self.record.result, self.agent_name)
        if result is not None:
            return Evaluation(float(result.score or 0.0), result.detail, result.evaluation)
        try:  # the agent first: one that cannot run here skips the task before any environment starts
            agent = self._make_agent()
            agent.reset(self.task)
        except Unavailable as exc:
            self.skip(str(exc))
        self._agent = agent
        if agent.replays is not None:
            self.record.replaying(agent.replays)
        while True:
            self._began, self._acted = time.time(), False
            ctx = self.context()
            try:
                evaluation = self._episode_and_evaluation(ctx, agent)
                break
            except Unavailable as exc:
                self.skip(str(exc))
            except AgentBrokeEnvironment as exc:
                return self._agent_broke_environment(exc)
            except INFRASTRUCTURE_FAULTS as exc:
                outside = self._outside_cause(ctx)
                if self._acted and outside is None:
                    return self._failed_after_acting(ctx, exc)
                self._fault(exc, outside)
                agent.reset(self.task)
            except KeyboardInterrupt:
                self._interrupted()
                raise
            except BaseException as exc:
                detail = f"{type(exc).__name__}: {exc}"
                self.record.finish("error", None, detail, charge=Charge("harness", detail))
                raise
        status = "passed" if evaluation.score == 1 else "failed"
        tampered = any(flag.kind == "tampered" for flag in self.record.result.flags)
        cause = "tampered with what the evaluation takes as given" if tampered else f"scored {evaluation.score:g}"
        charge = None if status == "passed" else Charge("agent", cause, (evaluation.detail,))
        self.record.finish(status, evaluation.score, evaluation.detail, evaluation.metrics, charge)
        return evaluation

    def _episode_and_evaluation(self, ctx: TaskContext, agent: Agent) -> Evaluation:
        record, started = self.record, time.monotonic()
        first = first_observation(ctx.env, agent.needs_accessibility_tree)
        record.first_observation(first.screenshot, first.accessibility_tree)
        timings = record.result.timings
        record.time("reset", timings.seconds("restore") + timings.seconds("setup") + time.monotonic() - started)
        witness = ctx.env.witness
        started = time.monotonic()
        baseline = Baseline.take(ctx.env, witness) if witness is not None else None
        checking = time.monotonic() - started

        def first_action() -> None:
            ctx.env.agent_starts()
            self._acted = True

        with recording(ctx.env, record) if self.settings.record_video else nullcontext():
            started = time.monotonic()
            episode = run_episode(ctx, agent, record, first, agent.episode_settings(self.settings.episode),
                                  first_action)
            record.stopped(episode.stop_reason)
            record.time("episode", time.monotonic() - started)
            started = time.monotonic()
            if baseline is None:
                record.checked_integrity(IntegrityCheck(False, reason="the environment has no witness (no engine "
                                                                      "to ask): its evaluation ran through its guest"))
                evaluation = evaluate(ctx)
            else:
                evaluation = self._sealed_evaluation(ctx, baseline, checking)
            record.time("evaluation", time.monotonic() - started)
        return evaluation

    def _sealed_evaluation(self, ctx: TaskContext, baseline: Baseline, checking: float) -> Evaluation:
        """The evaluation through the engine, between the tamper checks (:mod:`.integrity`);
        ``checking``: the seconds the baseline took, counted with the checks' cost."""
        assert ctx.env.witness is not None
        integrity = Integrity(ctx.env.witness, baseline)
        started = time.monotonic()
        integrity.before_evaluation()
        left = tuple(process.command for process in integrity.left_running())
        checking += time.monotonic() - started
        evaluation: Evaluation | None = None
        if integrity.findings:
            self.record.checked_integrity(IntegrityCheck(True, tuple(map(str, integrity.findings)), left,
                                                         round(checking, 4)))
            return self._tampered(integrity)
        sealed = SealedEnvironment(ctx.env, ctx.env.witness, integrity, baseline.environment)
        try:
            evaluation = evaluate(replace(ctx, env=sealed, integrity=integrity))
        except Tampered:
            pass  # its findings are the integrity's
        except BaseException:
            if not self._checked_after(integrity, left, checking):
                raise  # nothing tampered with: the failure stands as it is
            return self._tampered(integrity)
        self._checked_after(integrity, left, checking)
        if integrity.findings or evaluation is None:
            return self._tampered(integrity)
        return evaluation

    def _tampered(self, integrity: Integrity) -> Evaluation:
        findings = "; ".join(map(str, integrity.findings))
        self.record.flag(Flag("tampered", findings))
        return Evaluation(0.0, f"score 0: tampered with what the evaluation takes as given: {findings}", [])

    def _checked_after(self, integrity: Integrity, left: tuple[str, ...], checking: float) -> bool:
        """The check after the evaluation, recorded with the rest; whether anything was found
        (a check that cannot run, the environment broken, finds nothing)."""
        started = time.monotonic()
        try:
            integrity.after_evaluation()
        except EnvironmentFault as exc:
            log.warning("%s: the tamper check after the evaluation could not run: %s", self.task.key, exc)
        checking += time.monotonic() - started
        self.record.checked_integrity(IntegrityCheck(True, tuple(map(str, integrity.findings)), left,
                                                     round(checking, 4)))
        return bool(integrity.findings)

    # -- endings ------------------------------------------------------------------------------
    def _agent_broke_environment(self, exc: AgentBrokeEnvironment) -> Evaluation:
        """The agent's action broke its environment from inside (a limit, the guest killed):
        score 0, flagged with the cause, no retry and no evaluation (nothing is left to evaluate)."""
        self.record.stopped(f"the agent's action broke its environment (step {exc.step})")
        return self._charged_to_agent(str(exc), str(exc.fault), "the environment was broken from inside: "
                                                               f"{exc.fault}")

    def _failed_after_acting(self, ctx: TaskContext, exc: BaseException) -> Evaluation:
        """A failure after the agent's first action that the host shows no outside cause for."""
        fault = f"{type(exc).__name__}: {exc}"
        if ctx.env.witness is None:
            evidence = "the environment has no witness to show an outside cause"
        else:
            evidence = ("its engine shows the container not killed, stopped or paused from outside, and the host "
                        "was not short of memory or disk")
        if not self.record.result.stop_reason:
            self.record.stopped(f"the environment failed during the episode: {fault}")
        return self._charged_to_agent(f"the environment failed after the agent's first action: {fault}", fault,
                                      evidence)

    def _charged_to_agent(self, detail: str, fault: str, evidence: str) -> Evaluation:
        self.record.flag(Flag("agent_broke_environment", fault))
        message = f"score 0: {detail}"
        self.record.finish("failed", 0.0, message, [], Charge("agent", detail, (evidence,)))
        return Evaluation(0.0, message, [])

    def _outside_cause(self, ctx: TaskContext) -> str | None:
        """What failed the environment from outside since the attempt began, as its witness shows
        it. Not only since the first action: a container killed while the model was thinking fails
        the first action, and is no more the agent's doing than one killed after it."""
        witness = ctx.env.witness
        if witness is None:
            return None
        try:
            return witness.outside_cause(self._began)
        except EnvironmentFault as exc:
            return f"its engine could not be asked ({exc})"

    def _fault(self, exc: BaseException, outside: str | None = None) -> None:
        """A fault charged to the environment: retry on a fresh environment if attempts are left,
        else end the task as an error (raised, so pytest reports an error, not a failure)."""
        detail = f"{type(exc).__name__}: {exc}" + (f" (outside cause: {outside})" if outside else "")
        self._release()
        if self._attempts_left <= 0:
            when = "after the agent's first action, with an outside cause" if self._acted else "before the agent acted"
            self.record.finish("error", None, detail,
                               charge=Charge("environment", detail, (when,) + ((outside,) if outside else ())))
            raise exc
        self._attempts_left -= 1
        log.warning("%s: %s; retrying on a fresh environment (%d more allowed)", self.task.key, detail,
                    self._attempts_left)
        self.record.retry(detail)

    def skip(self, reason: str) -> None:
        """Skip the task, and record why."""
        self.record.finish("skipped", None, reason)
        pytest.skip(reason)

    def fail(self, message: str) -> NoReturn:
        """Fail the task without a score, and record why: a check of the task itself (two resets
        that differ) failed before any agent ran."""
        self.record.finish("failed", None, message)
        pytest.fail(message, pytrace=False)


def _acquire(provider: Provider, snapshot: str) -> Environment:
    """Acquire an environment, retrying once at once: a fresh container is always safe to retry."""
    try:
        return provider.acquire(snapshot)
    except EnvironmentFault as first:
        log.warning("acquiring %s failed, retrying once: %s", snapshot, first)
        return provider.acquire(snapshot)
