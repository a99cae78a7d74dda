"""The comparison of runs as one self-contained HTML page (``spider2v-report compare --html``):
the warnings first, the runs' rates with their intervals, each pair's difference and test, a
chart of the rates per app with error bars, a chart and a table of the flips, and the runs'
manifests side by side with the rows that differ marked. The charts are inline SVG
(:mod:`.charts`): the page opens anywhere, offline, and can be mailed as one file."""

from __future__ import annotations

from html import escape

from pytest_spider2v.reports.charts import Flip, RateBar, flips_chart, rates_chart
from pytest_spider2v.reports.comparison import Comparison, p_text, rate_text, signed_text
from pytest_spider2v.reports.manifest import properties
from pytest_spider2v.reports.summary import interval_text

STYLE = """<style>
body{font-family:sans-serif;font-size:14px;margin:24px;max-width:1100px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
td.num,th.num{text-align:right}.warning{background:#fff3cd;border:1px solid #e0c060;padding:8px 12px}
tr.differs td{background:#fde2e2}section{margin:20px 0}
</style>"""


def render_comparison(comparison: Comparison) -> str:
    names = [run.name for run in comparison.runs]
    parts = ["<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
             f"<title>Spider2-V runs compared: {escape(' vs '.join(names))}</title>{STYLE}</head><body>",
             f"<h1>{escape(' vs '.join(names))}</h1>",
             f"<p>Compared over the <b>{len(comparison.shared)}</b> tasks every run attempted.</p>"]
    if comparison.warnings:
        items = "".join(f"<li>{escape(w)}</li>" for w in comparison.warnings)
        parts.append(f'<div class="warning" id="warnings"><b>The runs differ in what changes scores:</b>'
                     f"<ul>{items}</ul></div>")
    parts.append(_runs_table(comparison))
    parts.append(_pairs(comparison))
    bars = [RateBar(app, run.name, rate, interval.low if interval else None, interval.high if interval else None)
            for run in comparison.runs for app, (rate, interval) in run.by_app.items()]
    bars += [RateBar("all", run.name, run.rate, run.interval.low if run.interval else None,
                     run.interval.high if run.interval else None) for run in comparison.runs]
    parts.append(f'<section id="rates"><h2>Success rate per app, with 95% intervals</h2>'
                 f"{rates_chart(bars, 'success rate per app, with 95% intervals')}</section>")
    parts.append(_manifests(comparison))
    parts.append("</body></html>")
    return "".join(parts)


def _runs_table(comparison: Comparison) -> str:
    rows = "".join(
        f"<tr><td>{escape(run.name)}</td><td>{escape(run.agent)}</td><td class=num>{rate_text(run.rate)}</td>"
        f"<td class=num>{interval_text(run.interval)}</td><td class=num>{run.passed}</td>"
        + "".join(f"<td class=num>{cell}</td>" for cell in run.per_success_cells()) + "</tr>"
        for run in comparison.runs)
    return ('<section id="runs"><h2>Runs</h2><table class="runs"><tr><th>run</th><th>agent</th>'
            "<th class=num>success</th><th class=num>95% interval</th><th class=num>passed</th>"
            "<th class=num>tokens/success</th><th class=num>cost/success</th><th class=num>time/success</th></tr>"
            f"{rows}</table></section>")


def _pairs(comparison: Comparison) -> str:
    parts = []
    for pair in comparison.pairs:
        p = pair.paired
        flips = [Flip(f.nodeid, f.app, f.a, f.b) for f in pair.flips]
        rows = "".join(f"<tr><td>{escape(f.nodeid)}</td><td>{escape(f.app)}</td><td class=num>{f.a:.2f}</td>"
                       f"<td class=num>{f.b:.2f}</td></tr>" for f in pair.flips)
        parts.append(
            f'<section class="pair"><h2>{escape(pair.a)} &minus; {escape(pair.b)}</h2>'
            f"<p>Difference <b>{p.difference:+.1%}</b>, 95% interval {signed_text(p.interval)} (paired t over "
            f"{p.tasks} tasks); {escape(p.test)}: p = {p_text(p.p_value)} ({escape(pair.a)} better on {p.a_better}, "
            f"{escape(pair.b)} on {p.b_better}).</p>"
            f"{flips_chart(flips, (pair.a, pair.b), f'tasks that flip between {pair.a} and {pair.b}, per app')}"
            f"<h3>Tasks that flip: {len(pair.flips)}</h3><table class=flips><tr><th>task</th><th>app</th>"
            f"<th class=num>{escape(pair.a)}</th><th class=num>{escape(pair.b)}</th></tr>{rows}</table></section>")
    return "".join(parts)


def _manifests(comparison: Comparison) -> str:
    flat = [dict(properties(m)) for m in comparison.manifests]
    names = sorted({name for run in flat for name in run})
    head = "".join(f"<th>{escape(run.name)}</th>" for run in comparison.runs)
    rows = []
    for name in names:
        values = [run.get(name, "") for run in flat]
        marked = ' class="differs"' if len(set(values)) > 1 else ""
        rows.append(f"<tr{marked}><td>{escape(name.removeprefix('spider2v.'))}</td>"
                    + "".join(f"<td>{escape(v)}</td>" for v in values) + "</tr>")
    return (f'<section id="spider2v-manifest"><h2>Manifests</h2><p>Rows that differ are marked.</p>'
            f'<table class="manifest"><tr><th></th>{head}</tr>{"".join(rows)}</table></section>')

