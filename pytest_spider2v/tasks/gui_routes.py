"""GUI routes: reference solutions that reach the task's result the way its instruction and
tutorial do, through the screen alone (clicks and keys on what the screen or the accessibility
tree shows; no REST call, CLI command or file edit to act). Such a solution says so in its
header, before its first cell, with the kind of UI action whose result the evaluation reads::

    # route: gui: run triggered

A task whose reference solution is a GUI route carries the ``gui`` marker, and ``--validate``
counts its reference check as the proof that the GUI route scores 1 here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pytest_spider2v.tasks.solution_format import MARKER

ROUTE = re.compile(r"^#\s*route:\s*gui\s*:\s*(.+?)\s*$", re.MULTILINE)


def gui_route(solution: Path | str | None) -> str | None:
    """The kind of UI action a GUI-route solution file performs, or None (not a GUI route, a
    solution a task format made, or no solution)."""
    if not isinstance(solution, Path):
        return None
    return _declared(solution, solution.stat().st_mtime_ns if solution.is_file() else 0)


@lru_cache(maxsize=1024)
def _declared(path: Path, mtime_ns: int) -> str | None:
    if not mtime_ns:
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    first_cell = MARKER.search(text)
    match = ROUTE.search(text, 0, first_cell.start() if first_cell else len(text))
    return match.group(1) if match else None
