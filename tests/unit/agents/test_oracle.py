"""Solution files as the oracle agent reads them: shared helper modules shipped with the cells
that import them, and wrong solutions written as directives against their reference."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_spider2v.agents import solution_helpers
from pytest_spider2v.agents.oracle import Cell, OracleAgent, SolutionError, solution_actions, solution_cells
from pytest_spider2v.agents.solution_helpers import helper_sources, imported_helpers, with_helpers
from pytest_spider2v.environments.base import PYAUTOGUI_PREFIX
from pytest_spider2v.run.agent import Observation
from pytest_spider2v.testing.factories import make_task
from tests.support.shared import REPO

TASKS = REPO / "tasks"
SOLUTION_FILES = sorted(TASKS.glob("*/*/*solution.py"))

REFERENCE = """\
# %% one
pyautogui.press("1")

# %% two
pyautogui.press("2")

# %% three
pyautogui.press("3")

# %%
DONE
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def codes(path: Path) -> list[str]:
    return [cell.code for cell in solution_cells(path)]


# -- cells -----------------------------------------------------------------------------------

def test_cells_keep_their_titles_and_comment_only_cells_are_no_actions(tmp_path: Path) -> None:
    path = write(tmp_path, "solution.py",
                 "# a header\n\n# %% open\nx = 1\n# %% only a note\n# nothing to run\n# %%\nDONE\n")
    assert solution_cells(path) == [Cell("open", "x = 1"), Cell("", "DONE")]


def test_code_before_the_first_marker_is_a_cell(tmp_path: Path) -> None:
    assert codes(write(tmp_path, "solution.py", "x = 1\n# %%\nDONE\n")) == ["x = 1", "DONE"]


# -- helper modules ----------------------------------------------------------------------------

def test_the_helper_modules_are_shipped_with_the_package() -> None:
    assert {"airflow_ui", "dagster_ui", "superset_ui"} <= set(helper_sources())
    for name, source in helper_sources().items():
        compile(source, f"{name}.py", "exec")


def test_a_cell_gets_exactly_the_helpers_it_imports() -> None:
    assert imported_helpers("import os\nfrom superset_ui import explore\nimport airflow_ui as ui") == [
        "accessibles", "desktop", "superset_ui", "airflow_ui"]  # superset_ui imports both, shipped before it
    assert imported_helpers("def f():\n    from dagster_ui import click\n") == ["dagster_ui"]
    assert imported_helpers("from .airflow_ui import click") == []  # relative: not a helper
    for plain in ("pyautogui.click(1, 2)", "DONE", "this is not python ("):
        assert with_helpers(plain) == plain


def test_an_action_with_a_helper_is_one_valid_guest_program() -> None:
    action = with_helpers('from airflow_ui import click\nclick("link", "Admin")')
    assert repr(helper_sources()["airflow_ui"]) in action
    assert action.endswith('from airflow_ui import click\nclick("link", "Admin")')
    compile(PYAUTOGUI_PREFIX + action, "action", "exec")


def test_the_helper_runs_as_an_importable_module_in_a_fresh_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the guest does with the action; tracebacks point into the helper by its own lines."""
    source = "import time\n\ndef answer():\n    return 42\n\ndef fail():\n    raise RuntimeError('inside')\n"
    monkeypatch.setattr(solution_helpers, "helper_sources", lambda: {"demo_ui": source})
    ok = subprocess.run([sys.executable, "-c", with_helpers("from demo_ui import answer\nprint(answer())")],
                        capture_output=True, text=True)
    assert (ok.returncode, ok.stdout) == (0, "42\n")
    failed = subprocess.run([sys.executable, "-c", with_helpers("import demo_ui\ndemo_ui.fail()")],
                            capture_output=True, text=True)
    assert 'File "demo_ui.py", line 7, in fail' in failed.stderr


@pytest.mark.parametrize("path", SOLUTION_FILES, ids=[str(p.relative_to(TASKS)) for p in SOLUTION_FILES])
def test_task_solutions_import_only_what_their_helpers_define(path: Path) -> None:
    defined = {name: {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}
               | {t.id for n in ast.parse(source).body if isinstance(n, ast.Assign) for t in n.targets
                  if isinstance(t, ast.Name)}
               for name, source in helper_sources().items()}
    for cell in solution_cells(path):
        if cell.code in ("WAIT", "DONE", "FAIL"):
            continue
        for node in ast.walk(ast.parse(cell.code)):
            if isinstance(node, ast.ImportFrom) and node.module in defined:
                missing = {a.name for a in node.names} - defined[node.module]
                assert not missing, f"cell {cell.title!r}: {node.module} has no {sorted(missing)}"


def test_the_oracle_plays_cells_with_their_helpers_and_titles(tmp_path: Path) -> None:
    path = write(tmp_path, "solution.py", "# %% open Admin\nfrom airflow_ui import click\nclick('link', 'Admin')\n"
                                          "# %%\nDONE\n")
    agent = OracleAgent()
    agent.reset(make_task(solution=path))
    first = agent.act("", Observation(b""))
    assert first.response == "reference solution: open Admin"
    assert first.actions == [with_helpers("from airflow_ui import click\nclick('link', 'Admin')")]
    assert first.actions == solution_actions(path)[:1]
    assert agent.act("", Observation(b"")).response == "reference solution: DONE"


# -- wrong solutions as directives ---------------------------------------------------------------

def test_replace_drop_and_insert_refer_to_the_base_cells(tmp_path: Path) -> None:
    write(tmp_path, "solution.py", REFERENCE)
    wrong = write(tmp_path, "wrong_solution.py", """\
