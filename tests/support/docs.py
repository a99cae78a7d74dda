"""The documentation's runnable examples, read from between their markers, so a test runs exactly
what a reader copies."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXTENDING = DOCS / "extending" / "index.md"


def example_blocks(name: str, page: Path = EXTENDING) -> dict[str, str]:
    """The fenced code blocks between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` of a
    docs page (the Extending page unless named), by language (``python``, ``json``)."""
    text = page.read_text(encoding="utf-8")
    section = re.search(rf"<!-- {name}:begin -->(.*?)<!-- {name}:end -->", text, re.S)
    if section is None:
        raise LookupError(f"{page.relative_to(DOCS.parent)} has no '{name}' example")
    return {lang: code for lang, code in re.findall(r"```(\w+)\n(.*?)```", section.group(1), re.S)}
