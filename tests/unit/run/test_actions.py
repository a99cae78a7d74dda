"""computer_13 validation and translation to pyautogui code (reference §5.4)."""

from __future__ import annotations

import ast
import random

import pytest

from pytest_spider2v.run.actions import (
    ACTION_TYPES,
    KEYBOARD_KEYS,
    MOVE_EASINGS,
    ActionError,
    computer13_to_code,
    map_point,
)


def test_keyboard_keys_is_pyautoguis_list() -> None:
    assert len(KEYBOARD_KEYS) == 193
    assert {"enter", "ctrl", "f24", "pagedown", "\t", "'", "optionright"} <= KEYBOARD_KEYS
    assert "control" not in KEYBOARD_KEYS
    assert len(ACTION_TYPES) == 16


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"action_type": "CLICK"}, "pyautogui.click()"),
        ({"action_type": "CLICK", "x": 10, "y": 20}, "pyautogui.click(x=10, y=20)"),
        ({"action_type": "CLICK", "parameters": {"button": "right", "x": 5, "y": 6, "num_clicks": 2}},
         "pyautogui.click(button='right', x=5, y=6, clicks=2)"),
        ({"action_type": "CLICK", "button": "middle", "num_clicks": 3}, "pyautogui.click(button='middle', clicks=3)"),
        ({"action_type": "MOUSE_DOWN"}, "pyautogui.mouseDown()"),
        ({"action_type": "MOUSE_UP", "button": "left"}, "pyautogui.mouseUp(button='left')"),
        ({"action_type": "RIGHT_CLICK", "x": 1, "y": 2}, "pyautogui.rightClick(x=1, y=2)"),
        ({"action_type": "DOUBLE_CLICK"}, "pyautogui.doubleClick()"),
        ({"action_type": "DRAG_TO", "x": 300, "y": 400.5},
         "pyautogui.dragTo(300, 400.5, duration=1.0, button='left', mouseDownUp=True)"),
        ({"action_type": "SCROLL", "clicks": -5}, "pyautogui.scroll(-5)"),
        ({"action_type": "PRESS", "key": "Enter"}, "pyautogui.press('Enter')"),
        ({"action_type": "KEY_DOWN", "key": "shift"}, "pyautogui.keyDown('shift')"),
        ({"action_type": "KEY_UP", "parameters": {"key": "'"}}, 'pyautogui.keyUp("\'")'),
        ({"action_type": "HOTKEY", "keys": ["ctrl", "shift", "t"]}, "pyautogui.hotkey('ctrl', 'shift', 't')"),
        ({"action_type": "MOVE_TO", "parameters": {}}, "pyautogui.moveTo()"),
    ],
)
def test_translation_matches_original_calls(action: dict, code: str) -> None:
    assert computer13_to_code(action) == code


def test_typing_text_survives_quotes_semicolons_and_newlines() -> None:
    text = "SELECT 'a'; -- \"b\" \\ \n done"
    code = computer13_to_code({"action_type": "TYPING", "text": text})
    call = ast.parse(code).body[0].value
    assert ast.unparse(call.func) == "pyautogui.typewrite"
    assert ast.literal_eval(call.args[0]) == text


def test_move_to_uses_rng_for_duration_and_easing() -> None:
    code = computer13_to_code({"action_type": "MOVE_TO", "x": 100, "y": 50}, rng=random.Random(7))
    call = ast.parse(code).body[0].value
    x, y, duration, easing = call.args
    assert (ast.literal_eval(x), ast.literal_eval(y)) == (100, 50)
    assert 0.5 <= ast.literal_eval(duration) <= 1.0
    assert ast.unparse(easing) in MOVE_EASINGS
    again = computer13_to_code({"action_type": "MOVE_TO", "x": 100, "y": 50}, rng=random.Random(7))
    assert again == code


def test_coordinates_on_the_screen_edge_are_allowed_and_screen_size_is_honoured() -> None:
    assert computer13_to_code({"action_type": "CLICK", "x": 1920, "y": 0}) == "pyautogui.click(x=1920, y=0)"
    with pytest.raises(ActionError, match=r"x=1920 is off the screen; allowed range is 0\.\.1280"):
        computer13_to_code({"action_type": "CLICK", "x": 1920, "y": 0}, screen=(1280, 720))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"action_type": "CLICK", "x": -1, "y": 5}, r"CLICK: x=-1 is off the screen"),
        ({"action_type": "CLICK", "x": 5}, r"CLICK: x and y must be given together"),
        ({"action_type": "DRAG_TO"}, r"DRAG_TO: x and y must be given together and are required"),
        ({"action_type": "CLICK", "x": "5", "y": 5}, r"x must be a number, got '5'"),
        ({"action_type": "CLICK", "x": True, "y": 5}, r"x must be a number"),
        ({"action_type": "CLICK", "num_clicks": 4}, r"num_clicks must be 1, 2 or 3, got 4"),
        ({"action_type": "CLICK", "button": "primary"}, r"button must be one of left, right, middle"),
        ({"action_type": "PRESS", "key": "control"}, r"PRESS: 'control' is not a pyautogui key name"),
        ({"action_type": "PRESS"}, r"PRESS: parameter 'key' is required"),
        ({"action_type": "HOTKEY", "keys": "ctrl+c"}, r"keys must be a non-empty list"),
        ({"action_type": "HOTKEY", "keys": ["ctrl", "cmd"]}, r"'cmd' is not a pyautogui key name"),
        ({"action_type": "SCROLL", "clicks": 2.5}, r"clicks must be an integer"),
        ({"action_type": "TYPING", "text": 42}, r"text must be a string"),
        ({"action_type": "TYPING", "text": "a", "speed": 3}, r"unknown parameter\(s\) speed; allowed: text"),
        ({"action_type": "CLICK", "parameters": [1, 2]}, r"'parameters' must be an object"),
        ({"action_type": "SWIPE"}, r"unknown action_type 'SWIPE'; expected one of MOVE_TO"),
        ({"x": 1}, r"no string 'action_type'"),
        ({"action_type": "DONE"}, r"DONE is a special action handled by the episode"),
    ],
)
def test_invalid_actions_raise_precise_errors(action: dict, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        computer13_to_code(action)


def test_non_dict_action_is_refused() -> None:
    with pytest.raises(ActionError, match="must be a JSON object"):
        computer13_to_code("pyautogui.click()")  # type: ignore[arg-type]
    assert issubclass(ActionError, ValueError)


def test_map_point_scales_rounds_and_clamps() -> None:
    assert map_point(640, 360, (1280, 720), (1920, 1080)) == (960, 540)
    assert map_point(0.4, 0.6, (1280, 720), (1920, 1080)) == (1, 1)
    assert map_point(1280, 720, (1280, 720), (1920, 1080)) == (1919, 1079)
    assert map_point(-3, 2, (100, 100), (100, 100)) == (0, 2)
    with pytest.raises(ValueError, match="sizes must be positive"):
        map_point(1, 1, (0, 720), (1920, 1080))
