"""Charts for the HTML reports (a run's report, a comparison of runs), as inline SVG strings drawn by matplotlib.

Inline SVG because the pages are self-contained: a chart must open anywhere, offline, without fetching a charting
library or a font. Texts stay text (``svg.fonttype = "none"``): a page's search finds an app's name and a rate, a
screen reader reads them, and they stay sharp at any zoom, at a fraction of the size of glyphs drawn as paths.

matplotlib is imported inside the functions, never at the top: the plugin imports the reports at start-up, and
loading matplotlib there would slow every pytest run, even one that writes no report. Each chart draws on a
:class:`matplotlib.figure.Figure` of its own, never through pyplot, whose global figure registry is not safe to
share between threads (a report may be written while other tasks run).
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The root <svg>'s class: the pages style the charts by it, and the charts' own stylesheet is scoped to it.
CSS_CLASS = "spider2v-chart"
#: Okabe and Ito's palette, without its yellow (too pale on white): told apart with any colour vision. A run keeps
#: its colour across charts because series are coloured by their order of appearance.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000")
#: The figure's width, in inches: about a report's column at 72 points to the inch.
WIDTH = 7.5
#: The tallest figure, in inches: past this, rows get thinner rather than the page endless.
MAX_HEIGHT = 20.0
_MUTED = "#666666"
_ERROR_BAR = "#222222"

#: matplotlib reads ``svg.fonttype`` from its global rcParams while it writes; the rcParams are changed for a chart
#: under this lock so that two threads drawing charts at once neither see nor undo each other's setting.
_RC_LOCK = threading.Lock()


@dataclass(frozen=True)
class RateBar:
    """One bar of :func:`rates_chart`: a series' (a run's) success rate within a group (an app, or "all")."""

    group: str
    series: str
    #: The success rate in [0, 1]; None leaves a gap marked "n/a": nothing was attempted, which is not 0 %.
    rate: float | None
    #: The rate's 95 % interval; no error bar unless both bounds are known.
    low: float | None
    high: float | None


@dataclass(frozen=True)
class Flip:
    """A task of two compared runs, with its (mean) score in each: :func:`flips_chart` counts those that differ."""

    task: str
    group: str
    a: float
    b: float


def rates_chart(bars: Sequence[RateBar], title: str) -> str:
    """Success rates as grouped horizontal bars: a row group per ``group``, a bar per ``series``, on 0 to 100 %.

    Each bar carries its 95 % interval as an asymmetric error bar (so that 80 % over five tasks is not read as
    80 % over five hundred) and its percentage written beside it, so the figure need not be read off the axis.
    Groups and series keep their order of first appearance, the first group on top. A legend names the series
    when there are several. The height grows with the rows, up to :data:`MAX_HEIGHT`.

    Each bar is the SVG group ``id="bar-<group>-<series>"`` and its error bar's lines ``id="errorbar-<group>-<series>"``
    (names reduced to letters, digits and ``-_.``), which lets a page or a test find them.
    """
    groups = _unique(bar.group for bar in bars)
    series = _unique(bar.series for bar in bars)
    if not groups:
        return _message_chart(title, "no success rates to chart")
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import PercentFormatter

    legend = len(series) > 1
    row = 0.22 * len(series) + 0.2
    height = min(MAX_HEIGHT, 1.1 + (0.3 if legend else 0.0) + row * len(groups))
    figure = Figure(figsize=(WIDTH, height), layout="constrained")
    axes = figure.add_subplot()
    slot = 0.8 / len(series)
    for bar in bars:
        index = series.index(bar.series)
        y = groups.index(bar.group) - 0.4 + (index + 0.5) * slot
        if bar.rate is None:
            axes.annotate("n/a", (0, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8,
                          color=_MUTED, fontstyle="italic")
            continue
        percent = 100 * bar.rate
        for patch in axes.barh(y, percent, height=0.85 * slot, color=COLOURS[index % len(COLOURS)]):
            patch.set_gid(f"bar-{_slug(bar.group)}-{_slug(bar.series)}")
        end = percent
        if bar.low is not None and bar.high is not None:
            low, high = 100 * bar.low, 100 * bar.high
            errors = axes.errorbar(percent, y, xerr=[[max(0.0, percent - low)], [max(0.0, high - percent)]],
                                   fmt="none", ecolor=_ERROR_BAR, elinewidth=1, capsize=min(3.0, 40 * slot))
            for lines in errors.lines[2]:
                lines.set_gid(f"errorbar-{_slug(bar.group)}-{_slug(bar.series)}")
            end = max(end, high)
        axes.annotate(f"{percent:.1f}%", (end, y), xytext=(4, 0), textcoords="offset points", va="center",
                      fontsize=8)
    axes.set_xlim(0, 100)
    axes.xaxis.set_major_formatter(PercentFormatter(100))
    axes.set_yticks(range(len(groups)), labels=groups)
    axes.set_ylim(len(groups) - 0.5, -0.5)
    _tidy(figure, axes, title)
    if legend:
        figure.legend(handles=[Patch(color=COLOURS[i % len(COLOURS)], label=name) for i, name in enumerate(series)],
                      loc="outside lower center", ncols=min(len(series), 5), frameon=False, fontsize=9)
    return _svg(figure, title)


def flips_chart(flips: Sequence[Flip], names: tuple[str, str], title: str) -> str:
    """How many tasks flipped each way between runs A and B (``names``), per group, as diverging horizontal bars.

    A task counts for A ("<A> only", a bar to the right) when it scored higher in A, and for B ("<B> only", to the
    left) when it scored higher in B: with scores of 0 and 1, the tasks that pass in one run only. Equal scores
    count for neither, so a caller may pass every task the runs share. Why both directions rather than the net
    difference: two runs with the same rate can still disagree on many tasks, and that churn is what this shows.
    Groups keep their order of first appearance, the first on top; with no task flipped, the chart says so.
    """
    counts: dict[str, list[int]] = {}
    for flip in flips:
        if flip.a != flip.b:
            counts.setdefault(flip.group, [0, 0])[0 if flip.a > flip.b else 1] += 1
    if not counts:
        return _message_chart(title, "no task flips")
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    groups = list(counts)
    height = min(MAX_HEIGHT, 1.4 + 0.4 * len(groups))
    figure = Figure(figsize=(WIDTH, height), layout="constrained")
    axes = figure.add_subplot()
    a_colour, b_colour = COLOURS[0], COLOURS[1]
    for y, group in enumerate(groups):
        a_only, b_only = counts[group]
        for count, sign, colour in ((a_only, 1, a_colour), (b_only, -1, b_colour)):
            if count:
                axes.barh(y, sign * count, height=0.6, color=colour)
                axes.annotate(str(count), (sign * count, y), xytext=(sign * 4, 0), textcoords="offset points",
                              va="center", ha="left" if sign > 0 else "right", fontsize=8)
    widest = max(max(pair) for pair in counts.values())
    axes.set_xlim(-1.15 * widest, 1.15 * widest)
    axes.axvline(0, color=_MUTED, linewidth=0.8)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True, symmetric=True))
    axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{abs(value):g}"))
    axes.set_xlabel("tasks", fontsize=9)
    axes.set_yticks(range(len(groups)), labels=groups)
    axes.set_ylim(len(groups) - 0.5, -0.5)
    _tidy(figure, axes, title)
    # B's entry first: the legend, under the axis, reads left to right as the bars do.
    figure.legend(handles=[Patch(color=b_colour, label=f"{names[1]} only"), Patch(color=a_colour,
                                                                                  label=f"{names[0]} only")],
                  loc="outside lower center", ncols=2, frameon=False, fontsize=9)
    return _svg(figure, title)


def _tidy(figure: Figure, axes: Axes, title: str) -> None:
    """The look both charts share: the title on top, a light grid behind the bars, no box around them."""
    _title(figure, title)
    axes.grid(axis="x", color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    axes.spines[["top", "right"]].set_visible(False)
    axes.tick_params(labelsize=9)


def _message_chart(title: str, message: str) -> str:
    """A chart with nothing to draw still takes its place on the page and says why it is empty."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH, 1.2), layout="constrained")
    axes = figure.add_subplot()
    axes.set_axis_off()
    _title(figure, title)
    axes.text(0.5, 0.5, message, ha="center", va="center", fontsize=10, color=_MUTED, fontstyle="italic",
              transform=axes.transAxes)
    return _svg(figure, title)


