"""Whether a task can run here, decided before any environment starts: account settings, names
this project declares but cannot run, and what the task's files need that its image family does
not provide (:mod:`pytest_spider2v.tasks.needs`).

An account task runs against the user's own cloud accounts (settings in ``--settings-dir``) or,
with ``--cloud emulate``, against emulators registered in :data:`pytest_spider2v.registry.emulators`.
Against an emulator a setup step that only drives the service's web console (its ``console``
meta says so) is waived, and a name whose ``not_emulated`` meta gives a reason cannot run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pytest_spider2v.registry import TaskNames, emulators, getters, metrics, setup_steps
from pytest_spider2v.tasks.model import Task

#: Where the original's tasks name their account settings; the rest of the path is kept below
#: --settings-dir, so a user's folder has the layout of the original's ``settings/``.
SETTINGS_PREFIX = "evaluation_examples/settings/"


#: Why an account task does not run without ``--settings-dir``.
NO_SETTINGS = "needs cloud account settings; pass --settings-dir (or set SPIDER2V_SETTINGS_DIR), or --cloud emulate"


class Emulator(Protocol):
    """A cloud service's stand-in: a real server speaking the service's wire protocol, run inside
    each task's environment, that ``--cloud emulate`` points a run's account tasks at (setup
    steps, getters and the guest's own clients), so the data path is proven without an account."""

    # Read-only members (a class attribute is one): what an emulator declares, never set from outside.
    @property
    def title(self) -> str:
        """What it stands in for and with what, as a record and the report name it ("BigQuery: bqemulator 1.4")."""

    @property
    def accounts(self) -> tuple[str, ...]:
        """The ``account`` keys (as the steps' and getters' ``account`` meta name them) it stands in for."""

    def write_settings(self, folder: Path) -> None:
        """Write the account settings, in the original's layout, that point at the emulator."""

    def task_reasons(self, task: Task) -> list[str]:
        """Why ``task`` cannot run against the emulator (a public dataset it does not hold, ...)."""


@dataclass(frozen=True)
class Accounts:
    """Where a run's account tasks find their services: the user's accounts, whose settings are
    in ``settings_dir`` (None: not given), or emulators (``emulate``; ``settings_dir`` is then
    the folder the emulators' settings were written to)."""

    settings_dir: Path | None = None
    emulate: bool = False


def unavailable_reasons(task: Task, accounts: Accounts) -> list[str]:
    """Why this task cannot run here, if at all: account settings missing, declared-only names,
    and what its files need that its image family does not provide (:mod:`.needs`, read from
    the files, so no container starts for a task that is skipped)."""
    # imported when a task runs: collection reads no task's files
    from pytest_spider2v.tasks.needs.analysis import unmet_needs

    return [*declared_reasons(task, accounts), *(str(unmet) for unmet in unmet_needs(task))]


def declared_reasons(task: Task, accounts: Accounts) -> list[str]:
    """The reasons the task's own declarations give: an account without settings (or without an
    emulator), a step, getter or metric this project declares but cannot run."""
    reasons: list[str] = []
    if task.account and accounts.emulate:
        reasons += emulator_reasons(task)
    elif task.account and accounts.settings_dir is None:
        reasons.append(NO_SETTINGS)
    elif task.account and accounts.settings_dir is not None:
        reasons += [f"needs account settings file {name} ({where}), not in {accounts.settings_dir}"
                    for where, name in settings_files(task) if not (accounts.settings_dir / name).is_file()]
    for registry, name in named(task):
        entry = registry.describe(name)
        if accounts.emulate and registry is setup_steps and entry.meta.get("console"):
            continue  # waived against an emulator
        if entry.unavailable is not None:
            reasons.append(f"{registry.kind} '{name}': {entry.unavailable}")
        elif accounts.emulate and entry.meta.get("not_emulated"):
            reasons.append(f"{registry.kind} '{name}': {entry.meta['not_emulated']}")
    return reasons


def named(task: Task) -> list[tuple[TaskNames, str]]:
    """Every step type, metric and getter the task names, once each, in the task's order."""
    ev = task.spec.evaluator
    found: list[tuple[TaskNames, str]] = [(setup_steps, s.type) for s in [*task.spec.config, *ev.postconfig]]
    found += [(metrics, f) for f in (ev.func if isinstance(ev.func, list) else [ev.func]) if f != "infeasible"]
    for slot in (ev.result, ev.expected):
        found += [(getters, g.type) for g in (slot if isinstance(slot, list) else [slot]) if g is not None]
    return list(dict.fromkeys(found))


def settings_files(task: Task) -> list[tuple[str, str]]:
    """The account settings files the task's steps and getters name, as (where, path below the
    settings folder): ``("config[0].config_file", "google/gcp_config.json")``."""
    ev = task.spec.evaluator
    places: list[tuple[str, dict[str, Any]]] = [(f"config[{i}]", s.parameters) for i, s in enumerate(task.spec.config)]
    places += [(f"evaluator.postconfig[{i}]", s.parameters) for i, s in enumerate(ev.postconfig)]
    for slot in ("result", "expected"):
        specs = getattr(ev, slot)
        for i, spec in enumerate(specs if isinstance(specs, list) else [specs]):
            if spec is not None:
                places.append((f"evaluator.{slot}" + (f"[{i}]" if isinstance(specs, list) else ""), spec.model_dump()))
    return [(f"{where}.{key}", value.removeprefix(SETTINGS_PREFIX)) for where, params in places
            for key, value in params.items() if isinstance(value, str) and value.startswith(SETTINGS_PREFIX)]


def accounts_used(task: Task) -> list[str]:
    """The accounts (``account`` meta: ``bigquery``, ``snowflake``, ...) the task's names need."""
    used = (registry.describe(name).meta.get("account") for registry, name in named(task))
    return list(dict.fromkeys(account for account in used if account))


def task_emulators(task: Task) -> dict[str, Emulator | None]:
    """Each account the task uses, with the registered emulator standing in for it (or None)."""
    by_account = {account: emulators.get(name) for name in emulators.available()
                  for account in emulators.get(name).accounts}
    return {account: by_account.get(account) for account in accounts_used(task)}


def emulator_reasons(task: Task) -> list[str]:
    """Why an account task cannot run against emulators: an account none stands in for, or what
    the emulator says of the task (a public dataset it does not hold, a feature it lacks)."""
    reasons: list[str] = []
    for account, emulator in task_emulators(task).items():
        if emulator is None:
            known = ", ".join(sorted(a for n in emulators.available() for a in emulators.get(n).accounts))
            reasons.append(f"needs a {account} account: no emulator stands in for it (--cloud emulate covers "
                           f"{known or 'nothing'})")
        else:
            reasons += emulator.task_reasons(task)
    return reasons
