"""The runnable examples of the README and the docs, read from between their markers, so a test
runs exactly what a reader copies."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def example_blocks(name: str, document: Path = README) -> dict[str, str]:
    """The fenced code blocks of ``document`` between ``<!-- NAME:begin -->`` and
    ``<!-- NAME:end -->``, by language (``python``, ``json``)."""
    text = document.read_text(encoding="utf-8")
    section = re.search(rf"<!-- {name}:begin -->(.*?)<!-- {name}:end -->", text, re.S)
    if section is None:
        raise LookupError(f"{document.name} has no '{name}' example")
    return {lang: code for lang, code in re.findall(r"```(\w+)\n(.*?)```", section.group(1), re.S)}
