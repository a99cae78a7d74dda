"""The model-driven agent without a screen: the paper's data-analysis loop (reason, run Python,
read its output, give the final answer), through the real SDK and the loopback model server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_spider2v.agents.llm.agent import LLMAgent
from pytest_spider2v.agents.llm.code_mode import MAX_OUTPUT_CHARS, output_text, parse_code_reply
from pytest_spider2v.run.actions import ActionError
from pytest_spider2v.run.agent import AgentSettings, Observation, agent_factory, done_with_answer
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_task, task_document
from tests.support.llm_server import LLMServer, Reply

QUESTION = "Question: What is the mean fare?\nFormat: @mean_fare[value]"
STEP = "Thought: load it.\nAction: python\nAction Input:\n```python\nprint(1)\n```"
ANSWER = "Thought: I now know the final answer.\nFinal Answer: @mean_fare[34.65]"
NO_SCREEN = Observation(None)


def ran(*outputs: str | tuple[str, str]) -> Observation:
    """What the previous reply's blocks printed: stdout, or (stdout, stderr)."""
    pairs = [o if isinstance(o, tuple) else (o, "") for o in outputs]
    return Observation(None, None, tuple({"status": "success", "output": out, "error": err, "returncode": 0}
                                         for out, err in pairs))


def test_a_reply_with_code_runs_each_block() -> None:
    reply = "Thought: two steps.\n```python\nimport pandas as pd\n```\nthen\n```py\nprint(2)\n```\n```\n```"
    assert parse_code_reply(reply) == ["import pandas as pd", "print(2)"]


def test_the_final_answer_ends_the_episode_carrying_everything_after_it() -> None:
    assert parse_code_reply(ANSWER) == [done_with_answer("@mean_fare[34.65]")]
    assert parse_code_reply("final answer:\n@a[1]\n@b[2]") == [done_with_answer("@a[1]\n@b[2]")]
    assert parse_code_reply('```python\nprint("Final Answer: 1")\n```') == ['print("Final Answer: 1")']


@pytest.mark.parametrize(("reply", "reason"), [("I think it is 34.", "no action found in the reply"),
                                               ("Final Answer:   ", "the Final Answer is empty")])
def test_a_reply_without_code_or_answer_is_refused_with_the_reason(reply: str, reason: str) -> None:
    with pytest.raises(ActionError, match=reason):
        parse_code_reply(reply)


def test_long_output_keeps_its_beginning_and_its_end() -> None:
    text = output_text({"output": "head " + "x" * 10_000, "error": "Traceback: ValueError: bad", "returncode": 1})
    assert len(text) < MAX_OUTPUT_CHARS + 100
    assert text.startswith("head ") and text.endswith("ValueError: bad") and "characters cut" in text


def a_task(tmp_path: Path) -> Task:
    document = task_document(id="q0-titanic", snapshot="analysis", instruction=QUESTION, related_apps=["dabench"],
                             tags=["cli", "easy"], action_number=2,
                             evaluator={"func": "closed_form", "result": {"type": "final_answer"},
                                        "expected": {"type": "rule", "rules": [["mean_fare", "34.65"]]}})
    return make_task(document, layout="dabench", variant="closed_form", root=tmp_path, path=tmp_path / "q.jsonl")


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


@pytest.fixture
def agent(server: LLMServer, tmp_path: Path) -> Callable[..., LLMAgent]:
    def make(**options: str) -> LLMAgent:
        built = agent_factory("gpt-4o")(AgentSettings("gpt-4o", options={"base_url": server.openai_url,
                                                                          "backoff": "0", **options}))
        built.reset(a_task(tmp_path))
        return built

    return make


def test_the_model_sees_the_loop_prompt_and_the_question_and_no_image(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(STEP)
    turn = agent().act(QUESTION, NO_SCREEN)
    (request,) = server.requests
    assert [m["role"] for m in request.messages] == ["system", "user"]
    system = request.system_texts()[0]
    assert system.startswith("You are a data analyst who answers questions about data by writing Python code")
    assert "Action: python" in system and "Final Answer:" in system and "new Python process" in system
    assert request.texts("user") == [QUESTION] and request.images() == []
    assert turn.actions == ["print(1)"] and turn.view is None
    assert turn.usage["prompt_tokens"] > 0 and turn.prompt[1] == {"role": "user", "content": [QUESTION]}


def test_each_turn_shows_the_whole_scratchpad_with_every_output(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(STEP, "```python\nprint(2)\n```\n```python\nprint(3)\n```", ANSWER)
    bot = agent(history="1")  # the window of screen observations does not cut the scratchpad
    bot.act(QUESTION, NO_SCREEN)
    bot.act(QUESTION, ran("1\n"))
    final = bot.act(QUESTION, ran(("2\n", "Warning: careful"), ""))
    last = server.requests[-1]
    assert [m["role"] for m in last.messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert last.texts("user")[1] == "Observation:\n1"
    assert last.texts("user")[2] == "Observation:\n[block 1]\n2\nWarning: careful\n[block 2]\n(no output)"
    assert final.actions == [done_with_answer("@mean_fare[34.65]")]


def test_a_reply_with_nothing_to_run_is_told_to_the_model(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script("The mean is probably 34.", ANSWER)
    bot = agent()
    assert bot.act(QUESTION, NO_SCREEN).actions == []
    bot.act(QUESTION, NO_SCREEN)
    note = server.requests[1].texts("user")[-1]
    assert note.startswith("Your previous answer could not be run: no action found in the reply")


def test_a_prompt_too_long_keeps_the_question_and_the_latest_step(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(STEP, STEP, Reply.error(400, "maximum context length", code="context_length_exceeded"), ANSWER)
    bot = agent()
    bot.act(QUESTION, NO_SCREEN)
    bot.act(QUESTION, ran("1\n"))
    turn = bot.act(QUESTION, ran("1\n"))
    trimmed = server.requests[-1]
    assert [m["role"] for m in trimmed.messages] == ["system", "user", "assistant", "user"]
    assert trimmed.texts("user")[0] == QUESTION and len(turn.prompt) == 4
    assert turn.actions == [done_with_answer("@mean_fare[34.65]")]
