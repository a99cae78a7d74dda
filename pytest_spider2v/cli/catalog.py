"""The task catalogue: a Markdown table of every task, generated from the task files.

    spider2v-catalog [TASKS_DIR] [--write docs/tasks/suite.md | --check docs/tasks/suite.md]

Without an option the table is printed. ``--write`` replaces the table between the
``<!-- tasks:begin -->`` and ``<!-- tasks:end -->`` markers of a file; ``--check`` exits 1 when
that table is out of date (the test suite runs it on ``docs/tasks/suite.md``, so the
documentation never drifts from the tasks).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

from pytest_spider2v.registry import load_extensions
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.tasks.model import PROJECT_FILE, Task

BEGIN, END = "<!-- tasks:begin -->", "<!-- tasks:end -->"


def project_tasks(tasks_dir: Path) -> list[Task]:
    """The abstract variant of every project task under ``tasks_dir``, in path order."""
    load_extensions()  # step and getter names must be known to load tasks
    return [load_tasks(path)[0] for path in sorted(tasks_dir.glob(f"*/*/{PROJECT_FILE}"))]


def table(tasks: list[Task], root: Path) -> str:
    """The catalogue, each task named by its folder from ``root`` (``tasks/calc/sort-exam-results``)
    as text, not a link: the documentation site holds only its pages, so a link to a task folder
    would be a broken one."""
    rows = ["| task | apps | category | difficulty (steps) | interface |", "|---|---|---|---|---|"]
    for task in tasks:
        folder = Path(os.path.relpath(task.folder, root)).as_posix()
        task_apps = ", ".join(task.spec.related_apps)
        rows.append(f"| `{folder}` | {task_apps} | {task.category} | "
                    f"{task.difficulty} ({task.spec.action_number}) | {task.interface} |")
    apps = Counter(app for task in tasks for app in task.spec.related_apps)
    levels = Counter(task.difficulty for task in tasks)
    categories = Counter(task.category for task in tasks)
    interfaces = Counter(task.interface for task in tasks)
    multi = sum(1 for task in tasks if len(set(task.spec.related_apps) - {"terminal"}) > 1)
    totals = (f"{len(tasks)} tasks (each in an abstract and a verbose variant); "
              f"apps: {', '.join(f'{a} {n}' for a, n in sorted(apps.items()))}; "
              f"categories: {', '.join(f'{c} {n}' for c, n in sorted(categories.items()))}; "
              f"difficulty: {', '.join(f'{d} {levels[d]}' for d in ('easy', 'medium', 'hard'))}; "
              f"interface: {', '.join(f'{i} {n}' for i, n in sorted(interfaces.items()))}; "
              f"{multi} use two or more applications (besides the terminal).")
    return "\n".join([totals, "", *rows])


def splice(document: str, generated: str, begin: str = BEGIN, end: str = END) -> str:
    """``document`` with what lies between the ``begin`` and ``end`` markers replaced by
    ``generated`` (the documentation's tables that are generated from files: tasks, coverage,
    figures)."""
    try:
        head, rest = document.split(begin, 1)
        _old, tail = rest.split(end, 1)
    except ValueError:
        raise SystemExit(f"the markers {begin} and {end} must both be in the file") from None
    return f"{head}{begin}\n{generated}\n{end}{tail}"


def write_or_check(target: Path, generated: str, *, check: bool, what: str, command: str,
                   begin: str = BEGIN, end: str = END) -> bool:
    """Put ``generated`` between ``target``'s markers; with ``check``, only say whether it is there
    already (else print that ``what`` is out of date and the ``command`` that writes it). True when
    the file is current (or was written)."""
    current = target.read_text(encoding="utf-8")
    updated = splice(current, generated, begin, end)
    if not check:
        target.write_text(updated, encoding="utf-8")
        return True
    if updated != current:
        print(f"{target}: {what} is out of date; run `{command}`", file=sys.stderr)
    return updated == current


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tasks_dir", nargs="?", type=Path, default=Path("tasks"))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", type=Path, metavar="FILE", help="update the table in FILE")
    mode.add_argument("--check", type=Path, metavar="FILE", help="fail when the table in FILE is out of date")
    args = parser.parse_args(argv)
    target = args.write or args.check
    tasks_dir = args.tasks_dir.resolve()
    generated = table(project_tasks(tasks_dir), tasks_dir.parent)
    if target is None:
        print(generated)
        return 0
    current = write_or_check(target, generated, check=bool(args.check), what="the task table",
                             command=f"spider2v-catalog --write {target}")
    return 0 if current else 1


if __name__ == "__main__":
    raise SystemExit(main())
