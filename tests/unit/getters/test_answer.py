"""The answer channel: an agent ends with DONE carrying a text, the record keeps it, and the
``final_answer`` getter hands it to the task's metrics (no Docker: the environment is a stand-in)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_spider2v.agents.llm.parsing import parse_computer13, parse_pyautogui
from pytest_spider2v.agents.oracle import OracleAgent, solution_actions
from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.reports.html import render_task
from pytest_spider2v.run import lifecycle as taskrun
from pytest_spider2v.run.actions import ActionError
from pytest_spider2v.run.agent import Action, Agent, Observation, Turn, action_kind, answer_of, done_with_answer
from pytest_spider2v.run.lifecycle import TaskRun
from pytest_spider2v.run.records import TRAJECTORY_FILE
from pytest_spider2v.run.settings import EpisodeSettings, RunSettings
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import answer_evaluator, make_task, start_record, task_document
from pytest_spider2v.testing.fakes import FakeEnvironment, FakeProvider


def test_done_with_an_answer_is_a_done_in_either_action_space() -> None:
    action = done_with_answer("@mean_fare[34.65]")
    assert action_kind(action) == "DONE"
    assert answer_of(action) == "@mean_fare[34.65]"
    assert [answer_of(a) for a in ("DONE", {"action_type": "DONE"}, "print(1)", {"action_type": "FAIL"})] == [None] * 4


def test_pyautogui_reply_gives_the_answer_in_a_block_starting_with_done() -> None:
    reply = "The mean is 34.65.\n```\nDONE\n@mean_fare[34.65]\n```"
    assert parse_pyautogui(reply) == [done_with_answer("@mean_fare[34.65]")]
    two_lines = "```text\nDONE\nMarch\nwas the busiest month\n```"
    assert parse_pyautogui(two_lines) == [done_with_answer("March\nwas the busiest month")]


def test_pyautogui_done_without_an_answer_is_unchanged() -> None:
    assert parse_pyautogui("DONE") == ["DONE"]
    assert parse_pyautogui("```\nDONE\n```") == ["DONE"]
    assert parse_pyautogui("```python\nprint(1)\nDONE\n```") == ["print(1)", "DONE"]


def test_computer_13_done_carries_its_answer_beside_or_under_parameters() -> None:
    assert parse_computer13('```json\n{"action_type": "DONE", "answer": "42"}\n```') == [done_with_answer("42")]
    assert parse_computer13('{"action_type": "DONE", "parameters": {"answer": 0.5}}') == [done_with_answer("0.5")]
    assert parse_computer13('{"action_type": "DONE"}') == [{"action_type": "DONE"}]
    with pytest.raises(ActionError):
        parse_computer13('{"answer": "42"}')


def test_a_solution_cell_starting_with_done_answers(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("# %% look\nprint(open('data.csv').read())\n# %% answer\nDONE\nMarch\n# %%\nDONE\n")
    assert solution_actions(solution) == ["print(open('data.csv').read())", done_with_answer("March"), "DONE"]


# -- through a run: record, trajectory, getter, metric ---------------------------------------------


def question_task(expected: str) -> Task:
    return make_task(task_document(id="busiest-month", instruction="Which month had most visits?",
                                   related_apps=["terminal"], tags=["data_analysis_and_visualization", "cli"],
                                   action_number=2, evaluator=answer_evaluator(expected)))


def guest() -> FakeEnvironment:
    """A desktop whose every action prints March."""
    return FakeEnvironment(screen=b"png", on_execute=lambda command: ExecResult(0, "March\n", ""))


@dataclass
class Answering(Agent):
    """Looks once, then answers."""

    answer: Action
    needs_accessibility_tree: bool = False
    turns: int = 0

    def reset(self, task: Task) -> None:
        self.turns = 0

    def act(self, instruction: str, observation: Observation) -> Turn:
        self.turns += 1
        return Turn("look", ["print('March')"]) if self.turns == 1 else Turn("answer", [self.answer])


@pytest.fixture(autouse=True)
def instant_first_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taskrun, "first_observation", lambda env, with_tree: Observation(env.screenshot()))


def run(tmp_path: Path, answer: Action, expected: str = "March") -> TaskRun:
    the_task = question_task(expected)
    record = start_record(tmp_path / "record", the_task, agent="answering")
    settings = RunSettings(EpisodeSettings(max_steps=5, sleep_after_action=0))
    return TaskRun(the_task, record, "answering", lambda: Answering(answer), lambda: FakeProvider(lambda n: guest()),
                   settings)


def test_the_answer_is_recorded_and_scored_through_the_final_answer_getter(tmp_path: Path) -> None:
    task_run = run(tmp_path, done_with_answer("March"))
    assert task_run.outcome().score == 1.0
    result = task_run.record.result
    assert result.answer == "March" and result.status == "passed"
    steps = [json.loads(line) for line in (tmp_path / "record" / TRAJECTORY_FILE).read_text().splitlines()]
    assert [s.get("answer") for s in steps] == [None, "March"]
    assert "answer" not in steps[0]
    saved = json.loads((tmp_path / "record" / "result.json").read_text())
    assert saved["answer"] == "March"


def test_a_wrong_answer_scores_0_and_no_answer_is_none_not_an_error(tmp_path: Path) -> None:
    assert run(tmp_path / "wrong", done_with_answer("April")).outcome().score == 0.0
    silent = run(tmp_path / "silent", "DONE")
    assert silent.outcome().score == 0.0
    assert silent.record.result.answer is None and silent.record.result.status == "failed"


def test_a_retried_attempt_forgets_its_answer(tmp_path: Path) -> None:
    the_task = question_task("March")
    record = start_record(tmp_path / "record", the_task, agent="a")
    record.answered("April")
    record.retry("EnvironmentFault: gone")
    assert record.result.answer is None


def test_the_report_shows_the_answer(tmp_path: Path) -> None:
    task_run = run(tmp_path, done_with_answer("March <b>"))
    task_run.outcome()
    html = render_task(task_run.record.result, task_run.record.directory)
    assert "<h3>Answer</h3><pre>March &lt;b&gt;</pre>" in html
    assert '<span class="kind">DONE</span><pre>March &lt;b&gt;</pre>' in html


def test_the_oracle_plays_an_answer_cell(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("# %% answer from the data\nDONE\nMarch\n")
    agent = OracleAgent()
    agent.reset(make_task(solution=solution))
    assert agent.act("", Observation(b"")).actions == [done_with_answer("March")]
