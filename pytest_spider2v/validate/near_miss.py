"""The near-miss check: a metric that scored the reference run's result 1 is given almost-right
variants of that result (made by the maker registered under its name in
:data:`~pytest_spider2v.registry.near_misses`), and must score each below 1. A variant it still
scores 1 shows a lax evaluation: the task would pass an agent that got this part wrong.

No episode is needed: the variants are made from what the reference run's getters fetched,
kept with its evaluation. Each trial ends one of three ways, and only one is "caught": the metric
judged the variant below 1. A metric that raises on a variant scores 0 by the evaluator's rule,
yet it rejected nothing: that trial is "crashed", never counted as caught. A metric without a
maker, a part of a metric's check that its maker cannot vary, or a metric whose variants prove
nothing (its rewriting alone changes the score) is reported as not covered; a check that tried
nothing at all is not covered as a whole.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pytest_spider2v.registry import near_misses
from pytest_spider2v.run.evaluation import Fetched, score_metric
from pytest_spider2v.run.json_values import JsonRecord

Outcome = Literal["caught", "crashed", "lax"]


@dataclass(frozen=True)
class Trial:
    """One variant given to one metric, and what it made of it."""

    func: str
    kind: str
    where: str
    score: float
    #: the part of the metric's check the variant is aimed at ("pivot_table.filter"), "" for the whole
    part: str = ""
    #: what the metric raised on the variant, "Type: message"; empty when it judged
    raised: str = ""

    @property
    def outcome(self) -> Outcome:
        if self.raised:
            return "crashed"
        return "lax" if self.score >= 1 else "caught"

    @property
    def label(self) -> str:
        """The metric and the kind of variant: what an erratum names to explain a crash."""
        return f"{self.func}: {self.kind}"

    def describe(self) -> str:
        if self.raised:
            return f"{self.label} ({self.where}) crashed the metric: {self.raised}"
        return f"{self.label} ({self.where}) still scored {self.score:g}"


@dataclass(frozen=True)
class Uncovered:
    """A metric, or a part of its check, that no variant tried, and why."""

    func: str
    part: str  #: "" for the metric as a whole
    why: str

    def describe(self) -> str:
        return f"{self.func}{' ' + self.part if self.part else ''}: {self.why}"


@dataclass
class NearMisses(JsonRecord):
    """What the near-miss check of one task tried, and what it could not: a record that travels in
    ``user_properties`` (and the validation state) as ``{"trials": [...], "uncovered": [...]}``."""

    trials: list[Trial] = field(default_factory=list)
    uncovered: list[Uncovered] = field(default_factory=list)

    def _ended(self, outcome: Outcome) -> list[Trial]:
        return [trial for trial in self.trials if trial.outcome == outcome]

    @property
    def caught(self) -> list[Trial]:
        return self._ended("caught")

    @property
    def crashed(self) -> list[Trial]:
        return self._ended("crashed")

    @property
    def lax(self) -> list[Trial]:
        return self._ended("lax")

    def summary(self) -> str:
        """One line, as the check's record and the terminal show it: a check that tried nothing
        says "not covered" first, never "0 of 0 caught"."""
        if not self.trials:
            parts = ["not covered: no near miss tried"]
        else:
            parts = [f"{len(self.trials)} near misses tried: {len(self.caught)} caught, {len(self.crashed)} crashed, "
                     f"{len(self.lax)} lax"]
        if self.uncovered:
            parts.append("not covered: " + ", ".join(u.describe() for u in self.uncovered))
        return "; ".join(parts)



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
            found.uncovered.append(Uncovered(inputs.func, "", "no near-miss maker for this metric"))
            continue
        variants = list(entry.obj(inputs.result, inputs.expected, dict(inputs.options), workdir / f"{number}-{inputs.func}"))
        found.uncovered += [Uncovered(inputs.func, v.part, v.where) for v in variants if v.untried]
        tried = [v for v in variants if not v.control and not v.untried]
        if not tried:
            if not any(v.untried for v in variants):
                found.uncovered.append(Uncovered(inputs.func, "", "nothing in this result to vary"))
            continue
        controls = [score_metric(replace(inputs, result=v.result)) for v in variants if v.control]
        spoiled = next((verdict for verdict in controls if verdict.score < 1), None)
        if spoiled is not None:
            how = f"crashed the metric: {spoiled.raised}" if spoiled.raised else f"scored {spoiled.score:g}"
            found.uncovered.append(Uncovered(inputs.func, "", f"rewriting changes the score (the result saved again "
                                                              f"unchanged {how}): no variant counted"))
            continue
        for variant in tried:
            verdict = score_metric(replace(inputs, result=variant.result))
            found.trials.append(Trial(inputs.func, variant.kind, variant.where, verdict.score, variant.part,
                                      verdict.raised))
    return found
