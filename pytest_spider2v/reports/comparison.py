"""Runs compared over the tasks they share (``spider2v-report compare``): each run's rate with its
interval, the difference of each run from the first with a paired interval and test
(:func:`.statistics.paired_comparison`), the tasks that flip, and what a success costs; with a
warning for every field of the manifests that makes the runs not comparable.

A task is one unit whatever ``--repeat`` did: its score in a run is the mean over its repeats.
It *passes* in a run when every repeat passed; it *flips* when it passes in one run and not in
the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_spider2v.reports import manifest
from pytest_spider2v.reports.runs import RecordedRun
from pytest_spider2v.reports.spending import cost_text, tokens_text
from pytest_spider2v.reports.statistics import Interval, PairedComparison, paired_comparison, rate_interval
from pytest_spider2v.reports.summary import RepeatedTask, by_task, interval_text, rate_text, rounded_mean
from pytest_spider2v.reports.timing import wall_time
from pytest_spider2v.run.json_values import JsonObject


@dataclass(frozen=True)
class RunFigures:
    """One run over the shared tasks."""

    name: str
    agent: str
    rate: float | None
    interval: Interval | None
    passed: int  #: shared tasks that passed every repeat
    runs: int  #: the runs of the shared tasks (tasks x repeats)
    successes: int  #: the runs that passed
    tokens: int | None
    cost: float | None
    seconds: float | None
    by_app: dict[str, tuple[float | None, Interval | None]]

    def per_success(self, total: float | None) -> float | None:
        return None if total is None or not self.successes else total / self.successes

    def per_success_cells(self) -> tuple[str, str, str]:
        """Tokens, cost and time per success as every output of a comparison shows them."""
        tokens, cost = self.per_success(self.tokens), self.per_success(self.cost)
        return tokens_text(tokens), cost_text(cost), wall_time(self.per_success(self.seconds))

    def to_json(self) -> JsonObject:
        return {"name": self.name, "agent": self.agent, "rate": self.rate,
                "interval": self.interval.to_json() if self.interval else None, "passed": self.passed,
                "runs": self.runs, "successes": self.successes, "tokens": self.tokens, "cost": self.cost,
                "seconds": self.seconds, "tokens_per_success": self.per_success(self.tokens),
                "cost_per_success": self.per_success(self.cost), "seconds_per_success": self.per_success(self.seconds),
                "by_app": {app: {"rate": rate, "interval": i.to_json() if i else None}
                           for app, (rate, i) in self.by_app.items()}}


@dataclass(frozen=True)
class FlippedTask:
    nodeid: str
    app: str
    a: float  #: its mean score in the first run
    b: float  #: in the other


@dataclass(frozen=True)
class PairFigures:
    """A later run against the first: the paired difference and the flips."""

    a: str
    b: str
    paired: PairedComparison
    flips: list[FlippedTask]

    def to_json(self) -> JsonObject:
        return {"a": self.a, "b": self.b, **self.paired.to_json(),
                "flips": [{"task": f.nodeid, "app": f.app, "a": f.a, "b": f.b} for f in self.flips]}


@dataclass(frozen=True)
class Comparison:
    runs: list[RunFigures]
    shared: list[str]  #: the task nodeids every run attempted
    pairs: list[PairFigures]
    warnings: list[str]  #: what differs between the manifests and changes scores
    manifests: list[JsonObject]

    def to_json(self) -> JsonObject:
        return {"shared_tasks": len(self.shared), "warnings": self.warnings,
                "runs": [run.to_json() for run in self.runs], "pairs": [pair.to_json() for pair in self.pairs]}


def compare(runs: Sequence[RecordedRun]) -> Comparison:
    """Compare ``runs`` (two or more) over the tasks all of them attempted."""
    tasks = [{task.nodeid: task for task in map(RepeatedTask.of, by_task(run.tasks).values())} for run in runs]
    shared = sorted(set.intersection(*(set(t) for t in tasks)))
    apps = {summary.task_nodeid: summary.apps or [summary.app] for run in runs for summary in run.tasks}
    figures = [_figures(run, repeated, shared, apps) for run, repeated in zip(runs, tasks)]
    pairs = []
    for run, repeated in zip(runs[1:], tasks[1:]):
        a, b = [tasks[0][t].mean for t in shared], [repeated[t].mean for t in shared]
        flips = [FlippedTask(t, apps[t][0], tasks[0][t].mean, repeated[t].mean) for t in shared
                 if _passes(tasks[0][t]) != _passes(repeated[t])]
        pairs.append(PairFigures(runs[0].name, run.name, paired_comparison(a, b), flips))
    return Comparison(figures, shared, pairs, _warnings(runs), [run.manifest for run in runs])


def _figures(run: RecordedRun, repeated: dict[str, RepeatedTask], shared: list[str],
             apps: dict[str, list[str]]) -> RunFigures:
    means = [repeated[t].mean for t in shared]
    members = [s for s in run.tasks if s.task_nodeid in set(shared) and s.attempted]
    tokens = [s.tokens for s in members if s.tokens is not None]
    costs = [s.cost for s in members if s.cost is not None]
    seconds = [s.seconds for s in members if s.seconds is not None]
    by_app: dict[str, tuple[float | None, Interval | None]] = {}
    for app in sorted({app for t in shared for app in apps[t]}):
        scores = [repeated[t].mean for t in shared if app in apps[t]]
        by_app[app] = (rounded_mean(scores), rate_interval(scores))
    return RunFigures(
        name=run.name, agent=str(manifest.value_at(run.manifest, "agent.name") or "?"),
        rate=rounded_mean(means), interval=rate_interval(means), passed=sum(_passes(repeated[t]) for t in shared),
        runs=len(members), successes=sum(s.status == "passed" for s in members),
        tokens=sum(tokens) if tokens else None, cost=round(sum(costs), 6) if costs else None,
        seconds=round(sum(seconds), 3) if seconds else None, by_app=by_app)


def _warnings(runs: Sequence[RecordedRun]) -> list[str]:
    first, found = runs[0], []
    for run in runs[1:]:
        fields = manifest.task_set_differences(manifest.task_fingerprints(first.tasks),
                                               manifest.task_fingerprints(run.tasks))
        if first.manifest and run.manifest:
            fields += manifest.differences(first.manifest, run.manifest)
        else:
            fields.append("manifest: " + ", ".join(r.name for r in (first, run) if not r.manifest)
                          + " has none (a run from before manifests): its conditions are unknown")
        found += [f"{first.name} vs {run.name}: {field}" for field in fields]
    return found


def _passes(task: RepeatedTask) -> bool:
    return task.passes == task.runs



def format_comparison(comparison: Comparison) -> list[str]:
    """The comparison as the terminal shows it."""
    lines = [f"compared over the {len(comparison.shared)} tasks every run attempted"]
    if comparison.warnings:
        lines += ["", "WARNING: the runs differ in what changes scores:"]
        lines += [f"  {warning}" for warning in comparison.warnings]
    lines += ["", f"{'run':<24}  {'agent':<16}  {'success':>7}  {'95% interval':>15}  {'passed':>6}  "
                  f"{'tokens/success':>14}  {'cost/success':>12}  {'time/success':>12}"]
    for run in comparison.runs:
        tokens, cost, seconds = run.per_success_cells()
        lines.append(f"{run.name:<24}  {run.agent:<16}  {rate_text(run.rate):>7}  {interval_text(run.interval):>15}  "
                     f"{run.passed:>6}  {tokens:>14}  {cost:>12}  {seconds:>12}")
    for pair in comparison.pairs:
        p = pair.paired
        lines += ["", f"{pair.a} - {pair.b}: difference {p.difference:+.1%}, 95% interval "
                      f"{signed_text(p.interval)} (paired t over tasks); {p.test}: p = {p_text(p.p_value)} "
                      f"({pair.a} better on {p.a_better}, {pair.b} on {p.b_better})"]
        lines.append(f"  tasks that flip (pass in one, not the other): {len(pair.flips)}")
        lines += [f"    {f.nodeid}  {pair.a} {f.a:.2f} -> {pair.b} {f.b:.2f}" for f in pair.flips]
    return lines


def comparison_markdown(comparison: Comparison) -> str:
    """The comparison as a Markdown document (for a pull request or a paper's notes)."""
    lines = [f"# Runs compared over {len(comparison.shared)} shared tasks", ""]
    if comparison.warnings:
        lines += ["**Warning: the runs differ in what changes scores.**", ""]
        lines += [f"- {warning}" for warning in comparison.warnings] + [""]
    lines += ["| run | agent | success | 95% interval | passed | tokens/success | cost/success | time/success |",
              "|---|---|---:|---:|---:|---:|---:|---:|"]
    for run in comparison.runs:
        cells = [run.name, run.agent, rate_text(run.rate), interval_text(run.interval), str(run.passed),
                 *run.per_success_cells()]
        lines.append("| " + " | ".join(cells) + " |")
    for pair in comparison.pairs:
        p = pair.paired
        lines += ["", f"## {pair.a} - {pair.b}", "",
                  f"Difference **{p.difference:+.1%}**, 95% interval {signed_text(p.interval)} (paired t over tasks); "
                  f"{p.test}: p = {p_text(p.p_value)}.", "", f"Tasks that flip: {len(pair.flips)}", ""]
        if pair.flips:
            lines += [f"| task | {pair.a} | {pair.b} |", "|---|---:|---:|"]
            lines += [f"| {f.nodeid} | {f.a:.2f} | {f.b:.2f} |" for f in pair.flips]
    return "\n".join(lines) + "\n"



def signed_text(interval: Interval | None) -> str:
    return "n/a" if interval is None else f"[{interval.low:+.1%}, {interval.high:+.1%}]"


def p_text(p_value: float | None) -> str:
    return "n/a" if p_value is None else f"{p_value:.4g}"
