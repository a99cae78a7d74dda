"""InfiAgent-DABench's accuracies, over the closed-form questions of a run.

A closed-form question is a task whose facets name its answers (``answer_names``); the verdict on
each sub-answer comes from its record's evaluation (the ``closed_form`` metric's parts). Over the
questions that ended with a score (errors and skips are listed apart, as in the rest of the
summary), the paper's three figures, overall, per concept and per level:

* accuracy by question: the share of questions with every sub-answer right;
* proportional by sub-question: each question weighs 1, split evenly among its sub-answers;
* uniform by sub-question: every sub-answer weighs the same.

A question the agent gave up on (FAIL), or left without an answer, is wrong on every sub-answer.
The original leaves a question without a response out of all three; here it counts, as the
success rate counts its score of 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: The three figures, as (key, label).
ACCURACIES = (
    ("by_question", "by question"),
    ("proportional_by_sub_question", "proportional by sub-question"),
    ("uniform_by_sub_question", "uniform by sub-question"),
)


def sub_answer_verdicts(evaluation: Iterable[dict[str, Any]]) -> dict[str, bool]:
    """Sub-answer name -> right, from the parts of a record's metric entries."""
    return {str(part["name"]): bool(part["correct"]) for entry in evaluation for part in entry.get("parts") or []
            if "name" in part and "correct" in part}


def is_closed_form(props: dict[str, Any]) -> bool:
    return bool((props.get("facets") or {}).get("answer_names"))


def closed_form_summary(scored: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The figures over the closed-form questions among ``scored`` task properties, or None
    when there are none (a Spider2-V run's summary stays as it was)."""
    questions = [p for p in scored if is_closed_form(p)]
    if not questions:
        return None
    summary = _figures(questions)
    concepts: dict[str, list[dict[str, Any]]] = {}
    levels: dict[str, list[dict[str, Any]]] = {}
    for props in questions:
        for concept in props["facets"].get("concepts") or ["?"]:
            concepts.setdefault(str(concept), []).append(props)
        levels.setdefault(str(props.get("difficulty") or "?"), []).append(props)
    summary["by_concept"] = {name: _figures(group) for name, group in sorted(concepts.items())}
    summary["by_level"] = {name: _figures(levels[name]) for name in _level_order(levels)}
    return summary


def _level_order(levels: dict[str, Any]) -> list[str]:
    known = [name for name in ("easy", "medium", "hard") if name in levels]
    return known + sorted(set(levels) - set(known))


def _verdicts(props: dict[str, Any]) -> list[bool]:
    given = props.get("sub_answers") or {}
    return [bool(given.get(name)) for name in props["facets"]["answer_names"]]


def _figures(questions: list[dict[str, Any]]) -> dict[str, Any]:
    verdicts = [_verdicts(p) for p in questions]
    sub_questions = sum(len(v) for v in verdicts)
    return {
        "questions": len(questions),
        "sub_questions": sub_questions,
        "by_question": round(sum(all(v) for v in verdicts) / len(verdicts), 4),
        "proportional_by_sub_question": round(sum(sum(v) / len(v) for v in verdicts) / len(verdicts), 4),
        "uniform_by_sub_question": round(sum(sum(v) for v in verdicts) / sub_questions, 4),
    }


def format_closed_form(summary: dict[str, Any]) -> list[str]:
    """The terminal text of the closed-form figures."""
    lines = [
        "",
        f"closed-form questions (InfiAgent-DABench accuracies): {summary['questions']} questions, "
        f"{summary['sub_questions']} sub-questions",
        *(f"  accuracy {label:<29} {summary[key]:>7.2%}" for key, label in ACCURACIES),
    ]
    for title, groups in (("concept", summary["by_concept"]), ("level", summary["by_level"])):
        width = max(len(title) + 3, *(len(name) for name in groups))
        lines += ["", f"{'by ' + title:<{width}}  {'questions':>9}  {'by question':>11}  {'proportional':>12}  {'uniform':>7}"]
        lines += [f"{name:<{width}}  {f['questions']:>9}  {f['by_question']:>11.1%}  "
                  f"{f['proportional_by_sub_question']:>12.1%}  {f['uniform_by_sub_question']:>7.1%}"
                  for name, f in groups.items()]
    return lines
