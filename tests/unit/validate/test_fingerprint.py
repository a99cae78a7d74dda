"""Task fingerprints and the changed-only validation: a change to one metric, recipe, helper or
task file reaches exactly the tasks that depend on it; the state records only tasks whose every
check passed; ``--validate-changed`` deselects the unchanged ones but a sample per image family.

The code under fingerprint is a throwaway extension package written into ``tmp_path``, with its
own registries, so the tests can edit a metric's source and see which fingerprints move. The
pytest runs replace the ``spider2v_run`` fixture with a stand-in that scores from a file: no
container starts.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v import registry
from pytest_spider2v.registry import Registry
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import (
    constant_evaluator,
    make_task,
    task_document,
    write_checkout_task,
    write_task,
)
from pytest_spider2v.validate.fingerprint import CodeDigests, Fingerprinter, extension_packages, imported_modules
from tests.support.shared import REPO

# -- a throwaway extension: metrics, a getter, a step and a solution helper ---------------------

METRICS = '''\
"""Metrics of a throwaway extension."""
from .common import THRESHOLD, shared


def metric_a(result, expected):
    return float(shared(result) >= THRESHOLD)


def metric_b(result, expected):
    from .rules import RULES  # imported in the body, as heavy helpers are
    return float(all(check(result) for check, _keys in RULES.values()))


def metric_c(result, expected):
    return metric_a(result, expected)


def unused(result, expected):
    return 0.0
'''
COMMON = '''\
THRESHOLD = 1


def shared(value):
    return len(value)
'''
RULES = '''\
def nonempty(value):
    return bool(value)


RULES = {"nonempty": (nonempty, ("key",))}
'''
GETTERS = '''\
def rule(ctx, spec):
    return spec["rules"]
'''
UI = '''\
def click(name):
    return name
'''


@pytest.fixture
def extension(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Extension]:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # an edited module is recompiled on reload
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    yield Extension(tmp_path)
    for name in [m for m in sys.modules if m == "fpext" or m.startswith("fpext.")]:
        del sys.modules[name]


class Extension:
    """The package ``fpext`` (metrics, getters, solution helpers) and recipes in ``tmp_path``."""

    def __init__(self, root: Path, create: bool = True) -> None:
        self.package = root / "src" / "fpext"
        self.environments = root / "environments"
        if create:
            self.create()

    def create(self) -> None:
        for rel, text in {"__init__.py": "", "metrics.py": METRICS, "common.py": COMMON, "rules.py": RULES,
                          "getters.py": GETTERS, "helpers/__init__.py": "", "helpers/fp_ui.py": UI}.items():
            self.write(rel, text)
        files = {"snapshots.yaml": "limits: {memory: 2g}\nsnapshots:\n  desktop: desktop\n  db: {recipe: db, ports: [5432]}\n",
                 "desktop/Dockerfile": "FROM base\n", "db/Dockerfile": "FROM desktop\n", "db/recipe.yaml": "parent: desktop\n"}
        for rel, text in files.items():
            (self.environments / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.environments / rel).write_text(text)

    def write(self, rel: str, text: str) -> None:
        path = self.package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def edit(self, rel: str, old: str, new: str) -> None:
        path = self.package / rel
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))

    def fingerprinter(self) -> Fingerprinter:
        """A fingerprinter over the extension as it is on disk now (modules reloaded)."""
        importlib.invalidate_caches()
        for name in [m for m in sys.modules if m == "fpext" or m.startswith("fpext.")]:
            del sys.modules[name]  # imported afresh, as the package is on disk now
        modules = {name: importlib.import_module(name) for name in ("fpext.metrics", "fpext.getters")}
        metrics: Registry[Any] = Registry("metric")
        for name in ("metric_a", "metric_b", "metric_c"):
            metrics.add(name, getattr(modules["fpext.metrics"], name))
        getters: Registry[Any] = Registry("getter")
        getters.add("rule", modules["fpext.getters"].rule)
        steps: Registry[Any] = Registry("setup step")
        steps.declare("cloud_login", "needs a cloud account")
        return Fingerprinter(self.environments, steps=steps, getters=getters, metrics=metrics, packages=["fpext"],
                             helpers_dir=self.package / "helpers")


def extension_task(root: Path, task_id: str, metric: str, snapshot: str = "desktop", solution: str = "DONE\n") -> Task:
    document = task_document(id=task_id, snapshot=snapshot, instruction="x",
                             config=[{"type": "cloud_login", "parameters": {}}],
                             evaluator=constant_evaluator(func=metric))
    return read_task(write_task(root, document, solution=solution))


def read_task(path: Path) -> Task:
    """A project task of the throwaway extension (``load_tasks`` would check its names against
    the real registries)."""
    return make_task(json.loads(path.read_text()), root=path.parent, solution=path.parent / "solution.py")


@pytest.fixture
def tasks(tmp_path: Path) -> dict[str, Task]:
    """One task per metric, and one in the ``db`` family; ``t_ui``'s solution uses a helper."""
    return {
        "t_a": extension_task(tmp_path, "t-a", "metric_a"),
        "t_b": extension_task(tmp_path, "t-b", "metric_b"),
        "t_c": extension_task(tmp_path, "t-c", "metric_c"),
        "t_db": extension_task(tmp_path, "t-db", "metric_b", snapshot="db"),
        "t_ui": extension_task(tmp_path, "t-ui", "metric_b",
                               solution="# %% open it\nfrom fp_ui import click\nclick('x')\n"),
    }


