"""The model-driven agents against the loopback model server, through the real SDKs (no Docker).

Every test drives ``openai`` or ``anthropic`` over HTTP on 127.0.0.1 and asserts on what the
server received (the prompt the model saw) and on the Turn the agent returned.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import openai
import pytest
from PIL import Image, ImageDraw

from pytest_spider2v.agents.llm.agent import LLMAgent, make_anthropic_agent, make_openai_agent
from pytest_spider2v.agents.llm.options import pytest_spider2v_agent_options as llm_settings
from pytest_spider2v.registry import Unavailable
from pytest_spider2v.run.agent import AgentSettings, Observation, agent_factory
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_task, task_document, write_task
from tests.support.llm_server import LLMServer, Reply

KEY = "sk-test-never-written-anywhere"
INSTRUCTION = "Rename the sheet 'Data' to 'Revenue 2024' and save the workbook."
CODE = "```python\npyautogui.click(200, 125)\n```"
TREE = """<desktop-frame xmlns:st="uri:deskat:state.at-spi.gnome.org"
    xmlns:cp="uri:deskat:component.at-spi.gnome.org">
  <application name="soffice">
    <push-button name="Save" st:showing="true" st:visible="true" st:enabled="true"
        cp:screencoord="(100, 100)" cp:size="(200, 50)"/>
    <push-button name="Hidden" st:showing="false" st:visible="true" st:enabled="true"
        cp:screencoord="(500, 500)" cp:size="(40, 40)"/>
  </application>
</desktop-frame>"""


def screenshot(size: tuple[int, int] = (1920, 1080)) -> bytes:
    image = Image.new("RGB", size, "white")
    ImageDraw.Draw(image).rectangle([(110, 110), (280, 140)], fill="gray")  # the Save button's face
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def observation(infos: tuple[dict, ...] = ()) -> Observation:
    return Observation(screenshot(), TREE, infos)


def a_task(folder: Path, instruction: str = INSTRUCTION) -> Task:
    return make_task(task_document(id="rename-sheet", instruction=instruction, action_number=2,
                                   evaluator={"func": "check_include_exclude"}), root=folder)


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


@pytest.fixture
def agent(server: LLMServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[..., LLMAgent]:
    """``agent(name, **options)``: a reset agent talking to the loopback server, no retry delay."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)

    def make(name: str = "gpt-4o", **options: str) -> LLMAgent:
        base = server.anthropic_url if name.startswith("claude") else server.openai_url
        settings = AgentSettings(name, options={"base_url": base, "backoff": "0", **options})
        built = agent_factory(name)(settings)
        built.reset(a_task(tmp_path))
        return built

    return make


def test_model_names_resolve_to_their_sdk_family() -> None:
    assert agent_factory("gpt-4o") is make_openai_agent
    assert agent_factory("gpt-4o-mini") is make_openai_agent
    assert agent_factory("openai:qwen2-vl-72b") is make_openai_agent
    assert agent_factory("claude-3-5-sonnet") is make_anthropic_agent


def test_without_key_or_base_url_the_agent_is_unavailable_with_one_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(Unavailable) as caught:
        agent_factory("gpt-4o")(AgentSettings("gpt-4o"))
    assert caught.value.reason == "set OPENAI_API_KEY or --llm-base-url"
    assert caught.value.name == "gpt-4o"


