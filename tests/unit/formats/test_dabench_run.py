"""DABench questions through the whole pipeline without Docker: collection, fixtures, the
episode, getters, metrics, records, summary and ``--validate``, in a screenless stand-in
environment whose guest is a host folder (:mod:`pytest_spider2v.testing.local`); the model-driven
agent through the loopback model server. The same runs in the real image are end-to-end tests.

Each run is a pytest subprocess, so the stand-in provider registered there stays there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.dabench import make_checkout
from tests.support.llm_server import LLMServer, Reply, Request
from tests.support.shared import REPO

QUESTIONS = [
    {"id": 0, "question": "Calculate the mean fare paid by the passengers.", "concepts": ["Summary Statistics"],
     "constraints": "Round to two decimal places.", "format": "@mean_fare[mean_fare_value]",
     "file_name": "titanic.csv", "level": "easy"},
    {"id": 3, "question": "Is the fare correlated with age? Give Pearson's r.",
     "concepts": ["Correlation Analysis"], "constraints": "Round to two decimal places.",
     "format": "@r[value], @relationship[positive or negative]", "file_name": "titanic.csv", "level": "hard"},
]
LABELS = [{"id": 0, "common_answers": [["mean_fare", "15.25"]]},
          {"id": 3, "common_answers": [["r", "1.00"], ["relationship", "positive"]]}]
CONFTEST = f"""
import sys
sys.path.insert(0, {str(REPO)!r})
from pytest_spider2v.testing.local import register
register()
"""


@pytest.fixture
def checkout(pytester: pytest.Pytester) -> Path:
    pytester.makeconftest(CONFTEST)
    return make_checkout(pytester.path, QUESTIONS, LABELS)


def records(root: Path, run: str) -> dict[str, dict[str, Any]]:
    return {p.parent.name: json.loads(p.read_text()) for p in (root / "results" / run).rglob("result.json")}


def test_the_oracle_answers_every_question_from_its_labels(pytester: pytest.Pytester, checkout: Path) -> None:
    result = pytester.runpytest_subprocess(".", "--agent", "oracle", "--provider", "local", "-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*closed-form questions (InfiAgent-DABench accuracies): 2 questions, 3 sub-questions",
                                 "*accuracy by question*100.00%", "*accuracy proportional by sub-question*100.00%",
                                 "*accuracy uniform by sub-question*100.00%", "by concept*", "Correlation Analysis*",
                                 "by level*", "easy*", "hard*"])
    saved = records(pytester.path, "oracle")
    assert saved["q3-titanic"]["answer"] == "@r[1.00]\n@relationship[positive]"
    assert saved["q3-titanic"]["facets"]["concepts"] == ["Correlation Analysis"]
    assert [p["correct"] for p in saved["q3-titanic"]["evaluation"][0]["parts"]] == [True, True]
    summary = json.loads((pytester.path / "results" / "oracle" / "summary.json").read_text())
    assert summary["closed_form"]["by_question"] == 1.0 and summary["closed_form"]["sub_questions"] == 3


def test_the_do_nothing_agent_fails_every_question_with_score_0_and_none_errors(
        pytester: pytest.Pytester, checkout: Path) -> None:
    result = pytester.runpytest_subprocess(".", "--agent", "noop", "--provider", "local", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*score 0: closed_form = 0 (no answer given; 0 of 1 sub-answers right; wrong: "
                                 "mean_fare: nothing (expected '15.25'))*"])
    assert {r["status"] for r in records(pytester.path, "noop").values()} == {"failed"}


def test_validate_checks_every_question(pytester: pytest.Pytester, checkout: Path) -> None:
    result = pytester.runpytest_subprocess(".", "--validate", "--provider", "local", "-p", "no:cacheprovider",
                                           "--validation-state", "state.json")
    result.assert_outcomes(passed=8)
    state = json.loads((pytester.path / "state.json").read_text())
    assert sorted(state["tasks"]) == ["dabench/q0-titanic", "dabench/q3-titanic"]
    result.stdout.fnmatch_lines(["dabench*1*2*2*2*2*2*0*0"])  # files, collected, runnable, checked, set up, solved, errata, gui route
    result.stdout.fnmatch_lines(["*near misses per app*", "dabench*2*6*6*0*0*0"])  # tasks, tried, caught, crashed, lax, not covered


def test_resume_keeps_the_finished_questions(pytester: pytest.Pytester, checkout: Path) -> None:
    pytester.runpytest_subprocess(".", "--agent", "oracle", "--provider", "local", "-p", "no:cacheprovider")
    first = records(pytester.path, "oracle")["q0-titanic"]["timings"]["started"]
    result = pytester.runpytest_subprocess(".", "--agent", "oracle", "--provider", "local", "--resume",
                                           "-k", "q0-", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert records(pytester.path, "oracle")["q0-titanic"]["timings"]["started"] == first


# -- the model-driven agent ---------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


def answer_from_the_output(request: Request) -> Reply:
    """The scripted model's second turn: it reads the mean its code printed and answers with it."""
    observation = request.texts("user")[-1]
    mean = observation.removeprefix("Observation:\n").strip()
    return Reply(f"Thought: I now know the final answer.\nFinal Answer: @mean_fare[{mean}]")


def test_a_scripted_model_computes_the_answer_with_code_and_scores_1(
        pytester: pytest.Pytester, checkout: Path, server: LLMServer) -> None:
    server.script(
        "Thought: I load the table and average the Fare column.\nAction: python\nAction Input:\n"
        "```python\nimport pandas as pd\nprint(round(pd.read_csv('titanic.csv')['Fare'].mean(), 2))\n```",
        answer_from_the_output,
    )
    result = pytester.runpytest_subprocess(".", "-k", "q0-", "--agent", "openai:scripted", "--provider", "local",
                                           "--llm-base-url", server.openai_url, "--agent-option", "backoff=0",
                                           "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    first, second = server.requests
    system = "\n".join(first.system_texts())
    assert "Action: python" in system and "Final Answer:" in system
    assert first.texts("user") == [QUESTION_0_INSTRUCTION]
    assert first.images() == [] and second.images() == []
    assert second.texts("user")[-1] == "Observation:\n15.25"
    record = records(pytester.path, "openai_scripted")["q0-titanic"]
    assert record["answer"] == "@mean_fare[15.25]" and record["usage"]["prompt_tokens"] > 0
    code_step, answer_step = record["steps"]
    assert code_step["kind"] == "code" and code_step["info"]["output"] == "15.25\n"
    assert answer_step["kind"] == "DONE" and answer_step["answer"] == "@mean_fare[15.25]"


QUESTION_0_INSTRUCTION = (
    "Question: Calculate the mean fare paid by the passengers.\nRound to two decimal places.\n"
    "The data is in the table titanic.csv, in the working folder (/home/user/titanic.csv).\n"
    'Answer in the closed form the Format below asks for: every "@answer_name[answer]" it mentions, in the '
    "order mentioned, each answer in the range of values it requires.\nFormat: @mean_fare[mean_fare_value]")
