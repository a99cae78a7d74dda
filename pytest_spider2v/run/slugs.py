"""Folder names made of free text (a run's name, a task's app and key), apart from the records
that use them: the plugin names the run's folder at start-up, before any record is read."""

from __future__ import annotations

import re


def slug(text: str) -> str:
    """``text`` as one folder name: anything but letters, digits and ``._+-`` becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", text).strip("_") or "_"