def changed_after(extension: Extension, tasks: dict[str, Task], change: Any) -> set[str]:
    before = {name: extension.fingerprinter().fingerprint(task) for name, task in tasks.items()}
    change()
    after = extension.fingerprinter()
    return {name for name, task in tasks.items() if after.fingerprint(task) != before[name]}


@pytest.mark.parametrize(("rel", "old", "new", "expected"), [
    ("metrics.py", "return float(all(", "return 1.0 * float(all(", {"t_b", "t_db", "t_ui"}),
    ("metrics.py", ">= THRESHOLD", "> THRESHOLD", {"t_a", "t_c"}),  # c calls a
    ("common.py", "return len(value)", "return len(value or '')", {"t_a", "t_c"}),  # a helper a imports
    ("common.py", "THRESHOLD = 1", "THRESHOLD = 2", {"t_a", "t_c"}),  # a constant a reads
    ("rules.py", "return bool(value)", "return value is not None", {"t_b", "t_db", "t_ui"}),  # via RULES, imported in the body
    ("metrics.py", "return 0.0", "return 1.0", set()),  # a function no task uses
])
def test_changing_one_metric_changes_exactly_the_tasks_that_use_it(extension, tasks, rel, old, new, expected) -> None:
    assert changed_after(extension, tasks, lambda: extension.edit(rel, old, new)) == expected


def test_moving_code_to_another_module_changes_no_fingerprint(extension, tasks) -> None:
    """A refactoring that moves a helper and rewrites the imports is no change of what runs."""
    def move() -> None:
        (extension.package / "util").mkdir()
        (extension.package / "util" / "__init__.py").write_text("")
        for name in ("common.py", "rules.py"):
            (extension.package / name).rename(extension.package / "util" / name)
        extension.edit("metrics.py", "from .common import", "from .util.common import")
        extension.edit("metrics.py", "from .rules import RULES", "from .util.rules import RULES")
    assert changed_after(extension, tasks, move) == set()


def test_comments_and_layout_change_no_fingerprint(extension, tasks) -> None:
    def reformat() -> None:
        extension.edit("metrics.py", "    return float(shared(result) >= THRESHOLD)",
                       "    # the threshold is inclusive\n    return float(\n        shared(result) >= THRESHOLD)")
    assert changed_after(extension, tasks, reformat) == set()


def test_type_annotations_change_no_fingerprint(extension, tasks) -> None:
    """Typing an extension (parameters, return, a declared local variable) changes nothing the
    run does, so it re-validates nothing."""
    def annotate() -> None:
        extension.edit("metrics.py", "def metric_a(result, expected):\n    return",
                       "def metric_a(result: list[str], expected: object) -> float:\n"
                       "    score: float\n    return")
        extension.edit("common.py", "def shared(value):", "def shared(value: 'Sized') -> int:")
    assert changed_after(extension, tasks, annotate) == set()


def test_what_an_annotated_line_does_still_counts(extension, tasks) -> None:
    """The negative of the test above: an annotated assignment's value is code, and a class
    body's annotations are fields (a dataclass's), which the run reads."""
    def retype_value() -> None:
        extension.edit("metrics.py", "def metric_a(result, expected):\n    return float(shared(result) >= THRESHOLD)",
                       "def metric_a(result, expected):\n    limit: int = THRESHOLD + 1\n"
                       "    return float(shared(result) >= limit)")
    assert changed_after(extension, tasks, retype_value) == {"t_a", "t_c"}

    def add_field() -> None:
        extension.edit("common.py", "THRESHOLD = 1\n",
                       "import dataclasses\nTHRESHOLD = 1\n\n\n@dataclasses.dataclass\nclass Limit:\n"
                       "    value: int = 1\n")
        extension.edit("common.py", "return len(value)", "return len(value) * Limit().value")
    before = changed_after(extension, tasks, add_field)
    assert before == {"t_a", "t_c"}
    assert changed_after(extension, tasks, lambda: extension.edit("common.py", "    value: int = 1",
                                                                  "    value: int = 1\n    other: int = 0")) == {"t_a", "t_c"}


