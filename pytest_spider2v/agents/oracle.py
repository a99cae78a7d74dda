"""``oracle``: replays a task's reference solution through the ordinary action path.

The solution is the task folder's ``solution.py``, split into cells by ``# %%`` lines. Each cell
is one action: pyautogui code run in a fresh guest interpreter exactly like an LLM agent's code,
or a cell holding only WAIT, DONE or FAIL. One cell per turn, so every step gets its own
observation in the record. CI requires it to score 1 on every task.
"""

from __future__ import annotations

import re
from pathlib import Path

from pytest_spider2v.agent import SPECIAL_ACTIONS, Action, AgentSettings, Observation, Turn
from pytest_spider2v.registry import Unavailable, agents
from pytest_spider2v.task import Task

CELL = re.compile(r"^# %%.*$", re.MULTILINE)


def solution_actions(path: Path) -> list[Action]:
    """The actions of a solution file, in order (empty cells dropped)."""
    cells = (cell.strip() for cell in CELL.split(path.read_text(encoding="utf-8")))
    return [cell for cell in cells if cell]


class OracleAgent:
    needs_accessibility_tree = False

    def __init__(self) -> None:
        self._pending: list[Action] = []

    def reset(self, task: Task) -> None:
        if task.solution is None:
            raise Unavailable("agent", "oracle", f"task {task.key} has no reference solution (solution.py)")
        self._pending = solution_actions(task.solution)

    def act(self, instruction: str, observation: Observation) -> Turn:
        if not self._pending:
            return Turn(response="DONE", actions=["DONE"])
        action = self._pending.pop(0)
        label = action if action in SPECIAL_ACTIONS else action.splitlines()[0]
        return Turn(response=f"reference solution: {label}", actions=[action])


@agents.register("oracle")
def make_oracle(settings: AgentSettings) -> OracleAgent:
    return OracleAgent()
