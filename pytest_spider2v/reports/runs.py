"""A run read back from its folder: its task records and its manifest, what every
``spider2v-report`` command starts from. Nothing is run; a run that was interrupted or killed
reads like a finished one, its unfinished tasks counted as errors (scored 0)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pytest_spider2v.reports import manifest
from pytest_spider2v.reports.summary import RunSummary, summarize
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.json_values import JsonObject
from pytest_spider2v.run.records import RESULT_FILE, read_result


class NotARun(ValueError):
    """A folder that holds no task record."""


@dataclass(frozen=True)
class RecordedRun:
    """One run folder (``results/<run>``) as its records and manifest say."""

    folder: Path
    tasks: list[TaskSummary]
    #: the manifest written at the start, completed from the records; {} for a run from before manifests
    manifest: JsonObject

    @classmethod
    def read(cls, folder: Path) -> RecordedRun:
        tasks = run_summaries(folder)
        if not tasks:
            raise NotARun(f"no task record ({RESULT_FILE}) in {folder}")
        started = manifest.read_manifest(folder)
        done = manifest.completed(started, tasks, finished=False) if started else {}
        if started and "finished" in started:
            done["finished"] = started["finished"]
        return cls(folder, tasks, done)

    @property
    def name(self) -> str:
        return self.folder.name

    @cached_property
    def summary(self) -> RunSummary:
        return summarize(self.tasks)

    def record_folders(self) -> dict[str, Path]:
        """Each record's folder, by its path within the run folder."""
        return {path.parent.relative_to(self.folder).as_posix(): path.parent
                for path in sorted(self.folder.rglob(RESULT_FILE))}


def run_summaries(run: Path) -> list[TaskSummary]:
    """Every task record of the run folder ``run``, as the summary counts it."""
    summaries = []
    for path in sorted(run.rglob(RESULT_FILE)):
        result = read_result(path.parent)
        if result is not None:
            summaries.append(TaskSummary.of(result))
    return summaries
