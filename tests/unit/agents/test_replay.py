"""``--agent replay:<run folder>``: recorded turns played back, task by task, with no model; and
the summary's list of tasks whose outcome changed. Records are fabricated here, or written by an
oracle run of DABench questions in the screenless stand-in (:mod:`pytest_spider2v.testing.local`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.agents import replay
from pytest_spider2v.agents.replay import ReplayAgent, make_replay, recorded_turns
from pytest_spider2v.registry import Unavailable
from pytest_spider2v.reports.summary import OutcomeChange, ReplayComparison, format_summary, summarize
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.agent import AgentSettings, Observation, RecordedOutcome, run_read_by
from pytest_spider2v.run.records import record_path
from pytest_spider2v.run.results import Step, TaskResult
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import answer_evaluator, make_task, start_record, task_document
from tests.support.dabench import make_checkout
from tests.support.shared import REPO

NOTHING = Observation(None)
DONE_MARCH = {"action_type": "DONE", "answer": "March"}
STEPS = [
    Step(1, 1, "two clicks", "pyautogui.click(1, 2)", "code", {}, duration=0.1, think=2.5),
    Step(2, 1, "two clicks", "pyautogui.click(3, 4)", "code", {}, duration=0.1, think=0.0),
    Step(2, 2, "I am not sure", None, "none", {}, duration=0.0, think=1.0),
    Step(3, 3, "computer_13", {"action_type": "TYPING", "text": "x"}, "code", {}, duration=0.1, think=0.5),
    Step(4, 4, "DONE\nMarch", DONE_MARCH, "DONE", {}, duration=0.1, think=0.25),
]


def task(task_id: str = "month") -> Task:
    return make_task(task_document(id=task_id, instruction="x", related_apps=["chromium"],
                                   tags=["data_analysis_and_visualization", "gui"], action_number=2,
                                   evaluator=answer_evaluator("March")))


def record_run(run_dir: Path, the_task: Task, steps: list[Step], stop_reason: str = "DONE",
               status: str = "passed", score: float | None = 1.0, agent: str = "gpt-4o") -> None:
    record = start_record(run_dir / record_path(the_task), the_task, agent=agent)
    for step in steps:
        record.step(step)
    if stop_reason:
        record.stopped(stop_reason)
    record.finish(status, score, "" if status == "passed" else "EnvironmentFault: the container died\nmore")


def test_turns_are_replayed_whole_in_order_with_a_reply_that_had_no_action() -> None:
    turns = recorded_turns(STEPS)
    assert [t.actions for t in turns] == [["pyautogui.click(1, 2)", "pyautogui.click(3, 4)"], [],
                                          [{"action_type": "TYPING", "text": "x"}], [DONE_MARCH]]
    assert [t.response for t in turns] == ["two clicks", "I am not sure", "computer_13", "DONE\nMarch"]
    assert [t.think for t in turns] == [2.5, 1.0, 0.5, 0.25]


def test_steps_of_an_old_record_without_turn_numbers_are_a_turn_each() -> None:
    steps = [Step.from_json({"action": "a", "kind": "code"}), Step.from_json({"action": "b", "kind": "code"})]
    assert [t.actions for t in recorded_turns(steps)] == [["a"], ["b"]]


def test_a_replay_plays_the_recorded_turns_and_ends_where_they_did(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr(replay.time, "sleep", slept.append)
    record_run(tmp_path / "gpt-4o", task(), STEPS)
    agent = ReplayAgent("replay:x", tmp_path / "gpt-4o")
    agent.reset(task())
    assert agent.replays == RecordedOutcome(str(tmp_path / "gpt-4o"), "gpt-4o", "passed", 1.0)
    assert agent.episode_settings(EpisodeSettings(max_steps=15, time_limit=99)) == EpisodeSettings(4, 99, 0.5)
    turns = [agent.act("x", NOTHING) for _ in range(4)]
    assert [t.actions for t in turns] == [t.actions for t in recorded_turns(STEPS)]
    assert turns[0].usage == {} and turns[0].prompt == []  # no model, nothing paid
    assert slept == [2.5, 1.0, 0.5, 0.25]  # as long as the model thought


def test_a_fast_replay_does_not_wait(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay.time, "sleep", lambda s: pytest.fail("a fast replay waited"))
    record_run(tmp_path / "run", task(), STEPS)
    agent = make_replay(AgentSettings(f"replay:{tmp_path / 'run'}", options={"pace": "fast"}))
    agent.reset(task())
    agent.act("x", NOTHING)


def test_a_task_without_a_record_or_without_a_whole_episode_is_skipped_saying_why(tmp_path: Path) -> None:
    record_run(tmp_path / "run", task("died"), STEPS[:2], stop_reason="", status="error", score=None)
    agent = ReplayAgent("replay:run", tmp_path / "run")
    with pytest.raises(Unavailable, match=r"the run in .*run has no record of chromium/month\[abstract\] "
                                          r"\(no .*run/chromium/month-abstract/result.json\)"):
        agent.reset(task())
    with pytest.raises(Unavailable, match=r"the recorded episode of chromium/died\[abstract\] did not end "
                                          r"\(error: EnvironmentFault: the container died\)"):
        agent.reset(task("died"))


def test_the_run_folder_and_options_are_checked(tmp_path: Path) -> None:
    with pytest.raises(Unavailable, match="there is no run folder"):
        make_replay(AgentSettings(f"replay:{tmp_path / 'nowhere'}"))
    with pytest.raises(ValueError, match="pace is one of recorded, fast"):
        make_replay(AgentSettings(f"replay:{tmp_path}", options={"pace": "slow"}))
    with pytest.raises(ValueError, match="unknown agent option"):
        make_replay(AgentSettings(f"replay:{tmp_path}", options={"model": "x"}))
    assert run_read_by(f"replay:{tmp_path}") == tmp_path and run_read_by("oracle") is None


# -- the summary ------------------------------------------------------------------------------


def props(nodeid: str, status: str, score: float | None, recorded: tuple[str, float | None] | None) -> TaskSummary:
    result: dict[str, Any] = {"nodeid": nodeid, "app": "calc", "status": status, "score": score}
    if recorded:
        result["replay_of"] = {"run": "results/gpt-4o", "agent": "gpt-4o", "status": recorded[0], "score": recorded[1]}
    return TaskSummary.of(TaskResult.from_json(result))


def test_the_summary_lists_exactly_the_tasks_whose_outcome_changed() -> None:
    summary = summarize([props("same", "passed", 1.0, ("passed", 1.0)), props("worse", "failed", 0.0, ("passed", 1.0)),
                         props("half", "failed", 0.5, ("failed", 0.25)), props("broke", "error", None, ("failed", 0.0)),
                         props("skipped", "skipped", None, None)])
    assert summary.replay == ReplayComparison(["results/gpt-4o"], 4, [
        OutcomeChange("broke", "0.00", "error"), OutcomeChange("half", "0.25", "0.50"),
        OutcomeChange("worse", "1.00", "0.00")])
    assert summary.to_json()["replay"] == {"runs": ["results/gpt-4o"], "tasks": 4, "changed": [
        {"nodeid": "broke", "recorded": "0.00", "now": "error"}, {"nodeid": "half", "recorded": "0.25", "now": "0.50"},
        {"nodeid": "worse", "recorded": "1.00", "now": "0.00"}]}
    lines = format_summary(summary)
    start = lines.index("replayed 4 tasks of results/gpt-4o: 3 outcomes changed (recorded -> now)")
    assert lines[start + 1:start + 4] == ["  broke  0.00 -> error", "  half  0.25 -> 0.50", "  worse  1.00 -> 0.00"]


def test_a_replay_that_changed_nothing_says_so_and_other_runs_say_nothing() -> None:
    assert "replayed 1 tasks of results/gpt-4o: every outcome as recorded" in format_summary(
        summarize([props("same", "passed", 1.0, ("passed", 1.0))]))
    plain = summarize([props("same", "passed", 1.0, None)])
    assert plain.replay is None and "replay" not in plain.to_json()
    assert not any("replayed" in line for line in format_summary(plain))


# -- whole runs -------------------------------------------------------------------------------


QUESTIONS = [
    {"id": 0, "question": "Mean fare?", "concepts": ["Summary Statistics"], "constraints": "Two decimals.",
     "format": "@mean_fare[value]", "file_name": "titanic.csv", "level": "easy"},
    {"id": 1, "question": "Max fare?", "concepts": ["Summary Statistics"], "constraints": "Two decimals.",
     "format": "@max_fare[value]", "file_name": "titanic.csv", "level": "easy"},
]
LABELS = [{"id": 0, "common_answers": [["mean_fare", "15.25"]]}, {"id": 1, "common_answers": [["max_fare", "20.50"]]}]
CONFTEST = f"""
import sys
sys.path.insert(0, {str(REPO)!r})
from pytest_spider2v.testing.local import register
register()
"""


def outcomes(root: Path, run: str) -> dict[str, tuple[str, float]]:
    return {p.parent.name: (r["status"], r["score"]) for p in (root / "results" / run).rglob("result.json")
            for r in [json.loads(p.read_text())]}


def test_replaying_an_oracle_run_scores_as_it_did_and_a_changed_label_shows(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    questions = make_checkout(pytester.path, QUESTIONS, LABELS)
    common = ("--provider", "local", "-p", "no:cacheprovider")
    pytester.runpytest_subprocess(".", "--agent", "oracle", *common).assert_outcomes(passed=2)
    result = pytester.runpytest_subprocess(".", "--agent", "replay:results/oracle", *common)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["replayed 2 tasks of results/oracle: every outcome as recorded"])
    assert outcomes(pytester.path, "replay_results_oracle") == outcomes(pytester.path, "oracle")
    replayed = json.loads(next((pytester.path / "results" / "replay_results_oracle").rglob("result.json")).read_text())
    assert replayed["replay_of"]["agent"] == "oracle" and replayed["agent"] == "replay:results/oracle"

    labels = questions.with_name("da-dev-labels.jsonl")
    labels.write_text(labels.read_text().replace('"20.50"', '"20.49"'))
    result = pytester.runpytest_subprocess(".", "--agent", "replay:results/oracle", "--run-name", "after-fix", *common)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["replayed 2 tasks of results/oracle: 1 outcome changed (recorded -> now)",
                                 "  *da-dev-questions.jsonl::q1-titanic  1.00 -> 0.00"])
    summary = json.loads((pytester.path / "results" / "after-fix" / "summary.json").read_text())
    assert [c["nodeid"].rsplit("::", 1)[1] for c in summary["replay"]["changed"]] == ["q1-titanic"]


def test_a_replay_into_the_folder_it_reads_is_refused_before_anything_is_overwritten(
        pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    make_checkout(pytester.path, QUESTIONS, LABELS)
    pytester.runpytest_subprocess(".", "--agent", "oracle", "--provider", "local", "-p", "no:cacheprovider")
    before = outcomes(pytester.path, "oracle")
    result = pytester.runpytest_subprocess(".", "--agent", "replay:results/oracle", "--run-name", "oracle",
                                           "--provider", "local", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agent replay:results/oracle reads the records of results/oracle, which this run "
                                 "would overwrite*"])
    assert outcomes(pytester.path, "oracle") == before
