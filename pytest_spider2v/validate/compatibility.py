"""Which tasks of a tree can run here, why the others cannot, and (``verify``) how many of the
runnable ones really set up: the report behind ``spider2v-compat`` (:mod:`pytest_spider2v.cli.compat`)
and behind the ``--validate`` summary's "runnable here" column.

Every task file under a folder is read the way collection does; a task is runnable by the static
decision a run makes before any container starts (:mod:`pytest_spider2v.tasks.availability`:
accounts, steps/getters/metrics declared but unavailable, and what the task's files need that its
image family does not provide). Names no registry knows at all are counted separately: they are
what a new task set would need implemented. ``verify`` measures instead of inferring: it runs
pytest over the runnable tasks with the do-nothing agent and reads each task's record.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.snapshots import load_snapshots
from pytest_spider2v.registry import TaskNames, getters, load_extensions, metrics, setup_steps
from pytest_spider2v.run.records import read_result, task_dir
from pytest_spider2v.tasks.availability import NO_SETTINGS, Accounts, declared_reasons
from pytest_spider2v.tasks.loading import is_task_file, load_task_file
from pytest_spider2v.tasks.model import Task, TaskFormatError
from pytest_spider2v.tasks.needs.analysis import unmet_needs

#: How many task ids the text report lists under each reason (the JSON has them all).
IDS_SHOWN = 5
#: The run folder ``--verify`` records into, under its results folder.
VERIFY_RUN = "compat-verify"


@dataclass
class Verified:
    """What ``--verify`` measured for one app's runnable tasks."""

    set_up: int = 0
    #: {"task", "step", "message"} per task whose setup failed
    setup_errors: list[dict[str, str]] = field(default_factory=list)
    #: {"task", "reason"} per task the run skipped although the report called it runnable
    skipped: list[dict[str, str]] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)  #: tasks without a finished setup or error (the run stopped)


@dataclass
class AppReport:
    files: int = 0
    collected: int = 0
    runnable: int = 0  #: as a run with the report's accounts would run them (the columns below, so chosen)
    here: int = 0  #: tasks that need no account and can run here
    with_emulator: int = 0  #: account tasks that can run against emulators (``--cloud emulate``)
    with_accounts: int = 0  #: account tasks implemented for real accounts, not runnable on an emulator
    #: reason (without its location) -> ids of the tasks it keeps from running
    reasons: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    #: reason -> ids of the account tasks it keeps off the emulators (they need real accounts)
    emulator_reasons: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    #: task id -> its reasons, each with where the task's files state it
    details: dict[str, list[str]] = field(default_factory=dict)
    collection_errors: int = 0
    verified: Verified | None = None


@dataclass
class Report:
    root: str
    settings_dir: str | None
    emulate: bool = False  #: "runnable" means: against emulators (``--cloud emulate``)
    files: int = 0
    apps: dict[str, AppReport] = field(default_factory=lambda: defaultdict(AppReport))
    #: {"file", "error"} per task file that failed to load
    collection_errors: list[dict[str, str]] = field(default_factory=list)
    #: {"kind", "name", "file"} per use of a name no registry knows
    unknown: list[dict[str, str]] = field(default_factory=list)
    #: the tasks called runnable, for --verify
    runnable_tasks: list[Task] = field(default_factory=list)
    verify_command: list[str] = field(default_factory=list)

    @property
    def collected(self) -> int:
        return sum(a.collected for a in self.apps.values())

    @property
    def runnable(self) -> int:
        return sum(a.runnable for a in self.apps.values())

    def column(self, name: str) -> int:
        """A column's total over the apps: ``here``, ``with_emulator``, ``with_accounts``."""
        return sum(getattr(app, name) for app in self.apps.values())

    @property
    def verified(self) -> bool:
        return any(a.verified is not None for a in self.apps.values())

    def unknown_counts(self) -> dict[str, int]:
        counts = Counter(u["kind"] for u in self.unknown)
        return {kind: counts.get(kind, 0) for kind in (setup_steps.kind, getters.kind, metrics.kind)}

    def as_json(self) -> dict[str, Any]:
        totals: dict[str, Any] = {
            "task_files": self.files,
            "collected": self.collected,
            "runnable": self.runnable,
            "here": self.column("here"),
            "with_emulator": self.column("with_emulator"),
            "with_accounts": self.column("with_accounts"),
            "not_runnable": self.collected - sum(self.column(c) for c in COLUMNS),
            "collection_errors": len(self.collection_errors),
            "unknown": {**self.unknown_counts(), "total": len(self.unknown)},
        }
        if self.verified:
            totals["set_up"] = sum(a.verified.set_up for a in self.apps.values() if a.verified)
        return {
            "root": self.root,
            "settings_dir": self.settings_dir,
            "cloud": "emulate" if self.emulate else "accounts",
            "totals": totals,
            "apps": {name: _app_json(app) for name, app in sorted(self.apps.items())},
            "collection_errors": self.collection_errors,
            "unknown": self.unknown,
            **({"verify_command": self.verify_command} if self.verify_command else {}),
        }


