"""The evaluator: postconfig -> getters -> metrics -> one score (reference §3.2).

Rules kept from the original: ``func`` string or list; ``conj`` "and" returns 0 at the first
zero, else the *mean* (so partial credit survives); "or" returns 1 at the first one, else the max;
``options`` dict or aligned list; a null ``expected`` calls ``metric(result, **options)``; a
``FileNotFoundError`` or a metric exception scores 0, and the metric's entry names what was
raised (a crash is not a verdict, which ``--validate`` must tell apart). A metric returning a
:class:`~pytest_spider2v.registry.Scored` has its parts (sub-answer verdicts) kept in the
metric's entry of the record. Deliberate fixes: FAIL is recognised in
every action form (the original only matched the bare string, §9.2); environment faults raised
by getters are not turned into 0, they propagate so the run reports an error instead of a
misleading failure.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.registry import Scored, Unavailable, getters, metrics
from pytest_spider2v.run.agent import action_kind
from pytest_spider2v.run.results import MetricResult
from pytest_spider2v.run.setup_steps import run_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.model import EvaluatorSpec, GetterSpec


@dataclass(frozen=True)
class Fetched:
    """What one metric was given and what it scored: kept so that ``--validate`` can give the
    metric almost-right variants of the same result without another episode."""

    func: str
    result: Any
    expected: Any
    options: Mapping[str, Any]
    takes_expected: bool  #: called as ``metric(result, expected, **options)``, else ``metric(result, **options)``
    score: float


@dataclass
class Evaluation:
    score: float
    detail: str
    metrics: list[MetricResult] = field(default_factory=list)
    #: each metric's inputs, as fetched in this run (empty for an outcome read from a record)
    fetched: list[Fetched] = field(default_factory=list)


def evaluate(ctx: TaskContext) -> Evaluation:
    ev: EvaluatorSpec = ctx.task.spec.evaluator
    run_steps(ctx, ev.postconfig)
    funcs = ev.func if isinstance(ev.func, list) else [ev.func]
    last = action_kind(ctx.history[-1]) if ctx.history else None
    if funcs == ["infeasible"]:
        score = 1.0 if last == "FAIL" else 0.0
        return Evaluation(score, "infeasible task: " + ("agent answered FAIL" if score else "agent did not answer FAIL"))
    if last == "FAIL":
        return Evaluation(0.0, "the agent gave up (FAIL)")

    results: list[MetricResult] = []
    fetched: list[Fetched] = []
    for i, name in enumerate(funcs):
        result = _one_metric(ctx, name, _nth(ev.result, i), _nth(ev.expected, i), _nth(ev.options, i) or {}, fetched)
        results.append(result)
        if ev.conj == "and" and result.score == 0:
            return Evaluation(0.0, _describe(results), results, fetched)
        if ev.conj == "or" and result.score == 1:
            return Evaluation(1.0, _describe(results), results, fetched)
    scores = [r.score for r in results]
    score = sum(scores) / len(scores) if ev.conj == "and" else max(scores)
    return Evaluation(score, _describe(results), results, fetched)


def _nth(slot: Any, i: int) -> Any:
    return slot[i] if isinstance(slot, list) else slot


def _one_metric(ctx: TaskContext, name: str, result_spec: GetterSpec | None, expected_spec: GetterSpec | None,
                options: Mapping[str, Any], fetched: list[Fetched]) -> MetricResult:
    """The metric's verdict: its score and why (and the parts of a :class:`Scored`); what it was
    given is appended to ``fetched``."""
    metrics.get(name)  # an unavailable metric skips the task before anything is fetched
    try:
        result = _fetch(ctx, result_spec)
        with ctx.integrity.expected_side() if ctx.integrity is not None else nullcontext():
            expected = _fetch(ctx, expected_spec)
    except FileNotFoundError as exc:
        return MetricResult(name, 0.0, f"file not found: {exc}", raised=f"FileNotFoundError: {exc}")
    inputs = Fetched(name, result, expected, options, expected_spec is not None, 0.0)
    verdict = score_metric(inputs)
    fetched.append(replace(inputs, score=verdict.score))
    return verdict


def score_metric(inputs: Fetched) -> MetricResult:
    """Call the metric on ``inputs`` as the evaluator does: an exception scores 0 (the original's
    rule), what the metric logs says why. The result's ``raised`` keeps the exception apart from
    a judged 0: a score cannot tell "rejected" from "could not judge", and ``--validate`` must."""
    name = inputs.func
    metric = metrics.get(name)
    parts: tuple[Mapping[str, Any], ...] = ()
    raised = ""
    with _captured_logs(metric.__module__.split(".")[0]) as lines:
        try:
            if inputs.takes_expected:
                value = metric(inputs.result, inputs.expected, **inputs.options)
            else:
                value = metric(inputs.result, **inputs.options)
        except (EnvironmentFault, Unavailable):
            raise
        except Exception as exc:  # the original scores any metric exception as 0
            raised = f"{type(exc).__name__}: {exc}"
            lines.append(f"{name} raised {raised}")
            value = 0.0
    if isinstance(value, Scored):
        lines[:0] = [value.detail] if value.detail else []
        parts = value.parts
        value = value.score
    score = float(value or 0.0)
    return MetricResult(name, score, "; ".join(lines) or ("matched" if score == 1 else "did not match"),
                        tuple(dict(part) for part in parts), raised)


def _fetch(ctx: TaskContext, spec: GetterSpec | None) -> Any:
    if spec is None:
        return None
    data = spec.model_dump()
    return getters.get(spec.type)(ctx, data)


def _describe(results: list[MetricResult]) -> str:
    return " | ".join(f"{r.func} = {r.score:g} ({r.detail})" for r in results)


@contextmanager
def _captured_logs(logger_name: str) -> Iterator[list[str]]:
    """Collect what the metric's package logs at INFO and above: it says *why* a comparison failed."""
    lines: list[str] = []

    class _Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handler = _Collect(logging.INFO)
    root = logging.getLogger(logger_name)
    previous = root.level
    root.addHandler(handler)
    root.setLevel(min(previous or logging.INFO, logging.INFO))
    try:
        yield lines
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)
