"""Run summaries: one :class:`~.task_summary.TaskSummary` per task in, success rates overall and
per group out (:class:`RunSummary`, which ``summary.json`` holds).

Everything here is plain data, so the aggregation is testable without pytest.
The success rate counts every task attempted: an error that remains after the retries counts as a
score of 0, as the papers score a failed run, whoever it is charged to; only skips (tasks that
could not run here) are left out. Beside it: the rate over the tasks that completed with a score,
the errors by whom they are charged to, and the tasks that scored 0 for tampering. The task is
the unit (:class:`RepeatedTask`): with ``--repeat`` a task's score is the mean of its runs, and
every rate carries a 95 % interval over tasks, with pass@k, pass^k and the flaky tasks beside it
(:mod:`.statistics`). Every group also sums its tokens, cost and wall time (each task's, from its
start to its end), and the run says where that time went (:mod:`.timing`). A run that
replays an earlier one (``replay_of`` in its records) lists the tasks whose outcome changed. A run
with closed-form questions (InfiAgent-DABench) also gets the paper's accuracies over them
(:mod:`.closed_form`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from pytest_spider2v.reports.closed_form import ClosedFormSummary, closed_form_summary, format_closed_form
from pytest_spider2v.reports.spending import cost_text, tokens_text
from pytest_spider2v.reports.statistics import Interval, pass_at_k, pass_hat_k, rate_interval
from pytest_spider2v.reports.task_summary import GROUPINGS, TaskSummary
from pytest_spider2v.reports.timing import TimeSplit, format_time_split, wall_time
from pytest_spider2v.reports.web_steps import WebStepsSummary, format_web_steps, web_steps_summary
from pytest_spider2v.run.json_values import JsonObject

#: the run folder's file of the summary
SUMMARY_FILE = "summary.json"
#: name of the ``user_properties`` entry carrying a task's summary
PROPERTY = "spider2v"
#: task statuses that end a task (``running`` is the only other one a record can hold; an
#: ``interrupted`` task is counted with the errors, and ``--resume`` runs it again)
ENDED_STATUSES = ("passed", "failed", "error", "skipped", "interrupted")


@dataclass(frozen=True)
class GroupFigures:
    """The figures of a group of tasks (or of the whole run)."""

    total: int  #: collected
    scored: int  #: completed with a score
    #: the mean score over the tasks attempted, an error counting as 0: the headline
    success_rate: float | None
    passed: int
    errors: int  #: ended without a score (an error, or interrupted), each counted as 0
    skipped: int  #: could not run here (needs, accounts, an agent that cannot work here)
    flagged: int  #: on the errata list
    #: the success rate over the attempted tasks that are not on the errata list, and how many those are
    success_rate_without_errata: float | None
    attempted_without_errata: int
    tokens: int | None
    cost: float | None
    seconds: float | None  #: wall time, summed over the tasks
    emulated: int = 0  #: ran against emulators (``--cloud emulate``): scores that prove the harness only
    #: the mean score over the tasks that completed with a score (errors left out)
    success_rate_completed: float | None = None
    #: the errors by whom they are charged to ("environment", "harness"; "agent" for none: its
    #: failures are scores of 0)
    errors_charged: dict[str, int] = field(default_factory=dict)
    tampered: int = 0  #: scored 0 for tampering with what the evaluation takes as given
    #: the tasks attempted (each once, however many times ``--repeat`` ran it): the interval's unit
    tasks_attempted: int = 0
    #: 95 % interval of the success rate over the tasks attempted (:func:`.statistics.rate_interval`)
    interval: Interval | None = None
    repeats: int = 1  #: K of ``--repeat K``
    #: with K > 1: the chance that one of K runs of a task passes, and that all K do, averaged over tasks
    pass_at_k: float | None = None
    pass_hat_k: float | None = None
    flaky: int = 0  #: tasks whose repeats disagree (some passed, some did not)

    @classmethod
    def of(cls, tasks: list[TaskSummary]) -> GroupFigures:
        scores = [task.score for task in tasks if task.is_scored and task.score is not None]
        unflagged = [task for task in tasks if task.attempted and not task.errata]
        skipped = sum(task.status == "skipped" for task in tasks)
        tokens = [task.tokens for task in tasks if task.tokens is not None]
        errors = [task for task in tasks if task.attempted and not task.is_scored]
        repeated = [RepeatedTask.of(attempts) for attempts in by_task(tasks).values()]
        means = [task.mean for task in repeated]
        count = max((task.repeats for task in tasks), default=1)
        return cls(
            total=len(tasks),
            scored=len(scores),
            success_rate=rounded_mean(means),
            passed=sum(task.status == "passed" for task in tasks),
            errors=len(errors),
            skipped=skipped,
            flagged=sum(bool(task.errata) for task in tasks),
            success_rate_without_errata=rounded_mean([t.mean for t in map(RepeatedTask.of, by_task(unflagged).values())]),
            attempted_without_errata=len(unflagged),
            tokens=sum(tokens) if tokens else None,
            cost=_sum([task.cost for task in tasks], digits=6),
            seconds=_sum([task.seconds for task in tasks], digits=3),
            emulated=sum(task.emulated for task in tasks),
            success_rate_completed=rounded_mean(scores),
            errors_charged=dict(sorted(Counter(task.charged_to or "unknown" for task in errors).items())),
            tampered=sum(task.tampered for task in tasks),
            tasks_attempted=len(repeated),
            interval=rate_interval(means),
            repeats=count,
            pass_at_k=rounded_mean([t.pass_at(count) for t in repeated if t.runs >= count]) if count > 1 else None,
            pass_hat_k=rounded_mean([t.pass_hat(count) for t in repeated if t.runs >= count]) if count > 1 else None,
            flaky=sum(task.flaky for task in repeated),
        )

    @property
    def runnable(self) -> int:
        """The tasks that could run here, each attempted: every collected one but the skipped."""
        return self.total - self.skipped

    def spent(self, column: str) -> int | float | None:
        """The group's ``tokens`` or ``cost``."""
        return self.tokens if column == "tokens" else self.cost

    def to_json(self) -> JsonObject:
        data: JsonObject = {
            "total": self.total, "runnable": self.runnable, "scored": self.scored,
            "success_rate": self.success_rate, "success_rate_completed": self.success_rate_completed,
            "passed": self.passed, "errors": self.errors, "errors_charged": dict(self.errors_charged),
            "tampered": self.tampered, "skipped": self.skipped, "flagged": self.flagged,
            "success_rate_without_errata": self.success_rate_without_errata, "tokens": self.tokens,
            "cost": self.cost, "seconds": self.seconds, "tasks_attempted": self.tasks_attempted,
            "interval": self.interval.to_json() if self.interval else None}
        if self.repeats > 1:
            data.update(repeats=self.repeats, pass_at_k=self.pass_at_k, pass_hat_k=self.pass_hat_k, flaky=self.flaky)
        if self.emulated:  # only then: a run without account tasks keeps summary.json's layout
            data["emulated"] = self.emulated
        return data


