"""The errata list: known defects of published tasks (``errata.yaml``), one entry per task.

A benchmark's tasks have defects its users find over time: an evaluator too lax or too strict, an
instruction that contradicts what is checked, a gold answer that is wrong, an abstract variant
its own instruction cannot solve, an instruction that leaves open what the evaluator fixes. Such
a task is run as published, never rewritten; its entry flags it, so that reports give the success
rate with and without flagged tasks and ``-m "not errata"`` selects around them. Each entry
carries the evidence a reader can check.

Two optional fields make an entry something ``--validate`` can hold to. An entry whose kind means
the instruction cannot pass (:data:`INSTRUCTION_CANNOT_PASS`) must predict ``reference_score``,
the score its reference solution (which follows the instruction) gets: the reference check wants
that score from a metric that judged, not any score below 1, which a crash would also give.
``near_miss_crashes`` lists the near-miss variants (``"<metric>: <kind of variant>"``) on which
the task's metric is known to raise, the evidence saying why: the near-miss check fails on any
other crash.
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
    "under_specified": "the instruction leaves open what the evaluation fixes: results it allows are rejected",
}
#: The fields every entry has.
FIELDS = ("kind", "summary", "evidence", "action")
#: The fields an entry may have: the score its reference run gets, the near misses it explains.
OPTIONAL_FIELDS = ("reference_score", "near_miss_crashes")
#: Kinds under which no solution that works from the task's own instruction is sure to reach the
#: gold: the task's reference solution follows the instruction (for ``under_specified``, one of
#: the results it allows that the evaluation rejects), and ``--validate`` expects it to score the
#: entry's ``reference_score``, below 1 (the erratum reproduced), not 1.
INSTRUCTION_CANNOT_PASS = frozenset({"strict_evaluator", "instruction_contradicts_evaluator", "abstract_unsolvable",
                                     "wrong_gold", "under_specified"})


@dataclass(frozen=True)
class Erratum:
    """One task's known defect."""

    task: str  #: the task's key, ``<app>/<id>``
    kind: str  #: one of :data:`KINDS`
    summary: str  #: one sentence, as reports show it
    evidence: str  #: what a reader can check: files, quotes, measurements
    action: str  #: what the project does about it (the task runs as published, flagged)
    #: the score its reference solution gets, below 1: set exactly for kinds in INSTRUCTION_CANNOT_PASS
    reference_score: float | None = None
    #: near-miss variants its metric raises on, each ``"<metric>: <kind of variant>"``
    near_miss_crashes: tuple[str, ...] = ()


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
    if unknown := set(entry) - set(FIELDS) - set(OPTIONAL_FIELDS):
        raise ValueError(f"{path}: {key}: unknown field {sorted(unknown)[0]!r} "
                         f"(fields: {', '.join(FIELDS)}; optional: {', '.join(OPTIONAL_FIELDS)})")
    if entry["kind"] not in KINDS:
        raise ValueError(f"{path}: {key}.kind: {entry['kind']!r} is none of {', '.join(KINDS)}")
    kind, summary, evidence, action = (str(entry[name]).strip() for name in FIELDS)
    return Erratum(key, kind, summary, evidence, action, _reference_score(path, key, entry),
                   _near_miss_crashes(path, key, entry))


def _reference_score(path: Path, key: str, entry: Mapping[str, Any]) -> float | None:
    """The predicted score: required where the kind means the instruction cannot pass, and only there."""
    where = f"{path}: {key}.reference_score"
    score = entry.get("reference_score")
    if entry["kind"] not in INSTRUCTION_CANNOT_PASS:
        if "reference_score" in entry:
            raise ValueError(f"{where}: only an entry whose instruction cannot pass predicts a reference score "
                             f"(kinds {', '.join(sorted(INSTRUCTION_CANNOT_PASS))}); a {entry['kind']} task's "
                             "reference solution scores 1")
        return None
    if score is None:
        raise ValueError(f"{where}: missing (a {entry['kind']} entry predicts the score its reference solution, "
                         "which follows the instruction, gets)")
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score < 1:
        raise ValueError(f"{where}: {score!r} is no score from 0 to below 1")
    return float(score)


def _near_miss_crashes(path: Path, key: str, entry: Mapping[str, Any]) -> tuple[str, ...]:
    crashes = entry.get("near_miss_crashes", [])
    if not isinstance(crashes, list) or not all(isinstance(c, str) and ": " in c.strip(": ") for c in crashes):
        raise ValueError(f"{path}: {key}.near_miss_crashes: expected a list of '<metric>: <kind of variant>'")
    return tuple(c.strip() for c in crashes)
