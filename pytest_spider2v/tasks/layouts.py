"""The two built-in layouts of task files: a project's ``tasks/<app>/<task-id>/task.json`` and a
Spider2-V checkout's ``evaluation_examples/examples/<app>/<id>/<id>.json``.
"""

from __future__ import annotations

from pathlib import Path

from pytest_spider2v.tasks.model import PROJECT_FILE


def is_layout_file(path: Path) -> bool:
    """A task file of the built-in layouts: a project ``task.json`` or a checkout's ``<id>/<id>.json``."""
    if path.suffix != ".json":
        return False
    if path.name == PROJECT_FILE:
        return True
    return path.stem == path.parent.name and spider2v_root(path) is not None


def in_spider2v_checkout(path: Path) -> bool:
    """Whether the path lies in a Spider2-V checkout's ``evaluation_examples`` tree."""
    return spider2v_root(path) is not None


def spider2v_root(path: Path) -> Path | None:
    """The directory holding ``evaluation_examples`` above a Spider2-V task file."""
    for parent in path.parents:
        if parent.name == "evaluation_examples":
            return parent.parent
    return None
