"""InfiAgent-DABench's questions as tasks: one pytest item per question.

An InfiAgent checkout keeps the benchmark in ``examples/DA-Agent/data/``: ``<split>-questions.jsonl``
(one question a line: ``id``, ``question``, ``concepts``, ``constraints``, ``format``,
``file_name``, ``level``), ``<split>-labels.jsonl`` (``id``, ``common_answers``: ``[name, value]``
pairs) and the tables in ``<split>-tables/``. Pointing pytest at the checkout, that folder or the
questions file collects every question, its labels joined by id, as an ordinary
:class:`~pytest_spider2v.tasks.model.Task`:

* id ``q<id>-<table>`` (``q5-test_ave``: ``-k q5-`` picks question 5 alone, ``-k test_ave`` the
  questions on that table), app ``dabench``, variant ``closed_form``, category
  ``data_analysis_and_visualization``, interface ``cli``, difficulty its ``level``, and a marker
  per concept (``summary_statistics``, ``correlation_analysis``, ...);
* snapshot ``analysis``, Python and its data libraries without a screen, the question's table
  uploaded to the working folder (``copyfile_from_host_to_guest``);
* the instruction: the question and its constraints as the paper's agent pipeline gave them, then
  the closed-form requirement of its reformat step with the question's format;
* evaluator: the ``closed_form`` metric on the agent's final answer (``final_answer``), the
  labels as ``expected``;
* made solutions: the labels as the answer, in the order the format names them (``solution.py``,
  which the ``oracle`` agent plays), and the same with its first sub-answer perturbed
  (``wrong_solution.py``, for ``--validate``).

A line that cannot be used (bad JSON, a missing or mistyped field, no labels, a table the
checkout lacks) is an error naming the file, line, question and field; the other questions still
collect and run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_spider2v.metrics.closed_form import format_answer, label_pairs
from pytest_spider2v.registry import task_formats
from pytest_spider2v.tasks.loading import validated_spec
from pytest_spider2v.tasks.model import Task, TaskFormatError

QUESTIONS_SUFFIX = "-questions.jsonl"
LABELS_SUFFIX = "-labels.jsonl"
TABLES_SUFFIX = "-tables"
#: Where a checkout keeps the benchmark.
DATA_FOLDER = Path("examples", "DA-Agent", "data")
SOURCE = "https://github.com/InfiAgent/InfiAgent"

APP = "dabench"
SNAPSHOT = "analysis"
VARIANT = "closed_form"
CATEGORY = "data_analysis_and_visualization"
INTERFACE = "cli"
LEVELS = ("easy", "medium", "hard")
#: An expert's actions: compute the answer with code, then give it.
ACTION_NUMBER = 2
#: The guest's working folder, where the question's table is put.
GUEST_FOLDER = "/home/user"
#: The concepts of the published questions (a question names one or more); others found in a file
#: still become markers, registered when they are met.
CONCEPTS = (
    "Summary Statistics", "Feature Engineering", "Correlation Analysis", "Machine Learning",
    "Distribution Analysis", "Outlier Detection", "Comprehensive Data Preprocessing",
)
#: Question fields that hold text (``constraints`` may be empty; the others may not).
TEXT_FIELDS = ("question", "constraints", "format", "file_name")
#: The answer-format requirement that follows the question, after the paper's reformat step.
FORMAT_REQUIREMENT = (
    'Answer in the closed form the Format below asks for: every "@answer_name[answer]" it mentions, in the '
    "order mentioned, each answer in the range of values it requires."
)


def concept_marker(concept: str) -> str:
    """``Summary Statistics`` -> ``summary_statistics``."""
    return re.sub(r"[^0-9a-z]+", "_", concept.lower()).strip("_")


def instruction(question: dict[str, Any]) -> str:
    """The question, its constraints and its answer format, as the paper's pipeline put them to the
    agent: ``Question: ...`` with the constraints, then the closed-form requirement and format."""
    table = question["file_name"]
    return (f"Question: {question['question']}\n{question['constraints']}\n"
            f"The data is in the table {table}, in the working folder ({GUEST_FOLDER}/{table}).\n"
            f"{FORMAT_REQUIREMENT}\nFormat: {question['format']}")


def perturbed(value: str) -> str:
    """A value the closed-form comparison tells from ``value``: a decimal number plus 1 (as
    written, ``34.65`` -> ``35.65``), anything else with a word added."""
    if re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
        return str(Decimal(value.strip()) + 1)
    return f"{value} (perturbed)"


def in_format_order(labels: dict[str, str], answer_format: str) -> dict[str, str]:
    """The labels in the order the question's format mentions their names (the closed form asks
    for that order); a name it does not mention goes last."""
    def place(name: str) -> int:
        found = answer_format.find(f"@{name}[")
        return found if found >= 0 else len(answer_format)

    return dict(sorted(labels.items(), key=lambda item: place(item[0])))


def made_solutions(labels: dict[str, str]) -> dict[str, str]:
    """The labels as the oracle's answer, and the same answer with its first sub-answer perturbed."""
    first = next(iter(labels))
    wrong = {**labels, first: perturbed(labels[first])}
    return {
        "solution.py": f"# %% the answer, from the labels\nDONE\n{format_answer(labels)}\n",
        "wrong_solution.py": f"# %% the answer with {first} perturbed\nDONE\n{format_answer(wrong)}\n",
    }


