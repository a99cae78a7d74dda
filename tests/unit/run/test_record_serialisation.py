"""Golden records: what the record types write, byte for byte, and what they read back from every
shape a record has had.

``data/records/every_part`` was written by the hand-written ``to_json`` of version 0.x for a result
holding every optional part (attempts with and without a video, metric parts and a raised metric,
a live view, a video, token usage, a replay, flags, a charge, integrity checks, a repeat, the
image and fingerprint) and for each shape of its steps; the record types must keep writing it
exactly so. The tolerant shapes below are what earlier or hand-edited records hold: missing keys,
unknown keys, values of the wrong type; they must load to the same objects they always did.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_spider2v.reports.task_summary import RecordedEnding, TaskSummary
from pytest_spider2v.run.agent import ExecutionInfo, RecordedOutcome, done_with_answer
from pytest_spider2v.run.json_values import JsonObject, JsonRecord
from pytest_spider2v.run.results import (
    Attempt,
    Charge,
    Flag,
    IntegrityCheck,
    LiveView,
    MetricResult,
    ObservationFiles,
    Repeat,
    Step,
    StepTimings,
    TaskResult,
    TaskTimings,
    Video,
)
from pytest_spider2v.validate.near_miss import NearMisses, Trial, Uncovered

GOLDEN = Path(__file__).parents[1] / "data" / "records" / "every_part"

STEPS = [
    Step(1, 1, "Click, then type.", "pyautogui.click(10, 20)", "code",
         ExecutionInfo(status="success", output="clicked\n", error="", returncode=0), duration=1.25, think=2.5,
         usage={"prompt_tokens": 1200, "completion_tokens": 80, "cost": 0.0031},
         prompt=[{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "<image 1280x720>"}],
         view="turn_001_view.png", timings=StepTimings(0.75, {"screenshot": 0.3, "accessibility_tree": 0.2}),
         observation=ObservationFiles("step_001.png", "step_001.xml")),
    Step(2, 1, "Click, then type.", {"action_type": "TYPING", "text": "sort ✓"}, "code",
         ExecutionInfo(status="success", output="", error="", returncode=0), duration=0.5, think=0.0,
         timings=StepTimings(0.25, {"screenshot": 0.25}), observation=ObservationFiles("step_002.png")),
    Step(2, 2, "I am not sure.", None, "none", ExecutionInfo(status="error", message="no valid action in the reply"),
         duration=0.0, think=1, usage={"total_tokens": 50}),
    Step(3, None, "DONE", done_with_answer("@month[March]"), "DONE",
         ExecutionInfo(status="success", output="", error="", returncode=0), duration=0.0, think=0.125,
         timings=StepTimings(0), observation=ObservationFiles(), answer="@month[March]"),
]


def every_part() -> TaskResult:
    """A result with every optional part set, each in every form it takes."""
    return TaskResult(
        task_id="busiest-month", nodeid="tasks/chromium/busiest-month/task.json::busiest-month[abstract]",
        task_file="tasks/chromium/busiest-month/task.json", app="chromium", apps=["chromium", "libreoffice_calc"],
        category="data_analysis", interface="gui", difficulty="easy", variant="abstract", account=True,
        instruction="Which month had the most sales? Answer @month[name].", agent="gpt-4o",
        settings={"max_steps": 15, "agent_options": {"api_key": "***"}, "cloud": None, "ratio": 0.5},
        status="failed", score=0.5, detail="1 of 2 sub-answers right",
        evaluation=[
            MetricResult("closed_form", 0.5, "1 of 2 sub-answers right", (
                {"name": "month", "expected": "March", "given": "March", "correct": True},
                {"name": "total", "expected": 12, "given": 11.5, "correct": False})),
            MetricResult("compare_table", 0, "compare_table raised KeyError: 'B'", raised="KeyError: 'B'"),
            MetricResult("exact_match", 1.0, "matched"),
        ],
        steps=list(STEPS),
        timings=TaskTimings(1700000000.5, {"restore": 1.5, "setup": 2, "reset": 0.25, "episode": 30.125,
                                           "evaluation": 1.0}, 1700000040.0, 39.5),
        usage={"prompt_tokens": 1200, "completion_tokens": 80, "total_tokens": 50, "cost": 0.0031},
        initial_observation=ObservationFiles("step_000.png", "step_000.xml"),
        stop_reason="DONE", answer="@month[March]",
        facets={"answer_names": ["month", "total"], "concepts": ["Summary Statistics"]},
        attempts=[
            Attempt(1, "EnvironmentFault: POST /execute failed", "attempt_1", 2, {"restore": 1.5, "episode": 3}),
            Attempt(2, "EnvironmentFault: the container died", "attempt_2", 0, {}, Video("episode.mp4", 4.2)),
            Attempt(3, "EnvironmentFault: no screen", "attempt_3", 1, {"setup": 2.0},
                    Video(error="ffmpeg not found")),
        ],
        live_view=LiveView("http://127.0.0.1:49161/vnc.html", False, "http://127.0.0.1:8765/"),
        video=Video("episode.mp4", 31, "dropped 3 frames"),
        replay_of=RecordedOutcome("results/gpt-4o", "gpt-4o", "failed", 0),
        flags=[Flag("errata", "lax_evaluator: any answer passes"), Flag("tampered", "/home/user/expected.csv")],
        node="worker-2", charge=Charge("agent", "scored 0.5", ("1 of 2 sub-answers right",)),
        integrity=IntegrityCheck(True, ("/home/user/expected.csv: changed",), ("python3 -m http.server",), 0.75),
        repeat=Repeat(2, 3), image="sha256:0123abcd", fingerprint="f00dfeed",
    )


def small_parts() -> TaskResult:
    """A result whose optional parts take their other forms (errors, unchecked, no charge)."""
    return TaskResult(
        task_id="t", nodeid="n", task_file="f", app="a", apps=[], category="c", interface="cli", difficulty="hard",
        variant="verbose", account=False, instruction="i", agent="human", settings={},
        status="error", score=None, detail="no live view",
        live_view=LiveView(error="websockify missing"), video=Video(error="no display"),
        integrity=IntegrityCheck(False, reason="the environment has no witness"),
        charge=Charge("environment", "the node was lost"),
    )


def dump(data: JsonObject) -> str:
    """As ``TaskRecord`` writes ``result.json``."""
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def line(data: JsonObject) -> str:
    """As ``TaskRecord`` writes a line of ``trajectory.jsonl``."""
    return json.dumps(data, ensure_ascii=False, default=str)


@pytest.mark.parametrize(("make", "name"), [(every_part, "result.json"), (small_parts, "small_parts.json")])
def test_a_result_is_written_byte_for_byte_as_before(make: Callable[[], TaskResult], name: str) -> None:
    assert dump(make().to_json()) == (GOLDEN / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(("make", "name"), [(every_part, "result.json"), (small_parts, "small_parts.json")])
def test_a_written_result_reads_back_to_the_same_object(make: Callable[[], TaskResult], name: str) -> None:
    assert TaskResult.from_json(json.loads((GOLDEN / name).read_text(encoding="utf-8"))) == make()


def test_steps_are_written_as_trajectory_lines_byte_for_byte_as_before() -> None:
    lines = (GOLDEN / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()
    assert [line(step.to_json()) for step in STEPS] == lines
    assert [Step.from_json(json.loads(text)) for text in lines] == STEPS


def test_numbers_keep_their_type_both_ways() -> None:
    """An int stays an int on disk (``1`` is not rewritten ``1.0``), a float stays a float."""
    read = TaskResult.from_json(json.loads((GOLDEN / "result.json").read_text(encoding="utf-8")))
    assert type(read.evaluation[0].parts[1]["expected"]) is int and type(read.timings.phases["setup"]) is int
    assert read.video is not None and type(read.video.seconds) is int and type(read.evaluation[2].score) is float
    assert type(read.evaluation[1].score) is float  # a score of 0 reads 0.0, as it always did


def test_an_empty_result_reads_with_every_default() -> None:
    assert TaskResult.from_json({}) == TaskResult("", "", "", "", [], "", "", "", "", False, "", "", {})


TOLERATED: list[tuple[type[JsonRecord], JsonObject, JsonRecord]] = [
    # wrong types fall back to the default; a bool is no number; unknown keys are ignored
    (MetricResult, {"func": 3, "score": True, "detail": None, "parts": "x", "raised": 1, "new": 1},
     MetricResult("", 0.0, "")),
    (MetricResult, {"func": "m", "score": "1", "parts": [{"name": "a"}, "not a part", 3]},
     MetricResult("m", 0.0, "", ({"name": "a"},))),
    (Step, {"action": 5, "kind": "code", "info": {"status": 1, "returncode": 2.0, "message": "m", "other": "x"},
            "turn": 1.5, "index": True, "usage": [], "prompt": [{"role": "user"}, "text"], "view": 3,
            "timings": {}, "observation": "x"},
     Step(0, None, "", None, "code", ExecutionInfo(returncode=2, message="m"), duration=0.0, think=0.0,
          prompt=[{"role": "user"}], timings=StepTimings(0.0), observation=ObservationFiles())),
    (Step, {"timings": {"execute": "1", "observe": {"screenshot": 0.5, "tree": "slow"}}},
     Step(0, None, "", None, "", ExecutionInfo(), duration=0.0, think=0.0, timings=StepTimings(0.0, {"screenshot": 0.5}))),
    (TaskTimings, {"started": "now", "episode": 3, "restore": 1.0, "unknown_phase": 2, "total": None},
     TaskTimings(None, {"restore": 1.0, "episode": 3})),
    (LiveView, {"url": "u", "view_only": "no"}, LiveView("u", True)),
    (Video, {"seconds": "4"}, Video()),
    (Attempt, {"attempt": "1", "steps": 2, "timings": {"setup": "x", "episode": 1}, "video": {}},
     Attempt(0, "", "", 2, {"episode": 1})),
    (IntegrityCheck, {"findings": ["a", 3]}, IntegrityCheck(False, ("a",))),
    (Repeat, {"index": 2}, Repeat(2, 0)),
    (Flag, {"kind": "errata"}, Flag("errata", "")),
    (RecordedOutcome, {"run": "r", "score": "0"}, RecordedOutcome("r", "", "", None)),
]


@pytest.mark.parametrize(("kind", "data", "expected"), TOLERATED)
def test_an_older_or_odd_shape_loads_to_the_same_object(kind: type[JsonRecord], data: JsonObject,
                                                        expected: JsonRecord) -> None:
    assert kind.from_json(data) == expected


def test_an_unknown_party_is_no_charge_and_empty_parts_are_none() -> None:
    result = TaskResult.from_json({"charged_to": {"party": "someone"}, "live_view": {}, "video": [], "replay_of": {},
                                   "integrity": {}, "repeat": {}, "flags": [{"kind": "k"}, "x"], "apps": ["a", 1]})
    assert (result.charge, result.live_view, result.video, result.replay_of, result.integrity, result.repeat) == (
        None, None, None, None, None, None)
    assert result.flags == [Flag("k", "")] and result.apps == ["a"]
    assert TaskResult.from_json({"charged_to": {"party": "harness"}}).charge == Charge("harness", "")


def test_a_wrong_type_where_a_part_should_be_leaves_it_out() -> None:
    result = TaskResult.from_json({"evaluation": "x", "steps": {}, "attempts": [1], "timings": [], "usage": {"a": "b"},
                                   "initial_observation": None, "settings": [], "facets": "x", "status": None})
    assert (result.evaluation, result.steps, result.attempts, result.usage, result.settings, result.facets) == (
        [], [], [], {}, {}, {})
    assert result.timings == TaskTimings() and result.initial_observation == ObservationFiles()
    assert result.status == "running"


def full_summary() -> TaskSummary:
    """A task's summary with every optional part set."""
    return TaskSummary(
        nodeid="tasks/chromium/busiest-month/task.json::busiest-month[abstract-2-3]", task_id="busiest-month",
        app="chromium", apps=["chromium", "libreoffice_calc"], category="data_analysis", difficulty="easy",
        interface="gui", variant="abstract", status="failed", score=0.5, tokens=1330, cost=0.0031, seconds=39.5,
        detail="1 of 2 sub-answers right", retried=["EnvironmentFault: POST /execute failed"],
        facets={"concepts": ["Summary Statistics"]}, sub_answers={"month": True, "total": False},
        recorded=RecordedEnding("results/gpt-4o", "failed", 0), errata="lax_evaluator: any answer passes",
        emulated=True, node="worker-2", charged_to="agent", tampered=True,
        web_steps=[{"valid": True, "element": 1.0, "op_f1": 0.5, "success": False}], repeat=2, repeats=3,
        image="sha256:0123abcd", fingerprint="f00dfeed", time_parts={"environment": 4.5, "agent": 30},
    )


