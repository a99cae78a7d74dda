"""Task formats beyond the built-in layouts: the :class:`TaskFormat` contract an extension
implements (InfiAgent-DABench's questions file is one) and the lookup of the registered formats
that collection asks about every file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from pytest_spider2v.registry import task_formats
from pytest_spider2v.tasks.layouts import is_layout_file
from pytest_spider2v.tasks.model import Task, TaskFormatError


class TaskFormat(Protocol):
    """A task file format beyond the built-in layouts, registered by an extension in
    :data:`pytest_spider2v.registry.task_formats`.

    Collection asks every registered format about every file pytest visits, so ``claims`` and
    ``ignores`` must be cheap (names and a few ``stat`` calls, no reading).
    """

    @property
    def markers(self) -> Mapping[str, str]:
        """Markers its tasks carry beyond the built-in ones -> their help text; registered when
        pytest configures, so ``--strict-markers`` and ``pytest --markers`` know them before any
        file is read. Read-only: a class attribute is one."""

    def claims(self, path: Path) -> bool:
        """Whether ``path`` is a task file of this format."""
        ...

    def ignores(self, path: Path) -> bool:
        """Whether ``path`` belongs to a checkout of this format without being a task file (its
        scripts, tables): data, never a test module of the session."""
        ...

    def load(self, path: Path) -> list[Task | TaskFormatError]:
        """The tasks of a file it claims, in file order, with a :class:`TaskFormatError` in place
        of each entry that cannot be used (one bad entry must not cost the others)."""
        ...


def registered_formats() -> list[TaskFormat]:
    return [task_formats.get(name) for name in task_formats.available()]


def task_format(path: Path) -> TaskFormat | None:
    """The registered format that claims ``path`` (never one of the built-in layouts' files)."""
    if is_layout_file(path):
        return None
    return next((fmt for fmt in registered_formats() if fmt.claims(path)), None)


def is_format_data(path: Path) -> bool:
    """Whether a registered format calls ``path`` data of one of its checkouts."""
    return any(fmt.ignores(path) for fmt in registered_formats())
