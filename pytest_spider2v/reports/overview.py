"""The run at a glance, at the top of the HTML report: the summary the terminal prints (the
paper's tables: success rate overall and by app, category, difficulty, interface and variant,
over every task attempted (an error counted as 0), with the denominators behind it (collected,
runnable, scored, errors, skipped, on the errata list), the rate over the tasks that completed and
the rate without those on the errata list and tokens, cost and wall time per group), each grouping beside a
bar chart of its success rates; the closed-form accuracies of a run with DABench questions; and,
for a replay, the tasks whose outcome changed.

Built from :func:`.summary.summarize`'s figures and the run's manifest alone. The charts are
inline SVG drawn by matplotlib (:mod:`.charts`): the report opens anywhere, without fetching a
charting library.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from pytest_spider2v.reports.charts import RateBar, rates_chart
from pytest_spider2v.reports.closed_form import ACCURACY_LABELS, Accuracies, ClosedFormSummary
from pytest_spider2v.reports.manifest import properties
from pytest_spider2v.reports.summary import (
    GroupFigures,
    ReplayComparison,
    RunSummary,
    charged_text,
    interval_text,
    rate_text,
    spending,
    uncertainty,
)
from pytest_spider2v.reports.task_summary import GROUPINGS
from pytest_spider2v.reports.timing import TIME_PARTS, wall_time
from pytest_spider2v.reports.web_steps import FIGURE_LABELS, WebFigures, WebStepsSummary

STYLE = """<style>
.s2v-overview{font-size:13px;margin:0 0 16px}.s2v-overview h3{margin:14px 0 4px;font-size:14px}
.s2v-overview table{border-collapse:collapse}.s2v-overview td,.s2v-overview th{border:1px solid #ccc;padding:3px 6px}
.s2v-overview td.num,.s2v-overview th.num{text-align:right}.s2v-overview .headline{font-size:15px}
.s2v-overview .group{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.s2v-overview .changed{color:#a00}
</style>"""


def render_overview(summary: RunSummary, manifest: Mapping[str, Any] | None = None) -> str:
    """The HTML section for the top of the report: the manifest, then the figures."""
    parts = [STYLE, '<section id="spider2v-overview" class="s2v-overview">']
    if manifest:
        parts.append(render_manifest(manifest))
    parts.append(_headline(summary))
    if summary.replay is not None:
        parts.append(_replay(summary.replay))
    spent = [column for column in ("tokens", "cost") if summary.overall.spent(column) is not None]
    for title in GROUPINGS:
        groups = summary.groups[title]
        if groups:
            parts.append(f'<div id="spider2v-by-{escape(title)}"><h3>by {escape(title)}</h3><div class="group">'
                         f"{_table(title, groups, spent)}{_chart(title, groups)}</div></div>")
    if summary.flaky:
        parts.append(_flaky(summary))
    if summary.closed_form is not None:
        parts.append(_closed_form(summary.closed_form))
    if summary.web_steps is not None:
        parts.append(_web_steps(summary.web_steps))
    parts.append(_time(summary))
    parts.append("</section>")
    return "".join(parts)


def render_manifest(manifest: Mapping[str, Any]) -> str:
    """The run's conditions as a table of ``path: value`` rows (:func:`.manifest.properties`)."""
    rows = "".join(f"<tr><td>{escape(name.removeprefix('spider2v.'))}</td><td>{escape(value)}</td></tr>"
                   for name, value in properties(manifest))
    return (f'<details id="spider2v-manifest" open><summary><b>Manifest</b>: the conditions of this run '
            f'(docs/reading-results.md)</summary><table class="manifest">{rows}</table></details>')


def _chart(title: str, groups: dict[str, GroupFigures]) -> str:
    bars = [RateBar(name, "success rate", f.success_rate, f.interval.low if f.interval else None,
                    f.interval.high if f.interval else None) for name, f in groups.items()]
    return rates_chart(bars, f"success rate by {title}, with its 95% interval")


def _flaky(summary: RunSummary) -> str:
    rows = "".join(f'<tr><td>{escape(t.nodeid)}</td><td class="num">{t.passes} of {t.runs}</td></tr>'
                   for t in summary.flaky)
    return (f'<div id="spider2v-flaky"><h3>flaky: {len(summary.flaky)} tasks whose repeats disagree</h3>'
            f'<table class="flaky"><tr><th>task</th><th class=num>passed</th></tr>{rows}</table></div>')


def _time(summary: RunSummary) -> str:
    splits = [("run", summary.time), *summary.time_by_app.items()]
    if summary.time.total <= 0:
        return ""
    head = "".join(f"<th class=num>{escape(part)}</th>" for part in TIME_PARTS)
    body = "".join(
        f"<tr><td>{escape(name)}</td><td class=num>{wall_time(split.total)}</td>"
        + "".join(f"<td class=num>{split.seconds[part] / split.total:.1%}</td>" for part in TIME_PARTS)
        + f"<td class=num>{split.harness_share or 0:.1%}</td></tr>" for name, split in splits if split.total > 0)
    return ('<div id="spider2v-time"><h3>where the time went (share of the wall time; harness = all but thinking)'
            f'</h3><table class="time"><tr><th></th><th class=num>total</th>{head}<th class=num>harness</th></tr>'
            f"{body}</table></div>")


def _headline(summary: RunSummary) -> str:
    overall = summary.overall
    facts = [f"passed {overall.passed}"]
    if overall.tokens is not None:
        facts.append(f"tokens {spending('tokens', overall.tokens)}")
    if overall.cost is not None:
        facts.append(f"cost {spending('cost', overall.cost)}")
    if overall.seconds is not None:
        facts.append(f"wall time {wall_time(overall.seconds)} (summed over tasks)")
    errors = f"{overall.errors} errors counted as 0" + (f" ({charged_text(overall.errors_charged)})"
                                                        if overall.errors else "")
    without = (f"; <b>{rate_text(overall.success_rate_without_errata)}</b> without the {overall.flagged} tasks on the "
               "errata list" if overall.flagged else "")
    emulated = (f'<p class="headline"><b>{overall.emulated} tasks ran against emulators</b> (--cloud emulate): '
                "their scores prove the harness and do not score a model.</p>" if overall.emulated else "")
    noun, of = ("tasks", "") if overall.repeats == 1 else \
        ("runs", f" ({overall.tasks_attempted} tasks, --repeat {overall.repeats})")
    return (f'<p class="headline"><b>Success rate {rate_text(overall.success_rate)}</b> over {overall.runnable} {noun} '
            f"attempted of {overall.total}{of} ({escape(errors)}, as the papers score a failed run; "
            f"{overall.skipped} skipped, not attempted); {rate_text(overall.success_rate_completed)} over the "
            f"{overall.scored} that completed; {overall.tampered} tampered{without} &middot; "
            f"{escape(' · '.join(facts))}</p><p class=\"uncertainty\">{escape(uncertainty(overall))}</p>{emulated}")


def _table(title: str, groups: dict[str, GroupFigures], spent: list[str]) -> str:
    repeated = next(iter(groups.values())).repeats > 1
    k = next(iter(groups.values())).repeats
    head = [title, "tasks", "runnable", "scored", "passed", "errors", "skipped", "errata", "success",
            "success of completed", "success w/o errata", "95% interval",
            *([f"pass@{k}", f"pass^{k}", "flaky"] if repeated else []), *spent, "wall time"]
    cells = "".join(f'<th{"" if i == 0 else " class=num"}>{escape(h)}</th>' for i, h in enumerate(head))
    rows = []
    for name, f in groups.items():
        values = [str(f.total), str(f.runnable), str(f.scored), str(f.passed), str(f.errors), str(f.skipped),
                  str(f.flagged), rate_text(f.success_rate), rate_text(f.success_rate_completed),
                  rate_text(f.success_rate_without_errata), interval_text(f.interval),
                  *([rate_text(f.pass_at_k), rate_text(f.pass_hat_k), str(f.flaky)] if repeated else []),
                  *(spending(c, f.spent(c)) for c in spent), wall_time(f.seconds)]
        rows.append(f"<tr><td>{escape(name)}</td>" + "".join(f'<td class="num">{escape(v)}</td>' for v in values)
                    + "</tr>")
    return f'<table class="by-{escape(title)}"><tr>{cells}</tr>{"".join(rows)}</table>'


def _replay(replay: ReplayComparison) -> str:
    runs = escape(", ".join(replay.runs))
    changed = replay.changed
    if not changed:
        return f"<h3>Replay of {runs}</h3><p>{replay.tasks} tasks replayed: every outcome as recorded.</p>"
    rows = "".join(f'<tr><td>{escape(c.nodeid)}</td><td class="num">{escape(c.recorded)}</td>'
                   f'<td class="num changed">{escape(c.now)}</td></tr>' for c in changed)
    return (f"<h3>Replay of {runs}: {len(changed)} of {replay.tasks} outcomes changed</h3>"
            f'<table class="replay-changed"><tr><th>task</th><th class=num>recorded</th><th class=num>now</th></tr>'
            f"{rows}</table>")


def _closed_form(summary: ClosedFormSummary) -> str:
    head = "".join(f"<th class=num>{escape(label)}</th>" for label in ACCURACY_LABELS)
    rows: list[tuple[str, Accuracies]] = [("all questions", summary.overall)]
    rows += [(f"concept: {name}", f) for name, f in summary.by_concept.items()]
    rows += [(f"level: {name}", f) for name, f in summary.by_level.items()]
    body = "".join(f"<tr><td>{escape(name)}</td><td class=num>{f.questions}</td>"
                   + "".join(f"<td class=num>{value:.1%}</td>" for value in f.figures) + "</tr>" for name, f in rows)
    return ("<h3>closed-form questions (InfiAgent-DABench accuracies)</h3>"
            f'<table class="closed-form"><tr><th></th><th class=num>questions</th>{head}</tr>{body}</table>')


def _web_steps(summary: WebStepsSummary) -> str:
    head = "".join(f"<th class=num>{escape(label)}</th>" for _, label in FIGURE_LABELS)
    rows: list[tuple[str, WebFigures]] = [("all tasks", summary.overall)]
    rows += [(f"{title}: {name}", f) for title, groups in summary.groups.items() for name, f in groups.items()]
    body = "".join(f"<tr><td>{escape(name)}</td><td class=num>{f.tasks}</td><td class=num>{f.steps}</td>"
                   + "".join(f"<td class=num>{f.value(key):.4f}</td>" for key, _ in FIGURE_LABELS) + "</tr>"
                   for name, f in rows)
    return ('<div id="spider2v-mind2web"><h3>Multimodal-Mind2Web (the card\'s figures)</h3>'
            f'<table class="mind2web"><tr><th></th><th class=num>tasks</th><th class=num>valid steps</th>{head}</tr>'
            f"{body}</table></div>")

