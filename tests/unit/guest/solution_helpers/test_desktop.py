"""The solution helper modules for the desktop itself (``solution_helpers/desktop``, ``terminal``,
``gedit``, ``jupyter_ui``) and the ones built on a family's helper (``airflow_dags``,
``dagster_assets``, ``superset_sqllab``), and helper modules that import each other.

The modules run in the guest with pyautogui and wmctrl; here they run with a stand-in pyautogui
that records what would be pressed, and with the window manager's answers given, so their own
logic (parsing window lists, waiting for a process or a file, which lines are typed) is checked.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.agents import solution_helpers
from pytest_spider2v.agents.solution_helpers import helper_sources, imported_helpers, with_helpers

WMCTRL_L = """\
0x01e00003  0 guest user@guest: ~/projects/shop
0x02400004  0 guest definitions.py (~/projects/shop) - gedit
0x02600007  0 guest Save
0x02800002  0 guest Website traffic 2024 - Chromium
"""
WMCTRL_LG = """\
0x02400004  0 0    27   1920 1053 guest definitions.py - gedit
0x02a00003  0 412  180  1096 620  guest Chart Elements
"""
WMCTRL_LX = "0x01e00003  0 gnome-terminal-server.Gnome-terminal  guest user@guest: ~\n"


class Keys(types.ModuleType):
    """A stand-in pyautogui: every call is recorded as (function, args...)."""

    def __init__(self) -> None:
        super().__init__("pyautogui")
        self.calls: list[tuple[Any, ...]] = []
        self.on_hotkey: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)

        def record(*args: Any, **_: Any) -> None:
            self.calls.append((name, *args))
            if name == "hotkey" and self.on_hotkey is not None:
                self.on_hotkey(args)
        return record

    def typed(self) -> list[str]:
        return [call[1] for call in self.calls if call[0] == "typewrite"]


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> Keys:
    fake = Keys()
    monkeypatch.setitem(sys.modules, "pyautogui", fake)
    return fake


def load(monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    """The helper module ``name`` as the oracle installs it: the helpers it needs first."""
    for needed in imported_helpers(f"import {name}"):
        module = types.ModuleType(needed)
        monkeypatch.setitem(sys.modules, needed, module)
        exec(compile(helper_sources()[needed], f"{needed}.py", "exec"), module.__dict__)
    return sys.modules[name]


def wmctrl(outputs: dict[str, str]) -> Any:
    """A subprocess.run stand-in answering wmctrl by its option (-l, -lG, -lx)."""
    def run(args: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 0, outputs.get(args[1], "") if args[0] == "wmctrl" else "", "")
    return types.SimpleNamespace(run=run, Popen=None)


# -- helpers that import helpers ---------------------------------------------------------------------

def test_a_helper_is_shipped_after_the_helpers_it_imports() -> None:
    assert imported_helpers("from gedit import type_lines") == ["desktop", "gedit"]
    assert imported_helpers("from jupyter_ui import save_until\nfrom desktop import focus") == [
        "accessibles", "desktop", "jupyter_ui"]
    assert imported_helpers("from airflow_dags import trigger") == ["airflow_ui", "desktop", "airflow_dags"]
    assert imported_helpers("from superset_sqllab import run_query") == [
        "accessibles", "desktop", "superset_ui", "superset_sqllab"]
    action = with_helpers("from desktop import focus\nfrom terminal import run\nrun('ls')")
    assert action.count("sys.modules['desktop'] = ") == 1
    assert action.index("sys.modules['desktop']") < action.index("sys.modules['terminal']")


def test_helpers_that_import_each_other_in_a_circle_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = {"a_ui": "from b_ui import f\n", "b_ui": "import a_ui\ndef f():\n    pass\n"}
    monkeypatch.setattr(solution_helpers, "helper_sources", lambda: sources)
    with pytest.raises(ImportError, match="a_ui -> b_ui -> a_ui"):
        imported_helpers("from a_ui import x")


def test_a_helper_that_imports_another_runs_in_a_fresh_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = {"base_ui": "def answer():\n    return 42\n",
               "top_ui": "from base_ui import answer\n\ndef twice():\n    return 2 * answer()\n"}
    monkeypatch.setattr(solution_helpers, "helper_sources", lambda: sources)
    done = subprocess.run([sys.executable, "-c", with_helpers("from top_ui import twice\nprint(twice())")],
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "84\n", "")


def test_helpers_import_only_what_their_helpers_define() -> None:
    """A helper module's ``from other import name`` must name something ``other`` defines, or
    every cell that uses the module fails in the guest."""
    sources = helper_sources()
    defined = {name: {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}
               | {t.id for n in ast.parse(source).body if isinstance(n, ast.Assign) for t in n.targets
                  if isinstance(t, ast.Name)}
               | {t.id for n in ast.parse(source).body if isinstance(n, ast.Assign) for t in n.targets
                  if isinstance(t, ast.Tuple) for t in t.elts if isinstance(t, ast.Name)}
               for name, source in sources.items()}
    for name, source in sources.items():
        for node in ast.parse(source).body:
            if isinstance(node, ast.ImportFrom) and node.module in sources:
                missing = {a.name for a in node.names} - defined[node.module]
                assert not missing, f"{name}: {node.module} has no {sorted(missing)}"


# -- desktop -----------------------------------------------------------------------------------------

def test_windows_are_found_by_part_of_their_title_or_the_whole(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    desktop = load(monkeypatch, "desktop")
    monkeypatch.setattr(desktop, "subprocess", wmctrl({"-l": WMCTRL_L, "-lG": WMCTRL_LG, "-lx": WMCTRL_LX}))
    assert desktop.titles()[1] == "definitions.py (~/projects/shop) - gedit"
    assert desktop.classes() == ["gnome-terminal-server.Gnome-terminal"]
    assert desktop.has_window("definitions.py") and desktop.has_window("Save", whole=True)
    assert not desktop.has_window("Sav", whole=True) and not desktop.has_window("Chart")
    assert desktop.corner("Chart Type", "Chart Elements") == (412, 180)
    assert desktop.corner("Chart Type") is None


def test_until_returns_the_first_true_value_or_fails_saying_what_it_waited_for(monkeypatch: pytest.MonkeyPatch,
                                                                               keys: Keys) -> None:
    desktop = load(monkeypatch, "desktop")
    answers = iter([None, 0, "there"])
    assert desktop.until(lambda: next(answers), 5, every=0) == "there"
    with pytest.raises(TimeoutError, match="waited 0.05 s for the dialog"):
        desktop.until(lambda: False, 0.05, "the dialog", every=0.01)


def test_keyboard_widgets_press_what_a_person_would(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    desktop = load(monkeypatch, "desktop")
    monkeypatch.setattr(desktop.time, "sleep", lambda _: None)
    desktop.choose(10, 20, 2)
    desktop.name_box("A1:B13")
    assert keys.calls == [("click", 10, 20), ("press", "down"), ("press", "down"), ("press", "enter"),
                          ("hotkey", "ctrl", "shift", "f5"), ("typewrite", "A1:B13\n")]


# -- terminal ----------------------------------------------------------------------------------------

def test_a_process_is_found_by_its_command_line_but_never_the_cell_itself() -> None:
    """The cell's own interpreter holds the words it waits for in its command line (its code is
    the ``-c`` argument), so it must not count itself."""
    stub = "import sys, types; sys.modules['pyautogui'] = types.ModuleType('pyautogui')\n"
    code = stub + with_helpers("from terminal import running\nprint(running('sleep 31.4159'), running('marker-7f3a'))")
    sleeper = subprocess.Popen(["sleep", "31.4159"])
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert (done.returncode, done.stdout, done.stderr) == (0, "True False\n", "")


def test_run_waits_until_the_command_has_come_and_gone(monkeypatch: pytest.MonkeyPatch, keys: Keys,
                                                        tmp_path: Path) -> None:
    terminal = load(monkeypatch, "terminal")
    started: list[subprocess.Popen[bytes]] = []
    typewrite = keys.__getattr__("typewrite")

    def type_and_start(text: str, **kw: Any) -> None:  # the terminal runs what is typed
        typewrite(text, **kw)
        started.append(subprocess.Popen(["sh", "-c", f"sleep 0.6; touch {tmp_path / 'out'}; sleep 0.4", "x-6271"]))

    monkeypatch.setattr(keys, "typewrite", type_and_start, raising=False)
    begin = time.monotonic()
    terminal.run("make out", process="x-6271", creates=str(tmp_path / "out"))
    assert time.monotonic() - begin >= 0.9 and started[0].poll() is not None
    assert keys.typed() == ["make out\n"]
    with pytest.raises(TimeoutError, match="never-there"):
        terminal.run("true", creates=str(tmp_path / "never-there"), timeout=0.1)


def test_cat_into_ends_the_text_with_a_newline_and_ctrl_d(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    terminal = load(monkeypatch, "terminal")
    monkeypatch.setattr(terminal.time, "sleep", lambda _: None)
    terminal.cat_into("models/a.sql", "select 1")
    terminal.cat_into("schema.yml", "  - name: x\n", append=True)
    assert keys.typed() == ["cat > models/a.sql\nselect 1\n", "cat >> schema.yml\n  - name: x\n"]
    assert keys.calls.count(("hotkey", "ctrl", "d")) == 2


# -- gedit -------------------------------------------------------------------------------------------

def test_type_lines_types_each_line_over_the_copied_indentation(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    gedit = load(monkeypatch, "gedit")
    gedit.type_lines('''
@asset
def a():
    return 1

''')
    assert keys.typed() == ["@asset\n", "def a():\n", "    return 1\n", "\n"]
    assert [c for c in keys.calls if c[0] == "hotkey"] == [("hotkey", "shift", "home")] * 4


def test_retype_line_goes_to_the_line_and_types_over_it(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    gedit = load(monkeypatch, "gedit")
    gedit.retype_line(7, "database = sales_2024")
    assert keys.calls == [("hotkey", "ctrl", "home"), ("press", "down"), ("press", "end"),
                          ("hotkey", "shift", "home"), ("typewrite", "database = sales_2024")]


# -- jupyter_ui --------------------------------------------------------------------------------------

def test_save_until_presses_ctrl_s_until_the_saved_notebook_shows_the_result(monkeypatch: pytest.MonkeyPatch,
                                                                            keys: Keys, tmp_path: Path) -> None:
    jupyter_ui = load(monkeypatch, "jupyter_ui")
    monkeypatch.setattr(jupyter_ui.time, "sleep", lambda _: None)
    notebook = tmp_path / "report.ipynb"
    cells = [{"source": "print('Produce')", "outputs": []}, {"source": "x", "outputs": []}]
    notebook.write_text(json.dumps({"cells": cells}))
    presses: list[tuple[str, ...]] = []

    def save(args: tuple[str, ...]) -> None:  # JupyterLab writes the outputs on the third Ctrl+S
        presses.append(args)
        if len(presses) == 3:
            cells[0]["outputs"] = [{"text": "Produce 12.5"}]
            notebook.write_text(json.dumps({"cells": cells}))

    keys.on_hotkey = save
    jupyter_ui.save_until(str(notebook), "Produce", cell=0)
    assert presses == [("ctrl", "s")] * 3
    with pytest.raises(TimeoutError, match="report.ipynb saved with 'Produce'"):
        jupyter_ui.save_until(str(notebook), "Produce", cell=-1, timeout=0.05)  # the source does not count


def test_line_edits_in_a_cell_select_by_keyboard(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    jupyter_ui = load(monkeypatch, "jupyter_ui")
    jupyter_ui.retype_line(2, "b = 2")
    jupyter_ui.delete_line(1)
    assert keys.calls == [("hotkey", "ctrl", "home"), ("press", "down"), ("press", "home"),
                          ("hotkey", "shift", "end"), ("typewrite", "b = 2"),
                          ("hotkey", "ctrl", "home"), ("press", "down"), ("press", "home"),
                          ("hotkey", "shift", "down"), ("press", "delete")]


# -- built on a family's helper ----------------------------------------------------------------------------

def test_a_dag_counts_as_parsed_once_listed_with_its_tasks_and_free_of_import_errors(
        monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    monkeypatch.setitem(sys.modules, "pyatspi", types.ModuleType("pyatspi"))
    airflow_dags = load(monkeypatch, "airflow_dags")
    state: dict[str, Any] = {"listed": False, "tasks": 2, "errors": ["/home/user/airflow/dags/load_customers.py"]}

    def api(path: str) -> Any:
        if not state["listed"]:
            raise OSError("404")
        if path.endswith("/tasks"):
            return {"tasks": [{}] * state["tasks"]}
        if path == "importErrors":
            return {"import_errors": [{"filename": f} for f in state["errors"]]}
        return {"dag_id": "load_customers"}

    monkeypatch.setattr(airflow_dags, "api", api)
    assert not airflow_dags.parsed("load_customers", tasks=3)
    state["listed"] = True
    assert not airflow_dags.parsed("load_customers", tasks=3)
    state["tasks"] = 3
    assert not airflow_dags.parsed("load_customers", tasks=3)
    state["errors"] = ["/home/user/airflow/dags/other.py"]
    assert airflow_dags.parsed("load_customers", tasks=3) and airflow_dags.parsed("load_customers")



def test_a_link_whose_click_led_nowhere_is_clicked_again(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    monkeypatch.setitem(sys.modules, "pyatspi", types.ModuleType("pyatspi"))
    airflow_ui = load(monkeypatch, "airflow_ui")
    monkeypatch.setattr(airflow_ui.time, "sleep", lambda _: None)
    clicks: list[tuple[int, int]] = []
    keys.click = lambda x, y: clicks.append((x, y))
    screen = {"link": [(46, 281)], "entry": []}
    lost = {"clicks": 1}  # how many clicks come to nothing (the list still loading) before one works

    def find_all(role: str, name: str | None = None, contains: bool = False) -> list[tuple[int, int]]:
        return screen[role]

    def find(role: str, name: str | None = None, timeout: float = 60.0, contains: bool = False) -> tuple[int, int]:
        if len(clicks) <= lost["clicks"]:
            raise TimeoutError(name)
        screen["entry"] = [(700, 300)]
        return screen["entry"][0]

    monkeypatch.setattr(airflow_ui, "find_all", find_all)
    monkeypatch.setattr(airflow_ui, "find", find)
    airflow_ui.follow("Add +", "Key *")
    assert clicks == [(46, 281), (46, 281)]
    airflow_ui.follow("Add +", "Key *")  # the form is there: nothing to click
    assert len(clicks) == 2
    screen["entry"], lost["clicks"] = [], 1000
    monkeypatch.setattr(airflow_ui.time, "time", iter(range(0, 1000, 30)).__next__)
    with pytest.raises(TimeoutError, match="the link 'Add \\+' did not lead to an entry 'Key \\*'"):
        airflow_ui.follow("Add +", "Key *", timeout=60)

def test_a_query_that_sql_lab_mangled_is_typed_again(monkeypatch: pytest.MonkeyPatch, keys: Keys) -> None:
    superset_sqllab = load(monkeypatch, "superset_sqllab")
    monkeypatch.setattr(superset_sqllab.time, "sleep", lambda _: None)
    runs: list[str] = []
    keys.on_hotkey = lambda args: runs.append("error" if len(runs) == 0 else "rows") if args == ("ctrl", "enter") else None
    pane = {"error": superset_sqllab.ERROR_BOX, "rows": superset_sqllab.CREATE_CHART}
    monkeypatch.setattr(superset_sqllab, "looks", lambda x, y, rgb, tol=14: bool(runs) and pane[runs[-1]] == (x, y, rgb))
    monkeypatch.setattr(superset_sqllab, "until", lambda check, timeout=60: check())
    ran = iter(["SELECT 1  ", "SELECT a, SUM(b) FROM t", " SELECT a,  SUM(b) FROM t GROUP BY a"])
    monkeypatch.setattr(superset_sqllab, "last_query", lambda: next(ran))
    superset_sqllab.run_query("SELECT 1 ")  # a syntax error first, then the whole query
    assert runs == ["error", "rows"] and keys.typed() == ["SELECT 1 ", "SELECT 1 "]
    runs[:] = ["error"]
    superset_sqllab.run_query("SELECT a, SUM(b) FROM t GROUP BY a ")  # ran without its end first
    assert runs == ["error", "rows", "rows"] and keys.typed()[2:] == ["SELECT a, SUM(b) FROM t GROUP BY a "] * 2
    runs.clear()
    keys.on_hotkey = lambda args: runs.append("error") if args == ("ctrl", "enter") else None
    with pytest.raises(RuntimeError, match="did not run the query \\(3 tries\\)"):
        superset_sqllab.run_query("SELEC 1 ")