def _app_json(app: AppReport) -> dict[str, Any]:
    data: dict[str, Any] = {"files": app.files, "collected": app.collected, "runnable": app.runnable,
                            "here": app.here, "with_emulator": app.with_emulator, "with_accounts": app.with_accounts,
                            "not_runnable": app.collected - app.here - app.with_emulator - app.with_accounts,
                            "collection_errors": app.collection_errors, "reasons": dict(app.reasons),
                            "emulator_reasons": dict(app.emulator_reasons), "details": app.details}
    if app.verified is not None:
        data["verified"] = {"set_up": app.verified.set_up, "setup_errors": app.verified.setup_errors,
                            "skipped": app.verified.skipped, "not_run": app.verified.not_run}
    return data


def load_registrations() -> None:
    """Fill the registries as a pytest run would: the extensions (built-ins included), then
    installed pytest plugins, which may register more."""
    load_extensions()
    for ep in entry_points(group="pytest11"):
        try:
            ep.load()
        except Exception as exc:  # a broken third-party plugin must not hide the report
            print(f"spider2v-compat: plugin {ep.name} ({ep.value}) failed to load: {exc}", file=sys.stderr)


def task_files(path: Path) -> list[Path]:
    """The task files at or under ``path``: both layouts' JSON files and any registered format's."""
    if path.is_file():
        return [path] if is_task_file(path) else []
    return sorted(p for p in path.rglob("*") if p.is_file() and is_task_file(p))


def app_of(path: Path) -> str:
    """The app folder a task file lives in (both layouts keep it two levels up)."""
    return path.parent.parent.name


def unknown_names(raw: Any) -> list[tuple[str, str]]:
    """Every step type, getter and metric a raw task document names that no registry knows.

    Read leniently from the JSON rather than from the validated task, because loading stops at
    the first problem and a file may name several unknown things.
    """
    if not isinstance(raw, dict):
        return []
    found: list[tuple[TaskNames, Any]] = []
    evaluator: dict[str, Any] = raw["evaluator"] if isinstance(raw.get("evaluator"), dict) else {}
    for step in [*_as_list(raw.get("config")), *_as_list(evaluator.get("postconfig"))]:
        if isinstance(step, dict):
            found.append((setup_steps, step.get("type")))
    found += [(metrics, name) for name in _as_list(evaluator.get("func")) if name != "infeasible"]
    for slot in ("result", "expected"):
        found += [(getters, g.get("type")) for g in _as_list(evaluator.get(slot)) if isinstance(g, dict)]
    return [(reg.kind, name) for reg, name in dict.fromkeys(found) if isinstance(name, str) and name not in reg]


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [] if value is None else [value]


def snapshot_reason(task: Task, snapshots: dict[str, Any], environments_dir: Path) -> str | None:
    snapshot = snapshots.get(task.spec.snapshot)
    if snapshot is None:
        return f"snapshot '{task.spec.snapshot}' has no environment recipe (not in {environments_dir / 'snapshots.yaml'})"
    if not (environments_dir / snapshot.recipe / "Dockerfile").is_file():
        return f"snapshot '{task.spec.snapshot}': recipe folder {environments_dir / snapshot.recipe} has no Dockerfile"
    return None


def task_reasons(task: Task, accounts: Accounts, environments_dir: Path = RECIPES_DIR
                 ) -> list[tuple[str, str]]:
    """Why a task cannot run, as (grouping key, precise reason) pairs: the same decision as a
    run's skip (:func:`pytest_spider2v.tasks.availability.unavailable_reasons`), with the locations of needs
    left out of the key so that tasks with the same cause group together."""
    return [*((reason, reason) for reason in declared_reasons(task, accounts)),
            *((unmet.summary, str(unmet)) for unmet in unmet_needs(task, environments_dir))]


#: The columns a task is counted in, the first that applies: it needs no account and runs here;
#: it needs one and runs against an emulator; it runs only with a real account.
COLUMNS = ("here", "with_emulator", "with_accounts")


@dataclass(frozen=True)
class Placement:
    """Where one task can run: its column (None: not runnable, for ``reasons``), whether a run with
    the report's accounts runs it, and why an account task cannot run on an emulator."""

    column: str | None
    runs: bool
    reasons: list[tuple[str, str]]
    off_emulator: list[tuple[str, str]]


