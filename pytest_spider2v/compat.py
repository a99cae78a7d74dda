"""``spider2v-compat``: which tasks of a Spider2-V tree can run here, and why the others cannot.

Reads every task file under a folder (a Spider2-V root, its ``evaluation_examples/examples``,
one app folder, or a project ``tasks/`` tree) the way collection does, and reports per
application: tasks collected, tasks runnable here, and the reasons the rest are not, grouped
(a step, getter or metric that needs an account or a program this project does not have, a
snapshot without an environment recipe, account settings not given). Names no registry knows
at all are counted separately: they are what a new task set would need implemented, and the
report says explicitly when there are none.

Registrations come from the built-in steps and metrics and from installed pytest plugins
(the ``pytest11`` entry points), as in a pytest run; ``conftest.py`` files are not read.
Exit status: 0, or 1 when a task file failed to load or names something unknown.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from .environments import ENVIRONMENTS_DIR, load_snapshots
from .registry import Registry, getters, load_extensions, metrics, setup_steps
from .task import Task, TaskFormatError, is_task_file, load_tasks, unavailable_reasons

#: How many task ids the text report lists under each reason (the JSON has them all).
IDS_SHOWN = 5


@dataclass
class AppReport:
    collected: int = 0
    runnable: int = 0
    #: reason -> ids of the tasks it keeps from running
    reasons: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    collection_errors: int = 0


@dataclass
class Report:
    root: str
    settings_dir: str | None
    files: int = 0
    apps: dict[str, AppReport] = field(default_factory=lambda: defaultdict(AppReport))
    #: {"file", "error"} per task file that failed to load
    collection_errors: list[dict[str, str]] = field(default_factory=list)
    #: {"kind", "name", "file"} per use of a name no registry knows
    unknown: list[dict[str, str]] = field(default_factory=list)

    @property
    def collected(self) -> int:
        return sum(a.collected for a in self.apps.values())

    @property
    def runnable(self) -> int:
        return sum(a.runnable for a in self.apps.values())

    def unknown_counts(self) -> dict[str, int]:
        counts = Counter(u["kind"] for u in self.unknown)
        return {kind: counts.get(kind, 0) for kind in (setup_steps.kind, getters.kind, metrics.kind)}

    def as_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "settings_dir": self.settings_dir,
            "totals": {
                "task_files": self.files,
                "collected": self.collected,
                "runnable": self.runnable,
                "not_runnable": self.collected - self.runnable,
                "collection_errors": len(self.collection_errors),
                "unknown": {**self.unknown_counts(), "total": len(self.unknown)},
            },
            "apps": {
                name: {"collected": app.collected, "runnable": app.runnable,
                       "collection_errors": app.collection_errors, "reasons": dict(app.reasons)}
                for name, app in sorted(self.apps.items())
            },
            "collection_errors": self.collection_errors,
            "unknown": self.unknown,
        }


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
    if path.is_file():
        return [path] if is_task_file(path) else []
    return sorted(p for p in path.rglob("*.json") if is_task_file(p))


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
    found: list[tuple[Registry[Any], Any]] = []
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


def build_report(path: Path, settings_dir: Path | None, environments_dir: Path = ENVIRONMENTS_DIR) -> Report:
    report = Report(str(path), str(settings_dir) if settings_dir else None)
    snapshots = load_snapshots(environments_dir)
    for file in task_files(path):
        report.files += 1
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            raw = None  # load_tasks below reports it precisely
        report.unknown += [{"kind": kind, "name": name, "file": str(file)} for kind, name in unknown_names(raw)]
        try:
            tasks = load_tasks(file)
        except TaskFormatError as exc:
            report.collection_errors.append({"file": str(file), "error": str(exc)})
            report.apps[app_of(file)].collection_errors += 1
            continue
        for task in tasks:
            app = report.apps[task.app]
            app.collected += 1
            reasons = unavailable_reasons(task, settings_dir)
            if (problem := snapshot_reason(task, snapshots, environments_dir)) is not None:
                reasons.append(problem)
            for reason in reasons:
                app.reasons[reason].append(task.key)
            if not reasons:
                app.runnable += 1
    return report


def render(report: Report) -> str:
    lines = [f"Spider2-V compatibility of {report.root}"]
    if report.settings_dir is None:
        lines.append("(no --settings-dir: tasks that need a cloud account are counted as not runnable)")
    width = max([len("app"), *(len(name) for name in report.apps)])
    lines += ["", f"{'app':<{width}}  collected  runnable  not runnable  collection errors"]
    for name, app in sorted(report.apps.items()):
        lines.append(f"{name:<{width}}  {app.collected:>9}  {app.runnable:>8}  {app.collected - app.runnable:>12}"
                     f"  {app.collection_errors:>17}")
    lines.append(f"{'total':<{width}}  {report.collected:>9}  {report.runnable:>8}  "
                 f"{report.collected - report.runnable:>12}  {len(report.collection_errors):>17}")
    for name, app in sorted(report.apps.items()):
        if not app.reasons:
            continue
        lines += ["", f"{name}: why {app.collected - app.runnable} of {app.collected} tasks cannot run here"]
        for reason, ids in sorted(app.reasons.items(), key=lambda item: (-len(item[1]), item[0])):
            shown = ", ".join(i.split("/", 1)[-1][:8] for i in ids[:IDS_SHOWN])
            more = f", +{len(ids) - IDS_SHOWN} more" if len(ids) > IDS_SHOWN else ""
            lines.append(f"  {len(ids):>4} x {reason}  [{shown}{more}]")
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spider2v-compat",
        description="Report which Spider2-V tasks can run in this project's environments, and why not.",
    )
    parser.add_argument("path", type=Path, help="a Spider2-V root, its evaluation_examples/examples, or an app folder")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the report as JSON here")
    parser.add_argument("--settings-dir", type=Path, metavar="DIR",
                        help="account settings folder, as for pytest --settings-dir")
    args = parser.parse_args(argv)
    if not args.path.exists():
        parser.error(f"{args.path} does not exist")
    load_registrations()
    report = build_report(args.path, args.settings_dir)
    print(render(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report.as_json(), indent=2) + "\n", encoding="utf-8")
    return 1 if report.collection_errors or report.unknown else 0


if __name__ == "__main__":
    raise SystemExit(main())
