"""The errata list: known defects of published tasks (``errata.yaml``), one entry per task.

A benchmark's tasks have defects its users find over time: an evaluator too lax or too strict, an
instruction that contradicts what is checked, a gold answer that is wrong, an abstract variant
its own instruction cannot solve. Such a task is run as published, never rewritten; its entry
flags it, so that reports give the success rate with and without flagged tasks and ``-m "not
errata"`` selects around them. Each entry carries the evidence a reader can check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

#: The project's list of defects found in published tasks.
ERRATA = Path(__file__).with_name("errata.yaml")
#: What is wrong with a task, by kind.
KINDS = {
    "lax_evaluator": "the evaluation accepts results the instruction does not ask for",
    "strict_evaluator": "the evaluation rejects results the instruction asks for",
    "instruction_contradicts_evaluator": "the instruction states something the evaluation contradicts",
    "abstract_unsolvable": "the abstract variant cannot reach the gold from its own instruction",
    "wrong_gold": "the expected result is wrong",
    "dead_external_service": "the task depends on an external service that no longer answers",
}
FIELDS = ("kind", "summary", "evidence", "action")
#: Kinds under which no solution that works from the task's own instruction reaches the gold: the
#: task's reference solution follows the instruction, and ``--validate`` expects it to score below
#: 1 (the erratum reproduced), not 1.
INSTRUCTION_CANNOT_PASS = frozenset({"strict_evaluator", "instruction_contradicts_evaluator", "abstract_unsolvable",
                                     "wrong_gold"})


@dataclass(frozen=True)
class Erratum:
    """One task's known defect."""

    task: str  #: the task's key, ``<app>/<id>``
    kind: str  #: one of :data:`KINDS`
    summary: str  #: one sentence, as reports show it
    evidence: str  #: what a reader can check: files, quotes, measurements
    action: str  #: what the project does about it (the task runs as published, flagged)


def load_errata(path: Path = ERRATA) -> dict[str, Erratum]:
    """Task key -> its erratum; a mistake in the file is an error naming the file, the entry and
    the field."""
    if not path.is_file():
        return {}
    return _load(path, path.stat().st_mtime_ns)


def erratum_of(app: str, task_id: str, path: Path = ERRATA) -> Erratum | None:
    """The erratum of the task ``<app>/<task_id>``, if the list has one."""
    return load_errata(path).get(f"{app}/{task_id}")


@lru_cache(maxsize=4)
def _load(path: Path, mtime_ns: int) -> dict[str, Erratum]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: expected a mapping of task keys (<app>/<id>), got {type(data).__name__}")
    return {str(key): _entry(path, str(key), entry) for key, entry in data.items()}


def _entry(path: Path, key: str, entry: Any) -> Erratum:
    if key.count("/") != 1:
        raise ValueError(f"{path}: {key}: a task key is <app>/<task id>")
    if not isinstance(entry, Mapping):
        raise ValueError(f"{path}: {key}: expected the fields {', '.join(FIELDS)}")
    for name in FIELDS:
        if not isinstance(entry.get(name), str) or not entry[name].strip():
            raise ValueError(f"{path}: {key}.{name}: missing or empty (each entry has {', '.join(FIELDS)})")
    if unknown := set(entry) - set(FIELDS):
        raise ValueError(f"{path}: {key}: unknown field {sorted(unknown)[0]!r} (fields: {', '.join(FIELDS)})")
    if entry["kind"] not in KINDS:
        raise ValueError(f"{path}: {key}.kind: {entry['kind']!r} is none of {', '.join(KINDS)}")
    return Erratum(key, *(str(entry[name]).strip() for name in FIELDS))
