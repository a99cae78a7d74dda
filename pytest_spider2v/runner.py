"""The episode loop: observe -> agent.act -> execute, until DONE/FAIL or a limit.

As in the paper, ``max_steps`` bounds agent *turns*; a turn may carry several actions. Unlike the
original, the screenshot recorded for a step is the state *after* that action (reference §9.6).
An environment without a screen (``display: false``) is observed through its actions' output
alone: no screenshots or trees, and no settle time, since nothing on a screen needs to settle.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from PIL import Image, ImageChops

from .actions import ActionError, computer13_to_code
from .agent import Action, Agent, Observation, action_kind, answer_of
from .context import TaskContext
from .environment import Environment
from .records import TaskRecord

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class EpisodeSettings:
    max_steps: int = 15
    time_limit: float = 1800.0
    sleep_after_action: float = 0.5


@dataclass
class Episode:
    """What happened: every action taken and why the loop stopped."""

    actions: list[Action] = field(default_factory=list)
    stop_reason: str = ""


def observe(env: Environment, with_tree: bool) -> Observation:
    if not env.display:
        return Observation(None)
    return Observation(env.screenshot(), env.accessibility_tree() if with_tree else None)


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
    slept a fixed 5 s here); a blinking caret does not count as a change."""
    if not env.display:
        return Observation(None)
    shot = settled(env.screenshot, lambda a, b: changed_fraction(a, b) > SETTLED_TOLERANCE,
                   quiet=1.0, timeout=10.0, interval=0.25)
    return Observation(shot, env.accessibility_tree() if with_tree else None)


#: Share of pixels that may change between two screenshots of a settled screen (a caret blinking).
SETTLED_TOLERANCE = 0.001


def changed_fraction(before: bytes, after: bytes) -> float:
    """Share of pixels that differ visibly between two PNG screenshots (1.0 if sizes differ)."""
    a, b = (Image.open(io.BytesIO(png)).convert("L") for png in (before, after))
    if a.size != b.size:
        return 1.0
    visible = ImageChops.difference(a, b).point(lambda v: 255 if v > 16 else 0)
    return visible.histogram()[255] / (a.width * a.height)


def execute(env: Environment, action: Action) -> dict[str, Any]:
    """Run one non-special action; returns the original ``/execute`` reply shape.

    A computer_13 dict is validated and translated to pyautogui code first; an invalid one is
    not run and comes back as ``{status: "error", message}``, as in the original.
    """
    if isinstance(action, dict):
        try:
            action = computer13_to_code(action)
        except ActionError as exc:
            return {"status": "error", "message": str(exc)}
    return env.run_python(action).as_info()


def run_episode(ctx: TaskContext, agent: Agent, record: TaskRecord, first: Observation,
                settings: EpisodeSettings) -> Episode:
    """Drive ``agent`` until it finishes or a limit is hit, recording every step."""
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
            record.step({"index": index + 1, "turn": turn_number, "response": turn.response, "action": None,
                         "kind": "none", "info": {"status": "error", "message": "no valid action in the reply"},
                         "duration": 0.0, "think": round(think, 4), "usage": turn.usage, "prompt": turn.prompt, "view": view})
        infos: list[dict[str, Any]] = []
        for position, action in enumerate(turn.actions):
            first_of_turn = position == 0
            index += 1
            kind = action_kind(action)
            started = time.monotonic()
            if kind == "code":
                info = execute(ctx.env, action)
            else:
                info = {"status": "success", "output": "", "error": "", "returncode": 0}
            if kind == "WAIT":
                time.sleep(settings.sleep_after_action)
            if ctx.env.display:  # the screen's settle time
                time.sleep(settings.sleep_after_action)
            observation = observe(ctx.env, agent.needs_accessibility_tree)
            files = record.observation(index, observation.screenshot, observation.accessibility_tree)
            answer = answer_of(action)
            record.step({"index": index, "turn": turn_number, "response": turn.response, "action": action,
                         "kind": kind, "info": info, "duration": round(time.monotonic() - started, 4),
                         "think": round(think, 4) if first_of_turn else 0.0, "observation": files,
                         "usage": turn.usage if first_of_turn else {}, "prompt": turn.prompt if first_of_turn else [],
                         "view": view if first_of_turn else None, **({"answer": answer} if answer is not None else {})})
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

