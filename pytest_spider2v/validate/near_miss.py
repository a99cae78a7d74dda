"""The near-miss check: a metric that scored the reference run's result 1 is given almost-right
variants of that result (made by the maker registered under its name in
:data:`~pytest_spider2v.registry.near_misses`), and must score each below 1. A variant it still
scores 1 shows a lax evaluation: the task would pass an agent that got this part wrong.

No episode is needed: the variants are made from what the reference run's getters fetched,
kept with its evaluation. A metric without a maker, or a part of a metric's check that its maker
cannot vary, is reported as not covered; it never counts as caught.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_spider2v.registry import near_misses
from pytest_spider2v.run.evaluation import Fetched, score_metric


@dataclass(frozen=True)
class Trial:
    """One variant given to one metric, and the score it got."""

    func: str
    kind: str
    where: str
    score: float

    def describe(self) -> str:
        return f"{self.func}: {self.kind} ({self.where}) still scored {self.score:g}"


@dataclass
class NearMisses:
    """What the near-miss check of one task tried, and what it could not."""

    trials: list[Trial] = field(default_factory=list)
    #: metrics (or parts of one) without a way to vary them: "compare_images", "compare_table: rule sparkline"
    uncovered: list[str] = field(default_factory=list)
    #: metrics whose control variant (the result rewritten unchanged) no longer scored 1
    unusable: list[str] = field(default_factory=list)

    @property
    def lax(self) -> list[Trial]:
        return [trial for trial in self.trials if trial.score >= 1]

    @property
    def caught(self) -> int:
        return len(self.trials) - len(self.lax)

    def summary(self) -> str:
        parts = [f"{len(self.trials)} near misses tried, {self.caught} caught"]
        if self.uncovered:
            parts.append("not covered: " + ", ".join(self.uncovered))
        if self.unusable:
            parts.append("rewriting changes the score: " + ", ".join(self.unusable))
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"trials": [asdict(t) for t in self.trials], "uncovered": self.uncovered, "unusable": self.unusable}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NearMisses:
        return cls([Trial(**t) for t in data.get("trials", [])], list(data.get("uncovered", [])),
                   list(data.get("unusable", [])))


def try_near_misses(fetched: Sequence[Fetched], workdir: Path) -> NearMisses:
    """Give every metric that scored 1 the variants of its maker; ``workdir`` holds their files
    (emptied first)."""
    shutil.rmtree(workdir, ignore_errors=True)
    found = NearMisses()
    for number, inputs in enumerate(fetched):
        if inputs.score < 1:
            continue  # under "or", a metric that did not decide; there is no right answer to vary
        entry = near_misses.entry(inputs.func) if inputs.func in near_misses else None
        if entry is None or entry.obj is None:
            found.uncovered.append(inputs.func)
            continue
        variants = list(entry.obj(inputs.result, inputs.expected, dict(inputs.options), workdir / f"{number}-{inputs.func}"))
        found.uncovered += [f"{inputs.func}: {v.kind}" for v in variants if v.untried]
        if not any(not v.control for v in variants):
            found.uncovered.append(f"{inputs.func}: nothing in this result to vary")
            continue
        if any(score_metric(replace(inputs, result=v.result)).score < 1 for v in variants if v.control):
            found.unusable.append(inputs.func)
            continue
        for variant in variants:
            if not variant.control and not variant.untried:
                score = score_metric(replace(inputs, result=variant.result)).score
                found.trials.append(Trial(inputs.func, variant.kind, variant.where, score))
    return found