def test_changing_a_solution_helper_changes_the_tasks_whose_solution_imports_it(extension, tasks) -> None:
    assert changed_after(extension, tasks, lambda: extension.edit("helpers/fp_ui.py", "return name", "return name * 2")) == {"t_ui"}


def test_changing_a_recipe_changes_the_tasks_on_that_family_only(extension, tasks) -> None:
    envs = extension.environments
    assert changed_after(extension, tasks, lambda: (envs / "db" / "Dockerfile").write_text("FROM desktop\nRUN true\n")) == {"t_db"}
    assert changed_after(extension, tasks, lambda: (envs / "db" / "initdb.sql").write_text("select 1;\n")) == {"t_db"}
    # db is built FROM desktop: a change there reaches both families
    assert changed_after(extension, tasks, lambda: (envs / "desktop" / "Dockerfile").write_text("FROM base2\n")) == set(tasks)
    snapshots = envs / "snapshots.yaml"
    assert changed_after(extension, tasks, lambda: snapshots.write_text(snapshots.read_text().replace("5432", "5433"))) == {"t_db"}


def test_a_folder_a_recipe_links_from_another_recipe_is_part_of_its_fingerprint(extension, tasks) -> None:
    """A recipe may link a folder of another recipe (dagster's services/mariadb is the databases
    family's); its build context copies what the link points at, so its tasks' fingerprints cover it."""
    envs = extension.environments
    (envs / "shared-services").mkdir()
    (envs / "shared-services" / "start").write_text("#!/bin/sh\nexec server\n")
    (envs / "db" / "services").mkdir()
    (envs / "db" / "services" / "server").symlink_to(Path("..", "..", "shared-services"))
    assert changed_after(extension, tasks, lambda: (envs / "shared-services" / "start").write_text("#!/bin/sh\nexec server -v\n")) == {"t_db"}


def test_changing_a_task_file_changes_that_task_only(extension, tasks) -> None:
    folder = tasks["t_a"].folder
    assert changed_after(extension, tasks, lambda: (folder / "data.csv").write_text("a,b\n")) == {"t_a"}
    assert changed_after(extension, tasks, lambda: (folder / "solution.py").write_text("WAIT\nDONE\n")) == {"t_a"}


def test_a_checkout_task_covers_the_host_files_its_steps_name(extension, tmp_path) -> None:
    examples = tmp_path / "checkout" / "evaluation_examples" / "examples"
    shared = examples / "calc" / "all_databases.sql"
    shared.parent.mkdir(parents=True)
    shared.write_text("create table t(x);\n")
    task = task_document(id="uses-sql", instruction="x", tags=["gui"], config=[
        {"type": "copyfile_from_host_to_guest", "parameters": {
            "src": "evaluation_examples/examples/calc/all_databases.sql", "dest": "/home/user/all.sql"}},
        {"type": "execute", "parameters": {"command": "echo " + "x" * 300}}])  # a string, not a path
    other = {**task, "id": "no-sql", "config": []}
    for spec in (task, other):
        write_checkout_task(tmp_path / "checkout", spec)
    loaded = {spec["id"]: load_tasks(examples / "calc" / spec["id"] / f"{spec['id']}.json")[0] for spec in (task, other)}
    fingerprinter = Fingerprinter(extension.environments, packages=["fpext"])
    before = {key: fingerprinter.fingerprint(t) for key, t in loaded.items()}
    shared.write_text("create table t(x, y);\n")
    after = Fingerprinter(extension.environments, packages=["fpext"])
    assert {key for key, t in loaded.items() if after.fingerprint(t) != before[key]} == {"uses-sql"}


