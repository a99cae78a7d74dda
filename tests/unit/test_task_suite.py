"""The project's own benchmark tasks (``tasks/<app>/<id>/``) are complete and self-consistent.

These checks run without Docker. They catch what would otherwise only show up as a confusing
failure in an end-to-end run: a data file the task names but does not ship, a reference
solution longer than the step limit, an ``action_number`` that disagrees with the tutorial, or
a gold answer that the untouched initial state already matches (so that an agent doing nothing
would score 1), or a deliberately wrong solution (``wrong_solution.py``, replayed by
``--validate``) that is not a solution at all or is the reference in disguise.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.agents.oracle import solution_cells
from pytest_spider2v.agents.solution_helpers import with_helpers
from pytest_spider2v.environments.base import PYAUTOGUI_PREFIX
from pytest_spider2v.environments.snapshots import load_snapshots
from pytest_spider2v.registry import load_extensions
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.tasks.model import CATEGORIES, INTERFACES, VARIANTS, TaskSpec
from tests.support.shared import REPO

TASKS = REPO / "tasks"
TASK_FILES = sorted(TASKS.glob("*/*/task.json"))
IDS = [f"{p.parent.parent.name}/{p.parent.name}" for p in TASK_FILES]

#: App names used in related_apps (they become pytest markers, so one spelling each).
APPS = {"calc", "terminal", "sqlite3", "dbt", "duckdb", "chromium", "gedit", "postgresql", "mariadb", "jupyter",
        "airflow", "dagster", "superset", "request-tracker"}
#: Snapshots a project task may restore: one per application family image.
SNAPSHOTS = set(load_snapshots())
#: The default step limit of a run: a reference solution must fit in it.
MAX_CELLS = 15
NUMBERED = re.compile(r"^\d+\.\s", re.MULTILINE)
#: The replayable solutions of a task folder: the reference, and a plausible mistake that
#: ``--validate`` requires to score 0 (so the evaluator is shown to check the outcome).
SOLUTIONS = ("solution.py", "wrong_solution.py")
#: The first line of a wrong solution: it says what the evaluator must catch.
WRONG_HEADER = "# Wrong on purpose: "
#: Files every task folder has besides its data.
OWN_FILES = {"task.json", "verbose_instruction.txt", *SOLUTIONS}

load_extensions()  # task files name steps, getters and metrics: the registries must know them


def spec_of(path: Path) -> TaskSpec:
    return TaskSpec.model_validate(json.loads(path.read_text(encoding="utf-8")))


def cells_of(path: Path) -> list[str]:
    """The code of the solution's cells exactly as the oracle agent plays them (a wrong solution's
    directives applied; the helper modules a cell imports are not part of it)."""
    return [cell.code for cell in solution_cells(path)]


def code_of(cell: str) -> str:
    """What a cell executes, comments and layout aside: two cells that differ only in their
    comments are the same action."""
    return ast.dump(ast.parse(cell))


def unbound_names(code: str) -> set[str]:
    """Names a cell reads but never binds: each cell runs in a fresh interpreter, so an import
    or variable from an earlier cell is not there (only the action prefix's pyautogui and time)."""
    tree = ast.parse(PYAUTOGUI_PREFIX + code)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return used - bound


def getter_slots(spec: TaskSpec) -> list[tuple[str, dict[str, Any] | None, dict[str, Any] | None, dict[str, Any]]]:
    """(metric, result getter, expected getter, options) for each metric of the evaluator."""
    ev = spec.evaluator
    funcs = ev.func if isinstance(ev.func, list) else [ev.func]

    def nth(slot: Any, i: int) -> Any:
        value = slot[i] if isinstance(slot, list) else slot
        return value.model_dump() if hasattr(value, "model_dump") else value

    return [(name, nth(ev.result, i), nth(ev.expected, i), nth(ev.options, i) or {}) for i, name in enumerate(funcs)]


def host_files(spec: TaskSpec) -> list[str]:
    """Every host path the task names (relative to its folder)."""
    names = []
    for step in [*spec.config, *spec.evaluator.postconfig]:
        if step.type in ("copyfile_from_host_to_guest", "script_and_execute"):
            names.append(step.parameters["src"])
    for _, result, expected, _ in getter_slots(spec):
        for getter in (result, expected):
            if getter and getter["type"] == "local_file":
                names.append(getter["path"])
            if getter and getter["type"] == "vm_script_output":
                names.append(getter["src"])
    return names


def initial_copy(spec: TaskSpec, folder: Path, guest_path: str) -> Path | None:
    """The host file the setup copies to ``guest_path``: what a do-nothing run leaves there."""
    for step in spec.config:
        if step.type == "copyfile_from_host_to_guest" and step.parameters["dest"] == guest_path:
            return folder / step.parameters["src"]
    return None


def test_the_suite_has_the_papers_mix_of_tasks() -> None:
    """At least 40 tasks over at least 10 apps; every category at least 3 times; about a fifth
    easy, three fifths medium and a fifth hard; every interface; a quarter using 2+ apps."""
    specs = [spec_of(p) for p in TASK_FILES]
    difficulty = Counter("easy" if s.action_number <= 5 else "medium" if s.action_number <= 15 else "hard"
                         for s in specs)
    categories = Counter(t for s in specs for t in s.tags if t in CATEGORIES)
    assert len(specs) >= 40
    assert len({app for s in specs for app in s.related_apps}) >= 10
    assert all(categories[c] >= 3 for c in CATEGORIES), categories
    shares = {d: n / len(specs) for d, n in difficulty.items()}
    assert 0.1 <= shares["easy"] <= 0.3 and 0.5 <= shares["medium"] <= 0.7 and 0.1 <= shares["hard"] <= 0.3, shares
    assert {t for s in specs for t in s.tags if t in INTERFACES} == set(INTERFACES)
    assert sum(1 for s in specs if len(set(s.related_apps) - {"terminal"}) >= 2) >= len(specs) / 4


@pytest.mark.parametrize("path", TASK_FILES, ids=IDS)
class TestTaskFolder:
    def test_schema_and_tags(self, path: Path) -> None:
        spec = spec_of(path)
        assert spec.id == path.parent.name, "the id names the folder"
        assert spec.snapshot in SNAPSHOTS
        assert [t for t in spec.tags if t in CATEGORIES] and len([t for t in spec.tags if t in CATEGORIES]) == 1
        assert len([t for t in spec.tags if t in INTERFACES]) == 1
        assert not set(spec.tags) & set(VARIANTS), "the folder yields both variants; tag neither"
        assert set(spec.tags) <= {*CATEGORIES, *INTERFACES}
        assert set(spec.related_apps) <= APPS, f"use the app names {sorted(APPS)}"

    def test_loads_as_two_variants(self, path: Path) -> None:
        tasks = load_tasks(path)
        assert [t.variant for t in tasks] == ["abstract", "verbose"]
        assert tasks[1].instruction.startswith(tasks[0].instruction)
        assert tasks[0].solution == path.parent / "solution.py"

    def test_action_number_counts_the_tutorial_steps(self, path: Path) -> None:
        text = (path.parent / "verbose_instruction.txt").read_text(encoding="utf-8")
        steps = [int(m.group(0).split(".")[0]) for m in NUMBERED.finditer(text)]
        assert steps == list(range(1, len(steps) + 1)), "steps are numbered 1, 2, 3, ..."
        assert spec_of(path).action_number == len(steps)
        assert all(NUMBERED.match(line) for line in text.strip().splitlines()), "one numbered step per line"

    @pytest.mark.parametrize("solution", SOLUTIONS)
    def test_solution_fits_the_step_limit(self, path: Path, solution: str) -> None:
        assert (path.parent / solution).is_file(), f"the task folder has no {solution}"
        cells = cells_of(path.parent / solution)
        assert 2 <= len(cells) <= MAX_CELLS
        assert cells[-1] == "DONE"
        code = [c for c in cells if c not in ("WAIT", "DONE", "FAIL")]
        assert "DONE" not in cells[:-1] and "FAIL" not in cells
        assert any("pyautogui." in with_helpers(c) for c in code), "the solution must drive the GUI"
        for cell in code:
            compile(PYAUTOGUI_PREFIX + cell, f"{path.parent / solution} cell", "exec")
            assert not unbound_names(cell), f"cell {cell.splitlines()[0]!r} uses names it never defines"

    def test_wrong_solution_says_its_mistake_and_makes_it(self, path: Path) -> None:
        """The header names what the evaluator must catch; the code must contain at least one
        action the reference does not have, so the mistake is made, not merely a step left out
        (a reference minus a step is often just an unfinished run, or no change at all)."""
        wrong = path.parent / "wrong_solution.py"
        header = wrong.read_text(encoding="utf-8").splitlines()[0]
        assert header.startswith(WRONG_HEADER) and header[len(WRONG_HEADER):].strip(), (
            f"the first line is {WRONG_HEADER!r} followed by the mistake"
        )
        reference = {code_of(c) for c in cells_of(path.parent / "solution.py")}
        changed = [c for c in cells_of(wrong) if code_of(c) not in reference]
        assert changed, "every action of the wrong solution is one of the reference's"

    def test_every_host_file_exists_and_every_file_is_used(self, path: Path) -> None:
        folder = path.parent
        named = set(host_files(spec_of(path)))
        for name in named:
            assert not Path(name).is_absolute(), f"{name}: host paths are relative to the task folder"
            assert (folder / name).is_file(), f"{name} is named by the task but missing"
        present = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
        assert present - OWN_FILES - named == set(), "files that no step or getter uses"

    def test_scripts_are_valid_bash(self, path: Path) -> None:
        if shutil.which("bash") is None:
            pytest.skip("bash is not installed")
        for script in path.parent.glob("*.sh"):
            done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
            assert done.returncode == 0, f"{script.name}: {done.stderr}"

    def test_doing_nothing_scores_zero_and_the_gold_scores_one(self, path: Path) -> None:
        """Simulate the evaluator on the host for file results: the file a do-nothing run leaves
        (the copied initial file, or none) must fail, and the gold file itself must pass."""
        from pytest_spider2v.registry import metrics as metric_registry

        spec, folder = spec_of(path), path.parent
        checked = 0
        for name, result, expected, options in getter_slots(spec):
            if result["type"] != "vm_file":
                continue  # computed in the guest (a script, a query); --validate covers it
            assert result["type"] == "vm_file" and expected and expected["type"] == "local_file"
            metric = metric_registry.get(name)
            gold = str(folder / expected["path"])
            initial = initial_copy(spec, folder, result["path"])
            assert metric(str(initial) if initial else None, gold, **options) == 0, "the initial state already passes"
            assert metric(gold, gold, **options) == 1, "the gold answer does not pass its own metric"
            checked += 1
        if not checked:
            pytest.skip("no file result to check on the host; --validate covers it in the guest")