def _score(task: TaskSummary) -> float:
    """A task's score as the success rate counts it: an attempt that ended without one is 0."""
    return task.score if task.is_scored and task.score is not None else 0.0


def by_task(runs: Iterable[TaskSummary]) -> dict[str, list[TaskSummary]]:
    """The attempted runs grouped by the task they ran (``--repeat`` runs a task several times)."""
    tasks: dict[str, list[TaskSummary]] = {}
    for run in runs:
        if run.attempted:
            tasks.setdefault(run.task_nodeid, []).append(run)
    return tasks


@dataclass(frozen=True)
class RepeatedTask:
    """One task over its runs: the unit of the interval, pass@k and pass^k."""

    nodeid: str
    scores: list[float]  #: each run's score, an error as 0
    passes: int  #: the runs that passed

    @classmethod
    def of(cls, runs: list[TaskSummary]) -> RepeatedTask:
        return cls(runs[0].task_nodeid, [_score(run) for run in runs], sum(run.status == "passed" for run in runs))

    @property
    def runs(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores)

    @property
    def flaky(self) -> bool:
        """Its runs disagree: some passed and some did not."""
        return 0 < self.passes < self.runs

    def pass_at(self, k: int) -> float:
        return pass_at_k(self.runs, self.passes, k)

    def pass_hat(self, k: int) -> float:
        return pass_hat_k(self.runs, self.passes, k)


@dataclass(frozen=True)
class OutcomeChange:
    """A task a replay ended otherwise than the run it replayed."""

    nodeid: str
    recorded: str  #: the replayed run's outcome, in a word
    now: str

    def to_json(self) -> JsonObject:
        return {"nodeid": self.nodeid, "recorded": self.recorded, "now": self.now}


