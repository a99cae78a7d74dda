"""Reading task files into :class:`~pytest_spider2v.tasks.model.Task` objects: a built-in layout's
file directly, any other through the task format that claims it. Every problem becomes a
:class:`~pytest_spider2v.tasks.model.TaskFormatError` naming the file, the task and the field, in
place of the task it concerns.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from pytest_spider2v.environments.locations import SPIDER2V_SOLUTIONS_DIR
from pytest_spider2v.registry import TaskNames, check_parameters, getters, metrics, setup_steps
from pytest_spider2v.tasks.formats import task_format
from pytest_spider2v.tasks.layouts import is_layout_file, spider2v_root
from pytest_spider2v.tasks.model import (
    PROJECT_FILE,
    SOLUTION_FILE,
    VARIANTS,
    VERBOSE_FILE,
    VERBOSE_FOOTER,
    VERBOSE_HEADER,
    StepSpec,
    Task,
    TaskFormatError,
    TaskSpec,
)

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


def is_task_file(path: Path) -> bool:
    return is_layout_file(path) or task_format(path) is not None



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
    root = spider2v_root(path)
    assert root is not None
    variant = next((t for t in spec.tags if t in VARIANTS), "abstract")
    app = path.parent.parent.name
    solution = SPIDER2V_SOLUTIONS_DIR / app / f"{spec.id}.py"
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
            signature = setup_steps.describe(step.type).signature
            if signature is not None and (problem := check_parameters(signature, 1, step.parameters)):
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


def _unknown(registry: TaskNames, name: str) -> str:
    try:
        registry.entry(name)
    except LookupError as exc:
        return str(exc).strip("'\"")
    return f"unknown {registry.kind} '{name}'"
