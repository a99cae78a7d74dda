"""The model-driven agents through a whole benchmark run: real container, real task, real SDKs.

Each test runs ``pytest`` on a tiny gedit task in a subprocess, exactly as a user would, with
``--agent gpt-4o`` / ``--agent claude-...`` pointed at the loopback model server of this test
process. The server replies with actions that solve the task, so the task must pass with score 1
and the records must hold the replies, prompts and token usage.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.llm_server import LLMServer, Request

pytestmark = pytest.mark.e2e

NOTE = "/home/user/Desktop/note.txt"
WORDS = "hello spider"
TYPE_AND_SAVE = (f"pyautogui.click(960, 540)\npyautogui.hotkey('ctrl', 'end')\n"
                 f"pyautogui.typewrite(' {WORDS}')\npyautogui.hotkey('ctrl', 's')\ntime.sleep(1)")
KEY = "sk-dummy-e2e-key"


def write_task(root: Path) -> None:
    """A task: append words to a note open (maximised) in gedit and save it."""
    folder = root / "tasks" / "gedit" / "append-note"
    folder.mkdir(parents=True)
    (folder / "task.json").write_text(json.dumps({
        "id": "append-note", "snapshot": "desktop",
        "instruction": f"Append the words '{WORDS}' to the note open in gedit and save it.",
        "source": [], "related_apps": ["gedit"], "tags": ["traditional_data_processing", "gui"],
        "action_number": 3,
        "config": [
            {"type": "execute", "parameters": {"command": f"mkdir -p /home/user/Desktop && printf draft > {NOTE}",
                                               "shell": True}},
            {"type": "launch", "parameters": {"command": ["gedit", NOTE]}},
            {"type": "execute", "parameters": {"command": ["wmctrl", "-l"], "until": {"stdout": "note.txt"}}},
            {"type": "execute", "parameters": {"command": ["wmctrl", "-r", "note.txt", "-b",
                                                           "add,maximized_vert,maximized_horz"]}},
            {"type": "sleep", "parameters": {"seconds": 1}},
        ],
        "evaluator": {"func": "check_include_exclude",
                      "result": {"type": "vm_command_line", "command": f"cat {NOTE}", "shell": True},
                      "expected": {"type": "rule", "rules": {"include": [f"draft {WORDS}"], "exclude": []}}},
    }))


def run_task(root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    write_task(root)
    env = {**os.environ, "OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": KEY}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tasks", "-v",
                           "--results-dir", str(root / "results"), "--sleep-after-action", "1", *args],
                          cwd=root, env=env, capture_output=True, text=True, timeout=900, check=False)
    found = sorted((root / "results").rglob("result.json"))
    assert found, proc.stdout[-4000:] + proc.stderr[-2000:]
    return proc, json.loads(found[0].read_text())


def assert_solved(proc: subprocess.CompletedProcess[str], record: dict) -> None:
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    assert "append-note[abstract] PASSED" in proc.stdout
    assert (record["status"], record["score"]) == ("passed", 1.0)


def test_gpt4o_with_pyautogui_code_and_execution_feedback_solves_the_task(tmp_path: Path) -> None:
    with LLMServer() as server:
        server.script("```python\npyautogui.click(*target)\n```", f"```python\n{TYPE_AND_SAVE}\n```", "DONE")
        proc, record = run_task(tmp_path, "--agent", "gpt-4o", "--llm-base-url", server.openai_url,
                                "--observation", "screenshot", "--execution-feedback")
    assert_solved(proc, record)
    first, second, third = server.requests
    assert first.body["model"] == "gpt-4o" and len(first.images()) == 1
    assert first.images()[0].startswith(b"\x89PNG")
    feedback = " ".join(second.texts("user"))
    assert "NameError: name 'target' is not defined" in feedback  # the real error from the guest
    assert not any("NameError" in text for text in third.texts("user"))  # fixed, so no feedback
    assert record["usage"]["prompt_tokens"] > 0 and record["usage"]["cost_usd"] > 0
    assert record["steps"][0]["response"] == "```python\npyautogui.click(*target)\n```"
    written = [p.read_text(errors="replace") for p in (tmp_path / "results").rglob("*") if p.suffix in (".json", ".jsonl")]
    assert written and not any(KEY in text for text in written)


def test_gpt4o_with_computer_13_actions_solves_the_task(tmp_path: Path) -> None:
    actions = [{"action_type": "CLICK", "x": 960, "y": 540}, {"action_type": "HOTKEY", "keys": ["ctrl", "end"]},
               {"action_type": "TYPING", "text": f" {WORDS}"}, {"action_type": "HOTKEY", "keys": ["ctrl", "s"]}]
    with LLMServer() as server:
        server.script(f"```json\n{json.dumps(actions)}\n```", '```json\n{"action_type": "DONE"}\n```')
        proc, record = run_task(tmp_path, "--agent", "gpt-4o", "--llm-base-url", server.openai_url,
                                "--action-space", "computer_13", "--observation", "screenshot")
    assert_solved(proc, record)
    assert [s["action"] for s in record["steps"][:4]] == actions
    assert "HOTKEY" in server.requests[0].system_texts()[0]


def test_claude_through_the_anthropic_sdk_solves_the_task(tmp_path: Path) -> None:
    with LLMServer() as server:
        server.script(f"```python\n{TYPE_AND_SAVE}\n```", "DONE")
        proc, record = run_task(tmp_path, "--agent", "claude-haiku-4-5", "--llm-base-url", server.anthropic_url,
                                "--observation", "screenshot")
    assert_solved(proc, record)
    assert [r.wire for r in server.requests] == ["anthropic", "anthropic"]
    assert len(server.requests[0].images()) == 1 and WORDS in server.requests[0].body["system"]


MEMORY_HOG = "chunks = []\nwhile True:\n    chunks.append(bytearray(64 * 2**20))"


def test_a_model_whose_action_exhausts_memory_scores_0_and_is_not_retried(tmp_path: Path) -> None:
    """The agent's own action breaks its environment: that is the agent's failure (score 0, flagged
    with the limit), not a fault of the harness that --retries would start over. (A container
    killed from outside stays an error and is retried: test_benchmark_run.py.)"""
    with LLMServer() as server:
        server.script(f"```python\n{MEMORY_HOG}\n```", "DONE", "DONE")
        proc, record = run_task(tmp_path, "--agent", "gpt-4o", "--llm-base-url", server.openai_url,
                                "--observation", "screenshot", "--retries", "1", "--env-memory", "1g",
                                f"--junitxml={tmp_path / 'junit.xml'}")
    assert proc.returncode == 1, proc.stdout[-5000:] + proc.stderr[-2000:]
    assert "append-note[abstract] FAILED" in proc.stdout
    assert (record["status"], record["score"], record["attempts"]) == ("failed", 0.0, [])
    (flag,) = record["flags"]
    assert flag["kind"] == "agent_broke_environment" and "memory limit of 1g" in flag["reason"], flag
    assert len(server.requests) == 1  # one turn, never started over
    assert 'property name="score" value="0.00"' in (tmp_path / "junit.xml").read_text()


def click_the_note(chosen: list[str]) -> Callable[[Request], str]:
    """A reply like a model's that read the marked table: click the text view holding 'draft'.
    The centre of the chosen row's box is appended to ``chosen`` as ``"index_K = (x, y)"``."""
    def reply(request: Request) -> str:
        table = request.texts("user")[-1]
        row = next((line for line in table.splitlines() if re.match(r"^\d+\t[\w-]*text\t.*'draft'", line)), None)
        if row is None:
            return "FAIL"
        index, _tag, _name, position, size = row.split("\t")[:5]
        (x, y), (w, h) = (tuple(int(v) for v in re.findall(r"\d+", pair)) for pair in (position, size))
        chosen.append(f"index_{index} = ({x + w // 2}, {y + h // 2})")
        return (f"```python\npyautogui.click(*index_{index})\npyautogui.hotkey('ctrl', 'end')\n"
                f"pyautogui.typewrite(' {WORDS}')\npyautogui.hotkey('ctrl', 's')\ntime.sleep(1)\n```")

    return reply