@dataclass(frozen=True)
class ReplayComparison:
    """How a replay's outcomes compare with the runs it replayed."""

    runs: list[str]
    tasks: int  #: the tasks replayed
    changed: list[OutcomeChange]

    def to_json(self) -> JsonObject:
        return {"runs": self.runs, "tasks": self.tasks, "changed": [change.to_json() for change in self.changed]}


@dataclass(frozen=True)
class RunSummary:
    """The run summed up: the content of ``summary.json``."""

    overall: GroupFigures
    errors: list[str]  #: the nodeids of the tasks that ended without a score and were not skipped
    skipped: list[str]
    retried: list[str]  #: the nodeids of the tasks started over after an infrastructure fault
    replay: ReplayComparison | None
    #: per grouping of :data:`GROUPINGS`, each group's figures
    groups: dict[str, dict[str, GroupFigures]]
    closed_form: ClosedFormSummary | None
    tasks: list[TaskSummary]
    web_steps: WebStepsSummary | None = None
    #: the tasks whose repeats disagree, with their runs
    flaky: list[RepeatedTask] = field(default_factory=list)
    #: where the wall time went, over the run and per app
    time: TimeSplit = field(default_factory=lambda: TimeSplit.of([]))
    time_by_app: dict[str, TimeSplit] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        """The overall figures with the lists of tasks in place of their counts, then the groups."""
        data: JsonObject = {**self.overall.to_json(), "errors": self.errors, "skipped": self.skipped,
                            "retried": self.retried}
        if self.overall.repeats > 1:
            data["flaky"] = [{"nodeid": t.nodeid, "passed": t.passes, "runs": t.runs} for t in self.flaky]
        data["time"] = {"run": self.time.to_json(), "by_app": {app: t.to_json() for app, t in self.time_by_app.items()}}
        if self.replay is not None:
            data["replay"] = self.replay.to_json()
        for grouping in GROUPINGS:
            if grouping == "node" and not self.groups[grouping]:
                continue  # a run on this machine: no cluster nodes to count tasks by
            data[f"by_{grouping}"] = {name: figures.to_json() for name, figures in self.groups[grouping].items()}
        if self.closed_form is not None:
            data["closed_form"] = self.closed_form.to_json()
        if self.web_steps is not None:
            data["mind2web"] = self.web_steps.to_json()
        data["tasks"] = [task.to_json() for task in self.tasks]
        return data


def summarize(entries: Iterable[TaskSummary]) -> RunSummary:
    """Aggregate the tasks' summaries into overall and per-group figures."""
    tasks = sorted(entries, key=lambda task: task.nodeid)
    replayed = [task for task in tasks if task.recorded is not None]
    groups: dict[str, dict[str, GroupFigures]] = {}
    for grouping in GROUPINGS:
        members: dict[str, list[TaskSummary]] = {}
        for task in tasks:
            for name in task.groups(grouping):
                members.setdefault(name, []).append(task)
        groups[grouping] = {name: GroupFigures.of(group) for name, group in sorted(members.items())}
    return RunSummary(
        overall=GroupFigures.of(tasks),
        errors=[task.nodeid for task in tasks if not task.is_scored and task.status != "skipped"],
        skipped=[task.nodeid for task in tasks if task.status == "skipped"],
        retried=[task.nodeid for task in tasks if task.retried],
        replay=_replay(replayed) if replayed else None,
        groups=groups,
        closed_form=closed_form_summary([task for task in tasks if task.attempted]),
        tasks=tasks,
        web_steps=web_steps_summary([task for task in tasks if task.attempted]),
        flaky=[task for task in map(RepeatedTask.of, by_task(tasks).values()) if task.flaky],
        time=TimeSplit.of(task.time_parts for task in tasks),
        time_by_app={app: TimeSplit.of(task.time_parts for task in tasks if task.app == app)
                     for app in sorted({task.app for task in tasks})},
    )


def _replay(replayed: list[TaskSummary]) -> ReplayComparison:
    return ReplayComparison(
        runs=sorted({task.recorded.run for task in replayed if task.recorded is not None}),
        tasks=len(replayed),
        changed=[OutcomeChange(task.nodeid, task.recorded.outcome, task.outcome) for task in replayed
                 if task.recorded is not None and task.recorded.outcome != task.outcome],
    )


