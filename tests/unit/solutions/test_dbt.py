"""The dbt solution helper (``solution_helpers/dbt_cli``) and the reference solutions of the
Spider2-V dbt tasks written with it (``pytest_spider2v/solutions/dbt``).

The helper is plain Python, so it runs here; the solutions are checked for what would break them
in the guest (a name the helper lacks, a cell using another cell's variable), for covering the
tasks that need no account, for the verbose variants replaying their abstract twin, and for
carrying nothing from the expected files.
"""

from __future__ import annotations

import ast
import json
import subprocess
import types
from pathlib import Path

import pytest

from pytest_spider2v.agents.oracle import solution_cells
from pytest_spider2v.agents.solution_helpers import helper_sources
from pytest_spider2v.environments.base import PYAUTOGUI_PREFIX
from pytest_spider2v.environments.locations import SPIDER2V_SOLUTIONS_DIR
from tests.support.cells import unbound_names
from tests.support.shared import require, sample, task_files

SOLUTIONS = sorted((SPIDER2V_SOLUTIONS_DIR / "dbt").glob("*.py"))


@pytest.fixture
def dbt_cli() -> types.ModuleType:
    module = types.ModuleType("dbt_cli")
    exec(compile(helper_sources()["dbt_cli"], "dbt_cli.py", "exec"), module.__dict__)
    return module


def test_edit_replaces_the_one_occurrence_and_refuses_none_or_several(dbt_cli: types.ModuleType,
                                                                       tmp_path: Path) -> None:
    path = tmp_path / "dbt_project.yml"
    path.write_text("a: view\nb: view\nc: table\n")
    dbt_cli.edit(path, "c: table", "c: view")
    assert path.read_text() == "a: view\nb: view\nc: view\n"
    with pytest.raises(ValueError, match="found it 3 times"):
        dbt_cli.edit(path, ": view", ": table")
    with pytest.raises(ValueError, match="found it 0 times"):
        dbt_cli.edit(path, "d:", "e:")
    assert path.read_text() == "a: view\nb: view\nc: view\n"


def test_write_saves_the_dedented_text_in_new_folders(dbt_cli: types.ModuleType, tmp_path: Path) -> None:
    dbt_cli.write(tmp_path / "models/marts/m.sql", """
        select 1
          as one
    """)
    assert (tmp_path / "models/marts/m.sql").read_text() == "select 1\n  as one\n"


def test_a_failing_dbt_command_fails_the_cell(dbt_cli: types.ModuleType, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[list[str], Path]] = []

    def run(args: list[str], cwd: Path, **_: object) -> subprocess.CompletedProcess[str]:
        calls.append((args, cwd))
        return subprocess.CompletedProcess(args, 1 if "test" in args else 0, "dbt says\n", "")

    monkeypatch.setattr(dbt_cli.subprocess, "run", run)
    assert dbt_cli.dbt(tmp_path, "run") == "dbt says\n"
    with pytest.raises(RuntimeError, match="dbt test exited with 1"):
        dbt_cli.dbt(tmp_path, "test")
    assert calls == [(["dbt", "run"], tmp_path), (["dbt", "test"], tmp_path)]


@pytest.mark.sample
def test_every_sample_dbt_task_without_an_account_has_a_solution() -> None:
    files = task_files(require(sample()), "dbt")
    local = {p.stem for p in files if "account" not in json.loads(p.read_text(encoding="utf-8"))["tags"]}
    assert local and local == {path.stem for path in SOLUTIONS}


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem[:8] for p in SOLUTIONS])
@pytest.mark.sample
class TestDbtSolution:
    def test_cells_use_only_what_the_helper_defines_and_what_they_bind(self, path: Path) -> None:
        helper = ast.parse(helper_sources()["dbt_cli"]).body
        defined = {n.name for n in helper if isinstance(n, ast.FunctionDef)} | {
            t.id for n in helper if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        cells = solution_cells(path)
        assert 1 <= len(cells) <= 15, "one action per cell, within the default step limit"
        for cell in cells:
            tree = ast.parse(PYAUTOGUI_PREFIX + cell.code)
            imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "dbt_cli"
                        for a in n.names}
            assert imported <= defined, f"cell {cell.title!r}: dbt_cli has no {sorted(imported - defined)}"
            assert not unbound_names(tree), f"cell {cell.title!r} uses names it never binds: {sorted(unbound_names(tree))}"

    def test_a_verbose_variant_replays_its_abstract_twin(self, path: Path) -> None:
        task = json.loads(require(sample("dbt", path.stem, f"{path.stem}.json")).read_text(encoding="utf-8"))
        if "verbose" not in task["tags"]:
            assert "based-on" not in path.read_text(encoding="utf-8")
            return
        twin = path.with_name(f"{task['counterpart']}.py")
        assert f"# %% based-on: {twin.name}" in path.read_text(encoding="utf-8")
        assert solution_cells(path) == solution_cells(twin)

    def test_it_reads_nothing_from_the_expected_files(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8").lower()
        assert "gold" not in text and "evaluation_examples" not in text and "eval.sh" not in text

