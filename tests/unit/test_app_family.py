"""The checklist "Adding an application family" (``docs/extending/app-family.md``), walked: a toy
family written in a temporary folder the way a third-party package would write it, from the
checklist's own code blocks, and each step shown to take. A test here names the step it checks.

The toy family ``toy`` is an installed distribution (a ``.dist-info`` on ``sys.path``) whose one
module of the ``pytest_spider2v`` entry-point group registers its recipes folder (one recipe
layered on the desktop, a snapshot entry, a provides entry), a setup step, a getter, a metric and
a near-miss maker, and a project task in ``tasks/toy/`` uses them. Nothing is built and no
container starts: each step is checked where the build, the run and ``--validate`` read it.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_spider2v import registry
from pytest_spider2v.environments.build import resolve_recipes
from pytest_spider2v.environments.limits import Limits
from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.provider import SnapshotTable
from pytest_spider2v.environments.snapshots import load_manifest, load_snapshots, recipe_dir
from pytest_spider2v.registry import getters, load_extensions, metrics, near_misses, recipes_dirs, setup_steps
from pytest_spider2v.tasks.availability import Accounts, unavailable_reasons
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.validate.fingerprint import Fingerprinter
from tests.support.shared import REPO

#: The checklist, whose code blocks (each after an ``<!-- app-family: NAME -->`` line) the toy
#: family is written from.
CHECKLIST = REPO / "docs" / "extending" / "app-family.md"
BLOCK = re.compile(r"^<!-- app-family: (\S+) -->\n```\w*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def checklist_blocks() -> dict[str, str]:
    """The checklist's code blocks, by the name on the line before each."""
    return dict(BLOCK.findall(CHECKLIST.read_text(encoding="utf-8")))


#: The task's evaluation: the toy getter's count against the rule's.
TASK = {
    "id": "count-widgets", "snapshot": "toy", "instruction": "Add three widgets to the widgets board.",
    "related_apps": ["toy"], "tags": ["data_transformation", "cli"], "action_number": 3,
    "config": [{"type": "execute", "parameters": {"command": ["toyctl", "start"]}},
               {"type": "toy_open", "parameters": {"board": "widgets"}}],
    "evaluator": {"func": "toy_matches", "result": {"type": "toy_board", "board": "widgets"},
                  "expected": {"type": "rule", "rules": {"count": 3}}},
}


@dataclass(frozen=True)
class ToyFamily:
    """Where the toy family's files are."""

    package: Path  #: the extension's package (``toy_spider2v``)
    recipes: Path  #: its recipes folder
    root: Path  #: the project holding ``tasks/toy/count-widgets``

    @property
    def task_file(self) -> Path:
        return self.root / "tasks" / "toy" / "count-widgets" / "task.json"

    def task(self) -> Task:
        return load_tasks(self.task_file)[0]


def write_toy_family(base: Path) -> ToyFamily:
    """Every file of the checklist's steps, as a third party writes them."""
    blocks = checklist_blocks()
    site = base / "site"
    package = site / "toy_spider2v"
    recipes = package / "recipes"
    (recipes / "toy").mkdir(parents=True)
    # step 0: the extension module and its entry point, as an installed distribution declares it
    (package / "__init__.py").write_text(blocks["register"] + "\n\n" + blocks["extension"])
    dist = site / "toy_spider2v-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-spider2v\nVersion: 0.1\n")
    group = "pytest_spider2v"
    entry_points = tomllib.loads(blocks["pyproject.toml"])["project"]["entry-points"][group]
    (dist / "entry_points.txt").write_text(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))
    # step 1: the recipe, layered on the desktop
    (recipes / "toy" / "Dockerfile").write_text("ARG BASE\nFROM ${BASE}\nCOPY toyctl /usr/local/bin/toyctl\n")
    (recipes / "toy" / "toyctl").write_text("#!/bin/sh\necho 3\n")
    (recipes / "toy" / "recipe.yaml").write_text("parent: desktop\n")
    # steps 2 and 3: the snapshot tasks name, what the image offers a task
    (recipes / "snapshots.yaml").write_text(blocks["snapshots.yaml"])
    (recipes / "provides.yaml").write_text(blocks["provides.yaml"])
    # step 5: a task of the family, with its reference and wrong solutions
    root = base / "project"
    folder = root / "tasks" / "toy" / "count-widgets"
    folder.mkdir(parents=True)
    (folder / "task.json").write_text(json.dumps(TASK))
    (folder / "solution.py").write_text("# %% add three widgets\nimport subprocess\n"
                                        "subprocess.run(['toyctl', 'add', 'widgets', '3'])\n\n# %%\nDONE\n")
    (folder / "wrong_solution.py").write_text("# Wrong on purpose: adds two widgets\n# %% based-on: solution.py\n"
                                              "# %% replace 1: two\nimport subprocess\n"
                                              "subprocess.run(['toyctl', 'add', 'widgets', '2'])\n")
    return ToyFamily(package, recipes, root)


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ToyFamily]:
    """The toy family installed and its extension loaded; the registries, the loaded extensions
    and ``sys.modules`` are as they were after the test."""
    family = write_toy_family(tmp_path)
    for table in (setup_steps, getters, metrics, near_misses, recipes_dirs):
        monkeypatch.setattr(table, "_entries", dict(table._entries))
    monkeypatch.setattr(registry, "_loaded", dict(registry._loaded))
    monkeypatch.syspath_prepend(str(family.package.parent))
    load_extensions()
    yield family
    for name in [m for m in sys.modules if m.split(".")[0] == "toy_spider2v"]:
        del sys.modules[name]


