"""``oracle``: replays a task's reference solution through the ordinary action path.

The solution is the task folder's ``solution.py``, split into cells by ``# %%`` lines (the text
after ``# %%`` is the cell's title, shown as the agent's response). Each cell is one action:
pyautogui code run in a fresh guest interpreter exactly like an LLM agent's code, or a cell
holding only WAIT, DONE or FAIL; a cell whose first line is DONE and that has more is DONE
carrying the rest as the final answer (a task that asks a question). A cell with no code
(blank, or comments only, like a header before the first ``# %%``) is no action. One cell per turn, so every step gets its own
observation in the record. CI requires it to score 1 on every task.

A cell that imports one of the shared helper modules (``from airflow_ui import click``) gets
the module's source in front of its code: see :mod:`pytest_spider2v.agents.solution_helpers`.

A solution may instead be written as the changes to another one, which is how
``wrong_solution.py`` says only where it departs from ``solution.py``::

    # Wrong on purpose: sums the quantity instead of the revenue
    # %% based-on: solution.py
    # %% replace 3: the chart's metric is SUM(quantity)
    from superset_ui import explore
    explore(...)
    # %% drop 5-6
    # %% insert-after 1: open the dashboard list first
    ...

After ``based-on: FILE`` (a file in the same folder, itself possibly based on another) every
``# %%`` line is a directive about FILE's cells, numbered 1, 2, ... in the order the oracle
plays them: ``replace N`` or ``replace N-M`` puts the directive's cell in place of those cells,
``drop N`` or ``drop N-M`` leaves them out (its body holds no code), ``insert-before N`` and
``insert-after N`` add the directive's cell there (several at one place keep the file's order).
Text after a colon is the new cell's title (for ``drop``, a note). Numbers always refer to
FILE, not to the result of earlier directives; a cell may be replaced or dropped once. So the
mistake is all the file says, and a fix to the reference reaches the wrong solution too. A bad
directive raises :class:`SolutionError` naming the file, line and directive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pytest_spider2v.agents.solution_helpers import with_helpers
from pytest_spider2v.registry import Unavailable, agents
from pytest_spider2v.run.agent import SPECIAL_ACTIONS, Action, Agent, AgentSettings, Observation, Turn, done_with_answer
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.tasks.solution_format import BASE_FILE, BASED_ON, MARKER

DIRECTIVE = re.compile(r"\s*(replace|drop|insert-before|insert-after)\s+(\d+)(?:-(\d+))?\s*(?::\s*(.*?))?\s*$")


class SolutionError(ValueError):
    """A solution file the oracle cannot read: a bad ``based-on`` directive or cell number."""


@dataclass(frozen=True)
class Cell:
    title: str  #: the text after ``# %%``
    code: str  #: what runs, stripped; WAIT, DONE or FAIL for those actions


@dataclass(frozen=True)
class _Segment:
    """A marker line and the text up to the next one, as written in the file."""

    line: int  #: 1-based line of the marker (0: the text before the first marker)
    marker: str  #: the text after ``# %%``
    body: str

    @property
    def has_code(self) -> bool:
        return any(line.strip() and not line.lstrip().startswith("#") for line in self.body.splitlines())


def made_solution_cells(text: str) -> list[Cell]:
    """The cells of a solution a task format made (text no file holds, so based on none)."""
    segments = _segments_of(text)
    return [Cell(s.marker.strip(), s.body.strip()) for s in segments if s.has_code]


def solution_cells(path: Path, _seen: tuple[Path, ...] = ()) -> list[Cell]:
    """The cells of a solution file in the order they are played (``based-on`` resolved)."""
    segments = _segments(path)
    late = next((s for s in segments[2:] if BASED_ON.match(s.marker)), None)
    if late is not None:
        raise _error(path, late, "based-on must be the first '# %%' line")
    if len(segments) > 1 and BASED_ON.match(segments[1].marker):
        return _patched(path, segments, _seen)
    return [Cell(s.marker.strip(), s.body.strip()) for s in segments if s.has_code]


def solution_actions(path: Path) -> list[Action]:
    """The actions of a solution file, in order, each with the helper modules it imports."""
    return [cell_action(cell.code) for cell in solution_cells(path)]


def cell_action(code: str) -> Action:
    """The action of one cell: DONE carrying an answer, a special word, or code with its helpers."""
    first, _, rest = code.partition("\n")
    if first.strip() == "DONE" and rest.strip():
        return done_with_answer(rest.strip())
    return with_helpers(code)


def _segments(path: Path) -> list[_Segment]:
    return _segments_of(path.read_text(encoding="utf-8"))


def _segments_of(text: str) -> list[_Segment]:
    """The text before the first marker, then one segment per marker."""
    markers = list(MARKER.finditer(text))
    ends = [m.start() for m in markers[1:]] + [len(text)]
    first = _Segment(0, "", text[:markers[0].start()] if markers else text)
    return [first, *(_Segment(text.count("\n", 0, m.start()) + 1, m.group(1), text[m.end():end])
                     for m, end in zip(markers, ends))]


def _error(path: Path, segment: _Segment, problem: str) -> SolutionError:
    return SolutionError(f"{path}:{segment.line}: '# %%{segment.marker}': {problem}")


def _patched(path: Path, segments: list[_Segment], seen: tuple[Path, ...]) -> list[Cell]:
    """Apply the directives after the ``based-on`` line to the base file's cells."""
    header, head, *directives = segments
    if header.has_code or head.has_code:
        raise _error(path, head, "a file based on another holds only directives and their cells")
    named = BASE_FILE.match(head.marker)
    if named is None:
        raise _error(path, head, "expected 'based-on: FILE'")
    base = path.parent / named.group(1)
    if not base.is_file():
        raise _error(path, head, f"there is no {base.name} in {path.parent}")
    if base.resolve() in (*seen, path.resolve()):
        raise _error(path, head, f"{base.name} leads back here (a cycle of based-on files)")
    cells = solution_cells(base, (*seen, path.resolve()))
    before: dict[int, list[Cell]] = {}
    after: dict[int, list[Cell]] = {}
    instead: dict[int, list[Cell]] = {}  # replaced (the new cell at the first number) or dropped
    for segment in directives:
        match = DIRECTIVE.match(segment.marker)
        if match is None:
            raise _error(path, segment, "expected replace N[-M], drop N[-M], insert-before N or insert-after N")
        verb, title = match.group(1), match.group(4) or ""
        first, last = int(match.group(2)), int(match.group(3) or match.group(2))
        if first > last:
            raise _error(path, segment, "a range runs from the lower number to the higher")
        if not 1 <= first <= last <= len(cells):
            raise _error(path, segment, f"{base.name} has cells 1 to {len(cells)}")
        if verb.startswith("insert") and last != first:
            raise _error(path, segment, "an insertion goes at one cell, not a range")
        if verb == "drop" and segment.has_code:
            raise _error(path, segment, "drop takes no code")
        if verb != "drop" and not segment.has_code:
            raise _error(path, segment, f"{verb} needs the code of the new cell")
        cell = Cell(title, segment.body.strip())
        if verb == "insert-before":
            before.setdefault(first, []).append(cell)
        elif verb == "insert-after":
            after.setdefault(first, []).append(cell)
        else:
            taken = [n for n in range(first, last + 1) if n in instead]
            if taken:
                raise _error(path, segment, f"cell {taken[0]} of {base.name} is already replaced or dropped")
            instead.update({n: [] for n in range(first, last + 1)})
            instead[first] = [cell] if verb == "replace" else []
    return [new for number, cell in enumerate(cells, 1)
            for new in (*before.get(number, []), *instead.get(number, [cell]), *after.get(number, []))]


class OracleAgent(Agent):
    """Plays the task's solution: its file, or the solution its task format made (DABench: the
    labels as the answer)."""

    needs_accessibility_tree = False

    def __init__(self) -> None:
        self._pending: list[Cell] = []

    def reset(self, task: Task) -> None:
        if task.solution is None:
            raise Unavailable("agent", "oracle", f"task {task.key} has no reference solution (solution.py)")
        if isinstance(task.solution, Path):
            self._pending = solution_cells(task.solution)
        else:
            self._pending = made_solution_cells(task.solution)

    def act(self, instruction: str, observation: Observation) -> Turn:
        if not self._pending:
            return Turn(response="DONE", actions=["DONE"])
        cell = self._pending.pop(0)
        label = cell.code if cell.code in SPECIAL_ACTIONS else cell.title or cell.code.splitlines()[0]
        return Turn(response=f"reference solution: {label}", actions=[cell_action(cell.code)])


@agents.register("oracle")
def make_oracle(settings: AgentSettings) -> OracleAgent:
    return OracleAgent()
