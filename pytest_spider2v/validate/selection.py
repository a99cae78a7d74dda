"""Validation that scales with the suite: the state of validated fingerprints, and
``--validate-changed``, which re-validates only the tasks whose inputs changed since then.

The state file (``--validation-state``, default ``validation-state.json``) maps each task
(``<app>/<id>``) to the :mod:`fingerprint <.fingerprint>` it last passed every ``--validate``
check with. It is meant to be committed: run the full validation, commit the state, and CI
(``--validate-changed``) re-validates what a change touched plus a fixed sample per image
family (``--validate-sample N``, default 1: the first runnable tasks of each family, in sorted
order), so that every image is exercised on every run even when nothing changed.

Every ``--validate`` run updates the state: a task is recorded when all of its checks ran in
the session and passed, and removed when any of them failed or errored; skipped checks mean
"not validated" and leave it as it was. Under xdist the controller has no items, so each worker
attaches the task's key, check and fingerprint to its reports (``user_properties``) and the
controller reads them from the reports it receives.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.plugin import options
from pytest_spider2v.plugin.keys import TASK
from pytest_spider2v.plugin.workers import is_worker, tell_controller
from pytest_spider2v.tasks.availability import Accounts, unavailable_reasons
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.validate.checks import CHECK, task_checks
from pytest_spider2v.validate.fingerprint import Fingerprinter

#: The ``user_properties`` entry of every ``--validate`` report: task key, check, checks, fingerprint.
PROPERTY = "spider2v_validation"
#: Where an xdist worker leaves its selection (counts, deselected node ids) for the controller.
SELECTION_OUTPUT = "spider2v_selection"
ABOUT = ("Fingerprints of the tasks that last passed every --validate check (written by pytest --validate; "
         "see docs/validation/changed.md). Commit it after a full validation.")


def state_key(task: Task) -> str:
    """A task file's key in the state: validation checks a file, not a variant."""
    return f"{task.app}/{task.id}"


def read_state(path: Path) -> dict[str, str]:
    """Task key -> validated fingerprint; nothing when there is no state yet."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return dict(data.get("tasks", {}))


def update_state(path: Path, passed: dict[str, str], failed: set[str]) -> set[str] | None:
    """Record ``passed`` (key -> fingerprint) and forget ``failed`` in the state file, merged
    into what it holds now (another run may have written it). Written atomically, sorted for
    stable diffs, and only when something changed: returns the keys it forgot, or None when it
    left the file as it was."""
    current = read_state(path)
    tasks = {k: v for k, v in {**current, **passed}.items() if k not in failed}
    if tasks == current and path.is_file():
        return None
    text = json.dumps({"about": ABOUT, "tasks": dict(sorted(tasks.items()))}, indent=2) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.chmod(tmp, path.stat().st_mode & 0o777 if path.is_file() else 0o644)  # not mkstemp's 0600: a shared file
    os.replace(tmp, path)
    return failed & current.keys()


@dataclass
class _Tally:
    """What the reports of one task's checks said."""

    fingerprint: str
    checks: frozenset[str]  #: every check of the task
    passed: set[str] = field(default_factory=set)
    failed: bool = False
    skipped: bool = False


