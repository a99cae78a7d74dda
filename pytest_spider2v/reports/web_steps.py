"""Multimodal-Mind2Web's four figures over the web tasks of a run, as its card defines them.

A web task is one whose facets count its valid steps (``valid_steps``); the verdict on each of its
steps comes from its record's evaluation (the parts of ``mind2web_steps``: ``valid``, ``element``,
``op_f1``, ``success``). Over the tasks attempted (an error counts with every valid step wrong,
as the success rate counts it as 0; skips are left out), overall, per split, per domain and per
website:

* **step success rate**, **operation token F1** and **element accuracy**: averages over the valid
  steps (rows with ``is_valid`` false count nowhere, though they stay in the trajectory);
* **task success rate**: the share of tasks with at least one valid step whose valid steps all
  succeeded.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.json_values import JsonObject, JsonRecord

#: The figures in the card's order, with their labels.
FIGURE_LABELS = (("step_success", "step success"), ("task_success", "task success"), ("op_f1", "operation F1"),
                 ("element_accuracy", "element accuracy"))
GROUPS = ("split", "domain", "website")


@dataclass(frozen=True)
class WebFigures(JsonRecord):
    """The card's four figures over a group of tasks, with what they average over."""

    tasks: int  #: tasks with at least one valid step
    steps: int  #: valid steps
    step_success: float
    task_success: float
    op_f1: float
    element_accuracy: float

    def value(self, name: str) -> float:
        return float(getattr(self, name))


@dataclass(frozen=True)
class WebStepsSummary:
    overall: WebFigures
    #: grouping (split, domain, website) -> group -> figures
    groups: dict[str, dict[str, WebFigures]]

    def to_json(self) -> JsonObject:
        return {**self.overall.to_json(),
                **{f"by_{name}": {group: f.to_json() for group, f in groups.items()} for name, groups in self.groups.items()}}


def is_web_task(task: TaskSummary) -> bool:
    return "valid_steps" in task.facets


def step_verdicts(task: TaskSummary) -> list[tuple[bool, float, bool]]:
    """``(element right, operation F1, success)`` per valid step: the recorded verdicts, or every
    valid step wrong for a task that ended without them (an error)."""
    if task.web_steps:
        return [(bool(s.get("element")), _number(s.get("op_f1")), bool(s.get("success")))
                for s in task.web_steps if s.get("valid")]
    valid = task.facets.get("valid_steps")
    return [(False, 0.0, False)] * (int(valid) if isinstance(valid, (int, float)) else 0)


def _number(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0


def web_figures(tasks: list[TaskSummary]) -> WebFigures:
    verdicts = [v for v in (step_verdicts(task) for task in tasks) if v]
    steps = [step for task in verdicts for step in task]

    def mean(values: list[float]) -> float:
        return round(sum(values) / len(values), 4) if values else 0.0

    return WebFigures(len(verdicts), len(steps), mean([float(s[2]) for s in steps]),
                      mean([float(all(s[2] for s in task)) for task in verdicts]),
                      mean([s[1] for s in steps]), mean([float(s[0]) for s in steps]))


def web_steps_summary(attempted: list[TaskSummary]) -> WebStepsSummary | None:
    """The figures over the web tasks among the ``attempted`` ones; None when there are none."""
    tasks = [task for task in attempted if is_web_task(task)]
    if not tasks:
        return None
    groups: dict[str, dict[str, WebFigures]] = {}
    for name in GROUPS:
        members: dict[str, list[TaskSummary]] = {}
        for task in tasks:
            members.setdefault(str(task.facets.get(name) or "?"), []).append(task)
        groups[name] = {group: web_figures(members[group]) for group in sorted(members)}
    return WebStepsSummary(web_figures(tasks), groups)


def format_web_steps(summary: WebStepsSummary) -> list[str]:
    """The terminal text of the figures."""
    overall = summary.overall
    lines = ["", f"Multimodal-Mind2Web (the card's figures): {overall.tasks} tasks, {overall.steps} valid steps",
             *(f"  {label:<17} {overall.value(name):.4f}" for name, label in FIGURE_LABELS)]
    for title, groups in summary.groups.items():
        width = max(len(title) + 3, *(len(group) for group in groups))
        lines += ["", f"{'by ' + title:<{width}}  {'tasks':>5}  {'steps':>5}  "
                  + "  ".join(f"{label:>16}" for _, label in FIGURE_LABELS)]
        lines += [f"{group:<{width}}  {f.tasks:>5}  {f.steps:>5}  "
                  + "  ".join(f"{f.value(name):>16.4f}" for name, _ in FIGURE_LABELS) for group, f in groups.items()]
    return lines