def _title(figure: Figure, title: str) -> None:
    """The title as the figure's, not the axes': at the top left whatever the width of the groups' labels."""
    figure.suptitle(title, x=0.01, ha="left", fontsize=11, fontweight="bold")


def _svg(figure: Figure, title: str) -> str:
    """The figure as an ``<svg>`` element to inline in HTML: no XML prolog or DOCTYPE, labelled for screen readers.

    The metadata matplotlib writes by default (creator, date, Dublin Core namespaces) is left out: it is addresses
    and a timestamp, of no use in a page. Its stylesheet, ``*{stroke-linejoin: round; ...}``, would apply to the
    whole page once inlined, so it is scoped to the charts.
    """
    import matplotlib

    buffer = io.StringIO()
    with _RC_LOCK, matplotlib.rc_context({"svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    text = buffer.getvalue()
    text = text[text.index("<svg"):].rstrip()
    text = text.replace('<style type="text/css">*{', f'<style type="text/css">.{CSS_CLASS} *{{', 1)
    root = text.index(">") + 1
    label = escape(title, quote=True)
    return (f'<svg class="{CSS_CLASS}" role="img" aria-label="{label}"{text[len("<svg"):root]}'
            f"<title>{escape(title, quote=False)}</title>{text[root:]}")


def _unique(names: Iterable[str]) -> list[str]:
    """The names once each, in their order of first appearance: the caller's order is the chart's."""
    return list(dict.fromkeys(names))


def _slug(name: str) -> str:
    """A name as it can stand in an SVG id: letters, digits and ``-_.``, anything else a ``-``."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name)
