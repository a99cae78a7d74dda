"""The documentation's runnable examples, read from between their markers, so a test runs exactly
what a reader copies."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXTENDING = DOCS / "extending" / "index.md"


def example_blocks(name: str) -> dict[str, str]:
    """The fenced code blocks between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` of the
    Extending page, by language (``python``, ``json``)."""
    text = EXTENDING.read_text(encoding="utf-8")
    section = re.search(rf"<!-- {name}:begin -->(.*?)<!-- {name}:end -->", text, re.S)
    if section is None:
        raise LookupError(f"{EXTENDING.relative_to(DOCS.parent)} has no '{name}' example")
    return {lang: code for lang, code in re.findall(r"```(\w+)\n(.*?)```", section.group(1), re.S)}
