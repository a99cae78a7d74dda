"""Everything one task needs, gathered from its steps, its getters and the files they name.

A task's steps and getters name host files (``src``, ``path``, ...), which are read
(:func:`~pytest_spider2v.tasks.needs.files.analyse_file`) or are a need themselves when the
checkout lacks them, and guest commands (``command``), which are read as shell. What the files
say is then put together: an import is a need unless the task ships the module itself (or its
instruction or scripts have it written), a conda environment unless the task creates it, a
requirements file's packages only when something installs it, a notebook's cells only when the
task runs them (:mod:`.notebook_runs`), and a host in a DAG's task code only when the task names that DAG.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeGuard

from pytest_spider2v.environments.snapshots import Manifest
from pytest_spider2v.tasks.needs.facts import Facts, Need
from pytest_spider2v.tasks.needs.files import analyse_file
from pytest_spider2v.tasks.needs.instruction import modules_named
from pytest_spider2v.tasks.needs.notebook_runs import runs_notebooks
from pytest_spider2v.tasks.needs.shell import read_shell, shell_quote

if TYPE_CHECKING:
    from pytest_spider2v.tasks.model import Task

#: Parameters of steps and getters that name host files (relative paths; guest paths are absolute).
HOST_PATH_KEYS = ("src", "path", "setting_file", "config_file")
#: Host files under here are account settings (given with --settings-dir), not checkout files.
SETTINGS_PREFIX = "evaluation_examples/settings/"


def task_needs(task: Task, manifest: Manifest) -> list[Need]:
    """Everything the task's steps, getters and named files need, in the order found.

    Imports are resolved to distributions here (through the manifest's table of names that
    differ), after the modules the task ships itself are known.
    """
    needs: list[Need] = []
    mentions: list[tuple[str, str]] = [("", task.instruction)]  # (file, text) where the task names DAGs
    local: set[str] = modules_named(task.instruction)
    notebook_needs: list[Need] = []
    executes_notebooks = False
    created_envs: set[str] = set()
    installs_from: set[str] = set()
    requirements: list[tuple[str, bool, list[Need]]] = []
    for where, params in _parameter_sets(task):
        for key in HOST_PATH_KEYS:
            value = params.get(key)
            if not _is_host_path(value) or value.startswith(task.cache_prefix):  # written during setup
                continue
            path = task.host_path(value)
            if not path.is_file():
                needs.append(Need("file", value, f"{where}.{key}"))
                continue
            facts = analyse_file(path)
            label = _label(path, task)
            needs += [_located(n, label) for n in facts.needs]
            notebook_needs += [_located(n, label) for n in facts.notebook_needs]
            mentions += [(_origin(label, member), text) for member, text in facts.mentions]
            local |= facts.modules
            created_envs |= facts.created_envs
            installs_from |= facts.installs_from
            executes_notebooks |= facts.executes_notebooks
            requirements += [(name, built, [_located(n, label) for n in found])
                             for name, built, found in facts.requirements]
        dest = params.get("dest")
        if isinstance(dest, str) and dest.endswith(".py"):
            local.add(PurePosixPath(dest).stem)
        command = params.get("command")
        if isinstance(command, (str, list)) and command:
            text = command if isinstance(command, str) else " ".join(shell_quote(str(c)) for c in command)
            facts = Facts()
            read_shell(text, 1, facts)
            needs += [_located(n, f"{where}.command") for n in facts.needs]
            mentions.append(("", text))
            local |= facts.modules
            installs_from |= facts.installs_from
            executes_notebooks |= facts.executes_notebooks
    # A notebook's cells are a need when they run (not when the task only opens, clears or copies one).
    notebook_texts = [text for origin, text in mentions if origin.endswith(".ipynb")]
    if notebook_needs and runs_notebooks(task, executes_notebooks, notebook_texts):
        needs += notebook_needs
    # A requirements file is a need when something installs it: a Dockerfile beside it (as an
    # Astro project's image build does) or a `pip install -r` of the task's.
    needs += [n for name, built, found in requirements if built or name in installs_from for n in found]
    resolved: list[Need] = []
    for need in needs:
        if need.kind == "package" and need.detail:  # an import: module -> distribution
            top = need.detail.split(".")[0]
            if top in local or top in sys.stdlib_module_names or top == "__future__":
                continue
            dists = manifest.distributions_of(need.detail)
            parts = need.detail.split(".")  # shown as the shortest prefix that names the same distributions
            shown = next(".".join(parts[:end]) for end in range(1, len(parts) + 1)
                         if manifest.distributions_of(".".join(parts[:end])) == dists)
            resolved.append(Need("package", dists[0], need.where, shown, alternatives=dists[1:]))
        elif need.kind == "conda_env" and need.name in created_envs:
            continue
        elif need.dags and not _names_a_dag(need, mentions):
            continue
        else:
            resolved.append(need)
    return list(dict.fromkeys(resolved))  # `from pandas import A, B` is one need


def _parameter_sets(task: Task) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each step's parameters and each getter, with where the task JSON has it."""
    spec = task.spec
    for i, step in enumerate(spec.config):
        yield f"config[{i}]", step.parameters
    for i, step in enumerate(spec.evaluator.postconfig):
        yield f"evaluator.postconfig[{i}]", step.parameters
    for slot in ("result", "expected"):
        value = getattr(spec.evaluator, slot)
        items = value if isinstance(value, list) else [value]
        for i, getter in enumerate(items):
            if getter is not None:
                yield (f"evaluator.{slot}[{i}]" if isinstance(value, list) else f"evaluator.{slot}"), getter.model_dump()


def _is_host_path(value: Any) -> TypeGuard[str]:
    return (isinstance(value, str) and bool(value) and not value.startswith(("/", "~", SETTINGS_PREFIX))
            and "://" not in value)


def _label(path: Path, task: Task) -> str:
    """A named file as a reader finds it: relative to the task folder, else to the task root."""
    for base in (task.folder, task.root):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def _located(need: Need, label: str) -> Need:
    where = f"{label} {need.where}" if need.where.startswith(("line", "cell")) else f"{label}: {need.where}"
    origin = _origin(label, need.origin) if need.dags else ""
    return replace(need, where=where if need.where else label, origin=origin)


def _origin(label: str, member: str) -> str:
    return f"{label}: {member}" if member else label


def _names_a_dag(need: Need, mentions: list[tuple[str, str]]) -> bool:
    """Whether the task names one of the DAGs whose task code has ``need``: its instruction, a
    command or a file it names (a script, a project's other code) other than the DAG file
    itself. A plain substring, so a longer name containing the id counts too (conservative)."""
    return any(dag in text for origin, text in mentions if origin != need.origin for dag in need.dags)
