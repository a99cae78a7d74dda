"""The harness's action spaces: validating ``computer_13`` actions and turning them into pyautogui code.

Two action spaces exist (reference §5.4). ``pyautogui`` actions are already code and run as they
are. ``computer_13`` actions are dicts ``{"action_type": ..., <parameters>}``; this module checks
them and translates each into the one pyautogui call the original ``PythonController`` made, so
both spaces share the single execution path of the episode (``Environment.run_python``).

Validation is stricter than the original, on purpose: the original raised a bare ``Exception``
mid-episode for some bad parameters and silently ignored others. Here every problem raises
:class:`ActionError` whose message names the action, the parameter and what is allowed, because
that message is fed back to the model as execution feedback.

Nothing here knows about agents or prompts; agents import it, not the other way round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pytest_spider2v.run.agent import SPECIAL_ACTIONS

#: pyautogui's ``KEYBOARD_KEYS`` (pyautogui 0.9.54 ``_pyautogui_x11``/``__init__``), as copied into
#: the original harness's ``desktop_env/envs/actions.py``. Kept as data because importing pyautogui
#: needs an X display, and the host running the harness has none.
KEYBOARD_KEYS: frozenset[str] = frozenset(
    list('\t\n\r !"#$%&\'()*+,-./0123456789:;<=>?@[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~')
    + [
        'accept', 'add', 'alt', 'altleft', 'altright', 'apps', 'backspace', 'browserback',
        'browserfavorites', 'browserforward', 'browserhome', 'browserrefresh', 'browsersearch',
        'browserstop', 'capslock', 'clear', 'convert', 'ctrl', 'ctrlleft', 'ctrlright', 'decimal',
        'del', 'delete', 'divide', 'down', 'end', 'enter', 'esc', 'escape', 'execute', 'f1', 'f10',
        'f11', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f19', 'f2', 'f20', 'f21', 'f22',
        'f23', 'f24', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'final', 'fn', 'hanguel', 'hangul',
        'hanja', 'help', 'home', 'insert', 'junja', 'kana', 'kanji', 'launchapp1', 'launchapp2',
        'launchmail', 'launchmediaselect', 'left', 'modechange', 'multiply', 'nexttrack',
        'nonconvert', 'num0', 'num1', 'num2', 'num3', 'num4', 'num5', 'num6', 'num7', 'num8',
        'num9', 'numlock', 'pagedown', 'pageup', 'pause', 'pgdn', 'pgup', 'playpause', 'prevtrack',
        'print', 'printscreen', 'prntscrn', 'prtsc', 'prtscr', 'return', 'right', 'scrolllock',
        'select', 'separator', 'shift', 'shiftleft', 'shiftright', 'sleep', 'stop', 'subtract',
        'tab', 'up', 'volumedown', 'volumemute', 'volumeup', 'win', 'winleft', 'winright', 'yen',
        'command', 'option', 'optionleft', 'optionright',
    ]
)

#: The 16 ``computer_13`` action types, in the original's order (the last three are special).
ACTION_TYPES: tuple[str, ...] = (
    "MOVE_TO", "CLICK", "MOUSE_DOWN", "MOUSE_UP", "RIGHT_CLICK", "DOUBLE_CLICK", "DRAG_TO",
    "SCROLL", "TYPING", "PRESS", "KEY_DOWN", "KEY_UP", "HOTKEY", *SPECIAL_ACTIONS,
)

#: Easing functions the original picks from at random for MOVE_TO (a human-like cursor path).
MOVE_EASINGS: tuple[str, ...] = (
    "pyautogui.easeInQuad", "pyautogui.easeOutQuad", "pyautogui.easeInOutQuad",
    "pyautogui.easeInBounce", "pyautogui.easeInElastic",
)

BUTTONS = ("left", "right", "middle")

#: Allowed parameter names per translatable action type.
PARAMETERS: dict[str, tuple[str, ...]] = {
    "MOVE_TO": ("x", "y"),
    "CLICK": ("button", "x", "y", "num_clicks"),
    "MOUSE_DOWN": ("button",),
    "MOUSE_UP": ("button",),
    "RIGHT_CLICK": ("x", "y"),
    "DOUBLE_CLICK": ("x", "y"),
    "DRAG_TO": ("x", "y"),
    "SCROLL": ("clicks",),
    "TYPING": ("text",),
    "PRESS": ("key",),
    "KEY_DOWN": ("key",),
    "KEY_UP": ("key",),
    "HOTKEY": ("keys",),
}


#: A ``computer_13`` action's parameters as the model gave them: anything, until checked here.
Parameters = Mapping[str, object]


class ActionError(ValueError):
    """An action the harness refuses to run; the message is meant for the model to read."""


def computer13_to_code(
    action: Mapping[str, Any],
    screen: tuple[int, int] = (1920, 1080),
    rng: random.Random | None = None,
) -> str:
    """Validate one ``computer_13`` action and return the pyautogui code that performs it.

    Parameters sit either beside ``action_type`` or nested under ``"parameters"`` (both occur in
    model replies; the original accepted both). Coordinates must lie in ``[0, width]`` x
    ``[0, height]`` of ``screen`` (the original's ``[0, X_MAX]`` ranges). MOVE_TO draws its
    duration from U(0.5, 1) and its easing from :data:`MOVE_EASINGS` with ``rng`` (default: the
    ``random`` module), so tests can pass a seeded ``random.Random``.

    WAIT, FAIL and DONE are not translated: the episode acts on them itself, so passing one here is
    a caller error and raises :class:`ActionError` like any other invalid action.
    """
    if not isinstance(action, Mapping):
        raise ActionError(f"a computer_13 action must be a JSON object, got {action!r}")
    action_type = action.get("action_type")
    if not isinstance(action_type, str):
        raise ActionError(f"the action has no string 'action_type': {dict(action)!r}")
    if action_type in SPECIAL_ACTIONS:
        raise ActionError(f"{action_type} is a special action handled by the episode, not translated to code")
    if action_type not in PARAMETERS:
        raise ActionError(f"unknown action_type {action_type!r}; expected one of {', '.join(ACTION_TYPES)}")

    params = _parameters(action)
    allowed = PARAMETERS[action_type]
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ActionError(
            f"{action_type}: unknown parameter(s) {', '.join(unknown)}; allowed: {', '.join(allowed) or 'none'}"
        )
    return _TRANSLATORS[action_type](action_type, params, screen, rng or random)


def map_point(x: float, y: float, from_size: tuple[int, int], to_size: tuple[int, int]) -> tuple[int, int]:
    """Map a point on an image of ``from_size`` onto one of ``to_size`` (rounded, clamped inside).

    Used when the model sees a down-scaled screenshot: its coordinates refer to the scaled image
    and must be mapped back to screen pixels before they reach pyautogui. Clamping keeps a point
    the model put on the very edge (or just past it) on the screen.
    """
    (fw, fh), (tw, th) = from_size, to_size
    if min(fw, fh, tw, th) <= 0:
        raise ValueError(f"sizes must be positive, got {from_size} -> {to_size}")
    mx = min(max(round(x * tw / fw), 0), tw - 1)
    my = min(max(round(y * th / fh), 0), th - 1)
    return mx, my


# -- validation helpers ----------------------------------------------------------------------


def _parameters(action: Mapping[str, Any]) -> Parameters:
    if "parameters" in action:
        nested = action["parameters"]
        if nested is None:
            return {}
        if not isinstance(nested, Mapping):
            raise ActionError(f"{action['action_type']}: 'parameters' must be an object, got {nested!r}")
        return dict(nested)
    return {key: value for key, value in action.items() if key != "action_type"}


def _number(action_type: str, name: str, value: object, upper: int) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ActionError(f"{action_type}: {name} must be a number, got {value!r}")
    if not 0 <= value <= upper:
        raise ActionError(f"{action_type}: {name}={value} is off the screen; allowed range is 0..{upper}")
    return value


def _point(action_type: str, params: Parameters, screen: tuple[int, int], required: bool) -> str | None:
    """``"x, y"`` validated against the screen, or None when both are absent and optional."""
    has_x, has_y = "x" in params, "y" in params
    if not has_x and not has_y and not required:
        return None
    if not (has_x and has_y):
        raise ActionError(f"{action_type}: x and y must be given together" + (" and are required" if required else ""))
    x = _number(action_type, "x", params["x"], screen[0])
    y = _number(action_type, "y", params["y"], screen[1])
    return f"{x}, {y}"


def _button(action_type: str, params: Parameters) -> str | None:
    if "button" not in params:
        return None
    button = params["button"]
    if button not in BUTTONS:
        raise ActionError(f"{action_type}: button must be one of {', '.join(BUTTONS)}, got {button!r}")
    return button


def _key(action_type: str, key: object) -> str:
    if not isinstance(key, str) or key.lower() not in KEYBOARD_KEYS:
        raise ActionError(
            f"{action_type}: {key!r} is not a pyautogui key name (e.g. 'enter', 'ctrl', 'a', 'f5', 'pagedown')"
        )
    return key


def _required(action_type: str, params: Parameters, name: str) -> object:
    if name not in params:
        raise ActionError(f"{action_type}: parameter {name!r} is required")
    return params[name]


# -- translators (one per action type; the emitted calls are the original controller's) ---------


def _move_to(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    point = _point(action_type, params, screen, required=False)
    if point is None:
        return "pyautogui.moveTo()"
    duration = rng.uniform(0.5, 1)
    easing = rng.choice(MOVE_EASINGS)
    return f"pyautogui.moveTo({point}, {duration}, {easing})"


def _click(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    arguments = []
    button = _button(action_type, params)
    if button is not None:
        arguments.append(f"button={button!r}")
    if _point(action_type, params, screen, required=False) is not None:
        arguments += [f"x={params['x']}", f"y={params['y']}"]
    if "num_clicks" in params:
        clicks = params["num_clicks"]
        if isinstance(clicks, bool) or clicks not in (1, 2, 3):
            raise ActionError(f"{action_type}: num_clicks must be 1, 2 or 3, got {clicks!r}")
        arguments.append(f"clicks={int(clicks)}")
    return f"pyautogui.click({', '.join(arguments)})"


def _mouse_button(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    function = "mouseDown" if action_type == "MOUSE_DOWN" else "mouseUp"
    button = _button(action_type, params)
    return f"pyautogui.{function}(button={button!r})" if button else f"pyautogui.{function}()"


def _point_click(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    function = "rightClick" if action_type == "RIGHT_CLICK" else "doubleClick"
    if _point(action_type, params, screen, required=False) is None:
        return f"pyautogui.{function}()"
    return f"pyautogui.{function}(x={params['x']}, y={params['y']})"


def _drag_to(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    point = _point(action_type, params, screen, required=True)
    return f"pyautogui.dragTo({point}, duration=1.0, button='left', mouseDownUp=True)"


def _scroll(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    clicks = _required(action_type, params, "clicks")
    if isinstance(clicks, bool) or not isinstance(clicks, int):
        raise ActionError(f"{action_type}: clicks must be an integer (positive scrolls up), got {clicks!r}")
    return f"pyautogui.scroll({clicks})"


def _typing(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    text = _required(action_type, params, "text")
    if not isinstance(text, str):
        raise ActionError(f"{action_type}: text must be a string, got {text!r}")
    return f"pyautogui.typewrite({text!r})"


def _key_action(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    function = {"PRESS": "press", "KEY_DOWN": "keyDown", "KEY_UP": "keyUp"}[action_type]
    key = _key(action_type, _required(action_type, params, "key"))
    # repr(), not the original's '{key}': the key "'" would otherwise produce broken code.
    return f"pyautogui.{function}({key!r})"


def _hotkey(action_type: str, params: Parameters, screen: tuple[int, int], rng: Any) -> str:
    keys = _required(action_type, params, "keys")
    if not isinstance(keys, list) or not keys:
        raise ActionError(f"{action_type}: keys must be a non-empty list of key names, got {keys!r}")
    return f"pyautogui.hotkey({', '.join(repr(_key(action_type, key)) for key in keys)})"


_TRANSLATORS = {
    "MOVE_TO": _move_to,
    "CLICK": _click,
    "MOUSE_DOWN": _mouse_button,
    "MOUSE_UP": _mouse_button,
    "RIGHT_CLICK": _point_click,
    "DOUBLE_CLICK": _point_click,
    "DRAG_TO": _drag_to,
    "SCROLL": _scroll,
    "TYPING": _typing,
    "PRESS": _key_action,
    "KEY_DOWN": _key_action,
    "KEY_UP": _key_action,
    "HOTKEY": _hotkey,
}