SUMMARIES = [full_summary(), TaskSummary(nodeid="n"), TaskSummary(nodeid="m", status="skipped", repeat=1, repeats=1)]


def test_task_summaries_are_written_byte_for_byte_as_before() -> None:
    assert [line(summary.to_json()) for summary in SUMMARIES] == (
        (GOLDEN / "summaries.jsonl").read_text(encoding="utf-8").splitlines())


def test_task_summaries_read_back_to_the_same_objects() -> None:
    lines = (GOLDEN / "summaries.jsonl").read_text(encoding="utf-8").splitlines()
    assert [TaskSummary.from_json(json.loads(text)) for text in lines] == SUMMARIES


def test_an_odd_summary_loads_as_it_always_did() -> None:
    read = TaskSummary.from_json({"tokens": 12.7, "sub_answers": {"a": 1, "b": ""}, "repeat": {"index": 0, "of": 2.0},
                                  "recorded": {}, "emulated": "yes", "web_steps": [{"valid": True}, 1], "x": 1})
    assert read == TaskSummary(nodeid="", tokens=12, sub_answers={"a": True, "b": False}, repeat=1, repeats=2,
                               web_steps=[{"valid": True}])
    assert TaskSummary.from_json({"recorded": {"run": "r", "score": 1}}).recorded == RecordedEnding("r", "", 1)


def test_what_a_near_miss_check_tried_is_written_as_before_and_read_back() -> None:
    found = NearMisses([Trial("compare_table", "cell changed", "B2", 0), Trial("m", "k", "w", 1.0, "p", "KeyError: 'x'")],
                       [Uncovered("closed_form", "", "no near-miss maker for this metric")])
    written: JsonObject = {"trials": [{"func": "compare_table", "kind": "cell changed", "where": "B2", "score": 0, "part": "",
                           "raised": ""},
                          {"func": "m", "kind": "k", "where": "w", "score": 1.0, "part": "p", "raised": "KeyError: 'x'"}],
               "uncovered": [{"func": "closed_form", "part": "", "why": "no near-miss maker for this metric"}]}
    assert found.to_json() == written and NearMisses.from_json(written) == found
