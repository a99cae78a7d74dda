"""Collection: task files become test items, one per task (per variant of a project task), with
markers from the task. Nothing here knows a particular layout's tasks beyond what
:mod:`pytest_spider2v.tasks` reads, nor any agent, app or metric.

An entry of a task file that cannot be used becomes an item of its own that errors with the
problem (file, task, field) when it runs: the file's other tasks and the rest of the session run
as usual, and pytest's collection errors keep their meaning for everything else.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_spider2v import registry
from pytest_spider2v.plugin.keys import AGENT, MARKER_NAMES, RECORD_SUFFIX, REPEAT, RUN_CONFIG, RUN_DIR, TASK
from pytest_spider2v.tasks.formats import is_format_data
from pytest_spider2v.tasks.layouts import in_spider2v_checkout
from pytest_spider2v.tasks.loading import is_task_file, load_task_file
from pytest_spider2v.tasks.model import PROJECT_FILE, Task, TaskFormatError

if TYPE_CHECKING:
    from pytest_spider2v.run.evaluation import Evaluation  # the run's, imported by a run alone


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Files beside a Spider2-V task file are the task's data (DAGs, notebooks, a dagster
    ``test_*.py`` its scripts run), never test modules of this session; so is whatever a task
    format calls data of its checkouts (an InfiAgent checkout's own scripts and tests). A project
    task folder holds one task file, and the rest (its folders too) is data, which collection
    does not walk."""
    if _is_project_task_folder(collection_path.parent, config):
        return None if collection_path.name == PROJECT_FILE else True
    if not collection_path.is_file() or is_task_file(collection_path):
        return None
    if in_spider2v_checkout(collection_path) or is_format_data(collection_path):
        return True
    return None


#: folder -> whether it holds a project ``task.json``, for the session (asked for every path it visits)
_TASK_FOLDERS = pytest.StashKey[dict[Path, bool]]()


def _is_project_task_folder(folder: Path, config: pytest.Config) -> bool:
    known = config.stash.setdefault(_TASK_FOLDERS, {})
    if folder not in known:
        known[folder] = (folder / PROJECT_FILE).is_file()
    return known[folder]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_task_file(file_path):
        return TaskFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Fail fast, once, on a bad ``--agent`` instead of erroring every task (items that name
    their own agent, as ``--validate`` checks do, need none)."""
    if config.option.collectonly or not any(TASK in i.stash and AGENT not in i.stash for i in items):
        return
    from pytest_spider2v.run.agent import agent_factory, run_read_by  # a run's, not a collection's

    agent = config.stash[RUN_CONFIG].agent
    if not agent:
        raise pytest.UsageError(f"choose an agent with --agent NAME (available: {', '.join(registry.agents)})")
    try:
        agent_factory(agent)
        registry.providers.get(config.stash[RUN_CONFIG].provider)
        read = run_read_by(agent)
    except LookupError as exc:
        raise pytest.UsageError(str(exc)) from None
    if read is not None and read.resolve() == config.stash[RUN_DIR].resolve():
        raise pytest.UsageError(f"--agent {agent} reads the records of {read}, which this run would overwrite: "
                                "give the run another --run-name or --results-dir")


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> list[str]:
    """Say at once which task entries cannot be used (also under ``--collect-only``)."""
    bad = [item for item in items if isinstance(item, BadTask)]
    if not bad:
        return []
    return [f"spider2v: {len(bad)} task entr{'y' if len(bad) == 1 else 'ies'} cannot be used (each errors when run):",
            *(f"  {item.nodeid}: {item.error}" for item in bad)]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """``--collect-only`` runs nothing, so an unusable task entry fails it here: a check of the
    task files in CI must not pass over one."""
    if session.config.option.collectonly and session.exitstatus == pytest.ExitCode.OK \
            and any(isinstance(item, BadTask) for item in session.items):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


class TaskFile(pytest.Module):
    """A task file; collects one item per runnable variant (per task, for a file of many).

    A Module subclass (with a synthetic module object) so that items are ordinary
    :class:`pytest.Function` items: fixtures, ``-k``, ``-m``, ``--lf``, xdist and reports all
    treat them like any test.
    """

    def _getobj(self) -> Any:
        return types.ModuleType(self.path.stem)

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        entries = load_task_file(self.path)
        tasks = [entry for entry in entries if isinstance(entry, Task)]
        errors = [entry for entry in entries if isinstance(entry, TaskFormatError)]
        made = self.ihook.pytest_spider2v_make_items(collector=self, tasks=tasks) if tasks else []
        items: list[pytest.Item | pytest.Collector] = list(made if made is not None else
                                                          [TaskItem.of_task(self, task) for task in tasks])
        count = self.config.stash[RUN_CONFIG].repeat
        if count > 1:
            items = [repeated for item in items
                     for repeated in (item.repeats(count) if isinstance(item, TaskItem) else [item])]
        return items + [BadTask.from_parent(self, name=_error_name(error, self.path), error=error) for error in errors]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A task item's traceback (of its setup, run or teardown) never shows the frames' arguments or
    locals, whatever ``--showlocals`` says: those of a setup step or getter hold the account
    settings read from ``--settings-dir`` (a password, a service account's key), which must reach
    no terminal, report or JUnit file."""
    report = yield
    excinfo = call.excinfo
    if isinstance(item, TaskItem) and report.failed and excinfo is not None and not (
            isinstance(excinfo.value, pytest.fail.Exception) and not excinfo.value.pytrace):
        full = item.config.getoption("fulltrace", False)
        style = item.config.getoption("tbstyle", "auto")
        report.longrepr = excinfo.getrepr(
            funcargs=False, showlocals=False, style="long" if full or style == "auto" else style,
            tbfilter=False if full else item._traceback_filter)
    return report


