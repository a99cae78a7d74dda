"""pytest hooks of the reports: pytest-html extras, ``user_properties``, terminal summary, summary.json.

Task items carry their record in ``item.stash[RECORD]``. On the worker that ran a task, the
report carrying its outcome gets the rendered record (``report.extras``) and a
``("spider2v", {...})`` user property (a :class:`~.task_summary.TaskSummary` as JSON); both travel
to the xdist controller with the report, which is where the summary is aggregated, printed and
written. Plain ``score``, ``app`` and (for a task on the errata list) ``errata`` properties beside
it are for readers of ``--junitxml``. Nothing here touches an environment.

Every pytest start-up imports this module; the summary, the rendering of a task and the run's
overview are imported by the hooks that report a task or sum up a run, not here.
"""

from __future__ import annotations

import functools
import os
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _pytest.junitxml import xml_key  # pytest's own key of --junitxml's writer: the record_testsuite_property way

from pytest_spider2v.plugin.keys import RECORD, RUN_DIR, TASK
from pytest_spider2v.plugin.workers import is_worker
from pytest_spider2v.reports import hookspecs
from pytest_spider2v.reports.sections import ReportColumn, ReportSection
from pytest_spider2v.tasks.formats import task_format
from pytest_spider2v.tasks.layouts import is_layout_file
from pytest_spider2v.tasks.model import Task

if TYPE_CHECKING:  # the records' and summaries' types: every pytest start-up loads this plugin, a run reads them
    from pytest_spider2v.reports.task_summary import TaskSummary
    from pytest_spider2v.run.json_values import JsonObject

#: set once the item's outcome-carrying report has been annotated
_ANNOTATED = pytest.StashKey[bool]()
#: the report's own columns of the results table, after pytest-html's result and test
COLUMNS = (ReportColumn("task", "Task", lambda task: task.label),
           ReportColumn("score", "Score", lambda task: task.score_text))
#: where the added columns begin in pytest-html's table (after Result and Test)
FIRST_COLUMN = 2


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_configure(config: pytest.Config) -> None:
    if not is_worker(config):  # xdist workers only produce reports; the controller sums up
        config.pluginmanager.register(RunSummaryPlugin(config), "spider2v-reports-summary")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if not item.stash.get(_ANNOTATED, False) and _carries_outcome(item, report):
        item.stash[_ANNOTATED] = True
        _annotate(item, report)
    return report


def _carries_outcome(item: pytest.Item, report: pytest.TestReport) -> bool:
    """The call report, or setup when the task ended there; teardown when the record was still open."""
    from pytest_spider2v.reports.summary import ENDED_STATUSES

    if report.when == "setup":
        return not report.passed
    if report.when == "call":
        record = item.stash.get(RECORD, None)
        return record is None or record.result.status in ENDED_STATUSES
    return True


def _status(recorded: str | None, report: pytest.TestReport) -> str:
    """The record's status once final; a record left ``running`` ended abnormally (error)."""
    from pytest_spider2v.reports.summary import ENDED_STATUSES

    if recorded in ENDED_STATUSES:
        return str(recorded)
    return "skipped" if report.skipped else "error"


def _annotate(item: pytest.Item, report: pytest.TestReport) -> None:
    from pytest_spider2v.reports.html import render_task
    from pytest_spider2v.reports.summary import PROPERTY
    from pytest_spider2v.reports.task_summary import TaskSummary
    from pytest_spider2v.reports.video import video_extra
    from pytest_spider2v.run.results import TaskResult

    record = item.stash.get(RECORD, None)
    task = item.stash.get(TASK, None)
    if record is not None:
        result = replace(record.result, nodeid=item.nodeid, status=_status(record.result.status, report))
        html_path = item.config.getoption("htmlpath", default=None)
        if html_path:
            # pytest-html ships no types, and tox type-checks without it
            from pytest_html import extras

            # resolved as pytest-html resolves it, so screenshot links are relative to the page
            link_base = (Path.cwd() / Path(os.path.expandvars(html_path)).expanduser()).parent
            added = [extras.html(render_task(result, record.directory, link_base))]
            video = video_extra(result, record.directory, link_base,
                                bool(item.config.getoption("self_contained_html", default=False)))
            extras_so_far = getattr(report, "extras", [])
            # pytest-html reads them from an attribute of its own on the report
            report.extras = [*extras_so_far, *added, *([video] if video else [])]  # type: ignore[attr-defined]
    elif isinstance(task, Task):  # ended before its record was started (e.g. an unavailable agent)
        # never written: only its summary travels, which names no agent and no settings
        result = replace(TaskResult.of_task(task, item.nodeid, agent="", settings={}), status=_status(None, report))
    else:
        return
    if not result.detail:
        result = replace(result, detail=_reason(report))
    summary = TaskSummary.of(result)
    # the summary, for the controller; and what a reader of --junitxml looks for, one value each
    props = [(PROPERTY, summary.to_json()), ("score", summary.score_text), ("app", summary.app)]
    if summary.errata:
        props.append(("errata", summary.errata))
    # item.user_properties is what later reports (teardown, read by --junitxml) are built from
    item.user_properties.extend(props)
    if report.user_properties is not item.user_properties:
        report.user_properties.extend(props)


def _reason(report: pytest.TestReport) -> str:
    """Why a report did not pass: the skip reason or the exception's message."""
    if isinstance(report.longrepr, tuple):  # (path, line, reason) of a skip
        return str(report.longrepr[2])
    crash = getattr(report.longrepr, "reprcrash", None)
    return str(crash.message) if crash is not None else ""


