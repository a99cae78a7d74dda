"""The agent contract: what an agent sees each turn, what it answers, and the base class every
agent derives from. It lives here, beside the episode that calls agents, so the run never imports
an agent.

An agent is registered with a factory ``factory(settings: AgentSettings) -> Agent`` in
:data:`pytest_spider2v.registry.agents`; ``--agent NAME`` picks it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Union

from pytest_spider2v.run.json_values import JsonRecord, Number, Text
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.model import Task

if TYPE_CHECKING:
    from pytest_spider2v.registry import AgentFactory

#: pyautogui code (str), a special word "WAIT" / "FAIL" / "DONE", or a computer_13 dict. DONE
#: carrying the agent's final answer is ``{"action_type": "DONE", "answer": text}`` in either
#: action space (:func:`done_with_answer`), for tasks that ask a question rather than a change.
Action = Union[str, dict[str, Any]]
SPECIAL_ACTIONS = ("WAIT", "FAIL", "DONE")


class ExecutionInfo(TypedDict, total=False):
    """What running an action gave, in the original ``/execute`` reply shape (agents and
    trajectories of the original read it): ``status``, ``output``, ``error`` and ``returncode``
    for an action that ran; ``status`` "error" and a ``message`` for one that could not."""

    status: str
    output: str
    error: str
    returncode: int
    message: str


@dataclass(frozen=True)
class Observation:
    screenshot: bytes | None  #: PNG; None for an environment without a screen
    accessibility_tree: str | None = None
    #: execution results of the previous turn's actions
    infos: tuple[ExecutionInfo, ...] = ()


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
    """What an agent is made with. Its turns are no part of it: the episode bounds them
    (:class:`EpisodeSettings`), and an agent with its own limits says so in
    :meth:`Agent.episode_settings`."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    #: the xdist worker the agent runs in (``gw0``, ...), None in the controller or without xdist:
    #: an agent that talks to a person needs to know whether this process has the terminal
    worker: str | None = None


@dataclass(frozen=True)
class RecordedOutcome(JsonRecord):
    """How an earlier run ended a task, as its record says: what an agent that re-executes that
    run's episode (``replay``) is compared with."""

    run: Text  #: the earlier run's folder
    agent: Text  #: the agent that ran it
    status: Text
    score: Number


class Agent(ABC):
    """What the run asks of an agent: :meth:`reset` before each task's episode (and again when
    a fault starts the task over), then :meth:`act` once per turn. Agents never touch the
    environment; the episode executes what they answer.

    The other members are capabilities with defaults that an agent overrides when it has them; the
    run asks every agent, so it never needs to know which agent it runs.
    """

    #: whether each observation must carry the accessibility tree (it costs a walk per step)
    needs_accessibility_tree: bool = False
    #: whether the agent works through the desktop's live view (a person at a browser): the run
    #: then opens the view with input enabled, whether or not ``--live`` was given
    needs_live_input: bool = False
    #: the earlier run whose episode the agent re-executes (set by :meth:`reset`: a replay), which
    #: the record keeps and the summary compares the new score with
    replays: RecordedOutcome | None = None

    @abstractmethod
    def reset(self, task: Task) -> None:
        """Get ready for ``task``'s episode (or its next attempt)."""

    @abstractmethod
    def act(self, instruction: str, observation: Observation) -> Turn:
        """One turn: the agent's answer to the instruction and what it observes now."""

    def live_view_opened(self, url: str) -> str | None:
        """Told where the live view is, before the episode; may answer with a page of its own to
        announce beside it (the person's DONE/FAIL page)."""
        return None

    def episode_settings(self, given: EpisodeSettings) -> EpisodeSettings:
        """The limits its episode runs under: the command line's, unless the agent has its own (a
        person is bounded by time, not turns; a replay by the turns it recorded)."""
        return given


def action_kind(action: Action) -> str:
    """"WAIT" / "FAIL" / "DONE" for special actions (string or computer_13 dict), else "code"."""
    if isinstance(action, str) and action.strip() in SPECIAL_ACTIONS:
        return action.strip()
    if isinstance(action, dict) and action.get("action_type") in SPECIAL_ACTIONS:
        return str(action["action_type"])
    return "code"


def done_with_answer(text: str) -> dict[str, str]:
    """DONE carrying the final answer: the episode ends and evaluators read ``text`` (the
    ``final_answer`` getter), as the task's question asked."""
    return {"action_type": "DONE", "answer": text}


def answer_of(action: Action) -> str | None:
    """The final answer an action ends the episode with: the text a DONE carries, else None."""
    if isinstance(action, dict) and action.get("action_type") == "DONE" and action.get("answer") is not None:
        return str(action["answer"])
    return None


def agent_factory(name: str) -> AgentFactory:
    """The factory for ``--agent NAME``: an exact registration, or one whose ``matches`` accepts it.

    ``matches`` (registration metadata) lets one family serve many names, e.g. every OpenAI model.
    """
    from pytest_spider2v.registry import agents

    return agents.get(_registered_name(name))


def run_read_by(name: str) -> Path | None:
    """The earlier run's folder the agent ``name`` reads (``reads_run`` registration metadata:
    a replay), which the run must not write its records into; None for any other agent."""
    from pytest_spider2v.registry import agents

    reads = agents.entry(_registered_name(name)).meta.get("reads_run")
    return Path(reads(name)) if callable(reads) else None


def _registered_name(name: str) -> str:
    from pytest_spider2v.registry import agents

    if name in agents:
        return name
    for candidate in agents:
        if agents.entry(candidate).meta.get("matches", lambda _n: False)(name):
            return candidate
    return name  # unknown: getting it raises UnknownName with close matches