def rounded_mean(scores: list[float]) -> float | None:
    """The mean to 4 places, as the figures keep it; None for no score."""
    return round(sum(scores) / len(scores), 4) if scores else None


def _sum(values: Iterable[float | None], digits: int | None = None) -> float | None:
    """The sum of the numbers among ``values``; None when there are none (nothing was counted)."""
    numbers = [v for v in values if v is not None]
    if not numbers:
        return None
    return round(sum(numbers), digits) if digits is not None else sum(numbers)


def format_summary(summary: RunSummary) -> list[str]:
    """The terminal text of a summary, one line per entry."""
    overall = summary.overall
    lines = [headline(overall), HeadlineFacts.of(overall).uncertainty]
    if overall.emulated:
        lines.append(f"{overall.emulated} tasks ran against emulators (--cloud emulate): their scores prove the harness "
                     "and do not score a model")
    if overall.flagged:
        lines.append(f"without the {overall.flagged} tasks on the errata list: success rate "
                     f"{rate_text(overall.success_rate_without_errata)} over {overall.attempted_without_errata} tasks "
                     "attempted")
    lines.append(HeadlineFacts.of(overall).spent_text)
    spent = [column for column in ("tokens", "cost") if overall.spent(column) is not None]
    repeated = overall.repeats > 1
    k = overall.repeats
    repeated_head = f"  {f'pass@{k}':>7}  {f'pass^{k}':>7}  {'flaky':>5}" if repeated else ""
    for title in GROUPINGS:
        groups = summary.groups[title]
        if not groups:
            continue
        width = max(len(title) + 3, *(len(name) for name in groups))
        lines.append("")
        lines.append(f"{'by ' + title:<{width}}  {'tasks':>5}  {'runnable':>8}  {'scored':>6}  {'passed':>6}  "
                     f"{'errors':>6}  {'skipped':>7}  {'errata':>6}  {'success':>7}  {'completed':>9}  "
                     f"{'w/o errata':>10}  {'95% interval':>15}" + repeated_head
                     + "".join(f"  {c:>10}" for c in spent) + f"  {'time':>8}")
        for name, f in groups.items():
            lines.append(
                f"{name:<{width}}  {f.total:>5}  {f.runnable:>8}  {f.scored:>6}  {f.passed:>6}  {f.errors:>6}  "
                f"{f.skipped:>7}  {f.flagged:>6}  {rate_text(f.success_rate):>7}  {rate_text(f.success_rate_completed):>9}  "
                f"{rate_text(f.success_rate_without_errata):>10}  {interval_text(f.interval):>15}"
                + (f"  {rate_text(f.pass_at_k):>7}  {rate_text(f.pass_hat_k):>7}  {f.flaky:>5}" if repeated else "")
                + "".join(f"  {spending(c, f.spent(c)):>10}" for c in spent) + f"  {wall_time(f.seconds):>8}"
            )
    if summary.closed_form is not None:
        lines += format_closed_form(summary.closed_form)
    if summary.web_steps is not None:
        lines += format_web_steps(summary.web_steps)
    if summary.replay is not None:
        lines += format_replay(summary.replay)
    lines += format_time_split(summary.time, summary.time_by_app)
    if summary.flaky:
        lines += ["", f"flaky (their {k} repeats disagree): {len(summary.flaky)}"]
        lines += [f"  {task.nodeid}  -- passed {task.passes} of {task.runs}" for task in summary.flaky]
    tasks = {task.nodeid: task for task in summary.tasks}
    n_err, n_skip = len(summary.errors), len(summary.skipped)
    tampered = [task for task in summary.tasks if task.tampered]
    if tampered:
        lines += ["", f"tampered (scored 0): {len(tampered)}"]
        lines += [f"  {task.nodeid}  -- {task.detail}" for task in tampered]
    if summary.errors:
        lines += ["", f"errors (each counted as 0): {n_err}"]
        lines += [f"  {nodeid}" + (f"  -- {tasks[nodeid].detail}" if tasks[nodeid].detail else "")
                  for nodeid in summary.errors]
    if summary.retried:
        # a retry is no failure, but a machine that needs many is worth a look
        faults = {task.nodeid: task.retried for task in summary.tasks if task.retried}
        lines += ["", f"started over after an environment fault (--retries): {len(summary.retried)}"]
        lines += [f"  {nodeid}  -- {len(faults[nodeid])}x: {faults[nodeid][-1]}" for nodeid in summary.retried]
    if summary.skipped:
        # skips share a few reasons (no account settings, unavailable step); their first clause groups them
        reasons = Counter(tasks[nodeid].detail.split(";")[0] or "no reason given" for nodeid in summary.skipped)
        lines += ["", f"skipped (not attempted, not counted): {n_skip}"]
        lines += [f"  {count:>4}  {reason}" for reason, count in reasons.most_common()]
    return lines


