"""One Mind2Web task's run: its steps read again with their prompts, each answered by the agent,
recorded, then scored by the ``mind2web_steps`` metric. No environment: the pages are snapshots.

The record is the desktop tasks' (``result.json``, ``trajectory.jsonl``, ``step_NNN.png`` the
step's screenshot), so ``--resume``, ``replay:`` and the reports read it as any other. A step's
line keeps its prompt (images as ``<image WxH>``), both rounds' replies, the final answer parsed,
and its tokens and cost; the evaluation's parts keep its candidates and the four verdicts.

A step whose row is invalid is recorded (its screenshot, its candidates) but not put to the agent:
its answer would count in no figure, and a row without a screenshot could not be shown.

Whose outcome: a score below 1 is the agent's; an answer that cannot be parsed is a wrong step,
not an error. An exception of the agent's (a model server that keeps failing after its retries)
ends the task as an error charged to the harness, as on the desktop; a run stopped by a signal
records the task as interrupted.
"""

from __future__ import annotations

import time
from typing import NoReturn

import pytest

from pytest_spider2v.formats.mind2web.answerers import StepAnswer, StepAnswerer, answerer_factory
from pytest_spider2v.formats.mind2web.answers import parse_answer
from pytest_spider2v.formats.mind2web.format import FORMAT, METRIC
from pytest_spider2v.formats.mind2web.steps import WebTask
from pytest_spider2v.registry import Scored, Unavailable, UnknownName, metrics
from pytest_spider2v.run.agent import AgentSettings
from pytest_spider2v.run.evaluation import Evaluation
from pytest_spider2v.run.records import TaskRecord, recorded_outcome
from pytest_spider2v.run.results import Charge, MetricResult, Step
from pytest_spider2v.signals.stopping import stop_reason
from pytest_spider2v.tasks.model import Task, TaskFormatError


def web_outcome(task: Task, record: TaskRecord, settings: AgentSettings) -> Evaluation:
    """The task's score and its explanation (an earlier run's, when ``--resume`` kept its record)."""
    previous = recorded_outcome(record.result, settings.name)
    if previous is not None:
        return Evaluation(float(previous.score or 0.0), previous.detail, previous.evaluation)
    web = _steps_of(task)
    if not web.valid_steps:
        _skip(record, "no valid step: the card counts this task in no figure")
    try:
        answerer = answerer_factory(settings.name)(settings)
        answerer.reset(task, web)
    except (Unavailable, UnknownName) as exc:
        _skip(record, str(exc))
    if answerer.replays is not None:
        record.replaying(answerer.replays)
    try:
        answers = _answer_steps(web, answerer, record)
    except KeyboardInterrupt:
        detail = f"the run was stopped ({stop_reason() or 'KeyboardInterrupt'}) before this task ended"
        record.finish("interrupted", None, detail, charge=Charge("harness", detail))
        raise
    except BaseException as exc:
        detail = f"{type(exc).__name__}: {exc}"
        record.finish("error", None, detail, charge=Charge("harness", detail))
        raise
    record.stopped("every step answered")
    expected = [{"step": s.step, "valid": s.valid, "candidates": list(s.candidates), "targets": list(s.targets),
                 "op": s.op, "value": s.value} for s in web.steps]
    scored = metrics.get(METRIC)(answers, expected)
    assert isinstance(scored, Scored)
    verdict = MetricResult(METRIC, scored.score, scored.detail, scored.parts)
    status = "passed" if scored.score == 1 else "failed"
    charge = None if status == "passed" else Charge("agent", f"scored {scored.score:g}", (scored.detail,))
    record.finish(status, scored.score, scored.detail, [verdict], charge)
    return Evaluation(scored.score, scored.detail, [verdict])


def _steps_of(task: Task) -> WebTask:
    """The task's steps with their prompts and screenshots, read again from its rows."""
    rows = {task.path.with_name(name): [int(row) for row in numbers] for name, numbers in task.facets["rows"].items()}
    for entry in FORMAT.read(list(rows), rows, run=True):
        if isinstance(entry, TaskFormatError):
            raise entry
        if entry.task_id == task.id:
            return entry
    raise TaskFormatError(task.path, task.id, None, "its rows are no longer in the file")


def _answer_steps(web: WebTask, answerer: StepAnswerer, record: TaskRecord) -> list[dict[str, object]]:
    answers: list[dict[str, object]] = []
    for turn, step in enumerate(web.steps):
        started = time.monotonic()
        answer = answerer.answer(web, step) if step.valid else StepAnswer("")
        think = round(time.monotonic() - started, 3)
        files = record.observation(step.step, step.screenshot, None)
        parsed = parse_answer(answer.text, len(step.candidates))
        rounds = "\n\n".join(f"[round {i}]\n{text}" for i, text in enumerate(answer.rounds, 1))
        record.step(Step(
            index=step.step, turn=turn, response=answer.text, action=parsed.to_json() if step.valid else None,
            kind="invalid" if not step.valid else "none" if parsed.problem else "answer",
            info={"status": "answered" if step.valid else "invalid step: not asked, not scored", "output": rounds},
            duration=0.0, think=think, usage=dict(answer.usage), prompt=answer.prompt, observation=files,
        ))
        answers.append({"step": step.step, "answer": answer.text})
    return answers


def _skip(record: TaskRecord, reason: str) -> NoReturn:
    record.finish("skipped", None, reason)
    pytest.skip(reason)
