"""``spider2v-compat``: which tasks of a Spider2-V tree can run here, why the others cannot, and
(with ``--verify``) how many of the runnable ones really set up.

Reads every task file under a folder (a Spider2-V root, its ``evaluation_examples/examples``,
one app folder, or a project ``tasks/`` tree) the way collection does, and reports per
application: task files, tasks collected, tasks runnable here by the static decision a run
makes before any container starts (:func:`pytest_spider2v.tasks.availability.unavailable_reasons`: accounts,
steps/getters/metrics declared but unavailable, and what the task's files need that its image
family does not provide, :mod:`pytest_spider2v.tasks.needs.analysis`), and the reasons for the rest, grouped
with counts. Names no registry knows at all are counted separately: they are what a new task
set would need implemented, and the report says explicitly when there are none.

``--verify`` then measures instead of inferring: it runs pytest over the runnable tasks with the
do-nothing agent (a subprocess, records in a results folder), reads each task's record, and
reports per app how many set up without error, listing each setup error (task, step, message).

``--write FILE`` puts the coverage table (:func:`coverage_table`) between the
``<!-- coverage:begin -->`` and ``<!-- coverage:end -->`` markers of a file; ``--check FILE`` exits 1
when that table is out of date (the test suite runs it on the shared sample against ``docs/tasks/spider2v.md``, so the
documentation's coverage figures are the command's output, never a copy that drifts).

Registrations come from the built-in steps and metrics and from installed pytest plugins
(the ``pytest11`` entry points), as in a pytest run; ``conftest.py`` files are not read.
Exit status: 0; 1 when a task file failed to load or names something unknown, or when a
verified task did not set up.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pytest_spider2v.cli.catalog import write_or_check
from pytest_spider2v.registry import getters, metrics, setup_steps
from pytest_spider2v.tasks.availability import Accounts
from pytest_spider2v.validate.compatibility import (
    IDS_SHOWN,
    VERIFY_RUN,
    AppReport,
    Report,
    build_report,
    load_registrations,
    verify,
)

# -- the text report ------------------------------------------------------------------------------


#: The table's columns: heading, and the report's figure (per app, and in all).
TABLE: tuple[tuple[str, str], ...] = (
    ("files", "files"), ("collected", "collected"), ("here", "here"), ("with emulator", "with_emulator"),
    ("with accounts", "with_accounts"), ("not runnable", "not_runnable"), ("collection errors", "collection_errors"))


def render(report: Report) -> str:
    lines = [f"Spider2-V compatibility of {report.root}",
             "(here: needs no account; with emulator: an account task that runs against an emulator, "
             "--cloud emulate;",
             " with accounts: an account task implemented for the user's own accounts, not verifiable here)"]
    if report.settings_dir is not None:
        lines.append(f"(account settings from {report.settings_dir})")
    width = max([len("total"), *(len(name) for name in report.apps)])
    verified = report.verified
    header = f"{'app':<{width}}  " + "  ".join(heading for heading, _ in TABLE)
    lines += ["", header + ("  set up (verified)" if verified else "")]
    rows = [(name, _figures(app)) for name, app in sorted(report.apps.items())]
    totals = {key: sum(figures[key] for _, figures in rows) for _, key in TABLE}
    totals["collection_errors"] = len(report.collection_errors)
    for name, figures in [*rows, ("total", totals)]:
        row = f"{name:<{width}}  " + "  ".join(f"{figures[key]:>{len(heading)}}" for heading, key in TABLE)
        if verified:
            apps = report.apps.values() if name == "total" else [report.apps[name]]
            row += f"  {sum(app.verified.set_up for app in apps if app.verified):>18}"
        lines.append(row)
    for name, app in sorted(report.apps.items()):
        if app.reasons:
            not_runnable = _figures(app)["not_runnable"]
            lines += ["", f"{name}: why {not_runnable} of {app.collected} tasks cannot run here"]
            lines += [f"  {len(ids):>4} x {reason}  [{_ids(ids)}]" for reason, ids in _by_count(app.reasons)]
        if app.emulator_reasons:
            off = len({i for ids in app.emulator_reasons.values() for i in ids})
            lines += ["", f"{name}: why {off} account tasks cannot run on an emulator"]
            lines += [f"  {len(ids):>4} x {reason}  [{_ids(ids)}]" for reason, ids in _by_count(app.emulator_reasons)]
    if verified:
        lines += _render_verification(report)
    if report.collection_errors:
        lines += ["", f"collection errors: {len(report.collection_errors)}"]
        lines += [f"  {error['error']}" for error in report.collection_errors]
    counts = report.unknown_counts()
    lines += ["", f"task files: {report.files}; tasks collected: {report.collected}; here: {totals['here']}; "
                  f"with an emulator: {totals['with_emulator']}; with accounts: {totals['with_accounts']}; "
                  f"not runnable: {totals['not_runnable']}; collection errors: {len(report.collection_errors)}",
              f"unknown step types/getters/metrics: {len(report.unknown)} (step types {counts[setup_steps.kind]}, "
              f"getters {counts[getters.kind]}, metrics {counts[metrics.kind]})"]
    lines += [f"  unknown {u['kind']} '{u['name']}' in {u['file']}" for u in report.unknown]
    return "\n".join(lines)


COVERAGE_BEGIN, COVERAGE_END = "<!-- coverage:begin -->", "<!-- coverage:end -->"


def coverage_table(report: Report) -> str:
    """The coverage table of ``docs/tasks/spider2v.md``: per app the four columns and, for the tasks that cannot run,
    each reason with its count (their places are in ``--json``)."""
    rows = ["| app | tasks | here | with emulator | with accounts | not runnable | why not runnable |",
            "|---|---:|---:|---:|---:|---:|---|"]
    totals = dict.fromkeys(("collected", "here", "with_emulator", "with_accounts", "not_runnable"), 0)
    for name, app in sorted(report.apps.items()):
        figures = _figures(app)
        totals = {key: totals[key] + figures[key] for key in totals}
        why = "; ".join(f"{len(ids)} x {reason}" for reason, ids in _by_count(app.reasons)).replace("|", "\\|")
        rows.append(f"| {name} | {figures['collected']} | {figures['here']} | {figures['with_emulator']} | "
                    f"{figures['with_accounts']} | {figures['not_runnable']} | {why} |")
    rows.append(f"| **total** | {totals['collected']} | {totals['here']} | {totals['with_emulator']} | "
                f"{totals['with_accounts']} | {totals['not_runnable']} | |")
    errors = f"; {len(report.collection_errors)} task files failed to load" if report.collection_errors else ""
    return "\n".join([f"{report.files} task files, {report.collected} tasks{errors}.", "", *rows])


def _figures(app: AppReport) -> dict[str, int]:
    not_runnable = app.collected - app.here - app.with_emulator - app.with_accounts
    return {"files": app.files, "collected": app.collected, "here": app.here, "with_emulator": app.with_emulator,
            "with_accounts": app.with_accounts, "not_runnable": not_runnable, "collection_errors": app.collection_errors}


def _by_count(reasons: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    return sorted(reasons.items(), key=lambda item: (-len(item[1]), item[0]))


def _ids(ids: list[str]) -> str:
    shown = ", ".join(i.split("/", 1)[-1][:8] for i in ids[:IDS_SHOWN])
    return shown + (f", +{len(ids) - IDS_SHOWN} more" if len(ids) > IDS_SHOWN else "")


def _render_verification(report: Report) -> list[str]:
    set_up = sum(a.verified.set_up for a in report.apps.values() if a.verified)
    mode = " against emulators" if report.emulate else ""
    lines = ["", f"verified with the do-nothing agent{mode}: {set_up} of {report.runnable} runnable tasks set up without error"]
    if report.verify_command:
        lines.append(f"  ({' '.join(report.verify_command)})")
    for name, app in sorted(report.apps.items()):
        v = app.verified
        if v is None or not (v.setup_errors or v.skipped or v.not_run):
            continue
        lines += ["", f"{name}: {v.set_up} of {app.runnable} runnable tasks set up"]
        lines += [f"  setup error  {e['task']}  {e['step']}: {_first_line(e['message'])}" for e in v.setup_errors]
        lines += [f"  skipped      {s['task']}: {_first_line(s['reason'])}" for s in v.skipped]
        lines += [f"  no record    {task}" for task in v.not_run]
    return lines


def _first_line(text: str, limit: int = 300) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[:limit - 3] + "..."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spider2v-compat",
        description="Report which Spider2-V tasks can run in this project's environments, and why not.",
    )
    parser.add_argument("path", type=Path, help="a Spider2-V root, its evaluation_examples/examples, or an app folder")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the report as JSON here")
    parser.add_argument("--settings-dir", type=Path, metavar="DIR",
                        help="account settings folder, as for pytest --settings-dir: account tasks whose settings "
                             "files it holds are runnable, and --verify runs them")
    parser.add_argument("--cloud", choices=("accounts", "emulate"), default="accounts",
                        help="which account tasks --verify runs: with --settings-dir's accounts (default), or "
                             "against the emulators (as pytest --cloud emulate)")
    parser.add_argument("--verify", action="store_true",
                        help="run the do-nothing agent over the runnable tasks (pytest, in containers) "
                             "and report how many set up without error")
    parser.add_argument("--results-dir", type=Path, default=Path("results"), metavar="DIR",
                        help=f"where --verify's run records go (DIR/{VERIFY_RUN}; default: results)")
    parser.add_argument("--workers", type=int, default=2, metavar="N",
                        help="pytest-xdist workers for --verify (default: 2)")
    table = parser.add_mutually_exclusive_group()
    table.add_argument("--write", type=Path, metavar="FILE",
                       help=f"put the coverage table between FILE's {COVERAGE_BEGIN} and {COVERAGE_END} markers")
    table.add_argument("--check", type=Path, metavar="FILE", help="exit 1 when FILE's coverage table is out of date")
    args = parser.parse_args(argv)
    if not args.path.exists():
        parser.error(f"{args.path} does not exist")
    load_registrations()
    accounts = Accounts(args.settings_dir, emulate=args.cloud == "emulate")
    report = build_report(args.path, accounts)
    failed = False
    if args.verify:
        verify(report, args.results_dir, accounts, args.workers)
        failed = any(a.verified and (a.verified.setup_errors or a.verified.skipped or a.verified.not_run)
                     for a in report.apps.values())
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report.as_json(), indent=2) + "\n", encoding="utf-8")
    if args.write or args.check:
        target = args.write or args.check
        current = write_or_check(target, coverage_table(report), check=bool(args.check), what="the coverage table",
                                 command=f"spider2v-compat {report.root} --write {target}",
                                 begin=COVERAGE_BEGIN, end=COVERAGE_END)
        return 1 if report.collection_errors or report.unknown or not current else 0
    print(render(report))
    return 1 if report.collection_errors or report.unknown or failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