@dataclass(frozen=True)
class _Labels:
    """A labels file read: question id -> (line, pairs), and the errors of its bad lines (by
    question id where the line names one)."""

    pairs: dict[str, tuple[int, list[Any]]]
    errors: dict[str | None, list[TaskFormatError]]


class DABenchFormat:
    """The ``dabench`` task format (see the module docstring)."""

    markers = {
        APP: "an InfiAgent-DABench question",
        VARIANT: "instruction variant: a closed-form question, answered as @answer_name[value]",
        **{concept_marker(c): f"InfiAgent-DABench concept: {c}" for c in CONCEPTS},
    }

    def claims(self, path: Path) -> bool:
        return path.name.endswith(QUESTIONS_SUFFIX) and _labels_file(path).is_file()

    def ignores(self, path: Path) -> bool:
        return any(_is_data_folder(folder) or _is_data_folder(folder / DATA_FOLDER) for folder in path.parents)

    def load(self, path: Path) -> list[Task | TaskFormatError]:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            return [TaskFormatError(path, None, None, f"cannot read: {exc}")]
        labels = _read_labels(_labels_file(path))
        entries: list[Task | TaskFormatError] = [e for e in labels.errors.get(None, [])]
        seen: dict[str, int] = {}
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entries.append(_task(path, number, line, labels, seen))
            except TaskFormatError as exc:
                entries.append(exc)
        return entries


def _labels_file(questions: Path) -> Path:
    return questions.with_name(questions.name[: -len(QUESTIONS_SUFFIX)] + LABELS_SUFFIX)


def _tables_folder(questions: Path) -> Path:
    return questions.with_name(questions.name[: -len(QUESTIONS_SUFFIX)] + TABLES_SUFFIX)


