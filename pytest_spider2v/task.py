"""Task files: parsing, validation and the in-memory :class:`Task`.

Two layouts are built in:

* **project** -- ``tasks/<app>/<task-id>/task.json`` beside ``verbose_instruction.txt``, its data
  files and ``solution.py``. Host paths in the task are relative to the task folder. One file
  yields two tasks, the abstract and the verbose variant, as the paper's pairs.
* **spider2v** -- ``<root>/evaluation_examples/examples/<app>/<id>/<id>.json`` as published.
  Host paths are relative to ``<root>``; the file is already one variant (its tags say which).
  Its reference solution, written for this project, is ``solutions/<app>/<id>.py`` in this
  package (:data:`SPIDER2V_SOLUTIONS`); other files in its folder are the task's data.

Other formats plug in as a :class:`TaskFormat` registered in
:data:`pytest_spider2v.registry.task_formats` (InfiAgent-DABench's questions file is one): the
format turns its file into ordinary :class:`Task` objects, validated here like any task, so the
rest of the pipeline never asks where a task came from.

Every problem is reported as a :class:`TaskFormatError` naming the file, the task and the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, Union

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .registry import Registry, check_parameters, getters, metrics, setup_steps, task_formats

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

PROJECT_FILE = "task.json"
VERBOSE_FILE = "verbose_instruction.txt"
SOLUTION_FILE = "solution.py"
SPIDER2V_SOLUTIONS = Path(__file__).parent / "solutions"
VERBOSE_HEADER = "\nHere is a step-by-step tutorial from an expert instructing you how to complete it:\n"
VERBOSE_FOOTER = (
    "\nYou can exactly follow the detailed plan above or proactively tackle the task based on the "
    "real-time environment interaction by yourself."
)
INTERFACES = ("cli", "gui", "cli+gui")
VARIANTS = ("abstract", "verbose")
CATEGORIES = (
    "data_warehousing",
    "data_transformation",
    "data_ingestion_and_integration",
    "data_analysis_and_visualization",
    "data_orchestration",
    "traditional_data_processing",
    "it_service_management",
)
DIFFICULTIES = ("easy", "medium", "hard")
#: The layouts read here; any other ``Task.layout`` is a registered :class:`TaskFormat`'s name.
BUILT_IN_LAYOUTS = ("project", "spider2v")


class TaskFormatError(Exception):
    """A task file that cannot be used, with where exactly the problem is."""

    def __init__(self, path: Path, task_id: str | None, field_: str | None, message: str, *,
                 line: int | None = None) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        if task_id:
            where += f": task '{task_id}'"
        if field_:
            where += f": field '{field_}'"
        super().__init__(f"{where}: {message}")
        self.path, self.task_id, self.field, self.message, self.line = path, task_id, field_, message, line


# -- the schema ---------------------------------------------------------------------------------


class StepSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str
    parameters: dict[str, Any] = {}


class GetterSpec(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: str


GetterSlot = Union[GetterSpec, list[GetterSpec | None], None]


class EvaluatorSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    func: str | list[str]
    result: GetterSlot = None
    expected: GetterSlot = None
    options: dict[str, Any] | list[dict[str, Any] | None] | None = None
    conj: Literal["and", "or"] = "and"
    postconfig: list[StepSpec] = []

    @field_validator("result", "expected", mode="before")
    @classmethod
    def _empty_getter_is_none(cls, value: Any) -> Any:
        """``{}`` is how the original writes "no getter" (a metric with no expected state, in
        a list of metrics); it reads it as ``None``, and so do we."""
        if value == {}:
            return None
        if isinstance(value, list):
            return [None if item == {} else item for item in value]
        return value


class TaskSpec(BaseModel):
    """The JSON document. Keys are those of the original harness (reference section 1.2)."""

    model_config = ConfigDict(extra="forbid")
    id: str
    snapshot: str
    instruction: str
    source: list[str] = []
    related_apps: list[str]
    tags: list[str]
    action_number: int
    config: list[StepSpec] = []
    evaluator: EvaluatorSpec
    counterpart: str | None = None

    @field_validator("id", "snapshot", "instruction")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("related_apps")
    @classmethod
    def _some_app(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("must name at least one application")
        return value

    @field_validator("action_number")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value < 1:
            raise ValueError("must be at least 1")
        return value


# -- the task -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One runnable variant of a task file."""

    spec: TaskSpec
    path: Path  #: the task file (a task JSON, or a task format's file holding many tasks)
    root: Path  #: base of relative host paths in the task
    layout: str  #: "project", "spider2v", or the name of the registered :class:`TaskFormat` it came from
    variant: str  #: "abstract" or "verbose" (a task format may name its own, e.g. "closed_form")
    instruction: str  #: the full instruction the agent receives
    app: str  #: the app folder the task lives in
    #: what the oracle plays: a solution file, or the cells (``solution.py``'s format) of one a
    #: task format made from its data; None when there is none
    solution: Path | str | None = None
    extra_markers: tuple[str, ...] = field(default=())
    #: what a task format knows of the task beyond the Spider2-V schema (DABench: its concepts and
    #: answer names), kept in the record for reports
    facets: Mapping[str, Any] = field(default_factory=dict)
    #: solutions a task format makes from its data instead of reading files (DABench: the labels as
    #: the answer, and one sub-answer perturbed), by the file name a ``--validate`` check plays
    made_solutions: Mapping[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def key(self) -> str:
        """Readable, unique name: ``<app>/<id>`` plus ``[variant]`` for project tasks."""
        suffix = f"[{self.variant}]" if self.layout == "project" else ""
        return f"{self.app}/{self.id}{suffix}"

    @property
    def folder(self) -> Path:
        return self.path.parent

    @property
    def category(self) -> str:
        return next((t for t in self.spec.tags if t in CATEGORIES), "uncategorised")

    @property
    def interface(self) -> str:
        return next((t for t in self.spec.tags if t in INTERFACES), "gui")

    @property
    def account(self) -> bool:
        return "account" in self.spec.tags

    @property
    def difficulty(self) -> str:
        """A difficulty tag when the task has one (a task format's own level), else from
        ``action_number`` as the paper grades its tasks."""
        tagged = next((t for t in self.spec.tags if t in DIFFICULTIES), None)
        if tagged is not None:
            return tagged
        n = self.spec.action_number
        return "easy" if n <= 5 else "medium" if n <= 15 else "hard"

    @property
    def markers(self) -> list[str]:
        """Marker names: each related app, category, interface, variant, account, difficulty."""
        names = [*self.spec.related_apps, self.category, self.interface, self.variant, self.difficulty]
        if self.account:
            names.append("account")
        names.extend(self.extra_markers)
        return list(dict.fromkeys(names))

    def host_path(self, relative: str) -> Path:
        """A host file named by the task (relative to the task's root)."""
        p = Path(relative).expanduser()
        return p if p.is_absolute() else self.root / p


# -- task formats -------------------------------------------------------------------------------


class TaskFormat(Protocol):
    """A task file format beyond the built-in layouts, registered by an extension in
    :data:`pytest_spider2v.registry.task_formats`.

    Collection asks every registered format about every file pytest visits, so ``claims`` and
    ``ignores`` must be cheap (names and a few ``stat`` calls, no reading).
    """

    #: markers its tasks carry beyond the built-in ones -> their help text; registered when pytest
    #: configures, so ``--strict-markers`` and ``pytest --markers`` know them before any file is read
    markers: Mapping[str, str]

    def claims(self, path: Path) -> bool:
        """Whether ``path`` is a task file of this format."""
        ...

    def ignores(self, path: Path) -> bool:
        """Whether ``path`` belongs to a checkout of this format without being a task file (its
        scripts, tables): data, never a test module of the session."""
        ...

    def load(self, path: Path) -> list[Task | TaskFormatError]:
        """The tasks of a file it claims, in file order, with a :class:`TaskFormatError` in place
        of each entry that cannot be used (one bad entry must not cost the others)."""
        ...


def registered_formats() -> list[TaskFormat]:
    return [task_formats.get(name) for name in task_formats.available()]


def task_format(path: Path) -> TaskFormat | None:
    """The registered format that claims ``path`` (never one of the built-in layouts' files)."""
    if _is_layout_file(path):
        return None
    return next((fmt for fmt in registered_formats() if fmt.claims(path)), None)


def is_format_data(path: Path) -> bool:
    """Whether a registered format calls ``path`` data of one of its checkouts."""
    return any(fmt.ignores(path) for fmt in registered_formats())


# -- loading ------------------------------------------------------------------------------------


def is_task_file(path: Path) -> bool:
    return _is_layout_file(path) or task_format(path) is not None


def _is_layout_file(path: Path) -> bool:
    """A task file of the built-in layouts: a project ``task.json`` or a checkout's ``<id>/<id>.json``."""
    if path.suffix != ".json":
        return False
    if path.name == PROJECT_FILE:
        return True
    return path.stem == path.parent.name and _spider2v_root(path) is not None


def in_spider2v_checkout(path: Path) -> bool:
    """Whether the path lies in a Spider2-V checkout's ``evaluation_examples`` tree."""
    return _spider2v_root(path) is not None


def _spider2v_root(path: Path) -> Path | None:
    """The directory holding ``evaluation_examples`` above a Spider2-V task file."""
    for parent in path.parents:
        if parent.name == "evaluation_examples":
            return parent.parent
    return None


def load_task_file(path: Path) -> list[Task | TaskFormatError]:
    """Every task of a task file, in file order, with a :class:`TaskFormatError` in place of each
    one that cannot be used. A built-in layout's file is one task document: its problem is the
    file's only entry."""
    fmt = task_format(path)
    if fmt is not None:
        return fmt.load(path)
    try:
        return list(load_tasks(path))
    except TaskFormatError as exc:
        return [exc]


def load_tasks(path: Path) -> list[Task]:
    """All runnable variants of one task file of the built-in layouts, or a :class:`TaskFormatError`."""
    spec = validated_spec(path, _read_json(path))
    if path.name == PROJECT_FILE:
        return _project_variants(path, spec)
    root = _spider2v_root(path)
    assert root is not None
    variant = next((t for t in spec.tags if t in VARIANTS), "abstract")
    app = path.parent.parent.name
    solution = SPIDER2V_SOLUTIONS / app / f"{spec.id}.py"
    return [Task(spec, path, root, "spider2v", variant, spec.instruction, app, solution if solution.exists() else None)]


def validated_spec(path: Path, raw: Any, *, line: int | None = None) -> TaskSpec:
    """A task document checked as every task is (schema, known step types, getters and metrics,
    step parameters that bind), or a :class:`TaskFormatError` naming ``path`` (and ``line``, for a
    task format whose file holds one task a line)."""
    task_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    try:
        spec = TaskSpec.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise TaskFormatError(path, task_id, _loc(err["loc"]), _pydantic_message(err, len(exc.errors())),
                              line=line) from None
    try:
        _check_names(path, spec)
    except TaskFormatError as exc:
        raise TaskFormatError(path, exc.task_id, exc.field, exc.message, line=line) from None
    return spec


def _project_variants(path: Path, spec: TaskSpec) -> list[Task]:
    folder = path.parent
    app = folder.parent.name
    for tag in VARIANTS:
        if tag in spec.tags:
            raise TaskFormatError(path, spec.id, "tags", f"'{tag}' is implied by the folder layout; remove it")
    solution = folder / SOLUTION_FILE
    tasks = [Task(spec, path, folder, "project", "abstract", spec.instruction, app, solution if solution.exists() else None)]
    verbose = folder / VERBOSE_FILE
    if verbose.exists():
        text = spec.instruction + VERBOSE_HEADER + verbose.read_text(encoding="utf-8").strip() + VERBOSE_FOOTER
        tasks.append(Task(spec, path, folder, "project", "verbose", text, app, tasks[0].solution))
    return tasks


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskFormatError(path, None, None, f"cannot read: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TaskFormatError(path, None, None, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in {"str", "list[str]", "GetterSpec", "list[nullable[GetterSpec]]", "dict[str,any]"} or "[" in str(part):
            continue  # pydantic's union-branch labels say nothing to a task author
        else:
            out += f".{part}" if out else str(part)
    return out


def _pydantic_message(err: ErrorDetails, count: int) -> str:
    msg = err["msg"]
    if err["type"] == "missing":
        msg = "required key is missing"
    elif err["type"] == "extra_forbidden":
        msg = "unknown key"
    more = f" (and {count - 1} more problem{'s' if count > 2 else ''})" if count > 1 else ""
    return msg + more


def _check_names(path: Path, spec: TaskSpec) -> None:
    """Every step type, getter and metric must be known; implemented steps must bind."""

    def fail(field_: str, message: str) -> None:
        raise TaskFormatError(path, spec.id, field_, message)

    def check_steps(steps: list[StepSpec], where: str) -> None:
        for i, step in enumerate(steps):
            if step.type not in setup_steps:
                fail(f"{where}[{i}].type", _unknown(setup_steps, step.type))
            fn = setup_steps.entry(step.type).obj
            if fn is not None and (problem := check_parameters(fn, 1, step.parameters)):
                fail(f"{where}[{i}].parameters", f"{step.type}: {problem}")

    check_steps(spec.config, "config")
    check_steps(spec.evaluator.postconfig, "evaluator.postconfig")

    ev = spec.evaluator
    funcs = ev.func if isinstance(ev.func, list) else [ev.func]
    for i, name in enumerate(funcs):
        where = f"evaluator.func[{i}]" if isinstance(ev.func, list) else "evaluator.func"
        if name != "infeasible" and name not in metrics:
            fail(where, _unknown(metrics, name))
    if isinstance(ev.func, list):
        for slot in ("result", "expected", "options"):
            value = getattr(ev, slot)
            if value is not None and (not isinstance(value, list) or len(value) != len(funcs)):
                fail(f"evaluator.{slot}", f"must be a list of {len(funcs)} entries, one per metric in evaluator.func")
    elif "infeasible" not in funcs:
        for slot in ("result", "expected", "options"):
            if isinstance(getattr(ev, slot), list):
                fail(f"evaluator.{slot}", "is a list but evaluator.func is a single metric")
    if "infeasible" not in funcs and ev.result is None:
        fail("evaluator.result", "required key is missing")
    for slot in ("result", "expected"):
        value = getattr(ev, slot)
        items = value if isinstance(value, list) else [value]
        for i, getter in enumerate(items):
            if getter is not None and getter.type not in getters:
                where = f"evaluator.{slot}[{i}].type" if isinstance(value, list) else f"evaluator.{slot}.type"
                fail(where, _unknown(getters, getter.type))


def _unknown(registry: Any, name: str) -> str:
    try:
        registry.entry(name)
    except LookupError as exc:
        return str(exc).strip("'\"")
    return f"unknown {registry.kind} '{name}'"



def unavailable_reasons(task: Task, settings_dir: Path | None) -> list[str]:
    """Why this task cannot run here, if at all: account settings missing, declared-only names,
    and what its files need that its image family does not provide (:mod:`.needs`, read from
    the files, so no container starts for a task that is skipped)."""
    from .needs import unmet_needs  # imported when a task runs: collection reads no task's files

    return [*declared_reasons(task, settings_dir), *(str(unmet) for unmet in unmet_needs(task))]


def declared_reasons(task: Task, settings_dir: Path | None) -> list[str]:
    """The reasons the task's own declarations give: an account without settings, a step,
    getter or metric this project declares but cannot run."""
    reasons: list[str] = []
    if task.account and settings_dir is None:
        reasons.append("needs cloud account settings; pass --settings-dir (or set SPIDER2V_SETTINGS_DIR)")
    ev = task.spec.evaluator
    named: list[tuple[Registry[Any], str]] = [(setup_steps, s.type) for s in [*task.spec.config, *ev.postconfig]]
    named += [(metrics, f) for f in (ev.func if isinstance(ev.func, list) else [ev.func]) if f != "infeasible"]
    for slot in (ev.result, ev.expected):
        named += [(getters, g.type) for g in (slot if isinstance(slot, list) else [slot]) if g is not None]
    for registry, name in dict.fromkeys(named):
        entry = registry.entry(name)
        if entry.obj is None:
            reasons.append(f"{registry.kind} '{name}': {entry.unavailable}")
    return reasons
