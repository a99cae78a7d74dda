"""The near-miss check's core: each trial caught, lax or crashed (a metric that raised never
counts as caught), metrics without a maker and makers whose rewriting changes the score reported
as not covered, and a check that tried nothing said to be not covered, never all caught."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.registry import NearMiss, metrics, near_misses
from pytest_spider2v.run.evaluation import Fetched
from pytest_spider2v.validate.near_miss import NearMisses, Trial, Uncovered, try_near_misses


@pytest.fixture
def lenient_metric() -> Iterator[str]:
    """A metric that reads only the first character (and raises on an empty text), with a maker;
    one whose rewriting spoils; and one whose maker names a part it cannot vary."""

    def first_char(result: Any, expected: Any) -> float:
        return float(str(result)[0] == str(expected)[0])

    def vary(result: Any, expected: Any, options: dict, workdir: Path) -> Iterator[NearMiss]:
        yield NearMiss("first changed", "character 1", "x" + result[1:], part="first")
        yield NearMiss("last changed", "the last character", result[:-1] + "x", part="last")
        yield NearMiss("emptied", "the whole text", "", part="first")

    def spoiled(result: Any, expected: Any, options: dict, workdir: Path) -> Iterator[NearMiss]:
        yield NearMiss("unchanged", "rewritten", "", control=True)
        yield NearMiss("first changed", "character 1", "x")

    def partial(result: Any, expected: Any, options: dict, workdir: Path) -> Iterator[NearMiss]:
        yield NearMiss("not varied", "no maker for the middle", part="middle", untried=True)

    names = {"first_char_test": vary, "spoiled_test": spoiled, "partial_test": partial}
    for name, maker in names.items():
        metrics.add(name, first_char)
        near_misses.add(name, maker)
    yield "first_char_test"
    for registry in (metrics, near_misses):
        for name in names:
            registry._entries.pop(name)


def test_each_trial_is_caught_lax_or_crashed(tmp_path: Path, lenient_metric: str) -> None:
    found = try_near_misses([Fetched(lenient_metric, "abc", "abc", {}, True, 1.0)], tmp_path)
    assert [(t.kind, t.outcome) for t in found.trials] == [("first changed", "caught"), ("last changed", "lax"),
                                                          ("emptied", "crashed")]
    assert [t.describe() for t in found.lax] == ["first_char_test: last changed (the last character) still scored 1"]
    assert [t.describe() for t in found.crashed] == [
        "first_char_test: emptied (the whole text) crashed the metric: IndexError: string index out of range"]
    assert len(found.caught) == 1  # the crash scored 0 too, and is not counted
    assert found.summary() == "3 near misses tried: 1 caught, 1 crashed, 1 lax"


def test_a_spoiling_rewrite_a_missing_maker_and_an_unvaried_part_are_not_covered(tmp_path: Path,
                                                                                 lenient_metric: str) -> None:
    found = try_near_misses([Fetched("spoiled_test", "abc", "abc", {}, True, 1.0),
                             Fetched("check_file_existence", "a.png", None, {}, False, 1.0),
                             Fetched("partial_test", "abc", "abc", {}, True, 1.0)], tmp_path)
    assert found.trials == [] and found.caught == []
    assert found.uncovered == [
        Uncovered("spoiled_test", "", "rewriting changes the score (the result saved again unchanged crashed the "
                                      "metric: IndexError: string index out of range): no variant counted"),
        Uncovered("check_file_existence", "", "no near-miss maker for this metric"),
        Uncovered("partial_test", "middle", "no maker for the middle")]
    assert found.summary().startswith("not covered: no near miss tried; not covered: spoiled_test: rewriting")
    assert NearMisses.from_json(found.to_json()) == found


def test_a_check_with_trials_is_not_called_uncovered() -> None:
    found = NearMisses([Trial("m", "value changed", "cell B2", 0.0)])
    assert found.summary() == "1 near misses tried: 1 caught, 0 crashed, 0 lax"


def test_a_metric_that_did_not_score_one_is_not_varied(tmp_path: Path, lenient_metric: str) -> None:
    found = try_near_misses([Fetched(lenient_metric, "abc", "xbc", {}, True, 0.0)], tmp_path)
    assert found.trials == [] and found.uncovered == []
