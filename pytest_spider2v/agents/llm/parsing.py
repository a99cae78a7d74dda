"""Turning a model's reply into actions, for both action spaces (reference §6.6).

``pyautogui`` replies carry Python in fenced code blocks; ``computer_13`` replies carry JSON.
The rules follow the original ``parse_code_from_string`` and ``parse_actions_from_string`` with
two deliberate changes:

* The original first split the *whole reply* on ``;`` and re-joined the pieces with newlines
  (reference §9 quirk 8). That corrupts any string literal holding a semicolon, e.g.
  ``pyautogui.typewrite('SELECT 1; SELECT 2')`` — common in data work (SQL, CSV). It is not
  reproduced: Python already runs ``a; b`` correctly, so the split never helped.
* A reply with no action raises :class:`~pytest_spider2v.run.actions.ActionError` whose message tells
  the model what was expected, where the original returned nothing (or a string) silently.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pytest_spider2v.run.actions import ActionError
from pytest_spider2v.run.agent import SPECIAL_ACTIONS, Action, done_with_answer

_FENCED = re.compile(r"```(.*?)```", re.DOTALL)
#: A language word alone on the fence's first line (```python, ```py, ```bash ...).
_LANGUAGE_LINE = re.compile(r"^[A-Za-z0-9_+-]+[ \t]*\n")
_JSON_BLOCK = re.compile(r"```json\s*(.*?)\s*```", re.DOTALL | re.IGNORECASE)
_PLAIN_BLOCK = re.compile(r"```\s*(.*?)\s*```", re.DOTALL)

PYAUTOGUI_HINT = (
    "put Python code using pyautogui in a fenced block (```python ... ```), "
    "or answer with exactly one of WAIT, DONE, FAIL"
)
COMPUTER13_HINT = (
    'answer with a JSON action such as ```json\n{"action_type": "CLICK", "x": 100, "y": 200}\n``` '
    "(or a JSON list of them), or with exactly one of WAIT, DONE, FAIL"
)


def parse_pyautogui(response: str) -> list[Action]:
    """The actions of a ``pyautogui`` reply: code strings and special words, in reply order.

    * A reply that is (after stripping) just WAIT, DONE or FAIL is that special action.
    * Otherwise each fenced block is one action; a language word alone on the fence line is
      dropped. A block that is just a special word is that action; a block whose last line is a
      special word gives the code above it, then the special action; a block whose first line is
      DONE and that has more is DONE carrying those lines as the final answer. Empty blocks are
      skipped.
    * Semicolons are left alone (unlike the original; see the module docstring).

    Raises :class:`ActionError` when the reply holds no action at all.
    """
    stripped = response.strip()
    if stripped in SPECIAL_ACTIONS:
        return [stripped]
    actions: list[Action] = []
    for block in _FENCED.findall(response):
        language = _LANGUAGE_LINE.match(block)
        if language and language[0].strip() not in SPECIAL_ACTIONS:
            block = block[language.end():]
        actions.extend(_block_actions(block.strip()))
    if not actions:
        raise ActionError(f"no action found in the reply: {PYAUTOGUI_HINT}")
    return actions


def parse_computer13(response: str) -> list[dict[str, Any]]:
    """The ``computer_13`` actions of a reply, as dicts with an ``action_type``.

    JSON comes from every ```json block; if there is none, from every plain ``` block; if there
    is none either, from the whole reply. Each JSON value may be one action or a list of them.
    Special words may appear as bare text, JSON strings (``"DONE"``) or dicts; they come back as
    ``{"action_type": "DONE"}``. A DONE with an ``answer`` (beside ``action_type`` or under
    ``parameters``) comes back as :func:`~pytest_spider2v.run.agent.done_with_answer` makes it. Other
    parameters are not checked here: that is
    :func:`pytest_spider2v.run.actions.computer13_to_code`'s job.

    Raises :class:`ActionError` for a reply that is not JSON or not shaped like actions.
    """
    stripped = response.strip()
    if stripped in SPECIAL_ACTIONS:
        return [{"action_type": stripped}]
    blocks = _JSON_BLOCK.findall(response) or _PLAIN_BLOCK.findall(response) or [stripped]
    actions: list[dict[str, Any]] = []
    for number, block in enumerate(blocks, start=1):
        where = f"code block {number}" if len(blocks) > 1 else "the reply"
        try:
            value = json.loads(block)
        except json.JSONDecodeError as exc:
            raise ActionError(f"could not parse JSON in {where} ({exc}): {COMPUTER13_HINT}") from None
        for item in value if isinstance(value, list) else [value]:
            actions.append(_computer13_action(item, where))
    if not actions:
        raise ActionError(f"no action found in the reply: {COMPUTER13_HINT}")
    return actions


def _block_actions(block: str) -> list[Action]:
    if not block:
        return []
    if block in SPECIAL_ACTIONS:
        return [block]
    lines = block.split("\n")
    if lines[0].strip() == "DONE":
        return [done_with_answer("\n".join(lines[1:]).strip())]
    last = lines[-1].strip()
    if last in SPECIAL_ACTIONS:
        code = "\n".join(lines[:-1]).strip()
        return [code, last] if code else [last]
    return [block]


def _computer13_action(item: Any, where: str) -> dict[str, Any]:
    if isinstance(item, str) and item.strip() in SPECIAL_ACTIONS:
        return {"action_type": item.strip()}
    if isinstance(item, dict) and item.get("action_type") == "DONE":
        nested = item.get("parameters") if isinstance(item.get("parameters"), dict) else {}
        answer = item.get("answer", nested.get("answer"))  # type: ignore[union-attr]  # nested is the parameters dict, or {}
        return {"action_type": "DONE"} if answer is None else done_with_answer(str(answer))
    if isinstance(item, dict) and isinstance(item.get("action_type"), str):
        return item
    raise ActionError(f"{where}: {json.dumps(item)[:200]} is not an action object with an 'action_type'")
