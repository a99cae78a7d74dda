"""Per-task records: stable locations, atomic rewrites, and what ``--resume`` may reuse."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_spider2v.run.records import read_result, recorded_outcome, task_dir
from pytest_spider2v.run.results import Attempt, MetricResult, ObservationFiles, Step, TaskResult
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_task, start_record, task_document

DOCUMENT = task_document(id="sum sales/2", instruction="x", related_apps=["calc", "terminal"],
                         tags=["traditional_data_processing", "cli+gui"], action_number=7,
                         evaluator={"func": "exact_match", "result": {"type": "rule", "rules": 1}})


def task(variant: str = "verbose") -> Task:
    return make_task(DOCUMENT, variant=variant, instruction="do it")


def step(index: int, files: ObservationFiles) -> Step:
    return Step(index, 1, "reply", "pyautogui.click()", "code", {"status": "success"}, duration=0.5, think=0.0,
                observation=files)


def test_task_dir_is_stable_and_safe(tmp_path: Path) -> None:
    assert task_dir(tmp_path, "gpt-4o", task()) == tmp_path / "gpt-4o" / "calc" / "sum_sales_2-verbose"
    assert task_dir(tmp_path, "r", task("abstract")) != task_dir(tmp_path, "r", task("verbose"))


def test_record_is_complete_after_every_step(tmp_path: Path) -> None:
    record = start_record(tmp_path / "t", task(), agent="oracle", nodeid="node::id", settings={"max_steps": 15})
    files = record.observation(1, b"\x89PNG fake", "<desktop-frame/>")
    record.step(step(1, files))
    saved = read_result(tmp_path / "t")
    assert saved is not None
    assert saved.status == "running" and saved.steps[0].observation == ObservationFiles("step_001.png", "step_001.xml")
    assert (saved.difficulty, saved.interface, saved.apps) == ("medium", "cli+gui", ["calc", "terminal"])
    lines = (tmp_path / "t" / "trajectory.jsonl").read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [1]
    record.finish("failed", 0.0, "cell A2 differs", [MetricResult("compare_table", 0.0, "x")])
    final = read_result(tmp_path / "t")
    assert final is not None
    assert (final.status, final.score, (final.timings.total or -1) >= 0) == ("failed", 0.0, True)
    assert final.evaluation == [MetricResult("compare_table", 0.0, "x")]
    assert not list((tmp_path / "t").glob(".*.tmp")), "atomic writes leave no temporary files"


def test_starting_again_replaces_an_unfinished_record(tmp_path: Path) -> None:
    first = start_record(tmp_path / "t", task(), agent="oracle")
    first.observation(3, b"png", None)
    start_record(tmp_path / "t", task(), agent="oracle")
    assert not (tmp_path / "t" / "step_003.png").exists()


def test_resume_reuses_only_finished_records_of_the_same_agent(tmp_path: Path) -> None:
    def recorded(status: str, agent: str = "oracle") -> TaskResult:
        record = start_record(tmp_path / status / agent, task(), agent=agent)
        if status != "running":
            record.finish(status, 0.0 if status == "failed" else None, "")
        result = read_result(record.directory)
        assert result is not None
        return result

    assert recorded_outcome(recorded("failed"), "oracle")
    assert recorded_outcome(recorded("running"), "oracle") is None
    assert recorded_outcome(recorded("error"), "oracle") is None
    assert recorded_outcome(recorded("passed", "noop"), "oracle") is None
    assert recorded_outcome(None, "oracle") is None


def test_a_retried_attempt_keeps_its_steps_and_files_aside(tmp_path: Path) -> None:
    record = start_record(tmp_path / "t", task(), agent="oracle")
    record.first_observation(b"png0", None)
    record.step(step(1, record.observation(1, b"png1", "<tree/>")))
    record.add_usage({"prompt_tokens": 10, "cost": 0.5})
    record.time("episode", 3.0)
    record.retry("EnvironmentFault: POST /execute failed")
    record.first_observation(b"png0-again", None)
    record.add_usage({"prompt_tokens": 5})
    record.finish("passed", 1.0, "ok")
    result = read_result(tmp_path / "t")
    assert result is not None
    assert result.attempts == [Attempt(1, "EnvironmentFault: POST /execute failed", "attempt_1", 1, {"episode": 3.0})]
    assert json.loads((tmp_path / "t" / "result.json").read_text())["attempts"] == [
        {"attempt": 1, "detail": "EnvironmentFault: POST /execute failed", "folder": "attempt_1", "steps": 1,
         "timings": {"episode": 3.0}}]  # no video asked for: no "video" key
    assert result.steps == [] and result.usage == {"prompt_tokens": 15, "cost": 0.5}
    moved = sorted(p.name for p in (tmp_path / "t" / "attempt_1").iterdir())
    assert moved == ["step_000.png", "step_001.png", "step_001.xml", "trajectory.jsonl"]
    assert (tmp_path / "t" / "step_000.png").read_bytes() == b"png0-again"
