"""The episode's video (``--record-video``): the guest records its screen from the first
observation to the end of the evaluation, and the MP4 lands in the task's record.

A video serves the people who read the record; it must never change a task's outcome. A failure
to start, stop or fetch the recording is kept in the record (``video.error`` in ``result.json``)
and logged, and the task goes on. Whatever ends the episode (a score, an error, Ctrl-C), the
recording is stopped and fetched on the way out, so an interrupted run keeps what was recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.run.records import TaskRecord

log = logging.getLogger(__name__)

#: Where the guest writes the recording; every task has a fresh environment, so one path does.
GUEST_PATH = "/tmp/spider2v/episode.mp4"


@contextmanager
def recording(env: Environment, record: TaskRecord) -> Iterator[None]:
    """Record ``env``'s screen while the body runs; the video (or why there is none) lands in
    ``record`` however the body ends."""
    if not env.display:
        _lost(record, "the environment has no screen to record")
        yield
        return
    try:
        env.start_recording(GUEST_PATH)
    except Exception as exc:  # whatever went wrong, the task goes on without a video
        _lost(record, f"could not start recording: {_describe(exc)}")
        yield
        return
    try:
        yield
    finally:
        _fetch(env, record)


def _fetch(env: Environment, record: TaskRecord) -> None:
    try:
        stopped = env.stop_recording()
        data = env.download(str(stopped.get("path") or GUEST_PATH))
    except Exception as exc:  # as above: the outcome stands, the record says why
        _lost(record, f"could not stop or fetch the recording: {_describe(exc)}")
        return
    complaints = str(stopped.get("errors") or "").strip()
    if not data:
        _lost(record, "the recorder left no file" + (f": {complaints}" if complaints else ""))
        return
    seconds = stopped.get("seconds")
    record.recorded_video(data, float(seconds) if isinstance(seconds, (int, float)) else None, complaints)


def _lost(record: TaskRecord, reason: str) -> None:
    log.warning("%s: no video: %s", record.result.nodeid or record.result.task_id, reason)
    record.no_video(reason)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
