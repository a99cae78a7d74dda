"""The episode loop: observe -> agent.act -> execute, until DONE/FAIL or a limit.

As in the paper, ``max_steps`` bounds agent *turns*; a turn may carry several actions. Unlike the
original, the screenshot recorded for a step is the state *after* that action (reference §9.6).
An environment without a screen (``display: false``) is observed through its actions' output
alone: no screenshots or trees, and no settle time, since nothing on a screen needs to settle.
An environment broken from inside between an action and the observation of its effect (a limit
reached, the guest killed) ends the episode as the agent's failure (:class:`AgentBrokeEnvironment`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar, cast

from pytest_spider2v.environments.base import BrokenFromInside, Environment
from pytest_spider2v.run.actions import ActionError, computer13_to_code
from pytest_spider2v.run.agent import Action, Agent, ExecutionInfo, Observation, action_kind, answer_of
from pytest_spider2v.run.records import TaskRecord
from pytest_spider2v.run.results import Step, StepTimings
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.signals.threads import leave_signals_to_main_thread

log = logging.getLogger(__name__)
T = TypeVar("T")


class AgentBrokeEnvironment(Exception):
    """An action of the agent broke its environment from inside (a limit reached, the guest server
    killed): the agent's failure, scored 0 and never retried, since a fresh environment would
    meet the same action. The step is recorded with the fault as its result."""

    def __init__(self, step: int, fault: BrokenFromInside) -> None:
        super().__init__(f"step {step}: the agent's action broke its environment: {fault}")
        self.step = step
        self.fault = fault


@dataclass
class Episode:
    """What happened: every action taken and why the loop stopped."""

    actions: list[Action] = field(default_factory=list)
    stop_reason: str = ""


def observe(env: Environment, with_tree: bool) -> tuple[Observation, dict[str, float]]:
    """The observation after an action, and the seconds its parts took (for the step's record).
    The tree is fetched while the screenshot is taken: the guest serves both at once."""
    timings: dict[str, float] = {}
    if not env.display:
        return Observation(None), timings

    def timed(name: str, fetch: Callable[[], T]) -> T:
        started = time.monotonic()
        value = fetch()
        timings[name] = round(time.monotonic() - started, 4)
        return value

    if not with_tree:
        return Observation(timed("screenshot", env.screenshot)), timings
    with ThreadPoolExecutor(max_workers=1, initializer=leave_signals_to_main_thread) as pool:
        tree = pool.submit(timed, "accessibility_tree", env.accessibility_tree)
        screenshot = timed("screenshot", env.screenshot)
        return Observation(screenshot, tree.result()), timings


def settled(read: Callable[[], T], changed: Callable[[T, T], bool], *, quiet: float, timeout: float,
            interval: float) -> T:
    """Poll ``read`` until ``changed`` has said no for ``quiet`` seconds; the latest read, or the
    latest at ``timeout``. Readiness by polling: applications keep painting, gaining focus and
    loading for a moment after their windows exist."""
    deadline = time.monotonic() + timeout
    current = read()
    since = time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < quiet:
        time.sleep(interval)
        latest = read()
        if changed(current, latest):
            since = time.monotonic()
        current = latest
    return current


def first_observation(env: Environment, with_tree: bool) -> Observation:
    """The first observation once the screen has stopped changing for a second (the original
    slept a fixed 5 s here); a blinking caret does not count as a change. The guest watches the
    screen, so the wait ends within a tenth of a second of the quiet second."""
    if not env.display:
        return Observation(None)
    env.wait_settled(quiet=1.0, timeout=10.0)
    observation, _ = observe(env, with_tree)
    return observation


def execute(env: Environment, action: Action) -> ExecutionInfo:
    """Run one non-special action; returns the original ``/execute`` reply shape.

    A computer_13 dict is validated and translated to pyautogui code first; an invalid one is
    not run and comes back as ``{status: "error", message}``, as in the original.
    """
    if isinstance(action, dict):
        try:
            action = computer13_to_code(action)
        except ActionError as exc:
            return ExecutionInfo(status="error", message=str(exc))
    return cast(ExecutionInfo, env.run_python(action).as_info())  # as_info gives exactly that shape


def run_episode(ctx: TaskContext, agent: Agent, record: TaskRecord, first: Observation,
                settings: EpisodeSettings, first_action: Callable[[], None] = lambda: None) -> Episode:
    """Drive ``agent`` until it finishes or a limit is hit, recording every step;
    ``first_action()`` is called once, just before the agent's first action runs."""
    episode = Episode()
    deadline = time.monotonic() + settings.time_limit
    observation = first
    index = 0
    for turn_number in range(1, settings.max_steps + 1):
        if time.monotonic() > deadline:
            episode.stop_reason = f"time limit of {settings.time_limit:g}s reached"
            return episode
        started = time.monotonic()
        turn = agent.act(ctx.task.instruction, observation)
        think = time.monotonic() - started
        record.add_usage(turn.usage)
        view = record.view(turn_number, turn.view) if turn.view else None
        if not turn.actions:
            record.step(Step(index + 1, turn_number, turn.response, None, "none",
                             ExecutionInfo(status="error", message="no valid action in the reply"), duration=0.0,
                             think=round(think, 4), usage=turn.usage, prompt=turn.prompt, view=view))
        infos: list[ExecutionInfo] = []
        for position, action in enumerate(turn.actions):
            first_of_turn = position == 0
            index += 1
            kind = action_kind(action)
            started = time.monotonic()
            if index == 1:
                first_action()
            try:  # from the action to the observation of its effect, a broken environment is the agent's
                if kind == "code":
                    info = execute(ctx.env, action)
                else:
                    info = ExecutionInfo(status="success", output="", error="", returncode=0)
                executed = time.monotonic()
                if kind == "WAIT":
                    time.sleep(settings.sleep_after_action)
                if ctx.env.display:  # the screen's settle time
                    time.sleep(settings.sleep_after_action)
                observation, observed = observe(ctx.env, agent.needs_accessibility_tree)
            except BrokenFromInside as fault:
                record.step(Step(index, turn_number, turn.response, action, kind,
                                 ExecutionInfo(status="error", message=str(fault)),
                                 duration=round(time.monotonic() - started, 4),
                                 think=round(think, 4) if first_of_turn else 0.0,
                                 usage=turn.usage if first_of_turn else {},
                                 prompt=turn.prompt if first_of_turn else [], view=view if first_of_turn else None))
                raise AgentBrokeEnvironment(index, fault) from fault
            files = record.observation(index, observation.screenshot, observation.accessibility_tree)
            answer = answer_of(action)
            record.step(Step(index, turn_number, turn.response, action, kind, info,
                             duration=round(time.monotonic() - started, 4),
                             think=round(think, 4) if first_of_turn else 0.0,
                             usage=turn.usage if first_of_turn else {}, prompt=turn.prompt if first_of_turn else [],
                             view=view if first_of_turn else None,
                             timings=StepTimings(round(executed - started, 4), observed), observation=files,
                             answer=answer))
            if answer is not None:
                record.answered(answer)
            infos.append(info)
            episode.actions.append(action)
            ctx.history.append(action)
            if kind in ("DONE", "FAIL"):
                episode.stop_reason = kind
                return episode
        observation = Observation(observation.screenshot, observation.accessibility_tree, tuple(infos))
    episode.stop_reason = f"step limit of {settings.max_steps} turns reached"
    return episode

