"""GUI routes act through the screen alone: the static check of every reference solution that
declares one (``# route: gui: <kind>``), and the coverage the benchmark needs of them.

A GUI route may click, type and press keys (pyautogui, the helpers that find what to click in
the accessibility tree, a command typed into the visible terminal when the tutorial's route is the
terminal), read what the task shows (a file open on screen), and wait for what a service reports
(a run finishing, as a person watches the page). It may not act through a service's API, a CLI
run from Python, LibreOffice's UNO API or a file written directly: those reach the result without
the screen, which is what a GUI route must prove possible.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from pytest_spider2v.agents.oracle import solution_cells
from pytest_spider2v.environments.locations import SPIDER2V_SOLUTIONS_DIR
from pytest_spider2v.tasks.gui_routes import gui_route
from tests.support.shared import REPO

ROUTES = [path for path in sorted([*SPIDER2V_SOLUTIONS_DIR.glob("*/*.py"), *(REPO / "tasks").glob("*/*/solution.py")])
          if gui_route(path) is not None]
#: Modules a GUI route may not import: they act without the screen.
NOT_THE_SCREEN = {"subprocess", "urllib", "requests", "http", "socket", "sqlite3", "duckdb", "psycopg2", "pymysql",
                  "shutil", "calc_uno", "dbt_cli"}
#: Helper functions that act through a service's API, and the ways to write a file directly.
ACTING_CALLS = {"api", "graphql", "answers", "asset_checks", "system", "popen", "write_text", "write_bytes", "edit"}
#: App families of the Spider2-V sample that run here, and the kinds of UI action an evaluation reads.
FAMILIES = ("excel", "dbt", "jupyter", "dagster", "airflow", "superset")
KINDS = ("schedule or sensor switched on", "connection created", "run triggered", "chart or dashboard saved",
         "notebook run and saved", "cells formatted")


def shortcuts(code: str) -> list[str]:
    """What in a cell acts without the screen."""
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] in NOT_THE_SCREEN]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in NOT_THE_SCREEN:
            found.append(f"from {node.module}")
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in ACTING_CALLS:
                found.append(f"{name}()")
            mode = node.args[1] if name == "open" and len(node.args) > 1 else None
            if isinstance(mode, ast.Constant) and set(str(mode.value)) & set("wax+"):
                found.append(f"open(..., {mode.value!r})")
    return found


@pytest.mark.parametrize("path", ROUTES, ids=[f"{p.parent.name}/{p.stem[:8]}" for p in ROUTES])
def test_a_gui_route_acts_through_the_screen_alone(path: Path) -> None:
    cells = [cell for cell in solution_cells(path) if cell.code.split()[0] not in ("DONE", "WAIT", "FAIL")]
    found = {cell.title: shortcuts(cell.code) for cell in cells}
    assert {title: what for title, what in found.items() if what} == {}


def test_the_check_finds_each_kind_of_shortcut() -> None:
    code = ("import subprocess\nfrom superset_ui import api\nfrom pathlib import Path\napi('dataset/')\n"
            "Path('x').write_text('y')\nopen('f', 'w')\nopen('f').read()\nfrom calc_uno import cell\n")
    assert sorted(shortcuts(code)) == ["api()", "from calc_uno", "open(..., 'w')", "subprocess", "write_text()"]
    assert shortcuts("from superset_ui import click\nclick('push button', 'SAVE')\nopen('/f').read()\n") == []


def test_every_family_and_kind_of_ui_action_has_a_route() -> None:
    kinds = Counter(gui_route(path) for path in ROUTES)
    families = Counter(path.parent.name for path in ROUTES)
    assert {family: families[family] for family in FAMILIES if families[family] < 2} == {}
    assert [kind for kind in KINDS if not kinds[kind]] == []
