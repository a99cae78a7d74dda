"""Parsing model replies into actions (reference §6.6), including the fixed ';' quirk (§9.8)."""

from __future__ import annotations

import pytest

from pytest_spider2v.agents.llm.parsing import parse_computer13, parse_pyautogui
from pytest_spider2v.run.actions import ActionError


@pytest.mark.parametrize("word", ["WAIT", "DONE", "FAIL"])
def test_whole_reply_special_word(word: str) -> None:
    assert parse_pyautogui(f"  {word}\n") == [word]


def test_every_fenced_block_is_an_action_and_language_words_are_dropped() -> None:
    reply = (
        "First I open the menu.\n```python\nimport pyautogui\npyautogui.click(70, 60)\n```\n"
        "Then I type.\n```\npyautogui.typewrite('hello')\n```\nAnd wait:\n```WAIT```"
    )
    assert parse_pyautogui(reply) == [
        "import pyautogui\npyautogui.click(70, 60)",
        "pyautogui.typewrite('hello')",
        "WAIT",
    ]


def test_last_line_special_word_is_split_off() -> None:
    reply = "```python\npyautogui.hotkey('ctrl', 's')\ntime.sleep(1)\nDONE\n```"
    assert parse_pyautogui(reply) == ["pyautogui.hotkey('ctrl', 's')\ntime.sleep(1)", "DONE"]
    assert parse_pyautogui("```DONE\n```") == ["DONE"]


def test_semicolons_inside_string_literals_are_kept() -> None:
    reply = "```python\npyautogui.typewrite('SELECT 1; SELECT 2;'); pyautogui.press('enter')\n```"
    assert parse_pyautogui(reply) == ["pyautogui.typewrite('SELECT 1; SELECT 2;'); pyautogui.press('enter')"]


def test_reply_without_action_raises_feedback() -> None:
    with pytest.raises(ActionError, match="no action found in the reply: put Python code"):
        parse_pyautogui("I think we should click the Save button.")
    with pytest.raises(ActionError, match="no action found"):
        parse_pyautogui("```python\n\n```")


def test_computer13_json_blocks_lists_and_nested_parameters() -> None:
    reply = (
        'I click, then type.\n```json\n{"action_type": "CLICK", "x": 5, "y": 6}\n```\n'
        '```json\n[{"action_type": "TYPING", "parameters": {"text": "a;b"}}, "DONE"]\n```'
    )
    assert parse_computer13(reply) == [
        {"action_type": "CLICK", "x": 5, "y": 6},
        {"action_type": "TYPING", "parameters": {"text": "a;b"}},
        {"action_type": "DONE"},
    ]


def test_computer13_falls_back_to_plain_blocks_then_whole_reply() -> None:
    assert parse_computer13('```\n{"action_type": "PRESS", "key": "enter"}\n```') == [
        {"action_type": "PRESS", "key": "enter"}
    ]
    assert parse_computer13(' {"action_type": "SCROLL", "clicks": -3} ') == [{"action_type": "SCROLL", "clicks": -3}]
    assert parse_computer13("FAIL") == [{"action_type": "FAIL"}]
    assert parse_computer13('```json\n{"action_type": "WAIT"}\n```') == [{"action_type": "WAIT"}]


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("Let me click the button.", r"could not parse JSON in the reply .*JSON action such as"),
        ('```json\n{"action_type": "CLICK", \n```', r"could not parse JSON in the reply"),
        ('```json\n{"x": 1}\n```\n```json\n{"action_type": "WAIT"}\n```', r"code block 1: \{\"x\": 1\} is not an action"),
        ('```json\n[]\n```', r"no action found"),
        ('"SUBMIT"', r"is not an action object"),
    ],
)
def test_computer13_unparseable_replies_raise(reply: str, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        parse_computer13(reply)
