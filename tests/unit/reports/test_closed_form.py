"""The paper's three accuracies over a run's closed-form questions, per concept and per level, with
figures computed by hand; a run without such questions keeps its summary as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.reports.closed_form import Accuracies
from pytest_spider2v.reports.html import render_task
from pytest_spider2v.reports.summary import format_summary, summarize
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.results import TaskResult


def task_properties(result: dict[str, Any]) -> TaskSummary:
    return TaskSummary.of(TaskResult.from_json(result))


def question(name: str, concepts: list[str], level: str, verdicts: dict[str, bool] | None,
             status: str = "failed") -> TaskSummary:
    """A DABench record's properties; ``verdicts`` None: no evaluation parts (the agent gave up)."""
    names = list(verdicts) if verdicts else ["p", "q"]
    evaluation = [] if verdicts is None else [{"func": "closed_form", "score": float(all(verdicts.values())),
                                               "detail": "", "parts": [{"name": n, "expected": "1", "given": "1",
                                                                        "correct": ok} for n, ok in verdicts.items()]}]
    score = None if status == "error" else float(bool(verdicts) and all(verdicts.values()))
    return task_properties({
        "nodeid": f"da-dev-questions.jsonl::{name}", "task_id": name, "app": "dabench", "apps": ["dabench"],
        "category": "data_analysis_and_visualization", "difficulty": level, "interface": "cli",
        "variant": "closed_form", "status": status, "score": score, "evaluation": evaluation,
        "facets": {"concepts": concepts, "answer_names": names},
    })


@pytest.fixture
def run() -> list[TaskSummary]:
    return [
        question("qa", ["Summary Statistics"], "easy", {"a": True}, status="passed"),
        question("qb", ["Summary Statistics", "Correlation Analysis"], "hard", {"x": True, "y": False, "z": True}),
        question("qc", ["Correlation Analysis"], "hard", None),  # FAIL: every sub-answer wrong
        question("qd", ["Outlier Detection"], "medium", None, status="error"),  # wrong on every sub-answer
        task_properties({"nodeid": "tasks/calc/t/task.json::t[abstract]", "task_id": "t", "app": "calc",
                         "apps": ["calc"], "status": "passed", "score": 1.0,
                         "evaluation": [{"func": "compare_table", "score": 1.0, "detail": "matched"}]}),
    ]


def test_the_three_accuracies_over_every_question_attempted_an_error_wrong_throughout(run: list[TaskSummary]) -> None:
    figures = summarize(run).closed_form
    assert figures is not None
    # qa 1/1, qb 2/3, qc 0/2, qd (an error) 0/2: by question 1/4; proportional (1 + 2/3) / 4; uniform 3/8
    assert figures.overall == Accuracies(questions=4, sub_questions=8, by_question=0.25,
                                         proportional_by_sub_question=0.4167, uniform_by_sub_question=0.375)


def test_accuracies_per_concept_and_per_level(run: list[TaskSummary]) -> None:
    figures = summarize(run).closed_form
    assert figures is not None
    assert figures.by_concept["Summary Statistics"].figures == (0.5, 0.8333, 0.75)  # qa, qb
    correlation = figures.by_concept["Correlation Analysis"]  # qb, qc
    assert (correlation.questions, *correlation.figures) == (2, 0.0, 0.3333, 0.4)
    assert list(figures.by_concept) == ["Correlation Analysis", "Outlier Detection", "Summary Statistics"]
    assert figures.by_concept["Outlier Detection"].figures == (0.0, 0.0, 0.0)  # qd errored: counted, wrong
    assert list(figures.by_level) == ["easy", "medium", "hard"]
    assert figures.by_level["easy"].by_question == 1.0
    assert figures.by_level["hard"].uniform_by_sub_question == 0.4
    written = figures.to_json()  # summary.json's closed_form, as it always was
    assert list(written) == ["questions", "sub_questions", "by_question", "proportional_by_sub_question",
                             "uniform_by_sub_question", "by_concept", "by_level"]
    assert written["by_level"] == {name: level.to_json() for name, level in figures.by_level.items()}


def test_the_terminal_summary_prints_them(run: list[TaskSummary]) -> None:
    text = "\n".join(format_summary(summarize(run)))
    assert "closed-form questions (InfiAgent-DABench accuracies): 4 questions, 8 sub-questions" in text
    assert "  accuracy by question                    25.00%" in text
    assert "  accuracy proportional by sub-question   41.67%" in text
    assert "  accuracy uniform by sub-question        37.50%" in text
    assert "Summary Statistics            2        50.0%         83.3%    75.0%" in text
    assert "hard              2         0.0%         33.3%    40.0%" in text


def test_a_run_without_closed_form_questions_keeps_its_summary(run: list[TaskSummary]) -> None:
    spider2v = run[-1]
    assert "facets" not in spider2v.to_json() and "sub_answers" not in spider2v.to_json()
    summary = summarize([spider2v])
    assert summary.closed_form is None and "closed_form" not in summary.to_json()
    assert "closed-form" not in "\n".join(format_summary(summary))


def test_the_report_shows_each_sub_answers_verdict(tmp_path: Path) -> None:
    result = {"task_id": "q5", "status": "failed", "score": 0.0, "answer": "@r[0.3]",
              "evaluation": [{"func": "closed_form", "score": 0.0, "detail": "0 of 2 sub-answers right",
                              "parts": [{"name": "r", "expected": "0.21", "given": "0.3", "correct": False},
                                        {"name": "n", "expected": "7", "given": None, "correct": False}]}]}
    html = render_task(TaskResult.from_json(result), tmp_path)
    assert "<th>sub-answer</th><th>expected</th><th>given</th><th>verdict</th>" in html
    assert '<td>r</td><td>0.21</td><td>0.3</td><td><span class="err">wrong</span></td>' in html
    assert "<td>n</td><td>7</td><td>&ndash;</td>" in html
