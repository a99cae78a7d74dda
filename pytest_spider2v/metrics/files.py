"""Reading the files getters brought to the host, with the failure logged instead of raised.

Getters return None (or a path that does not exist) when the agent never produced a file; a
metric must then score 0 and say why, not crash the evaluation.
"""

from __future__ import annotations

import logging
from os import PathLike
from pathlib import Path

logger = logging.getLogger(__name__)

FileArg = str | PathLike[str] | None


def existing_file(path: FileArg, role: str) -> Path | None:
    """``path`` as a Path if it names an existing file; otherwise log why and return None."""
    if path is None:
        logger.info("%s file was not produced (getter returned None)", role)
        return None
    resolved = Path(path)
    if not resolved.is_file():
        logger.info("%s file %s does not exist", role, resolved)
        return None
    return resolved


def read_text(path: FileArg, role: str) -> str | None:
    """The UTF-8 text of ``path``, or None (logged) if it is missing or not text."""
    resolved = existing_file(path, role)
    if resolved is None:
        return None
    try:
        return resolved.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        logger.info("%s file %s is unreadable: %s", role, resolved, exc)
        return None


def first_line_difference(result: list[str], expected: list[str]) -> str:
    """A one-line description of where two line lists first differ."""
    for number, (a, b) in enumerate(zip(result, expected), start=1):
        if a != b:
            return f"line {number}: result {a!r} != expected {b!r}"
    if len(result) != len(expected):
        return f"result has {len(result)} lines, expected {len(expected)}"
    return "no difference"
