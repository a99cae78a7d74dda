"""What a plugin adds to the HTML report (:mod:`.hookspecs`): a section of the run at a glance,
a column of the results table.

Text a plugin gives is escaped like every other value of the report; HTML it built itself (say
from a template of its own) is passed as :class:`markupsafe.Markup` and inserted as it is, so the
plugin answers for having escaped what went into it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

if TYPE_CHECKING:  # a column reads the summaries a run makes; the plugin loads this at start-up
    from pytest_spider2v.reports.task_summary import TaskSummary

#: a section's or a column's name: it becomes an HTML id or class (``spider2v-<name>``, ``col-<name>``),
#: and pytest-html finds a sortable column's cells by it
_NAME = re.compile(r"[A-Za-z0-9_]+")


def _check_name(kind: str, name: str) -> None:
    if not _NAME.fullmatch(name):
        raise ValueError(f"a report {kind}'s name is letters, digits and underscores: {name!r}")


@dataclass(frozen=True)
class ReportSection:
    """A section at the end of the run at a glance: ``<div id="spider2v-<name>"><h3>title</h3>body</div>``."""

    name: str
    title: str
    #: escaped when it is text; inserted as it is when it is Markup
    body: str | Markup

    def __post_init__(self) -> None:
        _check_name("section", self.name)


@dataclass(frozen=True)
class ReportColumn:
    """A column of the report's results table, one cell per test: ``cell`` of the task's summary
    (its text escaped), empty for a test that is not a task. Sortable, as pytest-html sorts: by text."""

    name: str
    title: str
    cell: Callable[[TaskSummary], str]

    def __post_init__(self) -> None:
        _check_name("column", self.name)