class RunSummaryPlugin:
    """Controller-side: collects the tasks' summaries from reports and sums up the run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.entries: dict[str, TaskSummary] = {}
        self.started: datetime | None = None  #: when the session started
        self.written = False  #: the manifest's start is in the run folder

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.started = datetime.now(UTC)

    @functools.cached_property
    def manifest(self) -> JsonObject:
        """The manifest's start, made when a session turns out to run tasks: the commit and the
        agents' parameters are asked for once, and never by a session without tasks."""
        from pytest_spider2v.reports import manifest

        return manifest.started(self.config, self.config.stash[RUN_DIR], manifest.timestamp(self.started or datetime.now(UTC)))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The manifest, written once the run's tasks are known, before any runs: an interrupted
        run keeps it. A session without task items (a project's own tests) writes none."""
        if any(TASK in item.stash for item in session.items):
            self._write_manifest()

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Under xdist the workers collect: the first to finish tells whether tasks will run."""
        if self.written:
            return
        files = {self.config.rootpath / nodeid.split("::")[0] for nodeid in ids}
        if any(is_layout_file(path) or task_format(path) is not None for path in files):
            self._write_manifest()

    def _write_manifest(self) -> None:
        run_dir = self.config.stash[RUN_DIR]
        if self.written or self.config.option.collectonly:
            return
        self.written = True
        from pytest_spider2v.reports import manifest
        from pytest_spider2v.run.records import write_json_atomic

        write_json_atomic(run_dir / manifest.MANIFEST_FILE, self.manifest)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        from pytest_spider2v.reports.summary import PROPERTY
        from pytest_spider2v.reports.task_summary import TaskSummary

        for name, value in report.user_properties:
            if name == PROPERTY and isinstance(value, dict):
                self.entries[report.nodeid] = TaskSummary.from_json(value)

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_report_title(self, report: Any) -> None:
        run_dir = self.config.stash.get(RUN_DIR, None)
        report.title = f"Spider2-V run '{run_dir.name}'" if run_dir else "Spider2-V results"

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_summary(self, prefix: list[str], summary: list[str], postfix: list[str],
                                    session: pytest.Session) -> None:
        """The report opens with the run at a glance (not for --validate, whose items check tasks),
        ending with the sections plugins add (``pytest_spider2v_report_sections``)."""
        from pytest_spider2v.reports.overview import render_overview
        from pytest_spider2v.reports.summary import summarize

        if self.entries and not self.config.getoption("spider2v_validate", False):
            run = summarize(self.entries.values())
            added: list[list[ReportSection]] = self.config.hook.pytest_spider2v_report_sections(summary=run)
            prefix.append(render_overview(run, self._completed(finished=False),
                                          [section for sections in added for section in sections]))

    @functools.cached_property
    def columns(self) -> list[ReportColumn]:
        """The columns added to the results table: the report's own, then the plugins'
        (``pytest_spider2v_report_columns``), asked once so that the header and every row agree."""
        added: list[list[ReportColumn]] = self.config.hook.pytest_spider2v_report_columns(config=self.config)
        return [*COLUMNS, *(column for columns in added for column in columns)]

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_header(self, cells: list[str]) -> None:
        from pytest_spider2v.reports.rendering import macro

        header = macro("columns.html", "header")
        cells[FIRST_COLUMN:FIRST_COLUMN] = [header(column) for column in self.columns]

    @pytest.hookimpl(optionalhook=True)
    def pytest_html_results_table_row(self, report: Any, cells: list[str]) -> None:
        from pytest_spider2v.reports.rendering import macro

        task = self.entries.get(getattr(report, "nodeid", ""))
        cell = macro("columns.html", "cell")
        cells[FIRST_COLUMN:FIRST_COLUMN] = [cell(column, column.cell(task) if task else "") for column in self.columns]

    def _completed(self, finished: bool) -> JsonObject:
        from pytest_spider2v.reports import manifest

        return manifest.completed(self.manifest, self.entries.values(), finished)

    @pytest.hookimpl(tryfirst=True)  # before --junitxml writes its file, which carries the manifest
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        run_dir = self.config.stash.get(RUN_DIR, None)
        if run_dir is None or not self.entries:
            return
        from pytest_spider2v.reports import manifest
        from pytest_spider2v.reports.summary import SUMMARY_FILE, summarize
        from pytest_spider2v.run.records import write_json_atomic

        done = self._completed(finished=True)
        write_json_atomic(run_dir / manifest.MANIFEST_FILE, done)
        junit = self.config.stash.get(xml_key, None)
        if junit is not None:
            for name, value in manifest.properties(done):
                junit.add_global_property(name, value)
        write_json_atomic(run_dir / SUMMARY_FILE, {**summarize(self.entries.values()).to_json(), "manifest": done})

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        # --validate items check tasks, not an agent: success rates over them would mislead
        if not self.entries or self.config.getoption("spider2v_validate", False):
            return
        from pytest_spider2v.reports.summary import SUMMARY_FILE, format_summary, summarize

        terminalreporter.write_sep("=", "spider2v summary")
        for line in format_summary(summarize(self.entries.values())):
            terminalreporter.write_line(line)
        run_dir = self.config.stash.get(RUN_DIR, None)
        if run_dir is not None:
            terminalreporter.write_line(f"summary written to {run_dir / SUMMARY_FILE}")
