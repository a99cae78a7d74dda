"""``--live`` and ``--record-video`` through the whole pipeline, without Docker: a project task
runs in the screen stand-in (:mod:`pytest_spider2v.testing.screen`), whose live view and recorder
behave as the guest's do. What the real guest serves and records is the end-to-end tests'.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.run.agent import Agent, Observation, Turn
from pytest_spider2v.run.lifecycle import TaskRun
from pytest_spider2v.run.results import LiveView, Video
from pytest_spider2v.run.settings import EpisodeSettings, RunSettings
from pytest_spider2v.tasks.loading import load_task_file
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import start_record, task_document, write_task
from pytest_spider2v.testing.screen import PLACEHOLDER_MP4, ScreenProvider
from tests.support.shared import REPO

CONFTEST = f"""
import sys
sys.path.insert(0, {str(REPO)!r})
from pytest_spider2v.testing.screen import register
register()
"""
NODE = "tasks/terminal/marker/task.json::marker[abstract]"


def marker_task(root: Path, task_id: str = "marker") -> Path:
    """A project task the oracle solves by writing a file in the guest's home."""
    return write_task(root, task_document(
        id=task_id, instruction="Write done into marker.txt.", related_apps=["terminal"],
        tags=["traditional_data_processing", "cli"],
        evaluator={"func": "check_include_exclude",
                   "result": {"type": "vm_command_line", "command": "cat marker.txt", "shell": True},
                   "expected": {"type": "rule", "rules": {"include": ["done"], "exclude": []}}}),
        solution='# %% write the marker\nopen("marker.txt", "w").write("done")\n')


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    pytester.makeconftest(CONFTEST)
    marker_task(pytester.path)
    return pytester.path


def record(root: Path, run: str = "oracle", task: str = "marker-abstract") -> dict[str, Any]:
    return json.loads((root / "results" / run / "terminal" / task / "result.json").read_text())


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("tasks", "--agent", "oracle", "--provider", "screen", "-p", "no:cacheprovider",
                                         *args)


def test_live_announces_each_tasks_view_as_it_starts_and_records_it(pytester: pytest.Pytester, project: Path) -> None:
    result = run(pytester, "--live")
    result.assert_outcomes(passed=1)
    url = "http://127.0.0.1:6080/vnc.html?autoconnect=1&view_only=1"
    result.stdout.fnmatch_lines([f"live view of {NODE}: {url}"])
    assert record(project)["live_view"] == {"url": url, "view_only": True}
    assert record(project)["settings"]["live"] is True


def test_under_xdist_the_view_reaches_the_controllers_terminal(pytester: pytest.Pytester, project: Path) -> None:
    marker_task(project, "second")
    result = run(pytester, "--live", "-n", "2")
    result.assert_outcomes(passed=2)
    said = [line for line in result.stderr.lines if "live view of" in line]
    assert sorted(line.split("] ", 1)[1].split(":", 1)[0] for line in said) == [
        "live view of tasks/terminal/marker/task.json", "live view of tasks/terminal/second/task.json"]
    assert {line[:5] for line in said} <= {"[gw0]", "[gw1]"}


def test_without_live_nothing_is_served(pytester: pytest.Pytester, project: Path) -> None:
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert "live view" not in result.stdout.str() + result.stderr.str()
    assert record(project)["live_view"] == {}


def test_the_video_lands_in_the_record_and_plays_in_the_self_contained_report(
        pytester: pytest.Pytester, project: Path) -> None:
    result = run(pytester, "--record-video", "--html=report.html", "--self-contained-html")
    result.assert_outcomes(passed=1)
    saved = record(project)
    assert saved["video"]["file"] == "episode.mp4" and isinstance(saved["video"]["seconds"], float)
    folder = project / "results" / "oracle" / "terminal" / "marker-abstract"
    assert (folder / "episode.mp4").read_bytes() == PLACEHOLDER_MP4
    report = (project / "report.html").read_text()
    assert "data:video/mp4;base64," + base64.b64encode(PLACEHOLDER_MP4).decode() in report
    assert "episode video (" in report and "episode.mp4" in report


def test_a_report_with_an_assets_folder_links_the_video_where_it_lies(pytester: pytest.Pytester, project: Path) -> None:
    result = run(pytester, "--record-video", "--html=reports/report.html")
    result.assert_outcomes(passed=1)
    report = (project / "reports" / "report.html").read_text()
    assert "../results/oracle/terminal/marker-abstract/episode.mp4" in report
    assert not list((project / "reports" / "assets").glob("*.mp4"))  # not copied


def test_a_recording_that_cannot_start_leaves_the_outcome_alone_and_says_why(
        pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPIDER2V_STANDIN_RECORDING", "broken")
    result = run(pytester, "--record-video", "--html=report.html", "--self-contained-html")
    result.assert_outcomes(passed=1)
    assert record(project)["video"] == {
        "error": "could not start recording: EnvironmentFault: local: POST /recording/start -> 500: ffmpeg: not found"}
    assert "could not start recording" in (project / "report.html").read_text()


class InterruptedAgent(Agent):
    """Acts once, then the person at the keyboard presses Ctrl-C."""

    needs_accessibility_tree = False

    def __init__(self) -> None:
        self.turns = 0

    def reset(self, task: Task) -> None:
        self.turns = 0

    def act(self, instruction: str, observation: Observation) -> Turn:
        self.turns += 1
        if self.turns > 1:
            raise KeyboardInterrupt
        return Turn("write", ['open("marker.txt", "w").write("done")'])


def test_an_interrupted_episode_keeps_its_video(tmp_path: Path) -> None:
    [task] = [t for t in load_task_file(marker_task(tmp_path)) if isinstance(t, Task)]
    provider = ScreenProvider()
    record_ = start_record(tmp_path / "record", task)
    settings = RunSettings(EpisodeSettings(sleep_after_action=0), record_video=True)
    task_run = TaskRun(task, record_, "fake", InterruptedAgent, lambda: provider, settings)
    with pytest.raises(KeyboardInterrupt):
        task_run.outcome()
    task_run.close()
    assert (tmp_path / "record" / "episode.mp4").read_bytes() == PLACEHOLDER_MP4
    assert record_.result.video is not None and record_.result.video.file == "episode.mp4"
    assert record_.result.status == "interrupted"


def test_a_screenless_environment_is_neither_watched_nor_recorded(tmp_path: Path) -> None:
    [task] = [t for t in load_task_file(marker_task(tmp_path)) if isinstance(t, Task)]
    provider = ScreenProvider()
    original = provider.acquire

    def screenless(snapshot: str):
        env = original(snapshot)
        env.display = False
        return env

    provider.acquire = screenless  # type: ignore[method-assign]
    record_ = start_record(tmp_path / "record", task, agent="oracle")
    said: list[str] = []
    settings = RunSettings(EpisodeSettings(sleep_after_action=0), live=True, record_video=True)
    from pytest_spider2v.agents.oracle import OracleAgent

    task_run = TaskRun(task, record_, "oracle", OracleAgent, lambda: provider, settings, announce=said.append)
    assert task_run.outcome().score == 1.0
    task_run.close()
    assert record_.result.live_view == LiveView(error="the 'desktop' environment has no screen")
    assert record_.result.video == Video(error="the environment has no screen to record")
    assert said == ["no live view of n: the 'desktop' environment has no screen"]
