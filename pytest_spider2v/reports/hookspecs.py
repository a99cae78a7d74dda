"""The reports' hooks, for plugins that add to the HTML report (registered by
:mod:`.plugin` through ``pytest_addhooks``). They live with the reports, whose types they name:
the plugin core never imports the reports.

An example, a plugin (a ``conftest.py``, or a module of the ``pytest_spider2v`` entry points)
adding a column and a section::

    from pytest_spider2v.reports.sections import ReportColumn, ReportSection

    def pytest_spider2v_report_columns(config):
        return [ReportColumn("node", "Node", lambda task: task.node)]

    def pytest_spider2v_report_sections(summary):
        cheap = [t.nodeid for t in summary.tasks if t.cost is not None and t.cost < 0.01]
        return [ReportSection("cheap", "Passed for under a cent", ", ".join(cheap))]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_spider2v.reports.sections import ReportColumn, ReportSection
    from pytest_spider2v.reports.summary import RunSummary


def pytest_spider2v_report_columns(config: pytest.Config) -> list[ReportColumn]:
    """Columns a plugin adds to the report's results table, after the Task and Score columns.

    Asked once per session, on the controller (pytest-html's table is written there); the
    columns of every implementation are added in the order pluggy calls them.
    """


def pytest_spider2v_report_sections(summary: RunSummary) -> list[ReportSection]:
    """Sections a plugin adds at the end of the run at a glance, the overview that opens the
    report: ``summary`` is the run summed up (what ``summary.json`` holds), ``summary.tasks``
    every task's :class:`~.task_summary.TaskSummary`.

    Not asked under ``--validate``, whose report has no overview.
    """