def test_set_of_marks_index_names_are_resolved_to_the_marked_widget(tmp_path: Path) -> None:
    chosen: list[str] = []
    with LLMServer() as server:
        server.script(click_the_note(chosen), "DONE")
        proc, record = run_task(tmp_path, "--agent", "gpt-4o-mini", "--llm-base-url", server.openai_url,
                                "--observation", "som", f"--html={tmp_path / 'report.html'}", "--self-contained-html")
    assert_solved(proc, record)
    assert len(chosen) == 1
    assert record["steps"][0]["action"].startswith(chosen[0] + "\npyautogui.click(*index_")
    first_screen = next((tmp_path / "results").rglob("step_000.png")).read_bytes()
    seen = server.requests[0].images()[0]
    assert seen != first_screen  # the model saw the marks drawn on it
    view = next((tmp_path / "results").rglob(record["steps"][0]["view"])).read_bytes()
    assert view == seen  # and the record keeps exactly that image
    report = (tmp_path / "report.html").read_text()
    assert "what the model saw:" in report  # the marked screenshot is in the report
    assert "pyautogui.click(*index_" in report  # the model's reply and the executed action
    usage = record["usage"]
    assert f"{usage['prompt_tokens'] + usage['completion_tokens']:,}" in report  # the task's token total
    assert f"${usage['cost_usd']:.4f}" in report  # and its cost


