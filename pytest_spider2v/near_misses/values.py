"""Small wrong values: one token, one value, one line changed in a way no rounding, trimming or
case folding of a metric's comparison can undo."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_TOKEN = re.compile(r"[A-Za-z0-9_]+")


def changed(value: Any) -> Any:
    """``value`` made wrong but alike in type: a number off by one (7 -> 8, 2.5 -> 3.5), a flag
    flipped, a text with a character changed; None becomes a text."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 1.0
    if value is None:
        return "x"
    if isinstance(value, (list, tuple)):
        return [*value[:-1], changed(value[-1])] if value else ["x"]
    if isinstance(value, dict):
        if not value:
            return {"x": "x"}
        key = sorted(value, key=str)[-1]
        return {**value, key: changed(value[key])}
    return changed_text(str(value))


def changed_text(text: str) -> str:
    """``text`` with its last number off by one or, without a number, its last word changed; an
    empty or wordless text gets a word."""
    numbers = list(_NUMBER.finditer(text))
    if numbers:
        last = numbers[-1]
        number = last.group()
        bumped = str(float(number) + 1) if "." in number else str(int(number) + 1)
        if "." in number:  # keep the digits after the point: 2.50 -> 3.50
            bumped = f"{float(number) + 1:.{len(number.split('.')[1])}f}"
        return text[: last.start()] + bumped + text[last.end():]
    tokens = list(_TOKEN.finditer(text))
    if not tokens:
        return text + "x"
    last = tokens[-1]
    word = last.group()
    swapped = word[:-1] + ("q" if word[-1].lower() != "q" else "z")
    return text[: last.start()] + swapped + text[last.end():]


def numbered(folder: Path, name: str) -> Path:
    """A fresh path ``folder/<n>/name`` for one variant's file (each in its own folder, so files
    a metric finds beside the result, named after it, stay the variant's own)."""
    folder.mkdir(parents=True, exist_ok=True)
    n = sum(1 for _ in folder.iterdir())
    (folder / str(n)).mkdir()
    return folder / str(n) / name


def middle(count: int, first: int = 0) -> int:
    """The middle index of ``range(first, count)``."""
    return first + (count - first) // 2


def rules_of(expected: Any, options: Mapping[str, Any]) -> Any:
    """A rule-checking metric's rules: what the task's ``rule`` getter gave as the expected
    value (the original's way), else the ``rules`` option."""
    return expected if expected is not None else options.get("rules")
