"""Per-task records on disk: the single source for reports, summaries and ``--resume``.

Layout: ``<results_dir>/<run>/<app>/<task-key>/`` holding ``result.json``, ``trajectory.jsonl``,
``step_NNN.png`` (the screenshot after step N; ``step_000.png`` is the first observation),
``step_NNN.xml`` (accessibility tree, when the agent observed it), ``episode.mp4`` (the episode's
video, with ``--record-video``) and ``cache/`` (files the getters fetched). An attempt that ended in an infrastructure fault and was retried keeps its files in
``attempt_N/``. ``result.json`` is rewritten atomically after every change, so an interrupted run
keeps everything up to its last finished step.

:class:`TaskRecord` is a record's only writer, one named method per event of a task's life, so
no other module edits the result's fields; what it writes is the typed
:class:`~pytest_spider2v.run.results.TaskResult` (:mod:`pytest_spider2v.run.results`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_spider2v.run.agent import RecordedOutcome
from pytest_spider2v.run.json_values import JsonObject
from pytest_spider2v.run.results import (
    Attempt,
    Charge,
    Flag,
    IntegrityCheck,
    LiveView,
    MetricResult,
    ObservationFiles,
    Phase,
    Repeat,
    Step,
    TaskResult,
    TaskTimings,
    Video,
)
from pytest_spider2v.run.slugs import slug
from pytest_spider2v.tasks.model import Task

#: Setting names that may hold a secret (API keys, tokens, passwords): never written in clear.
#: A count of tokens (``max_tokens``, ``a11y_max_tokens``) is no secret, and a run's manifest states it.
SECRET_NAME = re.compile(r"key|token(?!s)|secret|password", re.IGNORECASE)
#: What a secret's value shows as, in records and reports alike.
MASKED = "***"
RESULT_FILE = "result.json"
TRAJECTORY_FILE = "trajectory.jsonl"
VIDEO_FILE = "episode.mp4"
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


def public_settings(settings: Any) -> Any:
    """``settings`` with the value of every entry whose name looks like a secret masked, at any
    depth: the one rule for secrets, applied when a record is written and again when a report
    shows one (a record from before the rule, or written by hand)."""
    if isinstance(settings, dict):
        return {k: MASKED if SECRET_NAME.search(str(k)) else public_settings(v) for k, v in settings.items()}
    if isinstance(settings, list):
        return [public_settings(v) for v in settings]
    return settings


def write_json_atomic(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False, default=str)
    os.replace(tmp, path)


def read_result(directory: Path) -> TaskResult | None:
    """The result recorded in ``directory``, or None when there is none (or it is unreadable)."""
    try:
        data = json.loads((directory / RESULT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return TaskResult.from_json(data) if isinstance(data, dict) else None


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
    def start(cls, directory: Path, task: Task, nodeid: str, agent: str, settings: JsonObject,
              repeat: Repeat | None = None, fingerprint: str = "") -> TaskRecord:
        """Begin a fresh record (an earlier, unfinished one for this task is replaced)."""
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
        result = TaskResult.of_task(task, nodeid, agent, settings)
        result.repeat, result.fingerprint = repeat, fingerprint
        result.timings.started = time.time()
        record = cls(directory, result)
        record.save()
        return record

    def save(self) -> None:
        write_json_atomic(self.directory / RESULT_FILE, self.result.to_json())

    @property
    def cache_dir(self) -> Path:
        """Host folder for the files getters fetch and steps produce."""
        return self.directory / "cache"

    def time(self, phase: Phase, seconds: float) -> None:
        self.result.timings.phases[phase] = round(seconds, 4)
        self.save()

    def observation(self, index: int, screenshot: bytes | None, accessibility_tree: str | None) -> ObservationFiles:
        """Store the observation after step ``index`` (0 = the first one) and name its files
        (none for an environment without a screen)."""
        name = f"step_{index:03d}"
        if screenshot is not None:
            (self.directory / f"{name}.png").write_bytes(screenshot)
        if accessibility_tree is not None:
            (self.directory / f"{name}.xml").write_text(accessibility_tree, encoding="utf-8")
        return ObservationFiles(f"{name}.png" if screenshot is not None else None,
                                f"{name}.xml" if accessibility_tree is not None else None)

    def first_observation(self, screenshot: bytes | None, accessibility_tree: str | None) -> None:
        """Store the observation the agent starts from."""
        self.result.initial_observation = self.observation(0, screenshot, accessibility_tree)
        self.save()

    def view(self, turn: int, png: bytes) -> str:
        """Store the image the agent was shown in ``turn`` (e.g. with Set-of-Marks); its file name."""
        name = f"turn_{turn:03d}_view.png"
        (self.directory / name).write_bytes(png)
        return name

    def step(self, step: Step) -> None:
        """Append one executed action (with its observation file names) and persist."""
        self.result.steps.append(step)
        with (self.directory / TRAJECTORY_FILE).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(step.to_json(), ensure_ascii=False, default=str) + "\n")
        self.save()

    def add_usage(self, usage: Mapping[str, object]) -> None:
        """Add one turn's token counts and cost to the task's totals."""
        for key, value in usage.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self.result.usage[key] = self.result.usage.get(key, 0) + value
        self.save()

    def stopped(self, reason: str) -> None:
        """Why the episode ended (DONE, FAIL, a limit)."""
        self.result.stop_reason = reason
        self.save()

    def ran_from(self, image: str) -> None:
        """The environment of the task was started from ``image`` (its digest)."""
        self.result.image = image
        self.save()

    def placed(self, node: str) -> None:
        """The environment of the task runs on cluster node ``node``."""
        self.result.node = node
        self.save()

    def flag(self, flag: Flag) -> None:
        """Something a reader of the score should know (an agent that broke its environment); once,
        however many attempts met it."""
        if flag not in self.result.flags:
            self.result.flags.append(flag)
        self.save()

    def answered(self, text: str) -> None:
        """The final answer the agent ended the episode with."""
        self.result.answer = text
        self.save()

    def watched(self, url: str, *, view_only: bool, page: str | None = None) -> None:
        """The desktop is served to a browser at ``url`` (with the agent's own ``page`` beside it)."""
        self.result.live_view = LiveView(url, view_only, page or "")
        self.save()

    def not_watched(self, reason: str) -> None:
        """A live view was asked for and could not be opened: why."""
        self.result.live_view = LiveView(error=reason)
        self.save()

    def recorded_video(self, data: bytes, seconds: float | None, problem: str = "") -> None:
        """The episode's video, ``seconds`` long (as the guest measured it), kept as
        :data:`VIDEO_FILE`; ``problem``: what the recorder complained of, if anything."""
        (self.directory / VIDEO_FILE).write_bytes(data)
        self.result.video = Video(VIDEO_FILE, seconds, problem)
        self.save()

    def no_video(self, reason: str) -> None:
        """Recording was asked for and no video came of it: why."""
        self.result.video = Video(error=reason)
        self.save()

    def replaying(self, earlier: RecordedOutcome) -> None:
        """This run re-executes the task's episode as an earlier run recorded it, which ended
        it as ``earlier`` says; the summary compares the new score."""
        self.result.replay_of = earlier
        self.save()

    def retry(self, detail: str) -> None:
        """Close the current attempt, which an infrastructure fault ended, before the next one.

        Its steps and files move to ``attempt_N/`` and an :class:`Attempt` in
        :attr:`TaskResult.attempts` says what went wrong; tokens spent stay counted, since they
        were paid for.
        """
        number = len(self.result.attempts) + 1
        folder = self.directory / f"attempt_{number}"
        folder.mkdir()
        for path in list(self.directory.iterdir()):
            if path.is_file() and _ATTEMPT_FILES.match(path.name):
                path.rename(folder / path.name)
        result = self.result
        result.attempts.append(Attempt(number, detail, folder.name, len(result.steps), dict(result.timings.phases),
                                       result.video))
        result.steps = []
        result.video = None
        result.live_view = None
        result.initial_observation = ObservationFiles()
        result.stop_reason = ""
        result.answer = None
        result.integrity = None
        result.timings = TaskTimings(started=result.timings.started)
        self.save()

    def checked_integrity(self, check: IntegrityCheck) -> None:
        """What the tamper checks of the evaluation found, or why there were none."""
        self.result.integrity = check
        self.save()

    def finish(self, status: str, score: float | None, detail: str,
               evaluation: list[MetricResult] | None = None, charge: Charge | None = None) -> None:
        """End the task; ``charge`` says whom an outcome other than a pass is charged to."""
        self.result.status, self.result.score, self.result.detail = status, score, detail
        self.result.charge = charge
        if evaluation is not None:
            self.result.evaluation = evaluation
        timings = self.result.timings
        timings.finished = time.time()
        if timings.started is not None:
            timings.total = round(timings.finished - timings.started, 3)
        self.save()
