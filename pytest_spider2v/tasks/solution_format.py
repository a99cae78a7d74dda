"""The cell format of a solution file, read by the oracle that plays it, the fingerprint that
hashes it, the GUI-route reader of its header and the check that a solution uses only its own
task: ``# %%`` lines start cells (the text after them is the cell's title), and a solution
written as the changes to another starts with ``# %% based-on: FILE`` (see
:mod:`pytest_spider2v.agents.oracle`)."""

from __future__ import annotations

import re
from pathlib import Path

#: A cell's first line; group 1 is its title.
MARKER = re.compile(r"^# %%(.*)$", re.MULTILINE)
#: A title that is the ``based-on`` directive (well formed or not).
BASED_ON = re.compile(r"\s*based-on\b")
#: A well-formed ``based-on`` title; group 1 is the file.
BASE_FILE = re.compile(r"\s*based-on:\s*(\S+)\s*$")


def base_files(text: str) -> list[str]:
    """The files a solution's text says it is ``based-on``."""
    return [named.group(1) for marker in MARKER.finditer(text) if (named := BASE_FILE.match(marker.group(1)))]


def replayed_files(path: Path) -> list[Path]:
    """``path`` and every file it replays: its ``based-on`` file, that one's, and so on. A
    solution based on another plays that one's cells, so what it takes from a task is in the
    words of all of them. The chain stops at a file that is missing or already in it (the oracle
    names those mistakes when it plays the solution)."""
    chain = [path]
    while True:
        named = base_files(chain[-1].read_text(encoding="utf-8"))
        base = chain[-1].parent / named[0] if named else None
        if base is None or not base.is_file() or base.resolve() in {each.resolve() for each in chain}:
            return chain
        chain.append(base)
