"""Per-task records on disk: the single source for reports, summaries and ``--resume``.

Layout: ``<results_dir>/<run>/<app>/<task-key>/`` holding ``result.json``, ``trajectory.jsonl``,
``step_NNN.png`` (the screenshot after step N; ``step_000.png`` is the first observation),
``step_NNN.xml`` (accessibility tree, when the agent observed it), ``episode.mp4`` (the episode's
video, with ``--record-video``) and ``cache/`` (files the getters fetched). An attempt that ended in an infrastructure fault and was retried keeps its files in
``attempt_N/``. ``result.json`` is rewritten atomically after every change, so an interrupted run
keeps everything up to its last finished step.

:class:`TaskResult` is what ``result.json`` holds; :class:`TaskRecord` is its only writer, one
named method per event of a task's life, so no other module edits the result's fields.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_spider2v.tasks.model import Task

#: Setting names that may hold a secret (API keys, tokens, passwords): never written in clear.
SECRET_NAME = re.compile(r"key|token|secret|password", re.IGNORECASE)
#: What a secret's value shows as, in records and reports alike.
MASKED = "***"
RESULT_FILE = "result.json"
TRAJECTORY_FILE = "trajectory.jsonl"
VIDEO_FILE = "episode.mp4"
FINAL_STATUSES = ("passed", "failed")
#: Files of one attempt (moved aside when the attempt is retried); ``cache/`` stays shared.
_ATTEMPT_FILES = re.compile(r"^(step_\d{3}\.(png|xml)|turn_\d{3}_view\.png|trajectory\.jsonl|episode\.mp4)$")


def task_dir(results_dir: Path, run: str, task: Task) -> Path:
    """Where one task's record lives; stable across runs so that ``--resume`` finds it."""
    return results_dir / slug(run) / record_path(task)


def record_path(task: Task) -> Path:
    """A task's record folder within its run's folder, ``<app>/<task>``: the key by which a later
    run (``--resume``, a replay) finds the same task's record."""
    name = f"{task.id}-{task.variant}" if task.layout == "project" else task.id  # only a project file has variants
    return Path(slug(task.app)) / slug(name)


