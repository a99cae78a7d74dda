"""InfiAgent-DABench's accuracies, over the closed-form questions of a run.

A closed-form question is a task whose facets name its answers (``answer_names``); the verdict on
each sub-answer comes from its record's evaluation (the ``closed_form`` metric's parts). Over the
questions attempted (an error counts, wrong on every sub-answer, as the success rate counts it as
0; skips are listed apart), the paper's three figures, overall, per concept and per level:

* accuracy by question: the share of questions with every sub-answer right;
* proportional by sub-question: each question weighs 1, split evenly among its sub-answers;
* uniform by sub-question: every sub-answer weighs the same.

A question the agent gave up on (FAIL), or left without an answer, is wrong on every sub-answer.
The original leaves a question without a response out of all three; here it counts, as the
success rate counts its score of 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.json_values import JsonObject, JsonRecord, JsonValue

#: The labels of the three figures, in the order the tables show them (:meth:`Accuracies.figures`).
ACCURACY_LABELS = ("by question", "proportional by sub-question", "uniform by sub-question")


@dataclass(frozen=True)
class Accuracies(JsonRecord):
    """The paper's three accuracies over a set of questions."""

    questions: int
    sub_questions: int
    by_question: float
    proportional_by_sub_question: float
    uniform_by_sub_question: float

    @property
    def figures(self) -> tuple[float, float, float]:
        """The three accuracies, in the order of :data:`ACCURACY_LABELS`."""
        return self.by_question, self.proportional_by_sub_question, self.uniform_by_sub_question


@dataclass(frozen=True)
class ClosedFormSummary:
    """The accuracies over a run's closed-form questions: overall, per concept and per level."""

    overall: Accuracies
    by_concept: dict[str, Accuracies]
    by_level: dict[str, Accuracies]

    def to_json(self) -> JsonObject:
        return {**self.overall.to_json(),
                "by_concept": {name: figures.to_json() for name, figures in self.by_concept.items()},
                "by_level": {name: figures.to_json() for name, figures in self.by_level.items()}}


def answer_names(task: TaskSummary) -> list[str]:
    """The names of a closed-form question's sub-answers; none for any other task."""
    return _names(task.facets.get("answer_names"))


def concepts(task: TaskSummary) -> list[str]:
    """The concepts a question tests (``?`` when its facets name none)."""
    return _names(task.facets.get("concepts")) or ["?"]


def _names(facet: JsonValue) -> list[str]:
    return [str(name) for name in facet] if isinstance(facet, (list, tuple)) else []


def closed_form_summary(attempted: list[TaskSummary]) -> ClosedFormSummary | None:
    """The figures over the closed-form questions among the ``attempted`` tasks, or None when
    there are none (a Spider2-V run's summary stays as it was)."""
    questions = [task for task in attempted if answer_names(task)]
    if not questions:
        return None
    by_concept: dict[str, list[TaskSummary]] = {}
    levels: dict[str, list[TaskSummary]] = {}
    for task in questions:
        for concept in concepts(task):
            by_concept.setdefault(concept, []).append(task)
        levels.setdefault(task.difficulty or "?", []).append(task)
    return ClosedFormSummary(_accuracies(questions),
                             {name: _accuracies(group) for name, group in sorted(by_concept.items())},
                             {name: _accuracies(levels[name]) for name in _level_order(levels)})


def _level_order(levels: dict[str, list[TaskSummary]]) -> list[str]:
    known = [name for name in ("easy", "medium", "hard") if name in levels]
    return known + sorted(set(levels) - set(known))


def _verdicts(task: TaskSummary) -> list[bool]:
    return [task.sub_answers.get(name, False) for name in answer_names(task)]


def _accuracies(questions: list[TaskSummary]) -> Accuracies:
    verdicts = [_verdicts(task) for task in questions]
    sub_questions = sum(len(v) for v in verdicts)
    return Accuracies(
        questions=len(questions),
        sub_questions=sub_questions,
        by_question=round(sum(all(v) for v in verdicts) / len(verdicts), 4),
        proportional_by_sub_question=round(sum(sum(v) / len(v) for v in verdicts) / len(verdicts), 4),
        uniform_by_sub_question=round(sum(sum(v) for v in verdicts) / sub_questions, 4),
    )


def format_closed_form(summary: ClosedFormSummary) -> list[str]:
    """The terminal text of the closed-form figures."""
    overall = summary.overall
    lines = [
        "",
        f"closed-form questions (InfiAgent-DABench accuracies): {overall.questions} questions, "
        f"{overall.sub_questions} sub-questions",
        *(f"  accuracy {label:<29} {value:>7.2%}" for label, value in zip(ACCURACY_LABELS, overall.figures)),
    ]
    for title, groups in (("concept", summary.by_concept), ("level", summary.by_level)):
        width = max(len(title) + 3, *(len(name) for name in groups))
        lines += ["", f"{'by ' + title:<{width}}  {'questions':>9}  {'by question':>11}  {'proportional':>12}  {'uniform':>7}"]
        lines += [f"{name:<{width}}  {f.questions:>9}  {f.by_question:>11.1%}  "
                  f"{f.proportional_by_sub_question:>12.1%}  {f.uniform_by_sub_question:>7.1%}"
                  for name, f in groups.items()]
    return lines
