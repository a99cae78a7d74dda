"""The checks of a task on the errata list, in pytest runs with a stand-in task run and an errata
list of the test's own: the reference run of a task whose instruction cannot pass must score what
its erratum predicts from metrics that judged (a crash, another score or 1 fail); a near miss
the metric crashes on fails the near-miss check unless the erratum lists it, and is counted as
crashed, never as caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_spider2v.testing.factories import task_document, write_task
from tests.support.shared import REPO

CONFTEST = f'''
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, {str(REPO)!r})
from pytest_spider2v.registry import NearMiss, metrics, near_misses
from pytest_spider2v.run.evaluation import Evaluation, Fetched
from pytest_spider2v.run.results import MetricResult
from pytest_spider2v.tasks import errata, model
from tests.support.stand_in_run import StandInRun

ERRATA = Path(__file__).with_name("errata.yaml")


def first_char(result, expected):
    return float(result[0] == expected[0])  # raises on an empty result


def vary(result, expected, options, workdir):
    yield NearMiss("first changed", "character 1", "x" + result[1:])
    yield NearMiss("emptied", "the whole text", "")


def pytest_configure(config):
    """This run's errata list and metric, in place of the shipped ones, until it ends."""
    config._shipped_erratum_of = model.erratum_of
    model.erratum_of = lambda app, task_id: errata.erratum_of(app, task_id, ERRATA)
    metrics.add("first_char_test", first_char)
    near_misses.add("first_char_test", vary)


def pytest_unconfigure(config):
    model.erratum_of = config._shipped_erratum_of
    for registry in (metrics, near_misses):
        registry._entries.pop("first_char_test", None)


class FakeRun(StandInRun):
    """The outcome written in the task folder's outcome.json: a score, its metrics (name, score,
    what each raised) and what they were given."""

    def outcome(self):
        written = json.loads((self.task.folder / "outcome.json").read_text())
        results = [MetricResult(func, score, "stand-in", raised=raised) for func, score, raised in written["metrics"]]
        fetched = [Fetched(func, result, expected, {{}}, True, score) for func, result, expected, score
                   in written["fetched"]]
        return Evaluation(written["score"], "stand-in", results, fetched)


@pytest.fixture
def spider2v_run(request):
    return FakeRun(request.node)
'''


def task(root: Path, task_id: str, score: float, metrics: list[list], fetched: list[list] | None = None) -> None:
    path = write_task(root, task_document(id=task_id, snapshot="desktop", instruction="x", related_apps=["chromium"]),
                      solution="DONE\n")
    outcome = {"score": score, "metrics": metrics, "fetched": fetched or []}
    (path.parent / "outcome.json").write_text(json.dumps(outcome))


def errata(root: Path, **entries: str) -> None:
    """An errata list with one entry per task id: its kind, then the extra YAML lines given."""
    text = "".join(f"chromium/{task_id}:\n  summary: s\n  evidence: e\n  action: a\n{extra}"
                   for task_id, extra in entries.items())
    (root / "errata.yaml").write_text(text)


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makeconftest(CONFTEST)
    return pytester.runpytest("tasks", "--validate", "-p", "no:cacheprovider", *args)


CANNOT_PASS = "  kind: under_specified\n  reference_score: 0\n"


def test_a_reference_run_that_scores_as_the_erratum_predicts_shows_it(pytester: pytest.Pytester) -> None:
    errata(pytester.path, shown=CANNOT_PASS)
    task(pytester.path, "shown", 0.0, [["compare_table", 0.0, ""]])
    result = run(pytester, "-k", "reference or near-miss")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["chromium*1*0*0*0*0*1",  # per app: no near miss tried, 1 task not covered
                                 "not covered: chromium/shown: compare_table: no right result to vary: on the "
                                 "errata list (under_specified)"])


@pytest.mark.parametrize(("score", "metrics", "message"), [
    (0.0, [["compare_table", 0.0, "KeyError: 'Sheet2'"]],
     "*should score 0 as the erratum predicts, but compare_table raised KeyError: 'Sheet2': a crash shows no erratum"),
    (1.0, [["compare_table", 1.0, ""]], "*scores 1: the erratum no longer holds*"),
    (0.5, [["compare_table", 0.5, ""]], "*its reference run scored 0.5, the erratum predicts 0 (reference_score*"),
], ids=["crashed", "scored 1", "another score"])
def test_a_reference_run_that_ends_otherwise_fails(pytester: pytest.Pytester, score: float, metrics: list,
                                                   message: str) -> None:
    errata(pytester.path, other=CANNOT_PASS)
    task(pytester.path, "other", score, metrics)
    result = run(pytester, "-k", "reference")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([message])


FETCHED = [["first_char_test", "abc", "abc", 1.0]]


def test_a_near_miss_that_crashes_the_metric_fails_and_is_not_caught(pytester: pytest.Pytester) -> None:
    errata(pytester.path)
    task(pytester.path, "crashy", 1.0, [["first_char_test", 1.0, ""]], FETCHED)
    result = run(pytester, "-k", "reference or near-miss")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*near-miss: 1 of 2 near misses crashed the metric instead of being judged*",
        "*first_char_test: emptied (the whole text) crashed the metric: IndexError: string index out of range",
        "chromium*1*2*1*1*0*0",  # per app: tasks, tried, caught, crashed, lax, not covered
        "crashed: chromium/crashy: first_char_test: emptied*",
        "*near misses per metric and part*",
        "first_char_test*2*1*1*0*0"])


def test_a_crash_the_erratum_lists_passes_still_counted_as_crashed(pytester: pytest.Pytester) -> None:
    errata(pytester.path, listed="  kind: lax_evaluator\n  near_miss_crashes: ['first_char_test: emptied']\n")
    task(pytester.path, "listed", 1.0, [["first_char_test", 1.0, ""]], FETCHED)
    result = run(pytester, "-k", "near-miss")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["chromium*1*2*1*1*0*0", "crashed: chromium/listed: first_char_test: emptied*"])