# Wrong on purpose: presses 9 instead of 2, twice a 0 first, and no 3
# %% based-on: solution.py
# %% insert-before 1: zero
pyautogui.press("0")
# %% insert-before 1: zero again
pyautogui.press("0")
# %% replace 2: nine
pyautogui.press("9")
# %% drop 3: no three
# %% insert-after 3: four
pyautogui.press("4")
""")
    assert solution_cells(wrong) == [
        Cell("zero", 'pyautogui.press("0")'), Cell("zero again", 'pyautogui.press("0")'),
        Cell("one", 'pyautogui.press("1")'), Cell("nine", 'pyautogui.press("9")'),
        Cell("four", 'pyautogui.press("4")'), Cell("", "DONE")]


def test_ranges_replace_or_drop_several_cells(tmp_path: Path) -> None:
    write(tmp_path, "solution.py", REFERENCE)
    replaced = write(tmp_path, "a.py", "# %% based-on: solution.py\n# %% replace 1-3: all at once\nx = 1\n")
    assert codes(replaced) == ["x = 1", "DONE"]
    dropped = write(tmp_path, "b.py", "# %% based-on: solution.py\n# %% drop 2-4\n")
    assert codes(dropped) == ['pyautogui.press("1")']


def test_a_file_may_be_based_on_one_that_is_itself_based_on_another(tmp_path: Path) -> None:
    write(tmp_path, "solution.py", REFERENCE)
    write(tmp_path, "wrong_solution.py", "# %% based-on: solution.py\n# %% drop 1\n")
    second = write(tmp_path, "second.py", "# %% based-on: wrong_solution.py\n# %% replace 1\ny = 2\n")
    assert codes(second) == ["y = 2", 'pyautogui.press("3")', "DONE"]


@pytest.mark.parametrize(("directives", "line", "problem"), [
    ("# %% swap 1 2\n", 3, "expected replace N[-M], drop N[-M], insert-before N or insert-after N"),
    ("# %% replace 7\nx = 1\n", 3, "solution.py has cells 1 to 4"),
    ("# %% drop 0\n", 3, "solution.py has cells 1 to 4"),
    ("# %% drop 3-2\n", 3, "a range runs from the lower number to the higher"),
    ("# %% insert-after 1-2\nx = 1\n", 3, "an insertion goes at one cell, not a range"),
    ("# %% drop 2\nx = 1\n", 3, "drop takes no code"),
    ("# %% replace 2\n# only a comment\n", 3, "replace needs the code of the new cell"),
    ("# %% drop 1-2\n# %% replace 2\nx = 1\n", 4, "cell 2 of solution.py is already replaced or dropped"),
    ("# %% drop 1\n# %% based-on: solution.py\n", 4, "based-on must be the first '# %%' line"),
])
def test_a_bad_directive_names_the_file_line_and_directive(tmp_path: Path, directives: str, line: int,
                                                             problem: str) -> None:
    write(tmp_path, "solution.py", REFERENCE)
    wrong = write(tmp_path, "wrong_solution.py", "# Wrong on purpose: x\n# %% based-on: solution.py\n" + directives)
    marker = next(text for number, text in enumerate(wrong.read_text().splitlines(), 1) if number == line)
    with pytest.raises(SolutionError) as raised:
        solution_cells(wrong)
    assert str(raised.value) == f"{wrong}:{line}: '{marker}': {problem}"


@pytest.mark.parametrize(("text", "problem"), [
    ("# %% based-on: missing.py\n", "there is no missing.py in"),
    ("# %% based-on solution.py\n", "expected 'based-on: FILE'"),
    ("x = 1\n# %% based-on: solution.py\n", "a file based on another holds only directives and their cells"),
    ("# %% based-on: wrong_solution.py\n", "wrong_solution.py leads back here (a cycle of based-on files)"),
])
def test_a_bad_based_on_line_is_an_error(tmp_path: Path, text: str, problem: str) -> None:
    write(tmp_path, "solution.py", REFERENCE)
    wrong = write(tmp_path, "wrong_solution.py", text)
    with pytest.raises(SolutionError, match=f"^{re.escape(str(wrong))}:\\d+: '# %% based-on.*': {re.escape(problem)}"):
        solution_cells(wrong)


def test_based_on_files_that_point_at_each_other_are_a_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a.py", "# %% based-on: b.py\n")
    b = write(tmp_path, "b.py", "# %% based-on: a.py\n")
    with pytest.raises(SolutionError, match="b.py leads back here"):
        solution_cells(b)
