"""The per-app figures a ``--validate`` run ends with: how many task files, how many collected,
how many runnable here (the static decision, as ``spider2v-compat`` reports it), how many the
run checked, how many set up and how many its reference solutions solved.

"Set up" is measured, not inferred: a task counts when one of its checks got through its setup
to the evaluator's score, or to both resets' trees. "Solved" means its reference check passed
with a score of 1; "errata", that it passed by showing the task's erratum (the reference,
following the instruction, scored below 1); "gui route", that the solution which scored 1 is a
GUI route (it worked through the screen alone).
The files, collected and runnable columns read the task files of the paths pytest was given;
the other three come from the check reports (under xdist the controller reads them from the
reports its workers send), so ``-k`` or ``--validate-changed`` shrink only "checked".

A second table gives the near-miss checks per app: the variants tried and what became of each
(caught: scored below 1; crashed: the metric raised; lax: still scored 1), and the tasks with
something not covered (a check that tried nothing among them). A third gives the same per metric
and per part of a metric's check (a ``compare_table`` rule type and property, such as
``pivot_table.filter``): tried, caught, crashed, lax, and how many times that part was not
covered. The lax and crashed variants and the uncovered parts are listed below them by task. A
crashed variant is never counted as caught: tried = caught + crashed + lax.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from pytest_spider2v.plugin import options
from pytest_spider2v.plugin.workers import is_worker
from pytest_spider2v.validate.checks import ERRATUM_SHOWN, GUI_ROUTE, NEAR_MISSES, SET_UP
from pytest_spider2v.validate.near_miss import NearMisses
from pytest_spider2v.validate.selection import PROPERTY


@dataclass
class _AppChecks:
    checked: set[str] = field(default_factory=set)
    set_up: set[str] = field(default_factory=set)
    solved: set[str] = field(default_factory=set)
    #: on the errata list: the reference, following the instruction, scored below 1 as listed
    shown: set[str] = field(default_factory=set)
    #: solved by a reference solution that is a GUI route
    gui_routes: set[str] = field(default_factory=set)


@dataclass
class _AppNearMisses:
    tasks: set[str] = field(default_factory=set)
    tried: int = 0
    caught: int = 0
    crashed: dict[str, list[str]] = field(default_factory=dict)  #: task -> the variants the metric raised on
    lax: dict[str, list[str]] = field(default_factory=dict)  #: task -> the variants still scored 1
    uncovered: dict[str, list[str]] = field(default_factory=dict)  #: task -> what no maker varied


@dataclass
class _PartFigures:
    """One metric's, or one part of its check's, figures over the run."""

    tried: int = 0
    caught: int = 0
    crashed: int = 0
    lax: int = 0
    uncovered: int = 0  #: times no variant tried it (a rule listing it, a task whose check tried nothing)


class ValidationSummary:
    """The pytest plugin behind the table (registered by :mod:`.plugin` for ``--validate``)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.apps: dict[str, _AppChecks] = defaultdict(_AppChecks)
        self.near_misses: dict[str, _AppNearMisses] = defaultdict(_AppNearMisses)
        self.parts: dict[tuple[str, str], _PartFigures] = defaultdict(_PartFigures)  #: (metric, part) -> figures

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        properties = dict(report.user_properties)
        check: dict[str, Any] | None = properties.get(PROPERTY)  # type: ignore[assignment]
        if not check or report.when != "call" and not (report.skipped or report.failed):
            return
        app = check["task"].split("/", 1)[0]
        figures = self.apps[app]
        if not report.skipped:
            figures.checked.add(check["task"])
        if properties.get(SET_UP):
            figures.set_up.add(check["task"])
        if check["check"] == "reference" and report.passed:
            (figures.shown if properties.get(ERRATUM_SHOWN) else figures.solved).add(check["task"])
            if properties.get(GUI_ROUTE) and not properties.get(ERRATUM_SHOWN):
                figures.gui_routes.add(check["task"])
        if report.when == "call" and (tried := properties.get(NEAR_MISSES)) is not None:  # once, not per phase
            self._count_near_misses(app, check["task"], NearMisses.from_json(tried))  # type: ignore[arg-type]

    def _count_near_misses(self, app: str, task: str, found: NearMisses) -> None:
        near = self.near_misses[app]
        near.tasks.add(task)
        near.tried += len(found.trials)
        near.caught += len(found.caught)
        for trial in found.trials:
            figures = self.parts[trial.func, trial.part]
            figures.tried += 1
            setattr(figures, trial.outcome, getattr(figures, trial.outcome) + 1)
        for each in found.uncovered:
            self.parts[each.func, each.part].uncovered += 1
        if found.crashed:
            near.crashed[task] = [trial.describe() for trial in found.crashed]
        if found.lax:
            near.lax[task] = [trial.describe() for trial in found.lax]
        if found.uncovered or not found.trials:
            near.uncovered[task] = [u.describe() for u in found.uncovered] or ["no near miss tried"]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if is_worker(self.config) or not self.apps:
            return
        terminalreporter.write_sep("=", "spider2v validation per app")
        for line in self.table():
            terminalreporter.write_line(line)
        if self.near_misses:
            terminalreporter.write_sep("=", "spider2v near misses per app")
            for line in self.near_miss_table():
                terminalreporter.write_line(line)
            terminalreporter.write_sep("=", "spider2v near misses per metric and part")
            for line in self.part_table():
                terminalreporter.write_line(line)

    def table(self) -> list[str]:
        """The table's lines: one per app, then the totals."""
        static = self._static_figures()
        rows: list[tuple[str, int, int, int, int, int, int, int, int]] = []
        for app in sorted(set(static) | set(self.apps)):
            files, collected, runnable = static.get(app, (0, 0, 0))
            checks = self.apps.get(app, _AppChecks())
            rows.append((app, files, collected, runnable, len(checks.checked), len(checks.set_up), len(checks.solved),
                         len(checks.shown), len(checks.gui_routes)))
        return _columns(("app", "files", "collected", "runnable", "checked", "set up", "solved", "errata", "gui route"),
                        rows)

    def near_miss_table(self) -> list[str]:
        """Per app: tasks checked, variants tried, caught, crashed and lax, tasks with something
        not covered; then the lax and crashed variants and the uncovered parts by task."""
        rows = [(app, len(n.tasks), n.tried, n.caught, sum(map(len, n.crashed.values())),
                 sum(map(len, n.lax.values())), len(n.uncovered)) for app, n in sorted(self.near_misses.items())]
        out = _columns(("app", "tasks", "tried", "caught", "crashed", "lax", "not covered"), rows)
        for label, attribute in (("lax", "lax"), ("crashed", "crashed"), ("not covered", "uncovered")):
            for app, near in sorted(self.near_misses.items()):
                for task, what in sorted(getattr(near, attribute).items()):
                    out.append(f"{label}: {task}: " + "; ".join(what[:5]) + (f"; ... ({len(what)} in all)" if len(what) > 5 else ""))
        return out

    def part_table(self) -> list[str]:
        """Per metric, and per part of a metric's check: variants tried, caught, crashed and lax,
        and how many times the part was not covered."""
        rows = [(f"{func} {part}".strip(), f.tried, f.caught, f.crashed, f.lax, f.uncovered)
                for (func, part), f in sorted(self.parts.items())]
        return _columns(("metric / part", "tried", "caught", "crashed", "lax", "not covered"), rows)

    def _static_figures(self) -> dict[str, tuple[int, int, int]]:
        """App -> (task files, collected, runnable) over the paths pytest was given."""
        from pytest_spider2v.validate.compatibility import (
            build_report,  # reads every task's needs: only when the table is printed
        )

        accounts = options.accounts(self.config)
        figures: dict[str, tuple[int, int, int]] = {}
        here = self.config.invocation_params.dir
        paths = {(here / arg.split("::", 1)[0]).resolve() for arg in self.config.args}
        for path in sorted(paths):
            if not path.exists() or any(other in path.parents for other in paths):
                continue  # a path inside another given one: its tasks are counted there
            report = build_report(path, accounts)
            for app, found in report.apps.items():
                before = figures.get(app, (0, 0, 0))
                figures[app] = (before[0] + found.files, before[1] + found.collected, before[2] + found.runnable)
        return figures


def _columns(header: tuple[str, ...], rows: Sequence[tuple[Any, ...]]) -> list[str]:
    """A table's lines: the header, one row per app (its name, then counts), the totals; names
    left-aligned, counts right-aligned."""
    totals = tuple(sum(row[i] for row in rows) for i in range(1, len(header)))
    lines = [header, *rows, ("total", *totals)]
    width = max(len(str(line[0])) for line in lines)
    counts = [max(10, *(len(str(line[i])) for line in lines)) + 1 for i in range(1, len(header))]
    return [f"{line[0]:<{width}}" + "".join(f"{value:>{w}}" for value, w in zip(line[1:], counts)) for line in lines]