def place(task: Task, accounts: Accounts, environments_dir: Path = RECIPES_DIR) -> Placement:
    """The task's column and reasons. Without ``--settings-dir`` an account task is judged as if
    its settings were given: the column says what it would take, a run's skip that they are missing."""
    as_given = task_reasons(task, Accounts(accounts.settings_dir), environments_dir)
    if not task.account:
        return Placement("here" if not as_given else None, not as_given, as_given, [])
    on_emulator = task_reasons(task, Accounts(Path(), emulate=True), environments_dir)
    if not on_emulator:
        return Placement("with_emulator", accounts.emulate or not as_given, [], [])
    with_accounts = [pair for pair in as_given if pair[0] != NO_SETTINGS]
    runs = not accounts.emulate and not as_given
    return Placement("with_accounts" if not with_accounts else None, runs, with_accounts, on_emulator)


def build_report(path: Path, accounts: Accounts, environments_dir: Path = RECIPES_DIR) -> Report:
    report = Report(str(path), str(accounts.settings_dir) if accounts.settings_dir and not accounts.emulate else None,
                    accounts.emulate)
    snapshots = load_snapshots(environments_dir)
    for file in task_files(path):
        entries = load_task_file(file)
        tasks = [entry for entry in entries if isinstance(entry, Task)]
        file_app = tasks[0].app if tasks else app_of(file)
        report.files += 1
        report.apps[file_app].files += 1
        if file.suffix == ".json":
            try:
                raw = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                raw = None  # loading reports it precisely
            report.unknown += [{"kind": kind, "name": name, "file": str(file)} for kind, name in unknown_names(raw)]
        for error in (entry for entry in entries if isinstance(entry, TaskFormatError)):
            report.collection_errors.append({"file": str(file), "error": str(error)})
            report.apps[file_app].collection_errors += 1
        for task in tasks:
            app = report.apps[task.app]
            app.collected += 1
            placed = place(task, accounts, environments_dir)
            if (problem := snapshot_reason(task, snapshots, environments_dir)) is not None:
                placed = Placement(None, False, [*placed.reasons, (problem, problem)], placed.off_emulator)
            for key, _ in dict.fromkeys(placed.reasons):
                app.reasons[key].append(task.key)
            for key, _ in dict.fromkeys(placed.off_emulator):
                app.emulator_reasons[key].append(task.key)
            if placed.reasons or placed.off_emulator:
                app.details[task.key] = [precise for _, precise in dict.fromkeys([*placed.reasons, *placed.off_emulator])]
            if placed.column is not None:
                setattr(app, placed.column, getattr(app, placed.column) + 1)
            if placed.runs:
                app.runnable += 1
                report.runnable_tasks.append(task)
    return report


# -- --verify -------------------------------------------------------------------------------------


def verify(report: Report, results_dir: Path, accounts: Accounts, workers: int = 2) -> int:
    """Run the do-nothing agent over the runnable tasks and record per app what set up.

    pytest runs as a subprocess (its output goes to stderr); the outcome is read from the
    task records it writes under ``results_dir/compat-verify``. Returns pytest's exit code.
    """
    files = list(dict.fromkeys(str(task.path) for task in report.runnable_tasks))
    command = [sys.executable, "-m", "pytest", *files, "--agent", "noop", "-p", "no:cacheprovider",
               "--results-dir", str(results_dir), "--run-name", VERIFY_RUN, "-q", "--tb=no", "-rN"]
    if workers > 1:
        command += ["-n", str(workers)]
    if accounts.emulate:
        command += ["--cloud", "emulate"]
    elif accounts.settings_dir is not None:
        command += ["--settings-dir", str(accounts.settings_dir)]
    report.verify_command = [*command[:3], f"<{len(files)} task files>", *command[3 + len(files):]]
    verified = {name: Verified() for name in report.apps}
    for name, app in report.apps.items():
        app.verified = verified[name]
    if not files:
        return 0
    shutil.rmtree(results_dir / VERIFY_RUN, ignore_errors=True)  # no record of an earlier run may count
    code = subprocess.run(command, stdout=sys.stderr, check=False).returncode
    for task in report.runnable_tasks:
        read_verification(task, results_dir, verified[task.app])
    return code


def read_verification(task: Task, results_dir: Path, verified: Verified) -> None:
    """Classify one task's record: set up (its setup finished), a setup error, a skip, no record."""
    result = read_result(task_dir(results_dir, VERIFY_RUN, task))
    if result is None or (result.status == "running" and "setup" not in result.timings.phases):
        verified.not_run.append(task.key)  # never started, or the run stopped while it set up
    elif "setup" in result.timings.phases:
        verified.set_up += 1
    elif result.status == "skipped":
        verified.skipped.append({"task": task.key, "reason": result.detail})
    else:
        verified.setup_errors.append({"task": task.key, "step": failed_step(task, result.detail),
                                      "message": result.detail or f"status {result.status}"})


def failed_step(task: Task, message: str) -> str:
    """The setup step an error message names (steps say their type first), else the phase."""
    for i, step in enumerate(task.spec.config):
        if f"{step.type}:" in message or f"{step.type} " in message:
            return f"config[{i}] {step.type}"
    return "setup" if "setup failed" in message else "environment"