def test_steps_0_and_4_the_extension_registers_through_its_entry_point(toy: ToyFamily) -> None:
    module = sys.modules["toy_spider2v"]
    assert setup_steps.get("toy_open") is module.toy_open
    assert getters.get("toy_board") is module.toy_board
    assert metrics.get("toy_matches") is module.toy_matches
    assert near_misses.get("toy_matches") is module.toy_counts
    assert recipes_dirs.get("toy") == toy.recipes


def test_step_1_the_recipe_is_found_and_built_after_its_parent(toy: ToyFamily) -> None:
    assert recipe_dir("toy") == toy.recipes / "toy"
    assert recipe_dir("desktop") == RECIPES_DIR / "desktop"
    assert resolve_recipes(["toy"], RECIPES_DIR) == ["desktop", "toy"]
    assert "toy" in resolve_recipes([], RECIPES_DIR)  # `spider2v-build` with no names builds it too


def test_step_2_the_snapshot_is_in_the_table_with_its_ports_and_limits(toy: ToyFamily) -> None:
    snapshot = load_snapshots()["toy"]
    assert (snapshot.recipe, snapshot.image, 7000 in snapshot.ports) == ("toy", "spider2v/toy:latest", True)
    table = SnapshotTable(RECIPES_DIR, "docker")
    # its own memory over the built-in table's limits for every snapshot
    assert table.limits_of("toy") == Limits.from_mapping({"memory": "1g"}, "").over(table.limits_of("desktop"))


def test_step_2_a_snapshot_an_extension_redefines_is_an_error(toy: ToyFamily) -> None:
    (toy.recipes / "snapshots.yaml").write_text("snapshots:\n  desktop: toy\n")
    with pytest.raises(ValueError, match="snapshot 'desktop' is already in"):
        load_snapshots()


def test_step_3_the_needs_analysis_finds_the_task_runnable(toy: ToyFamily) -> None:
    assert "toyctl" in load_manifest().families["toy"].programs
    assert "chromium" in load_manifest().families["toy"].programs  # the desktop's, its parent's
    assert unavailable_reasons(toy.task(), Accounts()) == []


def test_step_3_without_its_program_in_provides_the_task_is_not_runnable(toy: ToyFamily) -> None:
    (toy.recipes / "provides.yaml").write_text("families:\n  toy: {}\n")
    assert unavailable_reasons(toy.task(), Accounts()) == [
        "needs program 'toyctl' (called in config[0].command line 1: toyctl start), not in image 'toy'"]


def collected(pytester: pytest.Pytester, toy: ToyFamily, *args: str) -> list[str]:
    """The items ``pytest tasks --collect-only`` lists for the toy family's tasks."""
    if not (pytester.path / "tasks").exists():
        (pytester.path / "tasks").symlink_to(toy.root / "tasks")
    result = pytester.runpytest("tasks", "--collect-only", "-q", "--strict-markers", *args)
    assert result.ret == 0, result.outlines
    return [line.split("::")[1] for line in result.outlines if "::" in line]


def test_step_5_the_task_collects_with_the_family_marker(toy: ToyFamily, pytester: pytest.Pytester) -> None:
    assert collected(pytester, toy, "-m", "toy") == ["count-widgets[abstract]"]


def test_step_5_validate_checks_the_task_with_both_solutions(toy: ToyFamily, pytester: pytest.Pytester) -> None:
    assert collected(pytester, toy, "--validate") == [f"count-widgets[validate-{check}]"
                                                      for check in ("reference", "near-miss", "wrong", "reset")]


def test_step_6_the_fingerprint_covers_the_family_code_and_recipe(toy: ToyFamily) -> None:
    task = toy.task()
    parts = Fingerprinter().parts(task)
    assert {"setup step toy_open", "getter toy_board", "metric toy_matches", "near-miss maker toy_matches"} <= set(parts["code"])
    before = Fingerprinter().fingerprint(task)
    init = toy.package / "__init__.py"
    init.write_text(init.read_text().replace('float(result == expected["count"])', 'float(result >= expected["count"])'))
    importlib.reload(sys.modules["toy_spider2v"])
    after_metric = Fingerprinter().fingerprint(task)
    assert after_metric != before
    (toy.recipes / "toy" / "toyctl").write_text("#!/bin/sh\necho 4\n")
    assert Fingerprinter().fingerprint(task) != after_metric
