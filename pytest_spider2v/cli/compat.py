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

Registrations come from the built-in steps and metrics and from installed pytest plugins
(the ``pytest11`` entry points), as in a pytest run; ``conftest.py`` files are not read.
Exit status: 0; 1 when a task file failed to load or names something unknown, or when a
verified task did not set up.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pytest_spider2v.registry import getters, metrics, setup_steps
from pytest_spider2v.validate.compatibility import (
    IDS_SHOWN,
    VERIFY_RUN,
    Report,
    build_report,
    load_registrations,
    verify,
)

# -- the text report ------------------------------------------------------------------------------


def render(report: Report) -> str:
    lines = [f"Spider2-V compatibility of {report.root}"]
    if report.settings_dir is None:
        lines.append("(no --settings-dir: tasks that need a cloud account are counted as not runnable)")
    width = max([len("total"), *(len(name) for name in report.apps)])
    verified = report.verified
    header = f"{'app':<{width}}  files  collected  runnable  not runnable  collection errors"
    lines += ["", header + ("  set up (verified)" if verified else "")]
    for name, app in sorted(report.apps.items()):
        row = (f"{name:<{width}}  {app.files:>5}  {app.collected:>9}  {app.runnable:>8}"
               f"  {app.collected - app.runnable:>12}  {app.collection_errors:>17}")
        lines.append(row + (f"  {app.verified.set_up:>18}" if app.verified is not None else ""))
    total = (f"{'total':<{width}}  {report.files:>5}  {report.collected:>9}  {report.runnable:>8}  "
             f"{report.collected - report.runnable:>12}  {len(report.collection_errors):>17}")
    if verified:
        total += f"  {sum(a.verified.set_up for a in report.apps.values() if a.verified):>18}"
    lines.append(total)
    for name, app in sorted(report.apps.items()):
        if not app.reasons:
            continue
        lines += ["", f"{name}: why {app.collected - app.runnable} of {app.collected} tasks cannot run here"]
        for reason, ids in sorted(app.reasons.items(), key=lambda item: (-len(item[1]), item[0])):
            lines.append(f"  {len(ids):>4} x {reason}  [{_ids(ids)}]")
    if verified:
        lines += _render_verification(report)
    if report.collection_errors:
        lines += ["", f"collection errors: {len(report.collection_errors)}"]
        lines += [f"  {error['error']}" for error in report.collection_errors]
    counts = report.unknown_counts()
    lines += ["", f"task files: {report.files}; tasks collected: {report.collected}; runnable here: {report.runnable}; "
                  f"not runnable: {report.collected - report.runnable}; collection errors: {len(report.collection_errors)}",
              f"unknown step types/getters/metrics: {len(report.unknown)} (step types {counts[setup_steps.kind]}, "
              f"getters {counts[getters.kind]}, metrics {counts[metrics.kind]})"]
    lines += [f"  unknown {u['kind']} '{u['name']}' in {u['file']}" for u in report.unknown]
    return "\n".join(lines)


def _ids(ids: list[str]) -> str:
    shown = ", ".join(i.split("/", 1)[-1][:8] for i in ids[:IDS_SHOWN])
    return shown + (f", +{len(ids) - IDS_SHOWN} more" if len(ids) > IDS_SHOWN else "")


def _render_verification(report: Report) -> list[str]:
    set_up = sum(a.verified.set_up for a in report.apps.values() if a.verified)
    lines = ["", f"verified with the do-nothing agent: {set_up} of {report.runnable} runnable tasks set up without error"]
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
                        help="account settings folder, as for pytest --settings-dir")
    parser.add_argument("--verify", action="store_true",
                        help="run the do-nothing agent over the runnable tasks (pytest, in containers) "
                             "and report how many set up without error")
    parser.add_argument("--results-dir", type=Path, default=Path("results"), metavar="DIR",
                        help=f"where --verify's run records go (DIR/{VERIFY_RUN}; default: results)")
    parser.add_argument("--workers", type=int, default=2, metavar="N",
                        help="pytest-xdist workers for --verify (default: 2)")
    args = parser.parse_args(argv)
    if not args.path.exists():
        parser.error(f"{args.path} does not exist")
    load_registrations()
    report = build_report(args.path, args.settings_dir)
    failed = False
    if args.verify:
        verify(report, args.results_dir, args.settings_dir, args.workers)
        failed = any(a.verified and (a.verified.setup_errors or a.verified.skipped or a.verified.not_run)
                     for a in report.apps.values())
    print(render(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report.as_json(), indent=2) + "\n", encoding="utf-8")
    return 1 if report.collection_errors or report.unknown or failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
