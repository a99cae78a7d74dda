"""The near-miss check's core: lax variants found, metrics without a maker and makers whose
rewriting changes the score reported, never counted as caught."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.registry import NearMiss, metrics, near_misses
from pytest_spider2v.run.evaluation import Fetched
from pytest_spider2v.validate.near_miss import NearMisses, try_near_misses


@pytest.fixture
def lenient_metric() -> Iterator[str]:
    """A metric that reads only the first character, with a maker, and one whose rewriting spoils."""

    def first_char(result: Any, expected: Any) -> float:
        return float(str(result)[:1] == str(expected)[:1])

    def vary(result: Any, expected: Any, options: dict, workdir: Path) -> Iterator[NearMiss]:
        yield NearMiss("first changed", "character 1", "x" + result[1:])
        yield NearMiss("last changed", "the last character", result[:-1] + "x")

    def spoiled(result: Any, expected: Any, options: dict, workdir: Path) -> Iterator[NearMiss]:
        yield NearMiss("unchanged", "rewritten", "", control=True)
        yield NearMiss("first changed", "character 1", "x")

    metrics.add("first_char_test", first_char)
    metrics.add("spoiled_test", first_char)
    near_misses.add("first_char_test", vary)
    near_misses.add("spoiled_test", spoiled)
    yield "first_char_test"
    for registry in (metrics, near_misses):
        for name in ("first_char_test", "spoiled_test"):
            registry._entries.pop(name)


def test_a_variant_still_scoring_one_is_lax(tmp_path: Path, lenient_metric: str) -> None:
    found = try_near_misses([Fetched(lenient_metric, "abc", "abc", {}, True, 1.0)], tmp_path)
    assert found.caught == 1
    assert [t.describe() for t in found.lax] == ["first_char_test: last changed (the last character) still scored 1"]


def test_a_spoiling_rewrite_and_a_missing_maker_are_not_caught(tmp_path: Path, lenient_metric: str) -> None:
    found = try_near_misses([Fetched("spoiled_test", "abc", "abc", {}, True, 1.0),
                             Fetched("check_file_existence", "a.png", None, {}, False, 1.0)], tmp_path)
    assert found.trials == [] and found.unusable == ["spoiled_test"] and found.uncovered == ["check_file_existence"]
    assert NearMisses.from_json(found.to_json()) == found


def test_a_metric_that_did_not_score_one_is_not_varied(tmp_path: Path, lenient_metric: str) -> None:
    found = try_near_misses([Fetched(lenient_metric, "abc", "xbc", {}, True, 0.0)], tmp_path)
    assert found.trials == [] and found.uncovered == []
