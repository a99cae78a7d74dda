"""Factories of what a test of the harness or of an extension is about: task documents and task
files, in-memory tasks, the context a step or getter receives, and records.

A test states only what it is about (the evaluator it needs, the variant, what the guest
replies) and takes the rest from here, so a change of the task schema, of ``Task``, of
``TaskContext`` or of how a record starts is made in this one file, not in every test. The
environment a context gets by default is a :class:`~.fakes.FakeEnvironment` scripted with nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.run.records import TaskRecord
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.model import PROJECT_FILE, SOLUTION_FILE, VERBOSE_FILE, Task, TaskSpec
from pytest_spider2v.testing.fakes import FakeEnvironment

Document = dict[str, Any]

#: Where a context's cache is when a test gives none: a path under a device, so a getter or step
#: that writes to the cache fails at once (NotADirectoryError naming this path) instead of
#: writing into the working directory.
NO_CACHE_DIR = Path("/dev/null/cache-dir-not-given-to-make_context")


# -- task documents and files ---------------------------------------------------------------------


def constant_evaluator(result: Any = "x", expected: Any = "x", func: str = "exact_match") -> Document:
    """An evaluator whose metric compares two constant rules: the task passes (``result ==
    expected``) or fails whatever the agent does, and no getter touches the environment."""
    return {"func": func, "result": {"type": "rule", "rules": result},
            "expected": {"type": "rule", "rules": {"expected": expected}}}


def answer_evaluator(expected: str) -> Document:
    """An evaluator that scores the agent's final answer (DONE with a text) against ``expected``."""
    return {"func": "exact_match", "result": {"type": "final_answer"},
            "expected": {"type": "rule", "rules": {"expected": expected}}}


def task_document(**overrides: Any) -> Document:
    """A valid project task JSON document (the keys of ``TaskSpec``); ``overrides`` replace keys or
    add them. Each call builds a new document, so a test may change or remove keys of its own."""
    document: Document = {
        "id": "a-task", "snapshot": "desktop", "instruction": "Do it.", "related_apps": ["calc"],
        "tags": ["traditional_data_processing", "gui"], "action_number": 1, "config": [],
        "evaluator": constant_evaluator(),
    }
    document.update(overrides)
    return document


def write_task(root: Path, document: Document | None = None, *, app: str | None = None, verbose: str | None = None,
               solution: str | None = None) -> Path:
    """Write a project-layout task, ``<root>/tasks/<app>/<id>/task.json`` (``app``: the document's
    first related app unless given), with ``verbose_instruction.txt`` (which makes the verbose
    variant) and ``solution.py`` when given; returns the task file. The folder may already hold
    the task's data files."""
    document = task_document() if document is None else document
    folder = root / "tasks" / (app or document["related_apps"][0]) / document["id"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / PROJECT_FILE).write_text(json.dumps(document), encoding="utf-8")
    if verbose is not None:
        (folder / VERBOSE_FILE).write_text(verbose, encoding="utf-8")
    if solution is not None:
        (folder / SOLUTION_FILE).write_text(solution, encoding="utf-8")
    return folder / PROJECT_FILE


def write_checkout_task(checkout: Path, document: Document | None = None, *, app: str | None = None) -> Path:
    """Write a task as a Spider2-V checkout publishes it,
    ``<checkout>/evaluation_examples/examples/<app>/<id>/<id>.json``; returns the task file. The
    folder may already hold the task's data files."""
    document = task_document() if document is None else document
    folder = checkout / "evaluation_examples" / "examples" / (app or document["related_apps"][0]) / document["id"]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{document['id']}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


# -- tasks, contexts, records ---------------------------------------------------------------------


def make_task(document: Document | None = None, *, app: str | None = None, layout: str = "project",
              variant: str = "abstract", root: Path | None = None, path: Path | None = None,
              instruction: str | None = None, solution: Path | str | None = None) -> Task:
    """An in-memory task of ``document`` (default :func:`task_document`), validated as a task file
    is. By default it lies where the project layout puts it, ``tasks/<app>/<id>/task.json``
    (relative: nothing is read from there), and the agent is given the document's instruction."""
    spec = TaskSpec.model_validate(task_document() if document is None else document)
    app = app or spec.related_apps[0]
    root = Path("tasks") / app / spec.id if root is None else root
    return Task(spec, root / PROJECT_FILE if path is None else path, root, layout, variant,
                spec.instruction if instruction is None else instruction, app, solution)


def make_context(env: Environment | None = None, task: Task | None = None, *, cache_dir: Path = NO_CACHE_DIR,
                 history: list[Any] | None = None) -> TaskContext:
    """What a step or getter receives: ``env`` (default: a :class:`FakeEnvironment` scripted with
    nothing, so any use of it fails the test), ``task`` (default :func:`make_task`) and the
    actions of the episode so far."""
    return TaskContext(FakeEnvironment() if env is None else env, make_task() if task is None else task, cache_dir,
                       history=list(history or []))


def start_record(directory: Path, task: Task | None = None, *, agent: str = "fake", nodeid: str = "n",
                 settings: dict[str, Any] | None = None) -> TaskRecord:
    """A record begun in ``directory`` as a run begins one (``TaskRecord.start``), for ``task``
    (default :func:`make_task`) run by ``agent`` with ``settings`` (default: none)."""
    return TaskRecord.start(directory, make_task() if task is None else task, nodeid, agent, settings or {})
