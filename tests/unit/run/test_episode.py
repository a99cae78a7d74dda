"""Environments without a screen (``display: false`` in snapshots.yaml): observed through their
actions' output alone, with no screenshots, trees, settle time or pyautogui prefix."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pytest_spider2v.environments.base import PYAUTOGUI_PREFIX, ExecResult
from pytest_spider2v.environments.snapshots import load_snapshots
from pytest_spider2v.reports.html import render_task
from pytest_spider2v.run.agent import Agent, Observation, Turn
from pytest_spider2v.run.episode import first_observation, run_episode
from pytest_spider2v.run.results import ObservationFiles
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_context, make_task, start_record, task_document
from pytest_spider2v.testing.fakes import FakeEnvironment


def test_a_snapshot_says_whether_it_has_a_screen(tmp_path: Path) -> None:
    (tmp_path / "snapshots.yaml").write_text(
        "snapshots:\n  desktop: desktop\n  analysis: {recipe: analysis, display: false}\n")
    snapshots = load_snapshots(tmp_path)
    assert snapshots["desktop"].display is True and snapshots["analysis"].display is False


def test_display_must_be_a_yes_or_no(tmp_path: Path) -> None:
    (tmp_path / "snapshots.yaml").write_text("snapshots:\n  odd: {recipe: odd, display: 'no screen'}\n")
    with pytest.raises(ValueError, match="snapshot 'odd': display must be true or false"):
        load_snapshots(tmp_path)


def headless() -> FakeEnvironment:
    """An environment without a screen: nothing of a screen is scripted, so asking it for a
    screenshot or a tree fails the test; every action prints 34.65."""
    return FakeEnvironment(display=False, on_execute=lambda command: ExecResult(0, "34.65\n", ""))


class Coder(Agent):
    """Runs code once, then says DONE; remembers what it observed."""

    needs_accessibility_tree = True  # asks for trees, which a screenless environment cannot give

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    def reset(self, task: Task) -> None:
        pass

    def act(self, instruction: str, observation: Observation) -> Turn:
        self.seen.append(observation)
        return Turn("compute", ["print(34.65)"]) if len(self.seen) == 1 else Turn("done", ["DONE"])


def a_task() -> Task:
    return make_task(task_document(id="q1", snapshot="analysis", instruction="x", related_apps=["dabench"],
                                   tags=["cli"], action_number=2, evaluator={"func": "infeasible"}),
                     layout="dabench", variant="closed_form", root=Path("."), path=Path("q.jsonl"))


def test_an_episode_without_a_screen_records_output_and_no_images(tmp_path: Path) -> None:
    env, agent = headless(), Coder()
    record = start_record(tmp_path / "record", a_task(), agent="coder")
    ctx = make_context(env, a_task(), cache_dir=record.cache_dir)
    first = first_observation(env, with_tree=True)
    record.first_observation(first.screenshot, first.accessibility_tree)
    started = time.monotonic()
    episode = run_episode(ctx, agent, record, first, EpisodeSettings(sleep_after_action=5.0))
    assert time.monotonic() - started < 2.0  # no settle time: there is no screen to settle
    assert episode.stop_reason == "DONE"
    assert [o.screenshot for o in agent.seen] == [None, None]
    assert agent.seen[1].infos == ({"status": "success", "output": "34.65\n", "error": "", "returncode": 0},)
    assert env.commands == [["python3", "-c", "print(34.65)"]]  # no pyautogui: it needs a screen
    assert [call.method for call in env.calls] == ["run_python", "execute"]  # and nothing of a screen was asked
    assert not list(record.directory.glob("step_*"))
    assert record.result.initial_observation == ObservationFiles()
    assert [s.observation for s in record.result.steps] == [ObservationFiles(), ObservationFiles()]
    saved = json.loads((record.directory / "result.json").read_text())
    assert saved["initial_observation"] == {} and [s["observation"] for s in saved["steps"]] == [{}, {}]
    html = render_task(record.result, record.directory)
    assert "screenshot after the step" not in html and "34.65" in html


def test_an_environment_with_a_screen_keeps_the_pyautogui_prefix() -> None:
    env = FakeEnvironment(display=True, on_execute=lambda command: ExecResult(0, "", ""))
    env.run_python("pyautogui.click(1, 2)")
    assert env.commands == [["python3", "-c", PYAUTOGUI_PREFIX + "pyautogui.click(1, 2)"]]