def test_a_checkout_reached_through_a_symlink_has_the_same_fingerprints(extension, tmp_path) -> None:
    """CI finds the shared checkouts at ../shared, a link on some machines: the host files a task
    names are keyed relative to its root either way (they were keyed ../../shared/... through the
    link, which re-validated every InfiAgent-DABench question in CI)."""
    examples = tmp_path / "real" / "evaluation_examples" / "examples"
    (examples / "calc").mkdir(parents=True)
    (examples / "calc" / "all_databases.sql").write_text("create table t(x);\n")
    spec = task_document(id="uses-sql", instruction="x", tags=["gui"], config=[
        {"type": "copyfile_from_host_to_guest", "parameters": {
            "src": "evaluation_examples/examples/calc/all_databases.sql", "dest": "/home/user/all.sql"}}])
    write_checkout_task(tmp_path / "real", spec)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    fingerprinter = Fingerprinter(extension.environments, packages=["fpext"])
    direct, linked = (load_tasks(tmp_path / root / "evaluation_examples" / "examples" / "calc" / "uses-sql" / "uses-sql.json")[0]
                      for root in ("real", "link"))
    assert "evaluation_examples/examples/calc/all_databases.sql" in fingerprinter.parts(linked)["task"]
    assert fingerprinter.fingerprint(linked) == fingerprinter.fingerprint(direct)


