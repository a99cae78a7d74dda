"""A run's results in the paper's table layout (``spider2v-report table``): the success rate
overall, per app, per category and per difficulty, each with its 95 % interval, with and without
the tasks on the errata list; with ``--repeat``, pass@k and pass^k beside. As Markdown (a paper,
a pull request), CSV (a spreadsheet) or JSON (a leaderboard's upload).

Only figures that are the same for the same outcomes are in it (no time, tokens or cost): two
runs that scored alike give the same table, which is how a merged run is checked against the
run it was split from.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass

from pytest_spider2v.reports.statistics import Interval
from pytest_spider2v.reports.summary import GroupFigures, RunSummary, interval_text, rate_text

#: the table's sections, in the paper's order (Spider2-V Table 3: by app, then category and difficulty)
SECTIONS = ("app", "category", "difficulty")
FORMATS = ("md", "csv", "json")


@dataclass(frozen=True)
class TableRow:
    section: str  #: "all", or one of :data:`SECTIONS`
    group: str
    tasks: int  #: attempted (each once, however many repeats)
    success_rate: float | None
    interval_low: float | None
    interval_high: float | None
    success_rate_without_errata: float | None
    errata: int  #: runs on the errata list
    pass_at_k: float | None = None
    pass_hat_k: float | None = None


def table_rows(summary: RunSummary) -> list[TableRow]:
    rows = [_row("all", "all", summary.overall)]
    for section in SECTIONS:
        rows += [_row(section, name, figures) for name, figures in summary.groups[section].items()]
    return rows


def _row(section: str, group: str, f: GroupFigures) -> TableRow:
    return TableRow(section, group, f.tasks_attempted, f.success_rate, f.interval.low if f.interval else None,
                    f.interval.high if f.interval else None, f.success_rate_without_errata, f.flagged,
                    f.pass_at_k, f.pass_hat_k)


def render_table(summary: RunSummary, fmt: str) -> str:
    """The table in ``fmt`` (one of :data:`FORMATS`)."""
    rows = table_rows(summary)
    repeats = summary.overall.repeats
    if fmt == "json":
        return json.dumps({"repeats": repeats, "rows": [asdict(row) for row in rows]}, indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(asdict(rows[0])), lineterminator="\n")
        writer.writeheader()
        writer.writerows(asdict(row) for row in rows)
        return out.getvalue()
    if fmt != "md":
        raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
    extra = [f"pass@{repeats}", f"pass^{repeats}"] if repeats > 1 else []
    head = ["", "tasks", "success", "95% interval", "w/o errata", "on errata", *extra]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for row in rows:
        label = "**all**" if row.section == "all" else f"{row.section}: {row.group}"
        interval = interval_text(None if row.interval_low is None or row.interval_high is None
                                 else Interval(row.interval_low, row.interval_high))
        cells = [label, str(row.tasks), rate_text(row.success_rate), interval, rate_text(row.success_rate_without_errata),
                 str(row.errata), *([rate_text(row.pass_at_k), rate_text(row.pass_hat_k)] if extra else [])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"

