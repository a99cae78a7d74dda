"""The comparison of runs as one self-contained HTML page (``spider2v-report compare --html``),
rendered from ``templates/compare.html``: the warnings first, the runs' rates with their
intervals, each pair's difference and test, a chart of the rates per app with error bars, a chart
and a table of the flips, and the runs' manifests side by side with the rows that differ marked.
The charts are inline SVG (:mod:`.charts`): the page opens anywhere, offline, and can be mailed as
one file."""

from __future__ import annotations

from markupsafe import Markup

from pytest_spider2v.reports.charts import Flip, RateBar, flips_chart, rates_chart
from pytest_spider2v.reports.comparison import Comparison, p_text, signed_text
from pytest_spider2v.reports.manifest import properties
from pytest_spider2v.reports.rendering import render
from pytest_spider2v.reports.summary import interval_text, rate_text


def render_comparison(comparison: Comparison) -> str:
    bars = [RateBar(app, run.name, rate, interval.low if interval else None, interval.high if interval else None)
            for run in comparison.runs for app, (rate, interval) in run.by_app.items()]
    bars += [RateBar("all", run.name, run.rate, run.interval.low if run.interval else None,
                     run.interval.high if run.interval else None) for run in comparison.runs]
    pairs = [(pair, Markup(flips_chart([Flip(f.nodeid, f.app, f.a, f.b) for f in pair.flips], (pair.a, pair.b),
                                       f"tasks that flip between {pair.a} and {pair.b}, per app")))
             for pair in comparison.pairs]
    flat = [dict(properties(m)) for m in comparison.manifests]
    # each field's values in the runs, and whether they differ
    manifests = [(name.removeprefix("spider2v."), values, len(set(values)) > 1)
                 for name in sorted({name for run in flat for name in run}) for values in [[run.get(name, "") for run in flat]]]
    return render("compare.html", comparison=comparison, pairs=pairs, manifests=manifests,
                  rates=Markup(rates_chart(bars, "success rate per app, with 95% intervals")),
                  rate_text=rate_text, interval_text=interval_text, signed_text=signed_text, p_text=p_text)
