"""The closed-form metric: the original's extraction and comparison, per-sub-answer verdicts kept
in the record's evaluation entry."""

from __future__ import annotations

import pytest

from pytest_spider2v.metrics.closed_form import answer_pairs, closed_form, format_answer, is_equal, label_pairs
from pytest_spider2v.registry import Scored
from pytest_spider2v.run.agent import done_with_answer
from pytest_spider2v.run.evaluation import evaluate
from pytest_spider2v.run.results import MetricResult
from pytest_spider2v.testing.factories import constant_evaluator, make_context, make_task, task_document


def test_pairs_are_found_with_the_original_pattern() -> None:
    text = "The mean is @mean_fare[34.65] and @median fare[3] and @corr[0.21], @empty[] @x[[] @y[a]b]"
    assert answer_pairs(text) == {"mean_fare": "34.65", "corr": "0.21", "empty": "", "x": "[", "y": "a"}


def test_a_name_given_twice_keeps_its_last_value_in_answers_and_labels() -> None:
    assert answer_pairs("@r[0.1] then @r[0.2]") == {"r": "0.2"}
    labels = [["r", "0.38"], ["s", "significant"], ["s", "non-significant"], ["r", "0.56"]]
    assert label_pairs(labels) == {"r": "0.56", "s": "non-significant"}
    assert list(label_pairs(labels)) == ["r", "s"]


@pytest.mark.parametrize(("given", "label", "equal"), [
    ("34.65", "34.65", True),
    ("34.650", "34.65", True),  # floats, not strings
    ("34.6500001", "34.65", True),  # less than 1e-6 apart
    ("34.651", "34.65", False),
    ("1e-7", "0", True),
    (" 2", "2", True),  # float() reads the spaces away, as in the original
    ("yes", "yes", True),
    ("Yes", "yes", False),  # no case folding
    ("nan", "nan", True),  # the same string, though NaN != NaN
    ("inf", "inf", True),
    (None, "1", False),
    ("", "", True),
])
def test_sub_answers_compare_as_the_original(given: str | None, label: str, equal: bool) -> None:
    assert is_equal(given, label) is equal


def test_all_sub_answers_right_scores_1_with_every_verdict() -> None:
    scored = closed_form("@a[1.00]\n@b[no]", [["a", "1"], ["b", "no"]])
    assert isinstance(scored, Scored) and scored.score == 1.0
    assert scored.parts == ({"name": "a", "expected": "1", "given": "1.00", "correct": True},
                            {"name": "b", "expected": "no", "given": "no", "correct": True})
    assert scored.detail == "2 of 2 sub-answers right"


def test_one_wrong_or_missing_sub_answer_scores_0_and_says_which() -> None:
    scored = closed_form("@a[1] @c[3]", [["a", "1"], ["b", "2"], ["c", "4"]])
    assert scored.score == 0.0
    assert [p["correct"] for p in scored.parts] == [True, False, False]
    assert scored.detail == "1 of 3 sub-answers right; wrong: b: nothing (expected '2'), c: '3' (expected '4')"


def test_no_answer_is_wrong_on_every_sub_answer() -> None:
    scored = closed_form(None, {"a": "1"})
    assert scored.score == 0.0 and scored.parts[0]["given"] is None
    assert scored.detail.startswith("no answer given; 0 of 1")


def test_format_answer_round_trips_through_extraction() -> None:
    labels = label_pairs([["mean_fare_child", "31.09"], ["flag", ""], ["bracket", "["]])
    assert format_answer(labels) == "@mean_fare_child[31.09]\n@flag[]\n@bracket[[]"
    assert closed_form(format_answer(labels), labels).score == 1.0


def test_the_evaluator_keeps_the_parts_in_the_metric_entry() -> None:
    task = make_task(task_document(id="q", instruction="x", related_apps=["dabench"], tags=["cli"],
                                   evaluator={"func": "closed_form", "result": {"type": "final_answer"},
                                              "expected": {"type": "rule", "rules": [["a", "1"], ["b", "2"]]}}))
    evaluation = evaluate(make_context(task=task, history=[done_with_answer("@a[1] @b[3]")]))
    assert evaluation.score == 0.0
    (entry,) = evaluation.metrics
    assert entry.func == "closed_form" and entry.score == 0.0
    assert [(p["name"], p["given"], p["correct"]) for p in entry.parts] == [("a", "1", True), ("b", "3", False)]
    assert entry.detail == "1 of 2 sub-answers right; wrong: b: '3' (expected '2')"


def test_a_metric_returning_a_plain_float_has_no_parts() -> None:
    task = make_task(task_document(id="q", instruction="x", tags=["cli"], evaluator=constant_evaluator("x", "x")))
    (entry,) = evaluate(make_context(task=task)).metrics
    assert entry == MetricResult("exact_match", 1.0, "matched")
    assert entry.to_json() == {"func": "exact_match", "score": 1.0, "detail": "matched"}  # no "parts" key