def slug(text: str) -> str:
    """``text`` as one folder name: anything but letters, digits and ``._+-`` becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", text).strip("_") or "_"


def public_settings(settings: Any) -> Any:
    """``settings`` with the value of every entry whose name looks like a secret masked, at any
    depth: the one rule for secrets, applied when a record is written and again when a report
    shows one (a record from before the rule, or written by hand)."""
    if isinstance(settings, dict):
        return {k: MASKED if SECRET_NAME.search(str(k)) else public_settings(v) for k, v in settings.items()}
    if isinstance(settings, list):
        return [public_settings(v) for v in settings]
    return settings


def write_json_atomic(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False, default=str)
    os.replace(tmp, path)


@dataclass
class TaskResult:
    """The content of ``result.json``: what the task is, how its run went, how it scored."""

    task_id: str
    nodeid: str
    task_file: str
    app: str
    apps: list[str]
    category: str
    interface: str
    difficulty: str
    variant: str
    account: bool
    instruction: str
    agent: str
    settings: dict[str, Any]
    status: str = "running"  #: running, then passed / failed / error / skipped
    score: float | None = None
    detail: str = ""
    #: per metric: func, score, detail
    evaluation: list[dict[str, Any]] = field(default_factory=list)
    #: one entry per executed action (see :mod:`pytest_spider2v.run.episode`), also in trajectory.jsonl
    steps: list[dict[str, Any]] = field(default_factory=list)
    #: started/finished (epoch) and seconds per phase: restore, setup, reset, episode, evaluation
    timings: dict[str, float] = field(default_factory=dict)
    #: tokens and cost summed over every turn of every attempt
    usage: dict[str, float] = field(default_factory=dict)
    initial_observation: dict[str, str] = field(default_factory=dict)
    stop_reason: str = ""
    #: the final answer the agent ended with (DONE carrying a text), for tasks that ask a question
    answer: str | None = None
    #: what the task's format knows of it beyond the schema (DABench: concepts, answer names)
    facets: dict[str, Any] = field(default_factory=dict)
    #: earlier attempts that ended in an infrastructure fault: attempt, detail, folder, steps
    attempts: list[dict[str, Any]] = field(default_factory=list)
    #: the desktop served to a browser (``--live``, or an agent working through it): ``url``,
    #: ``view_only`` and the agent's own ``page`` if it has one; or ``error``, why there is none
    live_view: dict[str, Any] = field(default_factory=dict)
    #: the episode's video (``--record-video``): ``file`` and ``seconds``, or ``error``, why there is none
    video: dict[str, Any] = field(default_factory=dict)
    #: the earlier run an agent re-executed (``replay``): its ``run`` folder, ``agent``, ``status``, ``score``
    replay_of: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TaskResult:
        """A result read back; keys this version does not know are ignored."""
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def finished(self) -> bool:
        return self.status in FINAL_STATUSES


def read_result(directory: Path) -> TaskResult | None:
    """The result recorded in ``directory``, or None when there is none (or it is unreadable)."""
    try:
        return TaskResult.from_json(json.loads((directory / RESULT_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def recorded_outcome(result: TaskResult | None, agent: str) -> TaskResult | None:
    """A finished record of the same agent, reusable by ``--resume``."""
    if result is not None and result.finished and result.agent == agent:
        return result
    return None


@dataclass
class TaskRecord:
    """Writes one task's record as the run goes; every change is saved at once."""

    directory: Path
    result: TaskResult

    @classmethod
    def start(cls, directory: Path, task: Task, nodeid: str, agent: str, settings: dict[str, Any]) -> TaskRecord:
        """Begin a fresh record (an earlier, unfinished one for this task is replaced)."""
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
        result = TaskResult(
            task_id=task.id, nodeid=nodeid, task_file=str(task.path), app=task.app,
            apps=list(task.spec.related_apps), category=task.category, interface=task.interface,
            difficulty=task.difficulty, variant=task.variant, account=task.account,
            instruction=task.instruction, agent=agent, settings=settings, timings={"started": time.time()},
            facets=dict(task.facets),
        )
        record = cls(directory, result)
        record.save()
        return record

    def save(self) -> None:
        write_json_atomic(self.directory / RESULT_FILE, self.result.to_json())

    @property
    def cache_dir(self) -> Path:
        """Host folder for the files getters fetch and steps produce."""
        return self.directory / "cache"

    def time(self, name: str, seconds: float) -> None:
        self.result.timings[name] = round(seconds, 4)
        self.save()

    def seconds(self, name: str) -> float:
        return float(self.result.timings.get(name, 0.0))

    def observation(self, index: int, screenshot: bytes | None, accessibility_tree: str | None) -> dict[str, str]:
        """Store the observation after step ``index`` (0 = the first one) and name its files
        (none for an environment without a screen)."""
        files: dict[str, str] = {}
        if screenshot is not None:
            files["screenshot"] = f"step_{index:03d}.png"
            (self.directory / files["screenshot"]).write_bytes(screenshot)
        if accessibility_tree is not None:
            files["accessibility_tree"] = f"step_{index:03d}.xml"
            (self.directory / files["accessibility_tree"]).write_text(accessibility_tree, encoding="utf-8")
        return files

    def first_observation(self, screenshot: bytes | None, accessibility_tree: str | None) -> None:
        """Store the observation the agent starts from."""
        self.result.initial_observation = self.observation(0, screenshot, accessibility_tree)
        self.save()

    def view(self, turn: int, png: bytes) -> str:
        """Store the image the agent was shown in ``turn`` (e.g. with Set-of-Marks); its file name."""
        name = f"turn_{turn:03d}_view.png"
        (self.directory / name).write_bytes(png)
        return name

    def step(self, entry: dict[str, Any]) -> None:
        """Append one executed action (with its observation file names) and persist."""
        self.result.steps.append(entry)
        with (self.directory / TRAJECTORY_FILE).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")
        self.save()

    def add_usage(self, usage: dict[str, Any]) -> None:
        """Add one turn's token counts and cost to the task's totals."""
        for key, value in usage.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self.result.usage[key] = self.result.usage.get(key, 0) + value
        self.save()

    def stopped(self, reason: str) -> None:
        """Why the episode ended (DONE, FAIL, a limit)."""
        self.result.stop_reason = reason
        self.save()

    def answered(self, text: str) -> None:
        """The final answer the agent ended the episode with."""
        self.result.answer = text
        self.save()

    def watched(self, url: str, *, view_only: bool, page: str | None = None) -> None:
        """The desktop is served to a browser at ``url`` (with the agent's own ``page`` beside it)."""
        self.result.live_view = {"url": url, "view_only": view_only, **({"page": page} if page else {})}
        self.save()

    def not_watched(self, reason: str) -> None:
        """A live view was asked for and could not be opened: why."""
        self.result.live_view = {"error": reason}
        self.save()

    def recorded_video(self, seconds: float | None, problem: str = "") -> None:
        """The episode's video is in :data:`VIDEO_FILE`, ``seconds`` long (as the guest measured
        it); ``problem``: what the recorder complained of, if anything."""
        self.result.video = {"file": VIDEO_FILE, "seconds": seconds, **({"problem": problem} if problem else {})}
        self.save()

    def no_video(self, reason: str) -> None:
        """Recording was asked for and no video came of it: why."""
        self.result.video = {"error": reason}
        self.save()

    def replaying(self, run: str, agent: str, status: str, score: float | None) -> None:
        """This run re-executes the task's episode as recorded in an earlier ``run``, where
        ``agent`` ended it with ``status`` and ``score``; the summary compares the new score."""
        self.result.replay_of = {"run": run, "agent": agent, "status": status, "score": score}
        self.save()

    def retry(self, detail: str) -> None:
        """Close the current attempt, which an infrastructure fault ended, before the next one.

        Its steps and files move to ``attempt_N/`` and a line in :attr:`TaskResult.attempts`
        says what went wrong; tokens spent stay counted, since they were paid for.
        """
        number = len(self.result.attempts) + 1
        folder = self.directory / f"attempt_{number}"
        folder.mkdir()
        for path in list(self.directory.iterdir()):
            if path.is_file() and _ATTEMPT_FILES.match(path.name):
                path.rename(folder / path.name)
        phases = {k: v for k, v in self.result.timings.items() if k not in ("started",)}
        self.result.attempts.append({"attempt": number, "detail": detail, "folder": folder.name,
                                     "steps": len(self.result.steps), "timings": phases,
                                     **({"video": self.result.video} if self.result.video else {})})
        self.result.steps = []
        self.result.video = {}
        self.result.live_view = {}
        self.result.initial_observation = {}
        self.result.stop_reason = ""
        self.result.answer = None
        self.result.timings = {"started": self.result.timings["started"]}
        self.save()

    def finish(self, status: str, score: float | None, detail: str,
               evaluation: list[dict[str, Any]] | None = None) -> None:
        self.result.status, self.result.score, self.result.detail = status, score, detail
        if evaluation is not None:
            self.result.evaluation = evaluation
        finished = time.time()
        self.result.timings["finished"] = finished
        self.result.timings["total"] = round(finished - self.result.timings["started"], 3)
        self.save()
