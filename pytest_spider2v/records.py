"""Per-task records on disk: the single source for reports, summaries and ``--resume``.

Layout: ``<results_dir>/<run>/<app>/<task-key>/`` holding ``result.json``, ``trajectory.jsonl``,
``step_NNN.png`` (the screenshot after step N; ``step_000.png`` is the first observation),
``step_NNN.xml`` (accessibility tree, when the agent observed it) and ``cache/`` (files the getters
fetched). ``result.json`` is rewritten atomically after every step, so an interrupted run keeps
everything up to its last finished step.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .task import Task

#: Setting names that may hold a secret (API keys, tokens, passwords): never written in clear.
SECRET_NAME = re.compile(r"key|token|secret|password", re.IGNORECASE)
RESULT_FILE = "result.json"
TRAJECTORY_FILE = "trajectory.jsonl"
FINAL_STATUSES = ("passed", "failed")


def task_dir(results_dir: Path, run: str, task: Task) -> Path:
    """Where one task's record lives; stable across runs so that ``--resume`` finds it."""
    name = task.id if task.layout == "spider2v" else f"{task.id}-{task.variant}"
    return results_dir / _slug(run) / _slug(task.app) / _slug(name)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", text).strip("_") or "_"


def write_json_atomic(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False, default=str)
    os.replace(tmp, path)


def read_result(directory: Path) -> dict[str, Any] | None:
    try:
        return json.loads((directory / RESULT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@dataclass
class TaskRecord:
    """Writes one task's record as the episode goes."""

    directory: Path
    result: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, directory: Path, task: Task, nodeid: str, agent: str, settings: dict[str, Any]) -> TaskRecord:
        """Begin a fresh record (an earlier, unfinished one for this task is replaced)."""
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
        record = cls(directory)
        record.result = {
            "task_id": task.id,
            "nodeid": nodeid,
            "task_file": str(task.path),
            "app": task.app,
            "apps": list(task.spec.related_apps),
            "category": task.category,
            "interface": task.interface,
            "difficulty": task.difficulty,
            "variant": task.variant,
            "account": task.account,
            "instruction": task.instruction,
            "agent": agent,
            "settings": settings,
            "status": "running",
            "score": None,
            "detail": "",
            "evaluation": [],
            "steps": [],
            "timings": {"started": time.time()},
            "usage": {},
        }
        record.save()
        return record

    def save(self) -> None:
        write_json_atomic(self.directory / RESULT_FILE, self.result)

    def time(self, name: str, seconds: float) -> None:
        self.result["timings"][name] = round(seconds, 4)
        self.save()

    def observation(self, index: int, screenshot: bytes, accessibility_tree: str | None) -> dict[str, str]:
        """Store the observation after step ``index`` (0 = the first one) and name its files."""
        files = {"screenshot": f"step_{index:03d}.png"}
        (self.directory / files["screenshot"]).write_bytes(screenshot)
        if accessibility_tree is not None:
            files["accessibility_tree"] = f"step_{index:03d}.xml"
            (self.directory / files["accessibility_tree"]).write_text(accessibility_tree, encoding="utf-8")
        return files

    def view(self, turn: int, png: bytes) -> str:
        """Store the image the agent was shown in ``turn`` (e.g. with Set-of-Marks); its file name."""
        name = f"turn_{turn:03d}_view.png"
        (self.directory / name).write_bytes(png)
        return name

    def step(self, entry: dict[str, Any]) -> None:
        """Append one executed action (with its observation file names) and persist."""
        self.result["steps"].append(entry)
        with (self.directory / TRAJECTORY_FILE).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")
        self.save()

    def finish(self, status: str, score: float | None, detail: str, evaluation: list[dict[str, Any]] | None = None) -> None:
        self.result.update(status=status, score=score, detail=detail)
        if evaluation is not None:
            self.result["evaluation"] = evaluation
        self.result["timings"]["finished"] = time.time()
        self.result["timings"]["total"] = round(self.result["timings"]["finished"] - self.result["timings"]["started"], 3)
        self.save()


def recorded_outcome(result: dict[str, Any] | None, agent: str) -> dict[str, Any] | None:
    """A finished record of the same agent, reusable by ``--resume``."""
    if result and result.get("status") in FINAL_STATUSES and result.get("agent") == agent:
        return result
    return None