ROOT = Path(__file__).resolve().parents[2]
PROJECT_TASK = "tasks/gedit/update-etl-config"


def test_a_project_task_solved_by_a_scripted_model_through_the_openai_sdk(tmp_path: Path) -> None:
    """The acceptance command itself: ``pytest tasks/... --agent gpt-4o --llm-base-url URL -k TASK``,
    the model answering with the task's reference actions as code blocks."""
    from pytest_spider2v.agents.oracle import solution_actions

    cells = solution_actions(ROOT / PROJECT_TASK / "solution.py")
    replies = [c if c in ("WAIT", "DONE", "FAIL") else f"```python\n{c}\n```" for c in cells]
    with LLMServer() as server:
        server.script(*replies)
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tasks/", "-k", "update-etl-config and abstract",
             "--agent", "gpt-4o", "--llm-base-url", server.openai_url, "--observation", "screenshot",
             "--results-dir", str(tmp_path), "-v"],
            cwd=ROOT, env={**os.environ, "OPENAI_API_KEY": KEY}, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    assert "update-etl-config[abstract] PASSED" in proc.stdout
    (record,) = [json.loads(p.read_text()) for p in tmp_path.rglob("result.json")]
    assert (record["score"], len(server.requests)) == (1.0, len(replies))
    assert record["usage"]["prompt_tokens"] > 0


CALC_TASK = "tasks/calc/product-revenue-column"


def test_a_calc_task_with_set_of_marks_records_the_tree_inside_each_step(tmp_path: Path) -> None:
    """``--observation som`` on a Calc desktop (the largest tree of the suite): the task is solved,
    and every step's recorded timings show the accessibility tree fetched inside the step."""
    from pytest_spider2v.agents.oracle import solution_actions

    cells = solution_actions(ROOT / CALC_TASK / "solution.py")
    replies = [c if c in ("WAIT", "DONE", "FAIL") else f"```python\n{c}\n```" for c in cells]
    with LLMServer() as server:
        server.script(*replies)
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", CALC_TASK, "-k", "abstract",
             "--agent", "gpt-4o", "--llm-base-url", server.openai_url, "--observation", "som",
             "--results-dir", str(tmp_path), "-v"],
            cwd=ROOT, env={**os.environ, "OPENAI_API_KEY": KEY}, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    (record,) = [json.loads(p.read_text()) for p in tmp_path.rglob("result.json")]
    assert record["score"] == 1.0
    steps = [s for s in record["steps"] if s["kind"] == "code"]
    assert steps
    for step in steps:
        tree = step["timings"]["observe"]["accessibility_tree"]
        assert 0 < tree <= step["duration"], step["timings"]
    # the model was shown the marked screenshot and the table of the tree's widgets
    assert all(request.images() for request in server.requests[:len(steps)])
