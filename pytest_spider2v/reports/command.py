"""``spider2v-report``: runs' results read from their folders, without running anything. It lives
with the reports, whose figures it prints, and not in ``cli/``: the core never imports an extension.

    spider2v-report show RUN
    spider2v-report compare RUN_A RUN_B [RUN ...] [--markdown FILE] [--html FILE] [--json FILE]
    spider2v-report merge SHARD SHARD [SHARD ...] --into RUN
    spider2v-report table RUN [--format md|csv|json]

``show`` prints the run's manifest and summary, the tables the terminal shows at the end of a run,
from the task records in the run folder (``results/<run>``); also for a run that was
interrupted or killed: a task whose record never ended counts as an error, scored 0.
``compare`` compares runs over the tasks they share (docs/reading-results.md), warning, by
field, where their manifests differ in what changes scores. ``merge`` combines shards of one run
(refusing shards that are not). ``table`` prints the paper's table layout.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pytest_spider2v.reports.compare_page import render_comparison
from pytest_spider2v.reports.comparison import compare, comparison_markdown, format_comparison
from pytest_spider2v.reports.manifest import properties
from pytest_spider2v.reports.merging import MergeRefused, merge
from pytest_spider2v.reports.runs import NotARun, RecordedRun
from pytest_spider2v.reports.summary import format_summary
from pytest_spider2v.reports.tables import FORMATS, render_table


def show(run: Path) -> list[str]:
    """The manifest's and the summary's lines for the run folder ``run``."""
    recorded = RecordedRun.read(run)
    lines = [f"run {run}: {len(recorded.tasks)} task records"]
    if recorded.manifest:
        lines += ["manifest:", *(f"  {name.removeprefix('spider2v.')}: {value}"
                                 for name, value in properties(recorded.manifest))]
        if "finished" not in recorded.manifest:
            lines.append("  (the run did not finish: its unfinished tasks count as errors)")
    return lines + ["", *format_summary(recorded.summary)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spider2v-report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    shown = commands.add_parser("show", help="a run's manifest and summary, from its records")
    shown.add_argument("run", type=Path, help="the run folder (results/<run>)")
    compared = commands.add_parser("compare", help="runs compared over the tasks they share")
    compared.add_argument("runs", type=Path, nargs="+", metavar="RUN", help="two or more run folders; the first is "
                                                                             "the one the others are compared with")
    compared.add_argument("--markdown", type=Path, metavar="FILE", help="also write the comparison as Markdown")
    compared.add_argument("--html", type=Path, metavar="FILE", help="also write a self-contained HTML page")
    compared.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    merged = commands.add_parser("merge", help="shards of one run combined into one run folder")
    merged.add_argument("shards", type=Path, nargs="+", metavar="SHARD", help="the shards' run folders")
    merged.add_argument("--into", type=Path, required=True, metavar="RUN", help="the new run folder")
    tabled = commands.add_parser("table", help="the paper's table layout of a run")
    tabled.add_argument("run", type=Path)
    tabled.add_argument("--format", choices=FORMATS, default="md")
    args = parser.parse_args(argv)
    for folder in [getattr(args, "run", None), *getattr(args, "runs", []), *getattr(args, "shards", [])]:
        if folder is not None and not folder.is_dir():
            parser.error(f"no run folder {folder}")
    try:
        return _run(args, parser)
    except (NotARun, MergeRefused) as exc:
        print(f"spider2v-report {args.command}: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.command == "show":
        print("\n".join(show(args.run)))
    elif args.command == "table":
        sys.stdout.write(render_table(RecordedRun.read(args.run).summary, args.format))
    elif args.command == "merge":
        merged = merge([RecordedRun.read(shard) for shard in args.shards], args.into)
        print(f"merged {len(args.shards)} shards into {args.into}: {len(merged.tasks)} task records")
    else:
        if len(args.runs) < 2:
            parser.error("compare needs at least two run folders")
        comparison = compare([RecordedRun.read(run) for run in args.runs])
        print("\n".join(format_comparison(comparison)))
        if args.markdown:
            args.markdown.write_text(comparison_markdown(comparison), encoding="utf-8")
        if args.html:
            args.html.write_text(render_comparison(comparison), encoding="utf-8")
        if args.json:
            args.json.write_text(json.dumps(comparison.to_json(), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
