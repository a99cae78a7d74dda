"""``replay:<run folder>``: re-executes the actions an earlier run recorded, task by task, with
no model. After a fix to an evaluator or an environment, a paid model run is scored again
without paying again, and the summary lists every task whose score changed (old -> new).

A task's record is found where that run wrote it (``<run folder>/<app>/<task>/result.json``, the
key :func:`~pytest_spider2v.run.records.record_path` gives), so the run folder may be copied or moved.
Each recorded turn is replayed whole, all its actions together, in order; a turn whose reply
held no usable action is replayed as one again. The episode has exactly the recorded turns
(``--max-steps`` does not apply), so it ends as the recorded one did: with its DONE or FAIL, or
after its last turn where a limit stopped it. Before each turn the replay waits as long as the
model thought (``pace=recorded``, the default: the desktop gets the time it had to settle, so it
is in the state the actions were chosen in); ``pace=fast`` does not wait.

A task is skipped, saying why, when the run has no record of it, or its recorded episode did
not end (the environment failed mid-episode: there is no complete episode to replay).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from itertools import groupby
from pathlib import Path

from pytest_spider2v.registry import Unavailable, agents
from pytest_spider2v.run.agent import Action, Agent, AgentSettings, Observation, RecordedOutcome, Turn
from pytest_spider2v.run.records import read_result, record_path
from pytest_spider2v.run.results import Step, TaskResult
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.model import Task

PREFIX = "replay:"
PACES = ("recorded", "fast")


@dataclass(frozen=True)
class RecordedTurn:
    response: str
    actions: list[Action]
    think: float  #: seconds the agent took to answer


def recorded_turns(steps: list[Step]) -> list[RecordedTurn]:
    """The turns of a recorded episode, each with its actions in order (a step without a turn
    number, from an older record, is a turn of its own)."""
    turns = []
    numbered = ((f"step-{position}" if step.turn is None else step.turn, step) for position, step in enumerate(steps))
    for _turn, group in groupby(numbered, key=lambda pair: pair[0]):
        taken = [step for _, step in group]
        actions = [step.action for step in taken if step.kind != "none" and step.action is not None]
        turns.append(RecordedTurn(taken[0].response, actions, taken[0].think))
    return turns


class ReplayAgent(Agent):
    """Plays one run folder's recorded turns back."""

    needs_accessibility_tree = False

    def __init__(self, name: str, run_dir: Path, pace: str = "recorded") -> None:
        self.name = name
        self.run_dir = run_dir
        self.pace = pace
        self.replays: RecordedOutcome | None = None
        self._turns: list[RecordedTurn] = []

    def reset(self, task: Task) -> None:
        recorded = recorded_episode(self.name, self.run_dir, task)
        self._turns = recorded_turns(recorded.steps)
        self.replays = RecordedOutcome(str(self.run_dir), recorded.agent, recorded.status, recorded.score)

    def episode_settings(self, given: EpisodeSettings) -> EpisodeSettings:
        """Exactly the recorded turns: the episode ends where the recorded one did."""
        return replace(given, max_steps=len(self._turns))

    def act(self, instruction: str, observation: Observation) -> Turn:
        if not self._turns:  # only if the episode outlives its recorded turns, which its limits prevent
            return Turn("the recorded episode has no more turns", [])
        turn = self._turns.pop(0)
        if self.pace == "recorded":
            time.sleep(turn.think)
        return Turn(turn.response, list(turn.actions))


def recorded_episode(name: str, run_dir: Path, task: Task) -> TaskResult:
    """``task``'s record in the run ``run_dir``, whose episode ended; else :class:`Unavailable`
    (the task is skipped) for the agent ``name``, saying why."""
    where = run_dir / record_path(task)
    recorded = read_result(where)
    if recorded is None:
        raise Unavailable("agent", name, f"the run in {run_dir} has no record of {task.key} (no {where / 'result.json'})")
    if not recorded.stop_reason:
        detail = recorded.detail.strip().splitlines()[0] if recorded.detail.strip() else "no detail"
        raise Unavailable("agent", name, f"the recorded episode of {task.key} did not end "
                                         f"({recorded.status}: {detail}): there is nothing whole to replay")
    return recorded


def is_replay(name: str) -> bool:
    return name.startswith(PREFIX) and len(name) > len(PREFIX)


def run_folder(name: str) -> Path:
    """The run folder ``replay:<run folder>`` reads (and which the run must not write)."""
    return Path(name[len(PREFIX):]).expanduser()


@agents.register("replay:<run folder>", matches=is_replay, reads_run=run_folder)
def make_replay(settings: AgentSettings) -> ReplayAgent:
    unknown = sorted(set(settings.options) - {"pace"})
    if unknown:
        raise ValueError(f"unknown agent option(s) {', '.join(unknown)} for a replay; known: pace")
    pace = str(settings.options.get("pace", "recorded"))
    if pace not in PACES:
        raise ValueError(f"a replay's pace is one of {', '.join(PACES)}, not {pace!r}")
    run_dir = run_folder(settings.name)
    if not run_dir.is_dir():
        raise Unavailable("agent", settings.name, f"there is no run folder {run_dir}")
    return ReplayAgent(settings.name, run_dir, pace)
