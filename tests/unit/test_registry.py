"""Registries (declared names, suggestions, parameter checks) and the built-in agents' parsing."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_spider2v.agents.oracle import OracleAgent, solution_actions
from pytest_spider2v.registry import Registry, Unavailable, UnknownName, check_parameters, near_misses
from pytest_spider2v.run.agent import Observation, action_kind, agent_factory
from pytest_spider2v.testing.factories import make_task


def test_declared_names_are_known_but_unavailable_with_the_reason() -> None:
    reg: Registry = Registry("getter")
    reg.add("vm_file", lambda ctx, spec: None)
    reg.declare("bigquery_table_to_csv", "needs a BigQuery account")
    assert "bigquery_table_to_csv" in reg
    with pytest.raises(Unavailable, match="needs a BigQuery account"):
        reg.get("bigquery_table_to_csv")
    with pytest.raises(UnknownName, match="did you mean 'vm_file'"):
        reg.get("vm_fiel")
    assert reg.available() == ["vm_file"]


def test_declaring_never_hides_an_implementation() -> None:
    reg: Registry = Registry("metric")
    reg.add("m", len)
    reg.declare("m", "not here")
    assert reg.get("m") is len


def test_check_parameters_reports_what_does_not_bind() -> None:
    def step(ctx, path: str, strict: bool = False) -> None: ...

    assert check_parameters(step, 1, {"path": "/x"}) is None
    assert "missing a required argument: 'path'" in check_parameters(step, 1, {})
    assert "unexpected keyword argument 'paht'" in check_parameters(step, 1, {"path": "/x", "paht": 1})


def test_special_actions_in_both_forms() -> None:
    assert [action_kind(a) for a in ["DONE", " FAIL\n", {"action_type": "WAIT"}, "pyautogui.click()"]] == [
        "DONE", "FAIL", "WAIT", "code"]


def test_solution_cells_become_actions(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("# %% open the file\npyautogui.hotkey('ctrl', 'o')\n\n# %%\n\n# %% wait\nWAIT\n# %%\nDONE\n")
    assert solution_actions(solution) == ["pyautogui.hotkey('ctrl', 'o')", "WAIT", "DONE"]


def test_oracle_replays_one_cell_per_turn_then_done(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("# %%\nx = 1\n# %%\nDONE\n")
    agent = OracleAgent()
    agent.reset(make_task(solution=solution))
    obs = Observation(b"")
    assert [agent.act("", obs).actions for _ in range(3)] == [["x = 1"], ["DONE"], ["DONE"]]
    with pytest.raises(Unavailable, match="no reference solution"):
        agent.reset(make_task())


def test_agent_names_resolve_exactly_or_with_suggestions() -> None:
    assert agent_factory("noop") is not None
    with pytest.raises(UnknownName, match="did you mean 'noop'"):
        agent_factory("nop")


def test_every_module_of_the_near_misses_apps_folder_is_loaded() -> None:
    """The near-miss makers' ``apps/`` folder loads its modules itself: no list to keep in step.
    (The steps', getters' and metrics' are read from their package's index: test_registry_index.)"""
    package = importlib.import_module("pytest_spider2v.near_misses.apps")
    list(near_misses)  # the makers load on first use
    modules = sorted(p.stem for p in Path(package.__path__[0]).glob("*.py") if p.stem != "__init__")
    assert modules, "near_misses/apps has no modules"
    assert [m for m in modules if f"{package.__name__}.{m}" not in sys.modules] == []


def test_import_submodules_imports_a_new_file_without_a_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    family = tmp_path / "toyapps"
    family.mkdir()
    (family / "__init__.py").write_text("from pytest_spider2v.registry import import_submodules\n"
                                        "import_submodules(__name__, __path__)\n")
    (family / "toyfamily.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("toyapps")
    assert sys.modules["toyapps.toyfamily"].LOADED


def test_deferred_modules_register_when_the_registry_is_first_read(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension package that defers its modules: they are imported by the first read of the
    registry (a lookup, a suggestion, a listing), never by the package's import."""
    (tmp_path / "toyext").mkdir()
    (tmp_path / "toyext" / "__init__.py").write_text("from pytest_spider2v.registry import Registry\n"
                                                    "shouters: Registry = Registry('shouter')\n"
                                                    "shouters.load_on_first_use(__name__, 'impl')\n")
    (tmp_path / "toyext" / "impl.py").write_text("from toyext import shouters\nshouters.add('shout', str.upper)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    shouters = importlib.import_module("toyext").shouters
    assert "toyext.impl" not in sys.modules
    with pytest.raises(UnknownName, match="did you mean 'shout'"):
        shouters.get("shot")
    assert "toyext.impl" in sys.modules and shouters.get("shout")("a") == "A" and list(shouters) == ["shout"]


def test_start_up_imports_neither_the_run_nor_the_agents_nor_the_checks() -> None:
    """What every pytest command loads (the plugin and the entry points' modules) leaves the
    run's machinery, the agents, the near-miss makers, --validate's checks and the summary to
    the commands that use them; they still register when asked for."""
    code = ("import sys; from pytest_spider2v.registry import agents, load_extensions, near_misses\n"
            "import pytest_spider2v.plugin; load_extensions()\n"
            "heavy = ['pytest_spider2v.run.lifecycle', 'pytest_spider2v.agents.human', 'pytest_spider2v.agents.oracle',"
            " 'pytest_spider2v.near_misses.workbooks', 'pytest_spider2v.validate.checks',"
            " 'pytest_spider2v.validate.fingerprint', 'pytest_spider2v.reports.summary']\n"
            "print([m for m in heavy if m in sys.modules], 'oracle' in agents, 'compare_table' in near_misses)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]", "True", "True"]
