"""Records written by an earlier version still load: into the typed result, for ``--resume`` and for
a replay of their run. The record under ``data/records/v0.1`` is a real one, written by version
0.1.0 before records were typed (its README says how); the typed result writes it back byte for
byte in layout, so the files on disk keep their shape."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_spider2v.agents.replay import ReplayAgent
from pytest_spider2v.run.agent import RecordedOutcome, done_with_answer
from pytest_spider2v.run.records import read_result, record_path, recorded_outcome
from pytest_spider2v.run.results import Attempt, LiveView, MetricResult, ObservationFiles, Step, TaskResult, Video
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_task, task_document, write_task
from tests.support.shared import REPO, UNIT_DATA

V0_1 = UNIT_DATA / "records" / "v0.1"
DOCUMENT = task_document(
    id="busiest-month", instruction="Which month had the most sales? Answer @month[name].",
    related_apps=["chromium", "libreoffice_calc"], tags=["data_analysis_and_visualization", "gui"], action_number=3,
    evaluator={"func": "closed_form", "result": {"type": "final_answer"},
               "expected": {"type": "rule", "rules": [["month", "March"]]}})
NODE = "tasks/chromium/busiest-month/task.json::busiest-month[abstract]"


def task() -> Task:
    return make_task(DOCUMENT)


def record_dir() -> Path:
    return V0_1 / record_path(task())


def test_a_v0_1_record_loads_into_the_typed_result() -> None:
    result = read_result(record_dir())
    assert result is not None
    assert (result.nodeid, result.agent, result.status, result.score) == (NODE, "human", "passed", 1.0)
    assert result.evaluation == [MetricResult("closed_form", 1.0, "1 of 1 sub-answers right", (
        {"name": "month", "expected": "March", "given": "March", "correct": True},))]
    assert [(s.index, s.turn, s.kind) for s in result.steps] == [(1, 1, "code"), (2, 1, "code"), (3, 2, "none"),
                                                                 (3, 3, "DONE")]
    clicked, typed, no_action, done = result.steps
    assert clicked.view == "turn_001_view.png" and clicked.usage["prompt_tokens"] == 1200 and len(clicked.prompt) == 2
    assert clicked.observation == ObservationFiles("step_001.png", "step_001.xml")
    assert clicked.info == {"status": "success", "output": "clicked\n", "error": "", "returncode": 0}
    assert typed.action == {"action_type": "TYPING", "text": "sort"} and typed.usage == {} and typed.view is None
    assert (no_action.action, no_action.timings, no_action.observation) == (None, None, None)
    assert no_action.info == {"status": "error", "message": "no valid action in the reply"}
    assert done.action == done_with_answer("@month[March]") and done.answer == "@month[March]"
    assert result.answer == "@month[March]" and result.stop_reason == "DONE"
    assert list(result.timings.phases) == ["restore", "setup", "reset", "episode", "evaluation"]
    assert result.timings.total is not None and result.usage["completion_tokens"] == 320
    assert result.initial_observation == ObservationFiles("step_000.png", "step_000.xml")
    assert result.attempts == [Attempt(1, "EnvironmentFault: POST /execute failed: connection refused", "attempt_1",
                                       0, result.attempts[0].timings, Video("episode.mp4", 4.2))]
    assert result.live_view == LiveView(
        "http://127.0.0.1:49161/vnc.html?autoconnect=1&resize=scale&reconnect=1&view_only=0", False,
        "http://127.0.0.1:8765/")
    assert result.video == Video("episode.mp4", 4.2)
    assert result.replay_of == RecordedOutcome("results/gpt-4o", "gpt-4o", "failed", 0.0)
    assert result.facets == {"answer_names": ["month"], "concepts": ["Summary Statistics"]}
    assert result.settings["agent_options"] == {"every": "5", "api_key": "***"}


def test_the_typed_result_writes_a_v0_1_record_back_as_it_was() -> None:
    """Every key, in its place, omitted where it was omitted: the files on disk keep their layout."""
    written = (record_dir() / "result.json").read_text(encoding="utf-8")
    result = read_result(record_dir())
    assert result is not None
    assert json.dumps(result.to_json(), indent=2, ensure_ascii=False) == written
    lines = (record_dir() / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.dumps(Step.from_json(json.loads(line)).to_json(), ensure_ascii=False) for line in lines] == lines


def test_missing_and_unknown_keys_are_tolerated() -> None:
    result = TaskResult.from_json({"task_id": "t", "status": "failed", "score": 0, "added_later": {"x": 1},
                                   "steps": [{"action": "pyautogui.click()", "kind": "code"}, "not a step"],
                                   "evaluation": [{"func": "m", "parts": "not a list"}], "timings": {"total": "?"}})
    assert (result.task_id, result.status, result.score, result.nodeid, result.apps) == ("t", "failed", 0, "", [])
    assert result.steps == [Step(0, None, "", "pyautogui.click()", "code", {}, duration=0.0, think=0.0)]
    assert result.evaluation == [MetricResult("m", 0.0, "")] and result.timings.total is None
    assert (result.live_view, result.video, result.replay_of) == (None, None, None)


def test_what_a_metric_raised_is_written_only_where_it_raised() -> None:
    crashed = MetricResult("compare_table", 0.0, "compare_table raised KeyError: 'B'", raised="KeyError: 'B'")
    assert MetricResult.from_json(crashed.to_json()) == crashed
    assert "raised" not in MetricResult("compare_table", 0.0, "did not match").to_json()


def test_resume_reuses_a_v0_1_record_without_running_the_task_again(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(f"import sys\nsys.path.insert(0, {str(REPO)!r})\n"
                          "from pytest_spider2v.testing.screen import register\nregister()\n")
    write_task(pytester.path, DOCUMENT)
    kept = pytester.path / "results" / "v0.1" / record_path(task())
    shutil.copytree(record_dir(), kept)
    assert recorded_outcome(read_result(kept), "human") is not None
    before = (kept / "result.json").read_bytes()
    result = pytester.runpytest_subprocess(
        "tasks", "--agent", "human", "--agent-option", "terminal=no", "--provider", "screen", "--task-timeout", "1",
        "--run-name", "v0.1", "--resume", "--html=report.html", "--self-contained-html", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["1 tasks: success rate 100.0% *", "*accuracy by question*100.00%"])
    assert (kept / "result.json").read_bytes() == before  # reused, not run again
    report = (pytester.path / "report.html").read_text(encoding="utf-8")
    assert "Retried attempts" in report and "@month[March]" in report and "episode video (4 s)" in report


def test_the_replay_agent_plays_the_turns_of_a_v0_1_record() -> None:
    agent = ReplayAgent("replay:v0.1", V0_1, pace="fast")
    agent.reset(task())
    assert agent.replays == RecordedOutcome(str(V0_1), "human", "passed", 1.0)
    assert agent.episode_settings(EpisodeSettings()).max_steps == 3
    turns = [agent.act("x", observation=None) for _ in range(3)]  # type: ignore[arg-type]  # a replay looks at nothing
    assert [turn.actions for turn in turns] == [["pyautogui.click(10, 20)", {"action_type": "TYPING", "text": "sort"}],
                                                [], [done_with_answer("@month[March]")]]
    assert turns[0].response == "Open the sheet and sort."
