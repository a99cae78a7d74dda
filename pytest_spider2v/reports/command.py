"""``spider2v-report``: a run's results read from its records, without running anything. It lives
with the reports, whose summary it prints, and not in ``cli/``: the core never imports an extension.

    spider2v-report show RUN

``show`` prints the run's summary, the tables the terminal shows at the end of a run, from the
task records in the run folder (``results/<run>``). It works for a run that was interrupted or
killed: a task whose record never ended (``running``) or was cut short (``interrupted``) counts as
an error, scored 0 in the headline, as in the run's own summary.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pytest_spider2v.reports.summary import format_summary, summarize
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.records import RESULT_FILE, read_result


def run_summaries(run: Path) -> list[TaskSummary]:
    """Every task record of the run folder ``run``, as the summary counts it."""
    summaries = []
    for path in sorted(run.rglob(RESULT_FILE)):
        result = read_result(path.parent)
        if result is not None:
            summaries.append(TaskSummary.of(result))
    return summaries


def show(run: Path) -> list[str]:
    """The summary's lines for the run folder ``run``; a line saying so when it holds no record."""
    summaries = run_summaries(run)
    if not summaries:
        return [f"no task record ({RESULT_FILE}) in {run}"]
    return [f"run {run}: {len(summaries)} task records", *format_summary(summarize(summaries))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spider2v-report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    shown = commands.add_parser("show", help="a run's summary, from its records")
    shown.add_argument("run", type=Path, help="the run folder (results/<run>)")
    args = parser.parse_args(argv)
    if not args.run.is_dir():
        parser.error(f"no run folder {args.run}")
    lines = show(args.run)
    print("\n".join(lines))
    return 0 if len(lines) > 1 else 1


if __name__ == "__main__":
    sys.exit(main())
