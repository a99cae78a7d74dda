"""Giving a metric the near misses of a result it scores 1, as the near-miss check does."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_spider2v.run.evaluation import Fetched, score_metric
from pytest_spider2v.validate.near_miss import NearMisses, try_near_misses


def near_misses_of(func: str, result: Any, expected: Any = None, options: Mapping[str, Any] | None = None, *,
                   workdir: Path, takes_expected: bool | None = None) -> NearMisses:
    """The near-miss check of one metric on ``result``, which must score 1 first."""
    inputs = Fetched(func, result, expected, dict(options or {}),
                     expected is not None if takes_expected is None else takes_expected, 0.0)
    score = score_metric(inputs).score
    assert score == 1.0, f"{func} scores the right result {score}, not 1: nothing to vary"
    return try_near_misses([Fetched(func, result, expected, dict(options or {}), inputs.takes_expected, score)],
                           workdir)


def assert_all_caught(found: NearMisses, at_least: int = 1) -> None:
    """Every variant judged below 1 (none still scoring 1, none crashing the metric), and nothing
    the check was given left uncovered."""
    assert len(found.trials) >= at_least, found.summary()
    assert len(found.caught) == len(found.trials), [t.describe() for t in found.trials if t.outcome != "caught"]
    assert not found.uncovered, [u.describe() for u in found.uncovered]