@lru_cache(maxsize=4096)
def _is_data_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a questions file with its labels beside it (cached: collection
    asks about every folder above every file it visits)."""
    try:
        return any(_labels_file(q).is_file() for q in folder.glob(f"*{QUESTIONS_SUFFIX}"))
    except OSError:
        return False


def _json_line(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise TaskFormatError(path, None, None, f"invalid JSON at column {exc.colno}: {exc.msg}", line=number) from None
    if not isinstance(value, dict):
        raise TaskFormatError(path, None, None, f"expected a JSON object, got {type(value).__name__}", line=number)
    return value


def _question_id(path: Path, number: int, data: dict[str, Any]) -> str:
    qid = data.get("id")
    if isinstance(qid, bool) or not isinstance(qid, (int, str)) or not str(qid).strip():
        raise TaskFormatError(path, None, "id", f"must be a number or a non-empty string, got {qid!r}", line=number)
    return str(qid)


def _read_labels(path: Path) -> _Labels:
    labels = _Labels({}, {})
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        labels.errors[None] = [TaskFormatError(path, None, None, f"cannot read: {exc}")]
        return labels
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        qid: str | None = None
        try:
            data = _json_line(path, number, line)
            qid = _question_id(path, number, data)
            if qid in labels.pairs:
                raise TaskFormatError(path, qid, "id", f"labels given twice (also on line {labels.pairs[qid][0]})",
                                      line=number)
            pairs = data.get("common_answers")
            _check_pairs(path, number, qid, pairs)
            labels.pairs[qid] = (number, pairs)  # type: ignore[assignment]  # _check_pairs above raised unless pairs is a list
        except TaskFormatError as exc:
            labels.errors.setdefault(qid, []).append(exc)
    return labels


def _check_pairs(path: Path, number: int, qid: str, pairs: Any) -> None:
    def fail(message: str) -> None:
        raise TaskFormatError(path, qid, "common_answers", message, line=number)

    if not isinstance(pairs, list) or not pairs:
        fail("must be a non-empty list of [answer_name, value] pairs")
    for i, pair in enumerate(pairs):
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                and isinstance(pair[1], (str, int, float)) and not isinstance(pair[1], bool)):
            fail(f"item {i} must be an [answer_name, value] pair, got {pair!r}")
        if not re.fullmatch(r"\w+", pair[0]):
            fail(f"item {i}: answer name {pair[0]!r} cannot be written as @name[value]")
        if "]" in str(pair[1]):
            fail(f"item {i}: value {pair[1]!r} holds ']', which ends @name[value] early")


def _task(path: Path, number: int, line: str, labels: _Labels, seen: dict[str, int]) -> Task:
    data = _json_line(path, number, line)
    qid = _question_id(path, number, data)

    def fail(field: str, message: str) -> TaskFormatError:
        return TaskFormatError(path, qid, field, message, line=number)

    if qid in seen:
        raise fail("id", f"question given twice (also on line {seen[qid]})")
    seen[qid] = number
    for name in TEXT_FIELDS:
        if name not in data:
            raise fail(name, "required key is missing")
        if not isinstance(data[name], str) or (name != "constraints" and not data[name].strip()):
            raise fail(name, f"must be a non-empty string, got {data[name]!r}")
    if data.get("level") not in LEVELS:
        raise fail("level", f"must be one of {', '.join(LEVELS)}, got {data.get('level')!r}")
    concepts = data.get("concepts")
    if not isinstance(concepts, list) or not all(isinstance(c, str) and c.strip() for c in concepts):
        raise fail("concepts", f"must be a list of concept names, got {concepts!r}")
    table = _tables_folder(path) / data["file_name"]
    if not table.is_file():
        raise fail("file_name", f"no table {data['file_name']!r} in {_tables_folder(path)}")
    if qid in labels.errors:
        raise labels.errors[qid][0]
    if qid not in labels.pairs:
        raise fail("id", f"no labels for question {qid} in {_labels_file(path).name}")
    published = labels.pairs[qid][1]
    pairs = in_format_order(label_pairs(published), data["format"])
    task_id = f"q{qid}-" + (re.sub(r"[^A-Za-z0-9_]+", "_", Path(data["file_name"]).stem).strip("_") or "table")
    spec = validated_spec(path, {
        "id": task_id,
        "snapshot": SNAPSHOT,
        "instruction": instruction(data),
        "source": [SOURCE],
        "related_apps": [APP],
        "tags": [CATEGORY, INTERFACE, data["level"]],
        "action_number": ACTION_NUMBER,
        "config": [{"type": "copyfile_from_host_to_guest",
                    "parameters": {"src": f"{_tables_folder(path).name}/{data['file_name']}",
                                   "dest": f"{GUEST_FOLDER}/{data['file_name']}"}}],
        "evaluator": {"func": "closed_form", "result": {"type": "final_answer"},
                      "expected": {"type": "rule", "rules": published}},
    }, line=number)
    solutions = made_solutions(pairs)
    return Task(
        spec, path, path.parent, APP, VARIANT, spec.instruction, APP, solution=solutions["solution.py"],
        extra_markers=tuple(dict.fromkeys(concept_marker(c) for c in concepts)),
        facets={"question_id": data["id"], "concepts": list(concepts), "answer_names": list(pairs),
                "table": data["file_name"]},
        made_solutions=solutions,
    )


task_formats.add(APP, DABenchFormat())
