"""GUI routes: a reference solution's header declares one, with the kind of UI action; the
task then carries the ``gui`` marker (and only then, whatever a cell says)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_spider2v.tasks.gui_routes import gui_route
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.testing.factories import task_document, write_task

ROUTE = "# Trigger the DAG from its row.\n# route: gui: run triggered\n# %% click\nprint(1)\n# %%\nDONE\n"


@pytest.mark.parametrize(("text", "kind"), [
    (ROUTE, "run triggered"),
    ("# %% a cell\n# route: gui: run triggered\nprint(1)\n", None),  # a cell's comment is no header
    ("# Trigger it by the API.\n# %% call\nprint(1)\n", None),
    ("#route:gui:cells formatted\n", "cells formatted"),
])
def test_the_header_declares_the_route(tmp_path: Path, text: str, kind: str | None) -> None:
    path = tmp_path / "solution.py"
    path.write_text(text, encoding="utf-8")
    assert gui_route(path) == kind


def test_no_file_or_a_made_solution_is_no_route(tmp_path: Path) -> None:
    assert gui_route(tmp_path / "missing.py") is None
    assert gui_route(ROUTE) is None  # a task format's made solution is text, never a declared route
    assert gui_route(None) is None


def test_a_task_with_a_gui_route_carries_the_gui_marker(tmp_path: Path) -> None:
    document = task_document(id="by-hand", snapshot="desktop", instruction="x", related_apps=["calc"],
                             tags=["cli"], action_number=2)
    routed = load_tasks(write_task(tmp_path / "a", document, solution=ROUTE))[0]
    plain = load_tasks(write_task(tmp_path / "b", document, solution="# %% x\nDONE\n"))[0]
    assert routed.gui_route == "run triggered" and "gui" in routed.markers
    assert plain.gui_route is None and "gui" not in plain.markers and "cli" in plain.markers
