"""Task files: parsing, validation and the in-memory :class:`Task`.

Two layouts are built in:

* **project** -- ``tasks/<app>/<task-id>/task.json`` beside ``verbose_instruction.txt``, its data
  files and ``solution.py``. Host paths in the task are relative to the task folder. One file
  yields two tasks, the abstract and the verbose variant, as the paper's pairs.
* **spider2v** -- ``<root>/evaluation_examples/examples/<app>/<id>/<id>.json`` as published.
  Host paths are relative to ``<root>``; the file is already one variant (its tags say which).
  Its reference solution, written for this project, is ``solutions/<app>/<id>.py`` in this
  package (:data:`SPIDER2V_SOLUTIONS_DIR`); other files in its folder are the task's data.

Other formats plug in as a :class:`TaskFormat` registered in
:data:`pytest_spider2v.registry.task_formats` (InfiAgent-DABench's questions file is one): the
format turns its file into ordinary :class:`Task` objects, validated here like any task, so the
rest of the pipeline never asks where a task came from.

Every problem is reported as a :class:`TaskFormatError` naming the file, the task and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, field_validator

from pytest_spider2v.tasks.errata import Erratum, erratum_of
from pytest_spider2v.tasks.gui_routes import gui_route

PROJECT_FILE = "task.json"
VERBOSE_FILE = "verbose_instruction.txt"
SOLUTION_FILE = "solution.py"
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
#: The original's cache folder, relative to its working directory: a task's is ``cache/<task id>/``,
#: and a later step names by that path what an earlier one wrote there (``snowflake_init``'s query ids).
ORIGINAL_CACHE = "cache"
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
    def erratum(self) -> Erratum | None:
        """The task's known defect, from the errata list (:mod:`pytest_spider2v.tasks.errata`)."""
        return erratum_of(self.app, self.id)

    @property
    def gui_route(self) -> str | None:
        """The kind of UI action the task's reference solution performs through the screen
        alone, when it is a GUI route (:mod:`pytest_spider2v.tasks.gui_routes`)."""
        return gui_route(self.solution)

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
        """Marker names: each related app, category, interface, variant, account, difficulty, errata,
        and ``gui`` for a task whose reference solution is a GUI route, whatever its interface tag."""
        names = [*self.spec.related_apps, self.category, self.interface, self.variant, self.difficulty]
        if self.gui_route is not None:
            names.append("gui")
        if self.account:
            names.append("account")
        if self.erratum is not None:
            names.append("errata")
        names.extend(self.extra_markers)
        return list(dict.fromkeys(names))

    @property
    def cache_prefix(self) -> str:
        """How the task's files name its cache folder, as the original's do: ``cache/<task id>/``."""
        return f"{ORIGINAL_CACHE}/{self.id}/"

    def host_path(self, relative: str) -> Path:
        """A host file named by the task (relative to the task's root)."""
        p = Path(relative).expanduser()
        return p if p.is_absolute() else self.root / p
