"""The agent seam: what an agent sees each turn and what it answers.

An agent is registered with a factory ``factory(settings) -> Agent`` in
:data:`pytest_spider2v.agents`; ``--agent NAME`` picks it. The runner owns the loop; agents
never touch the environment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, Union

from .task import Task

#: pyautogui code (str), a special word "WAIT" / "FAIL" / "DONE", or a computer_13 dict. DONE
#: carrying the agent's final answer is ``{"action_type": "DONE", "answer": text}`` in either
#: action space (:func:`done_with_answer`), for tasks that ask a question rather than a change.
Action = Union[str, dict[str, Any]]
SPECIAL_ACTIONS = ("WAIT", "FAIL", "DONE")


@dataclass(frozen=True)
class Observation:
    screenshot: bytes | None  #: PNG; None for an environment without a screen
    accessibility_tree: str | None = None
    #: execution results (original ``/execute`` reply shape) of the previous turn's actions
    infos: tuple[dict[str, Any], ...] = ()


@dataclass
class Turn:
    """One agent answer: the raw response (kept in the trajectory) and its parsed actions."""

    response: str
    actions: list[Action]
    usage: dict[str, Any] = field(default_factory=dict)  #: tokens / cost, if any
    #: the messages the model was sent, for the trajectory (images as "<image WxH>", never keys)
    prompt: list[dict[str, Any]] = field(default_factory=list)
    #: PNG the model was shown when it differs from the raw screenshot (Set-of-Marks, scaling)
    view: bytes | None = None


@dataclass(frozen=True)
class AgentSettings:
    name: str
    max_steps: int = 15
    options: dict[str, Any] = field(default_factory=dict)


class Agent(Protocol):
    """What every agent has. An agent may also have these, which the run looks up by name (so the
    core knows what they mean, never which agent has them):

    * ``needs_live_input: bool`` -- it works through the desktop's live view (a person at a
      browser): the run opens the view with input enabled, whether or not ``--live`` was given;
    * ``live_view_opened(url) -> str | None`` -- told where the live view is, before the episode;
      it may answer with a page of its own to announce beside it (the person's DONE/FAIL page);
    * ``episode_settings(given: EpisodeSettings) -> EpisodeSettings`` -- the limits its episode
      runs under instead of the command line's (a person is bounded by time, not turns; a replay
      by the turns it recorded);
    * ``replays: RecordedOutcome | None`` -- set by ``reset``: the earlier run whose episode it
      re-executes, which the record keeps and the summary compares the new score with.
    """

    #: whether the runner must fetch the accessibility tree for each observation
    needs_accessibility_tree: bool

    def reset(self, task: Task) -> None: ...

    def act(self, instruction: str, observation: Observation) -> Turn: ...


@dataclass(frozen=True)
class RecordedOutcome:
    """How an earlier run ended a task, as its record says: what an agent that re-executes that
    run's episode (``replay``) is compared with."""

    run: str  #: the earlier run's folder
    agent: str  #: the agent that ran it
    status: str
    score: float | None


def needs_live_input(agent: object) -> bool:
    """Whether ``agent`` works through the live view (and so needs it with input enabled)."""
    return bool(getattr(agent, "needs_live_input", False))


def live_page(agent: object, url: str) -> str | None:
    """Tell ``agent`` where the live view is; the page of its own it answers with, if any."""
    opened = getattr(agent, "live_view_opened", None)
    return opened(url) if callable(opened) else None


def replayed_outcome(agent: object) -> RecordedOutcome | None:
    """The earlier run's outcome ``agent`` re-executes, if it is a replay."""
    outcome = getattr(agent, "replays", None)
    return outcome if isinstance(outcome, RecordedOutcome) else None


def action_kind(action: Action) -> str:
    """"WAIT" / "FAIL" / "DONE" for special actions (string or computer_13 dict), else "code"."""
    if isinstance(action, str) and action.strip() in SPECIAL_ACTIONS:
        return action.strip()
    if isinstance(action, dict) and action.get("action_type") in SPECIAL_ACTIONS:
        return str(action["action_type"])
    return "code"


def done_with_answer(text: str) -> dict[str, Any]:
    """DONE carrying the final answer: the episode ends and evaluators read ``text`` (the
    ``final_answer`` getter), as the task's question asked."""
    return {"action_type": "DONE", "answer": text}


def answer_of(action: Action) -> str | None:
    """The final answer an action ends the episode with: the text a DONE carries, else None."""
    if isinstance(action, dict) and action.get("action_type") == "DONE" and action.get("answer") is not None:
        return str(action["answer"])
    return None


def agent_factory(name: str) -> Any:
    """The factory for ``--agent NAME``: an exact registration, or one whose ``matches`` accepts it.

    ``matches`` (registration metadata) lets one family serve many names, e.g. every OpenAI model.
    """
    from .registry import agents

    return agents.get(_registered_name(name))


def run_read_by(name: str) -> Path | None:
    """The earlier run's folder the agent ``name`` reads (``reads_run`` registration metadata:
    a replay), which the run must not write its records into; None for any other agent."""
    from .registry import agents

    reads = agents.entry(_registered_name(name)).meta.get("reads_run")
    return Path(reads(name)) if callable(reads) else None


def _registered_name(name: str) -> str:
    from .registry import agents

    if name in agents:
        return name
    for candidate in agents:
        if agents.entry(candidate).meta.get("matches", lambda _n: False)(name):
            return candidate
    return name  # unknown: getting it raises UnknownName with close matches