def test_fingerprints_are_the_same_in_another_process(extension, tasks, tmp_path) -> None:
    """xdist workers, a developer's machine and CI must agree, whatever each one's hash seed."""
    script = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        sys.path[:0] = [{str(tmp_path / "src")!r}, {str(REPO)!r}]
        import tests.unit.validate.test_fingerprint as t
        fp = t.Extension(Path({str(tmp_path)!r}), create=False).fingerprinter()
        paths = sorted(Path({str(tmp_path)!r}).glob("tasks/*/*/task.json"))
        print(json.dumps({{p.parent.name: fp.fingerprint(t.read_task(p)) for p in paths}}))
    """)
    here = {task.id: extension.fingerprinter().fingerprint(task) for task in tasks.values()}
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONDONTWRITEBYTECODE": "1"})
        assert json.loads(out.stdout) == here


def test_a_solution_written_as_changes_to_another_covers_that_other_file(extension, tmp_path) -> None:
    """A verbose twin's solution is often ``# %% based-on: <abstract>.py``: the abstract file's
    cells are what it plays, so a change there changes both tasks."""
    solutions = tmp_path / "solutions" / "calc"
    solutions.mkdir(parents=True)
    (solutions / "abstract.py").write_text("# %% type it\nWAIT\n")
    (solutions / "verbose.py").write_text("# the same steps\n# %% based-on: abstract.py\n")
    (solutions / "other.py").write_text("# %%\nWAIT\n")
    tasks = {name: make_task(task_document(id=name), layout="spider2v", solution=solutions / f"{name}.py")
             for name in ("abstract", "verbose", "other")}
    fingerprinter = Fingerprinter(extension.environments, packages=["fpext"])
    before = {name: fingerprinter.fingerprint(task) for name, task in tasks.items()}
    (solutions / "abstract.py").write_text("# %% type it, then wait\nWAIT\nWAIT\n")
    after = Fingerprinter(extension.environments, packages=["fpext"])
    assert {name for name, task in tasks.items() if after.fingerprint(task) != before[name]} == {"abstract", "verbose"}


def test_the_helpers_steps_and_getters_share_are_followed_from_the_core() -> None:
    """They lay in steps/builtin.py; in run/task_helpers.py they are still part of what a getter
    that calls them is, so their move changed no fingerprint (and a change to them changes some)."""
    registry.load_extensions()
    getter = registry.getters.get("vm_script_output")

    def follows_the_helper(digests: CodeDigests) -> bool:
        return any(text.startswith("def read_host_file(") for text in digests.closure(getter))

    assert follows_the_helper(CodeDigests())
    assert not follows_the_helper(CodeDigests(extension_packages()))  # the extensions alone


def test_solution_imports_are_read_from_the_text_of_every_cell() -> None:
    source = "# %% one\nfrom airflow_ui import click, wait\n# %% two\nimport json, dagster_ui as d\nWAIT\n"
    assert imported_modules(source) == ["airflow_ui", "json", "dagster_ui"]


# -- the state and --validate-changed, in pytest runs with a stand-in for the task run ------------

CONFTEST = f'''
import contextlib
import json
import sys

import pytest

sys.path.insert(0, {str(REPO)!r})
from pytest_spider2v.run.evaluation import Evaluation, Fetched
from pytest_spider2v.validate.checks import CHECK
from pytest_spider2v.testing.factories import make_context
from tests.support.stand_in_run import StandInRun


class FakeRun(StandInRun):
    """Scores each check from the task folder's scores.json (default: what the check expects);
    a run scoring 1 fetched one exact answer, for the near-miss check to vary."""

    def __init__(self, item):
        super().__init__(item)
        self.check = item.stash[CHECK]

    @contextlib.contextmanager
    def extra_environment(self):
        yield make_context(task=self.task)

    def context(self):
        return make_context(task=self.task)

    def outcome(self):
        scores = self.task.folder / "scores.json"
        score = json.loads(scores.read_text()).get(self.check.name) if scores.exists() else None
        if score == "skip":
            pytest.skip("cannot run here")
        score = self.check.expected if score is None else float(score)
        fetched = [Fetched("exact_match", "x", None, {{"rules": {{"expected": "x"}}}}, False, score)]
        return Evaluation(score, "stand-in", fetched=fetched)


@pytest.fixture
def spider2v_run(request, monkeypatch):
    monkeypatch.setattr("pytest_spider2v.validate.checks._settled_tree", lambda env: "the same tree")
    return FakeRun(request.node)
'''


def project_task(root: Path, app: str, task_id: str, snapshot: str = "desktop", scores: dict | None = None) -> Path:
    path = write_task(root, task_document(id=task_id, snapshot=snapshot, instruction="x", related_apps=[app],
                                          action_number=2, config=[{"type": "sleep", "parameters": {"seconds": 0.1}}]),
                      solution="DONE\n")
    (path.parent / "wrong_solution.py").write_text("FAIL\n")
    if scores:
        (path.parent / "scores.json").write_text(json.dumps(scores))
    return path


def state_of(path: Path) -> dict[str, str]:
    return json.loads(path.read_text())["tasks"]


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_validate_run_records_only_tasks_whose_checks_all_passed(pytester: pytest.Pytester, xdist) -> None:
    pytester.makeconftest(CONFTEST)
    good = project_task(pytester.path, "calc", "good")
    project_task(pytester.path, "calc", "bad", scores={"wrong": 1})  # the evaluator misses the mistake
    project_task(pytester.path, "calc", "skipper", scores={"reset": "skip"})
    state = pytester.path / "state.json"
    state.write_text(json.dumps({"tasks": {"calc/bad": "validated-before", "calc/skipper": "validated-before",
                                           "calc/elsewhere": "kept"}}))
    state.chmod(0o640)
    result = pytester.runpytest("tasks", "--validate", "--validation-state", "state.json", "-p", "no:cacheprovider", *xdist)
    result.assert_outcomes(passed=10, failed=1, skipped=1)
    assert state_of(state) == {
        "calc/good": Fingerprinter().fingerprint(load_tasks(good)[0]),
        "calc/skipper": "validated-before",  # skipped: not validated now, not failed either
        "calc/elsewhere": "kept",  # not in this run
    }  # calc/bad failed a check: forgotten
    result.stdout.fnmatch_lines(["*validation state*state.json: 1 tasks recorded, 1 removed (a check failed)"])
    assert state.stat().st_mode & 0o777 == 0o640  # the file's own mode kept, not mkstemp's 0600


def test_a_run_of_some_checks_records_nothing(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    project_task(pytester.path, "calc", "good")
    result = pytester.runpytest("tasks", "--validate", "-k", "reference", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, deselected=3)
    assert not (pytester.path / "validation-state.json").exists()


def test_validate_changed_deselects_unchanged_tasks_except_a_sample_per_family(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    for task_id in ("a1", "a2", "a3"):
        project_task(pytester.path, "calc", task_id)
    project_task(pytester.path, "postgresql", "d1", snapshot="databases")
    pytester.runpytest("tasks", "--validate", "-p", "no:cacheprovider").assert_outcomes(passed=16)
    assert len(state_of(pytester.path / "validation-state.json")) == 4
    assert (pytester.path / "validation-state.json").stat().st_mode & 0o044 == 0o044  # others may read it

    nothing_changed = pytester.runpytest("tasks", "--validate-changed", "--collect-only", "-q", "-p", "no:cacheprovider")
    assert {line.split("::")[0] for line in nothing_changed.outlines if "::" in line} == {
        "tasks/calc/a1/task.json", "tasks/postgresql/d1/task.json"}  # the first task of each image family
    nothing_changed.stdout.fnmatch_lines(["*0 tasks changed or not validated, 2 sampled, 2 unchanged (deselected)",
                                          "8/16 tests collected (8 deselected)*"])

    (pytester.path / "tasks" / "calc" / "a3" / "data.csv").write_text("a,b\n")
    result = pytester.runpytest("tasks", "--validate-changed", "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=12, deselected=4)
    result.stdout.fnmatch_lines(["*1 tasks changed or not validated, 2 sampled, 1 unchanged (deselected)"])

    none = pytester.runpytest("tasks", "--validate-changed", "--validate-sample", "0", "-p", "no:cacheprovider")
    assert none.ret == 0  # nothing changed is a success, not "no tests collected"
    none.assert_outcomes(deselected=16)
