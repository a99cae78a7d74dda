"""The run at a glance, at the top of the HTML report: the summary the terminal prints (the
paper's tables: success rate overall and by app, category, difficulty, interface and variant,
over every task attempted (an error counted as 0), with the denominators behind it (collected,
runnable, scored, errors, skipped, on the errata list), the rate over the tasks that completed and
the rate without those on the errata list and tokens, cost and wall time per group), each grouping beside a
bar chart of its success rates; the closed-form accuracies of a run with DABench questions; and,
for a replay, the tasks whose outcome changed; then the sections plugins add
(:class:`.sections.ReportSection`).

Built from :func:`.summary.summarize`'s figures and the run's manifest alone, rendered from
``templates/overview.html``. The charts are inline SVG drawn by matplotlib (:mod:`.charts`): the
report opens anywhere, without fetching a charting library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from pytest_spider2v.reports.charts import RateBar, rates_chart
from pytest_spider2v.reports.closed_form import ACCURACY_LABELS, Accuracies, ClosedFormSummary
from pytest_spider2v.reports.manifest import properties
from pytest_spider2v.reports.rendering import render
from pytest_spider2v.reports.sections import ReportSection
from pytest_spider2v.reports.summary import GroupFigures, HeadlineFacts, RunSummary, interval_text, rate_text, spending
from pytest_spider2v.reports.task_summary import GROUPINGS
from pytest_spider2v.reports.timing import TIME_PARTS, wall_time
from pytest_spider2v.reports.web_steps import FIGURE_LABELS, WebFigures, WebStepsSummary


@dataclass(frozen=True)
class Table:
    """A table of figures as the template shows it: its header and its rows, already written."""

    header: Sequence[str]
    rows: Sequence[tuple[Any, ...]]


@dataclass(frozen=True)
class Grouping:
    """One grouping's table (a row per group) and its chart."""

    title: str
    header: list[str]
    rows: list[tuple[str, list[str]]]
    chart: Markup


def render_overview(summary: RunSummary, manifest: Mapping[str, Any] | None = None,
                    sections: Sequence[ReportSection] = ()) -> str:
    """The HTML section for the top of the report: the manifest, the figures, then ``sections``."""
    spent = [column for column in ("tokens", "cost") if summary.overall.spent(column) is not None]
    groupings = [_grouping(title, summary.groups[title], spent) for title in GROUPINGS if summary.groups[title]]
    return render("overview.html", summary=summary, headline=HeadlineFacts.of(summary.overall),
                  manifest=bool(manifest), manifest_rows=_manifest_rows(manifest or {}), rate_text=rate_text,
                  groupings=groupings, closed_form=_closed_form(summary.closed_form),
                  web_steps=_web_steps(summary.web_steps), time=_time(summary), sections=sections)


def render_manifest(manifest: Mapping[str, Any]) -> str:
    """The run's conditions as a table of ``path: value`` rows (:func:`.manifest.properties`)."""
    return render("manifest.html", manifest_rows=_manifest_rows(manifest))


def _manifest_rows(manifest: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [(name.removeprefix("spider2v."), value) for name, value in properties(manifest)]


def _grouping(title: str, groups: dict[str, GroupFigures], spent: list[str]) -> Grouping:
    first = next(iter(groups.values()))
    repeated, k = first.repeats > 1, first.repeats
    header = [title, "tasks", "runnable", "scored", "passed", "errors", "skipped", "errata", "success",
              "success of completed", "success w/o errata", "95% interval",
              *([f"pass@{k}", f"pass^{k}", "flaky"] if repeated else []), *spent, "wall time"]
    rows = [(name, [str(f.total), str(f.runnable), str(f.scored), str(f.passed), str(f.errors), str(f.skipped),
                    str(f.flagged), rate_text(f.success_rate), rate_text(f.success_rate_completed),
                    rate_text(f.success_rate_without_errata), interval_text(f.interval),
                    *([rate_text(f.pass_at_k), rate_text(f.pass_hat_k), str(f.flaky)] if repeated else []),
                    *(spending(c, f.spent(c)) for c in spent), wall_time(f.seconds)])
            for name, f in groups.items()]
    bars = [RateBar(name, "success rate", f.success_rate, f.interval.low if f.interval else None,
                    f.interval.high if f.interval else None) for name, f in groups.items()]
    return Grouping(title, header, rows, Markup(rates_chart(bars, f"success rate by {title}, with its 95% interval")))


def _time(summary: RunSummary) -> Table | None:
    """Where the time went, over the run and per app; None when no time was counted."""
    if summary.time.total <= 0:
        return None
    splits = [("run", summary.time), *summary.time_by_app.items()]
    return Table(TIME_PARTS, [
        (name, wall_time(split.total),
         [f"{split.seconds[part] / split.total:.1%}" for part in TIME_PARTS] + [f"{split.harness_share or 0:.1%}"])
        for name, split in splits if split.total > 0])


def _closed_form(summary: ClosedFormSummary | None) -> Table | None:
    if summary is None:
        return None
    rows: list[tuple[str, Accuracies]] = [("all questions", summary.overall)]
    rows += [(f"concept: {name}", f) for name, f in summary.by_concept.items()]
    rows += [(f"level: {name}", f) for name, f in summary.by_level.items()]
    return Table(ACCURACY_LABELS, [(name, f.questions, [f"{value:.1%}" for value in f.figures]) for name, f in rows])


def _web_steps(summary: WebStepsSummary | None) -> Table | None:
    if summary is None:
        return None
    rows: list[tuple[str, WebFigures]] = [("all tasks", summary.overall)]
    rows += [(f"{title}: {name}", f) for title, groups in summary.groups.items() for name, f in groups.items()]
    return Table([label for _, label in FIGURE_LABELS],
                 [(name, f.tasks, f.steps, [f"{f.value(key):.4f}" for key, _ in FIGURE_LABELS]) for name, f in rows])