def test_without_key_every_task_is_skipped_with_that_reason_before_any_environment(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for task_id in ("first", "second"):
        write_task(pytester.path, task_document(id=task_id, instruction="x"))
    result = pytester.runpytest("tasks", "--agent", "gpt-4o", "-rs")
    result.assert_outcomes(skipped=2)
    records = [json.loads(p.read_text()) for p in (pytester.path / "results").rglob("result.json")]
    assert {(r["status"], r["detail"]) for r in records} == {
        ("skipped", "agent 'gpt-4o' is unavailable: set OPENAI_API_KEY or --llm-base-url")}
    assert len(records) == 2 and not any(r["timings"].get("restore") for r in records)  # no environment started


def test_system_prompt_holds_task_password_screen_size_and_the_observation_is_sent(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(CODE)
    turn = agent(observation="screenshot_a11y_tree").act(INSTRUCTION, observation())
    request = server.requests[0]
    system = "\n".join(request.system_texts())
    assert system.endswith(f"You are asked to complete the following task: {INSTRUCTION}")
    assert "'password'" in system and "1920 pixels wide and 1080 pixels high" in system
    assert request.body["model"] == "gpt-4o"
    assert (request.body["temperature"], request.body["top_p"], request.body["max_tokens"]) == (0.5, 0.9, 1500)
    assert request.images() == [screenshot()]
    table = request.texts("user")[-1]
    assert "push-button\tSave\t(100, 100)\t(200, 50)" in table and "Hidden" not in table
    assert turn.actions == ["pyautogui.click(200, 125)"] and turn.response == CODE


def test_rag_context_is_the_second_system_message(server: LLMServer, agent: Callable[..., LLMAgent],
                                                  tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "sheets.md").write_text("# Renaming sheets\n\nRight-click the sheet tab and choose Rename Sheet.\n")
    (docs / "charts.md").write_text("# Charts\n\nInsert a chart from the Insert menu.\n")
    server.script(CODE)
    agent(rag_docs=str(docs), rag_topk="1").act(INSTRUCTION, observation())
    systems = [m for m in server.requests[0].messages if m["role"] == "system"]
    assert len(systems) == 2
    assert systems[1]["content"].startswith("We also retrieved documentation")
    assert "Documentation Source:\nsheets.md" in systems[1]["content"] and "Charts" not in systems[1]["content"]


def test_history_window_shows_only_the_last_n_turns(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    replies = [f"```python\npyautogui.press('f{n}')\n```" for n in range(1, 6)]
    server.script(*replies)
    bot = agent(history="2", observation="screenshot")
    for _ in replies:
        bot.act(INSTRUCTION, observation())
    last = server.requests[-1]
    assert last.turns("assistant") == 2 and last.turns("user") == 3
    assert [m["content"] for m in last.messages if m["role"] == "assistant"] == replies[2:4]
    assert len(last.images()) == 3  # two past observations and the current one
    assert server.requests[0].turns("assistant") == 0


def test_execution_feedback_shows_the_actual_error_of_the_failed_action(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    broken = "```python\npyautogui.click(*target)\n```"
    server.script(broken, CODE)
    bot = agent(execution_feedback="true", observation="screenshot")
    first = bot.act(INSTRUCTION, observation())
    error = "Traceback (most recent call last):\n  File \"<string>\", line 1\nNameError: name 'target' is not defined"
    infos = ({"status": "success", "output": "", "error": error, "returncode": 1},)
    bot.act(INSTRUCTION, observation(infos))
    feedback = server.requests[1].texts("user")[-2]
    assert "NameError: name 'target' is not defined" in feedback
    assert "pyautogui.click(*target)" in feedback and first.actions == ["pyautogui.click(*target)"]
    assert "No valid action" not in feedback  # the original's inverted message (reference §6.5)


def test_without_execution_feedback_no_error_is_shown(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(CODE, CODE)
    bot = agent(observation="screenshot")
    bot.act(INSTRUCTION, observation())
    bot.act(INSTRUCTION, observation(({"status": "error", "message": "guest unreachable"},)))
    assert not any("guest unreachable" in text for text in server.requests[1].texts())


def test_rate_limit_then_server_error_are_retried_and_counted(server: LLMServer,
                                                             agent: Callable[..., LLMAgent]) -> None:
    server.script(Reply.error(429, "slow down", retry_after=0), Reply.error(500, "boom"), CODE)
    turn = agent().act(INSTRUCTION, observation())
    assert turn.actions == ["pyautogui.click(200, 125)"]
    assert turn.usage["attempts"] == 3 and len(server.requests) == 3
    assert server.requests[0].body == server.requests[2].body  # the same prompt, sent again


def test_a_timed_out_request_is_retried(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(Reply(CODE, delay=1.0), CODE)
    turn = agent(timeout="0.3").act(INSTRUCTION, observation())
    assert turn.actions == ["pyautogui.click(200, 125)"] and turn.usage["attempts"] == 2


def test_retries_give_up_with_the_last_error(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(Reply.error(429, retry_after=0), Reply.error(503, "overloaded"), CODE)
    with pytest.raises(openai.InternalServerError, match="overloaded"):
        agent(retries="1").act(INSTRUCTION, observation())
    assert len(server.requests) == 2


def test_a_client_error_is_not_retried(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(Reply.error(401, "bad key"), CODE)
    with pytest.raises(openai.AuthenticationError):
        agent().act(INSTRUCTION, observation())
    assert len(server.requests) == 1


def test_a_prompt_too_long_is_sent_again_with_the_current_observation_only(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(CODE, Reply.error(400, "maximum context length", code="context_length_exceeded"), CODE)
    bot = agent(observation="screenshot")
    bot.act(INSTRUCTION, observation())
    turn = bot.act(INSTRUCTION, observation())
    full, trimmed = server.requests[1:]
    assert [m["role"] for m in full.messages] == ["system", "user", "assistant", "user"]
    assert [m["role"] for m in trimmed.messages] == ["system", "user"] and len(trimmed.images()) == 1
    assert turn.actions == ["pyautogui.click(200, 125)"] and len(turn.prompt) == 2


def test_malformed_reply_is_fed_back_on_the_next_turn(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script("I would click the Save button now.", CODE)
    bot = agent(observation="screenshot")
    first = bot.act(INSTRUCTION, observation())
    second = bot.act(INSTRUCTION, observation())
    assert first.actions == [] and first.response == "I would click the Save button now."
    note = server.requests[1].texts("user")[-2]
    assert note.startswith("Your previous answer could not be executed: no action found in the reply")
    assert second.actions == ["pyautogui.click(200, 125)"]


def test_tokens_and_cost_are_recorded_per_turn(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(Reply(CODE, prompt_tokens=12000, completion_tokens=300), Reply(CODE, prompt_tokens=10, completion_tokens=1))
    turn = agent().act(INSTRUCTION, observation())
    assert turn.usage["prompt_tokens"] == 12000 and turn.usage["completion_tokens"] == 300
    assert turn.usage["cost_usd"] == pytest.approx((12000 * 2.50 + 300 * 10.00) / 1e6)
    paper = agent("gpt-4o-2024-05-13").act(INSTRUCTION, observation())  # the original table's price
    assert paper.usage["cost_usd"] == pytest.approx((10 * 5 + 1 * 15) / 1e6)


def test_the_recorded_prompt_has_no_image_bulk_and_no_key(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(CODE)
    turn = agent(observation="screenshot").act(INSTRUCTION, observation())
    assert turn.prompt[-1]["content"][-1] == "<image 1920x1080>"
    dumped = json.dumps([turn.prompt, turn.usage, turn.response])
    assert KEY not in dumped and len(dumped) < 10_000
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"  # yet the key was sent


def test_som_marks_the_screenshot_and_resolves_index_names(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script("```python\npyautogui.click(*index_1)\n```", "```python\npyautogui.click(*index_7)\n```")
    bot = agent(observation="som")
    turn = bot.act(INSTRUCTION, observation())
    request = server.requests[0]
    assert turn.actions == ["index_1 = (200, 125)\npyautogui.click(*index_1)"]
    assert "INDEX\tTAG" in request.texts("user")[-1] and "1\tpush-button\tSave" in request.texts("user")[-1]
    assert request.images()[0] != screenshot()  # the marks are drawn
    bad = bot.act(INSTRUCTION, observation())
    assert bad.actions == []  # an unknown mark is fed back, never executed with a NameError
    server.script(CODE)
    bot.act(INSTRUCTION, observation())
    assert "index_7 is not a mark" in server.requests[2].texts("user")[-2]


def test_computer_13_coordinates_on_a_scaled_screenshot_map_back_to_the_screen(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script('```json\n[{"action_type": "CLICK", "x": 100, "y": 60}, {"action_type": "TYPING", "text": "hi"}]\n```')
    bot = agent(action_space="computer_13", screenshot_max_width="960")
    turn = bot.act(INSTRUCTION, observation())
    request = server.requests[0]
    assert Image.open(io.BytesIO(request.images()[0])).size == (960, 540)
    assert "960 pixels wide and 540 pixels high" in request.system_texts()[0]
    assert "push-button\tSave\t(50, 50)\t(100, 25)" in request.texts("user")[-1]  # table in image pixels
    assert turn.actions == [{"action_type": "CLICK", "x": 200, "y": 120}, {"action_type": "TYPING", "text": "hi"}]


def test_som_with_computer_13_is_refused() -> None:
    with pytest.raises(ValueError, match="som observation needs the pyautogui"):
        make_openai_agent(AgentSettings("gpt-4o", options={"action_space": "computer_13", "observation": "som",
                                                           "base_url": "http://127.0.0.1:9/v1"}))


def test_unknown_options_are_named() -> None:
    with pytest.raises(ValueError, match="unknown agent option.*temprature"):
        make_openai_agent(AgentSettings("gpt-4o", options={"temprature": "0", "base_url": "http://127.0.0.1:9/v1"}))


def test_anthropic_path_sends_images_as_base64_blocks_and_the_system_field(
        server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(Reply(CODE, prompt_tokens=2000, completion_tokens=50), CODE)
    bot = agent("claude-3-5-sonnet", observation="screenshot", execution_feedback="1")
    turn = bot.act(INSTRUCTION, observation())
    bot.act(INSTRUCTION, observation(({"status": "error", "message": "guest unreachable"},)))
    first, second = server.requests
    assert first.wire == "anthropic" and first.body["model"] == "claude-3-5-sonnet"
    assert first.system_texts()[0].endswith(INSTRUCTION)
    assert first.images() == [screenshot()]
    image = first.messages[0]["content"][-1]
    assert image["type"] == "image" and image["source"]["media_type"] == "image/png"
    assert "top_p" not in first.body and "temperature" not in first.body  # see AnthropicBackend
    roles = [m["role"] for m in second.messages]
    assert roles == ["user", "assistant", "user"]  # the feedback merged into the last user turn
    assert "guest unreachable" in " ".join(second.texts("user"))
    assert turn.usage["cost_usd"] == pytest.approx((2000 * 3 + 50 * 15) / 1e6)


def test_anthropic_gets_sampling_options_only_when_given(server: LLMServer, agent: Callable[..., LLMAgent]) -> None:
    server.script(CODE)
    agent("claude-haiku-4-5", observation="screenshot", temperature="0.2").act(INSTRUCTION, observation())
    assert server.requests[0].body["temperature"] == 0.2 and "top_p" not in server.requests[0].body


def test_first_class_flags_become_agent_options(pytester: pytest.Pytester) -> None:
    config = pytester.parseconfig("--llm-base-url", "http://127.0.0.1:8000/v1", "--execution-feedback",
                                  "--history", "2", "--action-space", "computer_13")
    assert llm_settings(config) == {"base_url": "http://127.0.0.1:8000/v1", "execution_feedback": "true",
                                    "history": "2", "action_space": "computer_13"}

