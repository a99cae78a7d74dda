"""The cell format of a solution file, read by the oracle that plays it, the fingerprint that
hashes it and the GUI-route reader of its header: ``# %%`` lines start cells (the text after them
is the cell's title), and a solution written as the changes to another starts with
``# %% based-on: FILE`` (see :mod:`pytest_spider2v.agents.oracle`)."""

from __future__ import annotations

import re

#: A cell's first line; group 1 is its title.
MARKER = re.compile(r"^# %%(.*)$", re.MULTILINE)
#: A title that is the ``based-on`` directive (well formed or not).
BASED_ON = re.compile(r"\s*based-on\b")
#: A well-formed ``based-on`` title; group 1 is the file.
BASE_FILE = re.compile(r"\s*based-on:\s*(\S+)\s*$")


def base_files(text: str) -> list[str]:
    """The files a solution's text says it is ``based-on``."""
    return [named.group(1) for marker in MARKER.finditer(text) if (named := BASE_FILE.match(marker.group(1)))]
