"""The evaluator's scoring rules (reference §3.2), with test-local getters and metrics."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from pytest_spider2v.registry import getters, metrics
from pytest_spider2v.run.evaluation import evaluate
from pytest_spider2v.run.results import MetricResult
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.testing.factories import make_context, make_task, task_document

calls: list[tuple[Any, ...]] = []


def _value(result: Any, expected: Any = "<none>", **options: Any) -> float:
    calls.append((result, expected, options))
    if result == "missing-file":
        raise ValueError("cannot parse")
    if options.get("explain"):
        logging.getLogger(__name__).info("cell B2 differs: 3 != 4")
    return float(result)


def _const(ctx: TaskContext, spec: dict[str, Any]) -> Any:
    if spec.get("raise"):
        raise FileNotFoundError(spec["raise"])
    return spec["value"]


metrics.add("t_value", _value)
getters.add("t_const", _const)


def ctx_for(evaluator: dict[str, Any], history: list[Any] | None = None) -> TaskContext:
    """The context of a task with this evaluator, in an environment its getters must not touch."""
    task = make_task(task_document(id="t", instruction="x", tags=["gui"], evaluator=evaluator))
    return make_context(task=task, history=history)


def g(value: Any) -> dict[str, Any]:
    return {"type": "t_const", "value": value}


@pytest.fixture(autouse=True)
def _reset_calls() -> None:
    calls.clear()


def test_single_metric_scores_its_value() -> None:
    assert evaluate(ctx_for({"func": "t_value", "result": g(1), "expected": g("e")})).score == 1.0
    assert calls == [(1, "e", {})]


def test_null_expected_calls_the_metric_without_it() -> None:
    evaluate(ctx_for({"func": "t_value", "result": g(1)}))
    assert calls == [(1, "<none>", {})]


def test_and_is_the_mean_and_stops_at_the_first_zero() -> None:
    ev = {"func": ["t_value", "t_value"], "result": [g(1), g(0.5)], "expected": [None, None]}
    assert evaluate(ctx_for(ev)).score == 0.75
    calls.clear()
    zero_first = {**ev, "result": [g(0), g(1)]}
    assert evaluate(ctx_for(zero_first)).score == 0.0
    assert len(calls) == 1


def test_or_is_the_max_and_stops_at_the_first_one() -> None:
    ev = {"func": ["t_value", "t_value", "t_value"], "conj": "or", "result": [g(0.2), g(1), g(0.4)]}
    assert evaluate(ctx_for(ev)).score == 1.0
    assert len(calls) == 2
    assert evaluate(ctx_for({**ev, "result": [g(0.2), g(0.4), g(0)]})).score == 0.4


def test_options_list_is_aligned_with_func() -> None:
    ev = {"func": ["t_value", "t_value"], "result": [g(1), g(1)], "options": [{"a": 1}, {"b": 2}]}
    evaluate(ctx_for(ev))
    assert [c[2] for c in calls] == [{"a": 1}, {"b": 2}]


@pytest.mark.parametrize("fail", ["FAIL", {"action_type": "FAIL"}])
def test_fail_scores_zero_in_every_action_form(fail: Any) -> None:
    result = evaluate(ctx_for({"func": "t_value", "result": g(1)}, history=["x=1", fail]))
    assert (result.score, calls) == (0.0, [])
    assert "FAIL" in result.detail


def test_infeasible_needs_fail() -> None:
    assert evaluate(ctx_for({"func": "infeasible"}, history=["FAIL"])).score == 1.0
    assert evaluate(ctx_for({"func": "infeasible"}, history=["DONE"])).score == 0.0


def test_missing_file_and_metric_exceptions_score_zero_with_the_reason() -> None:
    missing = evaluate(ctx_for({"func": "t_value", "result": {"type": "t_const", "raise": "/home/user/out.csv"}}))
    assert missing.score == 0.0 and "/home/user/out.csv" in missing.detail
    broken = evaluate(ctx_for({"func": "t_value", "result": g("missing-file")}))
    assert broken.score == 0.0 and "ValueError: cannot parse" in broken.detail


def test_a_metric_that_raised_is_named_apart_from_one_that_judged_zero() -> None:
    missing = evaluate(ctx_for({"func": "t_value", "result": {"type": "t_const", "raise": "/home/user/out.csv"}}))
    broken = evaluate(ctx_for({"func": "t_value", "result": g("missing-file")}))
    judged = evaluate(ctx_for({"func": "t_value", "result": g(0)}))
    assert [m.raised for m in missing.metrics] == ["FileNotFoundError: /home/user/out.csv"]
    assert [m.raised for m in broken.metrics] == ["ValueError: cannot parse"]
    assert [m.raised for m in judged.metrics] == [""]
    assert broken.score == judged.score == 0.0  # the score keeps the original's rule


def test_metric_logs_explain_the_score() -> None:
    result = evaluate(ctx_for({"func": "t_value", "result": g(0), "options": {"explain": True}}))
    assert "cell B2 differs: 3 != 4" in result.detail
    assert result.metrics == [MetricResult("t_value", 0.0, "cell B2 differs: 3 != 4")]
