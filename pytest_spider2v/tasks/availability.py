"""Whether a task can run here, decided before any environment starts: account settings, names
this project declares but cannot run, and what the task's files need that its image family does
not provide (:mod:`pytest_spider2v.tasks.needs`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_spider2v.registry import Registry, getters, metrics, setup_steps
from pytest_spider2v.tasks.model import Task


def unavailable_reasons(task: Task, settings_dir: Path | None) -> list[str]:
    """Why this task cannot run here, if at all: account settings missing, declared-only names,
    and what its files need that its image family does not provide (:mod:`.needs`, read from
    the files, so no container starts for a task that is skipped)."""
    # imported when a task runs: collection reads no task's files
    from pytest_spider2v.tasks.needs.analysis import unmet_needs

    return [*declared_reasons(task, settings_dir), *(str(unmet) for unmet in unmet_needs(task))]


def declared_reasons(task: Task, settings_dir: Path | None) -> list[str]:
    """The reasons the task's own declarations give: an account without settings, a step,
    getter or metric this project declares but cannot run."""
    reasons: list[str] = []
    if task.account and settings_dir is None:
        reasons.append("needs cloud account settings; pass --settings-dir (or set SPIDER2V_SETTINGS_DIR)")
    ev = task.spec.evaluator
    named: list[tuple[Registry[Any], str]] = [(setup_steps, s.type) for s in [*task.spec.config, *ev.postconfig]]
    named += [(metrics, f) for f in (ev.func if isinstance(ev.func, list) else [ev.func]) if f != "infeasible"]
    for slot in (ev.result, ev.expected):
        named += [(getters, g.type) for g in (slot if isinstance(slot, list) else [slot]) if g is not None]
    for registry, name in dict.fromkeys(named):
        entry = registry.entry(name)
        if entry.obj is None:
            reasons.append(f"{registry.kind} '{name}': {entry.unavailable}")
    return reasons