def run_task(spider2v_outcome: Evaluation) -> None:
    """The body of every task item: the score decides the outcome."""
    if spider2v_outcome.score < 1:
        pytest.fail(f"score {spider2v_outcome.score:g}: {spider2v_outcome.detail}", pytrace=False)


class TaskItem(pytest.Function):
    """One task (variant) as a test; its :class:`Task` is ``item.stash[TASK]``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # pytest 9 keys --lf, --ff and --nf by a structured id whose ``[...]`` part comes from a
        # parametrize call; a task item has none, so its ``[verbose]`` would stay part of its name
        # and never equal the id pytest parses back from its cache. Parsed from the nodeid, it does.
        structured = _structured_id_type()
        if structured is not None and isinstance(getattr(self, "_id", None), structured):
            self._id = structured.parse(self.nodeid)

    @classmethod
    def of_task(cls, parent: TaskFile, task: Task) -> TaskItem:
        name = f"{task.id}[{task.variant}]" if task.layout == "project" else task.id
        return cls.make(parent, name, task, run_task)

    @classmethod
    def make(cls, parent: TaskFile, name: str, task: Task, body: Callable[..., None], *,
             agent: str | None = None, record_suffix: str | None = None) -> TaskItem:
        """An item named ``name`` whose body is ``body`` (its arguments are fixtures); ``agent``
        replaces ``--agent`` for it, ``record_suffix`` keeps its record apart from its task's others."""
        item = cls.from_parent(parent, name=name, callobj=body)
        item.stash[TASK] = task
        if agent is not None:
            item.stash[AGENT] = agent
        if record_suffix is not None:
            item.stash[RECORD_SUFFIX] = record_suffix
        for marker in task.markers:
            ensure_marker(item.config, marker, "related app" if marker in task.spec.related_apps else "task marker")
            item.add_marker(marker)
        return item

    def repeats(self, count: int) -> list[TaskItem]:
        """The item ``count`` times, as ``--repeat`` runs it: each its own item (its own environment,
        record and report), named as pytest-repeat names its repeats (``task[verbose-2-3]``,
        ``task[2-3]``), so ``-k``, ``--lf`` and ``--deselect`` address one repeat."""
        from pytest_spider2v.run.results import Repeat  # --repeat's alone

        parent = self.parent
        assert isinstance(parent, TaskFile)
        copies = []
        for index in range(1, count + 1):
            suffix = f"{index}-{count}"
            name = f"{self.name[:-1]}-{suffix}]" if self.name.endswith("]") else f"{self.name}[{suffix}]"
            copy = TaskItem.make(parent, name, self.stash[TASK], self.obj, agent=self.stash.get(AGENT, None),
                                 record_suffix=self.stash.get(RECORD_SUFFIX, None))
            for marker in self.own_markers:
                if marker.name not in copy.keywords:
                    copy.add_marker(getattr(pytest.mark, marker.name)(*marker.args, **marker.kwargs))
            copy.stash[REPEAT] = Repeat(index, count)
            copies.append(copy)
        return copies

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.stash[TASK].key


def _structured_id_type() -> Any:
    """pytest's ``NodeId`` (pytest 9); None for a pytest whose nodeids are plain strings."""
    try:
        from _pytest.nodeid import NodeId
    except ImportError:
        return None
    return NodeId


class BadTask(pytest.Item):
    """An entry of a task file that cannot be used: it errors when run, with the problem."""

    def __init__(self, *, error: TaskFormatError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def setup(self) -> None:
        raise self.error  # in setup, so pytest reports an error: the task was never run, nor scored

    def runtest(self) -> None:
        """Never reached: :meth:`setup` raises."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, TaskFormatError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


def _error_name(error: TaskFormatError, path: Path) -> str:
    """``line-12`` for a line of the collected file, ``da-dev-labels-line-3`` for one of a file it
    reads beside it, else the task's id (``task-file`` when the file names none)."""
    if error.line is None:
        return f"task-{error.task_id}" if error.task_id else "task-file"
    return f"line-{error.line}" if error.path == path else f"{error.path.stem}-line-{error.line}"


def ensure_marker(config: pytest.Config, name: str, description: str) -> None:
    """Register ``name`` as a marker unless it is one already (``--strict-markers`` passes).

    Asked for every marker of every item: the registered names are read into a set once, and
    again only when the ``markers`` lines have changed since (another plugin added one)."""
    lines = config.getini("markers")
    count, names = config.stash.get(MARKER_NAMES, (-1, set()))
    if count != len(lines):
        names = {line.split(":")[0].strip() for line in lines}
    if name not in names:
        config.addinivalue_line("markers", f"{name}: {description}")
        names.add(name)
    config.stash[MARKER_NAMES] = (len(config.getini("markers")), names)