class ValidationSelection:
    """The pytest plugin behind the state and ``--validate-changed`` (registered by
    :mod:`.plugin` for ``--validate`` runs)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.path = config.invocation_params.dir / config.getoption("spider2v_validation_state")
        self.changed_only: bool = config.getoption("spider2v_validate_changed")
        self.sample_size: int = config.getoption("spider2v_validate_sample")
        self.tallies: dict[str, _Tally] = {}
        self.selection: dict[str, int] = {}  #: tasks changed, sampled, unchanged (deselected)
        self.written: tuple[int, int] | None = None  #: (recorded, forgotten) when the state changed

    # -- every process: fingerprints on the items, the selection ---------------------------------
    @pytest.hookimpl(trylast=True)  # after -k, -m and --lf have chosen: the sample comes from what they left
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        groups: dict[str, list[pytest.Item]] = {}
        for item in items:
            if CHECK in item.stash:
                groups.setdefault(state_key(item.stash[TASK]), []).append(item)
        if not groups:
            return
        fingerprinter = Fingerprinter()
        fingerprints: dict[str, str] = {}
        for key, group in groups.items():
            task = group[0].stash[TASK]
            fingerprints[key] = fingerprinter.fingerprint(task)
            checks = sorted(c.name for c in task_checks(task))
            for item in group:
                item.user_properties.append((PROPERTY, {"task": key, "check": item.stash[CHECK].name,
                                                        "checks": checks, "fingerprint": fingerprints[key]}))
        if not self.changed_only:
            return
        state = read_state(self.path)
        changed = {key for key in groups if state.get(key) != fingerprints[key]}
        sample = set(self.sample(groups, fingerprinter)) - changed
        keep = changed | sample
        deselected = [item for key, group in groups.items() if key not in keep for item in group]
        self.selection = {"changed": len(changed), "sample": len(sample), "unchanged": len(groups) - len(keep)}
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            dropped = set(deselected)
            items[:] = [item for item in items if item not in dropped]
        tell_controller(config, SELECTION_OUTPUT, {**self.selection, "ids": [i.nodeid for i in deselected]})

    def sample(self, groups: dict[str, list[pytest.Item]], fingerprinter: Fingerprinter) -> list[str]:
        """The first ``--validate-sample`` runnable tasks of each image family, by key."""
        accounts = options.accounts(self.config)
        chosen: dict[str, list[str]] = {}
        for key in sorted(groups):
            task = groups[key][0].stash[TASK]
            family = chosen.setdefault(fingerprinter.family(task), [])
            if len(family) < self.sample_size and runnable(task, accounts):
                family.append(key)
        return [key for keys in chosen.values() for key in keys]

    # -- the controller (or the only process): the reports, the state -----------------------------
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props: dict[str, Any] | None = dict(report.user_properties).get(PROPERTY)  # type: ignore[assignment]
        if not props:
            return
        tally = self.tallies.setdefault(props["task"], _Tally(props["fingerprint"], frozenset(props["checks"])))
        if report.failed:
            tally.failed = True
        elif report.skipped:
            tally.skipped = True
        elif report.when == "call":
            tally.passed.add(props["check"])

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """xdist: the workers' selection (each makes the same), told to pytest's summary once."""
        output = getattr(node, "workeroutput", {}).get(SELECTION_OUTPUT)
        if output and not self.selection:
            ids = output.pop("ids")
            self.selection = output
            if ids:
                self.config.hook.pytest_deselected(items=[_Deselected(nodeid) for nodeid in ids])

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if is_worker(self.config):
            return
        passed = {key: t.fingerprint for key, t in self.tallies.items()
                  if not t.failed and not t.skipped and t.passed == t.checks}
        failed = {key for key, t in self.tallies.items() if t.failed}
        if (passed or failed) and (removed := update_state(self.path, passed, failed)) is not None:
            self.written = (len(passed), len(removed))
        if self.changed_only and session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            session.exitstatus = pytest.ExitCode.OK  # nothing changed: nothing to validate

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if is_worker(self.config):
            return
        if self.selection:
            terminalreporter.write_line(
                "spider2v --validate-changed: {changed} tasks changed or not validated, {sample} sampled, "
                "{unchanged} unchanged (deselected)".format(**self.selection))
        if self.written:
            recorded, removed = self.written
            why = " (a check failed)" if removed else ""
            terminalreporter.write_line(f"spider2v validation state {self.path}: {recorded} tasks recorded, "
                                        f"{removed} removed{why}")


@dataclass(frozen=True)
class _Deselected:
    """A worker's deselected item as the controller knows it: its node id."""

    nodeid: str


def runnable(task: Task, accounts: Accounts) -> bool:
    """Whether the task's checks can run here: nothing unavailable, a reference solution."""
    return task.solution is not None and not unavailable_reasons(task, accounts)