@dataclass(frozen=True)
class HeadlineFacts:
    """What the run's headline says beside its rates, built once for every view that shows it (the
    terminal summary, the HTML report's overview): the same words and figures in both."""

    #: ``1 errors counted as 0 (1 charged to the environment)``
    errors: str
    #: the rate's error bar, and with repeats how often a task passes once and every time
    uncertainty: str
    #: ``passed 1``, ``tokens 2,034``, ``cost $0.0225``, ``wall time 2m30s (summed over tasks)``:
    #: tokens and cost when some were counted, the wall time when some was
    spent: tuple[str, ...]

    @classmethod
    def of(cls, overall: GroupFigures) -> HeadlineFacts:
        errors = f"{overall.errors} errors counted as 0" + (f" ({charged_text(overall.errors_charged)})"
                                                            if overall.errors else "")
        spent = [f"passed {overall.passed}"]
        if overall.tokens is not None:
            spent.append(f"tokens {tokens_text(overall.tokens)}")
        if overall.cost is not None:
            spent.append(f"cost {cost_text(overall.cost)}")
        if overall.seconds is not None:
            spent.append(f"wall time {wall_time(overall.seconds)} (summed over tasks)")
        return cls(errors, _uncertainty(overall), tuple(spent))

    @property
    def spent_text(self) -> str:
        return ", ".join(self.spent)


def headline(overall: GroupFigures) -> str:
    """The run's figures in one line: the rate over every task attempted first."""
    runs = f"{overall.total} tasks" if overall.repeats == 1 else \
        f"{overall.total} runs ({overall.tasks_attempted} tasks attempted, --repeat {overall.repeats})"
    return (f"{runs}: success rate {rate_text(overall.success_rate)} over {overall.runnable} attempted "
            f"({HeadlineFacts.of(overall).errors}, as the papers score a failed run); "
            f"{rate_text(overall.success_rate_completed)} over the {overall.scored} that completed; "
            f"{overall.tampered} tampered; {overall.skipped} skipped, not attempted")


def _uncertainty(overall: GroupFigures) -> str:
    """The headline's error bar, and with repeats how often a task passes once and every time."""
    line = (f"95% interval {interval_text(overall.interval)} over the {overall.tasks_attempted} tasks attempted "
            "(Wilson score, the task as the unit)")
    if overall.repeats > 1:
        k = overall.repeats
        line += (f"; pass@{k} {rate_text(overall.pass_at_k)}, pass^{k} {rate_text(overall.pass_hat_k)}; "
                 f"{overall.flaky} flaky (repeats disagree)")
    return line


def interval_text(interval: Interval | None) -> str:
    return "n/a" if interval is None else interval.text()


def charged_text(errors: dict[str, int]) -> str:
    """``1 charged to the environment, 2 charged to the harness`` (a record from before charges: unrecorded)."""
    return ", ".join(f"{count} charged to the {party}" if party != "unknown" else f"{count} with no charge recorded"
                     for party, count in errors.items())


def format_replay(replay: ReplayComparison) -> list[str]:
    """The tasks whose outcome differs from the replayed run's, old -> new."""
    changed = replay.changed
    head = f"replayed {replay.tasks} tasks of {', '.join(replay.runs)}: "
    if not changed:
        return ["", head + "every outcome as recorded"]
    lines = ["", head + f"{len(changed)} outcome{'s' if len(changed) != 1 else ''} changed (recorded -> now)"]
    return lines + [f"  {c.nodeid}  {c.recorded} -> {c.now}" for c in changed]


def spending(column: str, value: int | float | None) -> str:
    """A group's tokens or cost as the tables show them; ``-`` when it spent none it counted."""
    return tokens_text(value) if column == "tokens" else cost_text(value)


def rate_text(rate: float | None) -> str:
    """A rate as every table shows it: ``42.0%``; ``n/a`` when nothing was attempted."""
    return "n/a" if rate is None else f"{rate:.1%}"
