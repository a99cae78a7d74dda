"""A run's manifest: the conditions it ran under, so a reader can tell whether two runs are
comparable and, if not, why.

It is written to ``manifest.json`` in the run folder when the run starts (what the command line
and the machine say) and completed when it ends, from the records (the task set, the images):
an interrupted run keeps its start, and :func:`completed` finishes it from whatever records
there are. ``summary.json``, the HTML report and the JUnit XML's properties carry the same.

What changes scores (:data:`SCORING`) is what :func:`differences` compares: the tasks (their
fingerprints), the errata list, the images, the step budget and time limits, the cloud mode,
the environment's limits, and every parameter of the agent (sampling, observation, action
space, a seed) but its identity. Dates, the machine and the harness's own commit do not; a
different agent or model is what a comparison compares, so it is shown, not warned about.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.plugin.keys import RUN_CONFIG
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.json_values import JsonObject
from pytest_spider2v.run.records import public_settings
from pytest_spider2v.tasks.errata import ERRATA

MANIFEST_FILE = "manifest.json"
#: the run settings that change scores (of the settings every record keeps)
SCORING_SETTINGS = ("max_steps", "task_timeout", "sleep_after_action", "cloud", "environment")
#: agent parameters that name what is compared rather than a condition of the comparison
IDENTITY = ("model", "vendor")


def started(config: pytest.Config, run: Path, now: str) -> JsonObject:
    """The manifest as the run started at ``now``: the harness, the agent and its parameters, the
    settings, the machine, the date. A resumed run keeps the first start and notes when it resumed."""
    settings = config.stash[RUN_CONFIG]
    earlier = read_manifest(run) if settings.resume else None
    parameters: dict[str, Any] = {}
    for extra in config.hook.pytest_spider2v_manifest(config=config):
        parameters.update(extra)
    manifest: JsonObject = {
        "format": "spider2v-manifest/1",
        "run": run.name,
        "project": {"version": _version(), "commit": _commit()},
        "agent": {"name": settings.agent or "", "parameters": public_settings(parameters)},
        "settings": settings.recorded_settings(),
        "repeats": settings.repeat,
        "errata": {"digest": _digest(ERRATA.read_bytes())},
        "machine": {"cores": os.cpu_count(), "memory_gib": _memory_gib(), "system": platform.platform(),
                    "python": platform.python_version()},
        "started": now,
    }
    if earlier is not None and earlier.get("started"):
        manifest["started"] = earlier["started"]
        resumed = earlier.get("resumed")
        manifest["resumed"] = [*(resumed if isinstance(resumed, list) else []), now]
    return manifest


def completed(manifest: Mapping[str, Any], tasks: Iterable[TaskSummary], finished: bool = True) -> JsonObject:
    """The manifest completed from the run's task summaries: the task set (count, and the digest
    of the tasks' fingerprints) and the images the environments ran from (name -> digests: more
    than one when the image was rebuilt during the run)."""
    tasks = list(tasks)
    fingerprints = task_fingerprints(tasks)
    images: dict[str, list[str]] = {}
    for name, _, digest in sorted({task.image.rpartition("@") for task in tasks if task.image}):
        images.setdefault(name, []).append(digest)
    done: JsonObject = {**manifest, "tasks": {"count": len(fingerprints),
                                              "digest": _digest(json.dumps(fingerprints, sort_keys=True).encode())},
                        "images": images}
    if finished:
        done["finished"] = now()
    return done


def task_fingerprints(tasks: Iterable[TaskSummary]) -> dict[str, str]:
    """Task -> fingerprint ("" where none was computed), each task once however often it ran."""
    return {task.task_nodeid: task.fingerprint for task in sorted(tasks, key=lambda t: t.nodeid)}


def differences(a: Mapping[str, Any], b: Mapping[str, Any], *, identity: bool = False) -> list[str]:
    """What differs between two manifests that changes scores, one line per field, named as the
    manifest names it. ``identity``: the agent and model must match too (shards of one run)."""
    found = []
    for field in ("errata.digest",):
        if value_at(a, field) != value_at(b, field):
            found.append(f"{field}: {value_at(a, field)} vs {value_at(b, field)}")
    images_a, images_b = a.get("images") or {}, b.get("images") or {}
    for name in sorted(set(images_a) & set(images_b)):  # an image only one run used: its tasks differ
        if images_a[name] != images_b[name]:
            found.append(f"images.{name}: {', '.join(images_a[name])} vs {', '.join(images_b[name])}")
    for name in SCORING_SETTINGS:
        left, right = value_at(a, f"settings.{name}"), value_at(b, f"settings.{name}")
        if left != right:
            found.append(f"settings.{name}: {json.dumps(left)} vs {json.dumps(right)}")
    params_a, params_b = value_at(a, "agent.parameters") or {}, value_at(b, "agent.parameters") or {}
    for name in sorted(set(params_a) | set(params_b)):
        if (identity or name not in IDENTITY) and params_a.get(name) != params_b.get(name):
            found.append(f"agent.parameters.{name}: {json.dumps(params_a.get(name))} vs {json.dumps(params_b.get(name))}")
    if identity and value_at(a, "agent.name") != value_at(b, "agent.name"):
        found.append(f"agent.name: {value_at(a, 'agent.name')} vs {value_at(b, 'agent.name')}")
    if identity and value_at(a, "settings.agent_options") != value_at(b, "settings.agent_options"):
        found.append(f"settings.agent_options: {json.dumps(value_at(a, 'settings.agent_options'))} vs "
                     f"{json.dumps(value_at(b, 'settings.agent_options'))}")
    return found


def task_set_differences(a: Mapping[str, str], b: Mapping[str, str]) -> list[str]:
    """How two runs' task sets differ: tasks in one only, and shared tasks whose fingerprints differ
    (their files or the code that scores them changed between the runs)."""
    found = []
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    if only_a or only_b:
        found.append(f"tasks: {len(a)} vs {len(b)} tasks, {len(only_a)} only in the first, {len(only_b)} only in "
                     f"the second; compared on the {len(set(a) & set(b))} shared")
    changed = sorted(t for t in set(a) & set(b) if a[t] and b[t] and a[t] != b[t])
    if changed:
        found.append(f"tasks: {len(changed)} shared tasks have different fingerprints (their files or scoring "
                     f"changed), e.g. {changed[0]}")
    return found


def read_manifest(run: Path) -> JsonObject | None:
    """The run folder's manifest; None for a run from before manifests (or not a run)."""
    try:
        data = json.loads((run / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data else None


def properties(manifest: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The manifest flattened to ``spider2v.<path>`` name/value pairs: JUnit XML's test-suite
    properties, which hold strings only."""
    flat: list[tuple[str, str]] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict) and value:
            for key, inner in value.items():
                walk(f"{prefix}.{key}", inner)
        elif isinstance(value, list):
            flat.append((prefix, ", ".join(map(str, value))))
        else:
            flat.append((prefix, "" if value is None else str(value)))

    walk("spider2v", dict(manifest))
    return flat


def value_at(data: Mapping[str, Any], path: str) -> Any:
    """The value at ``path`` (``agent.parameters.temperature``); None where there is none."""
    value: Any = data
    for key in path.split("."):
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def now() -> str:
    """The time, as the manifest writes it (UTC, to the second)."""
    return timestamp(datetime.now(UTC))


def timestamp(moment: datetime) -> str:
    """``moment`` as the manifest writes a time."""
    return moment.isoformat(timespec="seconds")


def _version() -> str:
    try:
        return metadata.version("pytest-spider2v")
    except metadata.PackageNotFoundError:
        return "unknown"


def _commit() -> str:
    """The checkout's commit (with ``-dirty`` when it has changes); "" for an installed copy."""
    source = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(source), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(source), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f"{head}-dirty" if dirty else head


def _memory_gib() -> float | None:
    try:
        return round(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**30, 1)
    except (ValueError, OSError):
        return None
