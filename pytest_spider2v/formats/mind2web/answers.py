"""A Mind2Web answer in SeeAct's final form, and its parsing.

The grounding prompt lists the candidates as lettered choices (``A.`` ... ``Z.``, then ``AA.``,
``AB.``, ... as SeeAct names them), one more letter for "none of the other options", and asks
for three lines::

    ELEMENT: B
    ACTION: TYPE
    VALUE: New York

Parsing follows SeeAct's: the last ``ELEMENT:``, ``ACTION:`` and ``VALUE:`` lines of the reply
(a model often restates the format before answering), each read to the end of its line. Beyond
SeeAct, written down here because it moves the figures: the element is the first choice name the
line starts with (``B``, ``B.``, ``(B)``, ``B. <a ...>``); a ``VALUE`` of ``None`` (SeeAct's word
for "no value") is empty; and a ``CLICK`` takes no value, so whatever it says is not scored. An
answer without an ``ELEMENT`` or ``ACTION`` line is unparsable: a wrong step, its text kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

OPERATIONS = ("CLICK", "TYPE", "SELECT")
_LINE = {name: re.compile(rf"^\s*\**{name}\**\s*:\**\s*(.*?)\s*$", re.MULTILINE | re.IGNORECASE)
         for name in ("ELEMENT", "ACTION", "VALUE")}
_CHOICE = re.compile(r"^[\s(\[]*([A-Z]{1,2})(?![A-Za-z])")


def option_name(index: int) -> str:
    """The choice name of the ``index``-th candidate: ``A`` .. ``Z``, then ``AA``, ``AB``, ..."""
    if index < 26:
        return chr(ord("A") + index)
    first, second = divmod(index - 26, 26)
    return chr(ord("A") + first) + chr(ord("A") + second)


def option_index(name: str) -> int | None:
    """The inverse of :func:`option_name`; None for a name it never gives."""
    if re.fullmatch(r"[A-Z]", name):
        return ord(name) - ord("A")
    if re.fullmatch(r"[A-Z]{2}", name):
        return 26 + (ord(name[0]) - ord("A")) * 26 + ord(name[1]) - ord("A")
    return None


@dataclass(frozen=True)
class ParsedAnswer:
    """What an answer chose: ``chosen`` the candidate's index (None: none of them, or the answer
    named no candidate), the operation and its value; ``problem`` says why it could not be read."""

    chosen: int | None
    op: str
    value: str
    problem: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"chosen": self.chosen, "op": self.op, "value": self.value}
        if self.problem:
            data["problem"] = self.problem
        return data


def parse_answer(text: str, candidates: int) -> ParsedAnswer:
    """Read the final answer to a grounding prompt that offered ``candidates`` choices (and the
    "none" choice after them)."""
    if not (text or "").strip():
        return ParsedAnswer(None, "", "", "no answer")
    lines = {name: pattern.findall(text) for name, pattern in _LINE.items()}
    missing = [name for name in ("ELEMENT", "ACTION") if not lines[name]]
    if missing:
        return ParsedAnswer(None, "", "", f"not in the final format: no {' and no '.join(missing)} line")
    op = lines["ACTION"][-1].strip().strip("*").upper()
    value = lines["VALUE"][-1].strip().strip("*") if lines["VALUE"] else ""
    if value.lower() in ("none", "null", "n/a"):
        value = ""
    if op == "CLICK":
        value = ""
    found = _CHOICE.match(lines["ELEMENT"][-1])
    index = option_index(found.group(1)) if found else None
    if index is None or index > candidates:
        return ParsedAnswer(None, op, value, f"ELEMENT {lines['ELEMENT'][-1]!r} names no choice")
    return ParsedAnswer(None if index == candidates else index, op, value)


def final_answer(chosen: int | None, candidates: int, op: str, value: str) -> str:
    """An answer in the final form (what the ``oracle`` agent gives)."""
    element = option_name(candidates if chosen is None else chosen)
    return f"ELEMENT: {element}\nACTION: {op}\nVALUE: {value or 'None'}"
