"""The pytest plugin: options, markers, collection of task files as test items, and (from
:mod:`.fixtures`) the fixtures that run a task.

Nothing here knows a particular app, agent or metric; those arrive through the registries,
filled by the ``pytest_spider2v`` entry points when pytest configures.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from . import fixtures, registry
from .agent import agent_factory, run_read_by
from .providers.limits import parse_memory
from .records import slug
from .scoring import Evaluation
from .selection import STATE_FILE, ValidationSelection
from .stash import RUN_DIR
from .task import (
    CATEGORIES,
    DIFFICULTIES,
    INTERFACES,
    VARIANTS,
    Task,
    TaskFormatError,
    in_spider2v_checkout,
    is_format_data,
    is_task_file,
    load_task_file,
    registered_formats,
)
from .validation import Check, check_task, task_checks
from .validation_summary import ValidationSummary


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from . import hooks

    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("spider2v", "Spider2-V benchmark")
    group.addoption("--agent", dest="spider2v_agent", metavar="NAME",
                    help="agent that runs the tasks (e.g. oracle, noop); required to run tasks")
    group.addoption("--agent-option", dest="spider2v_agent_options", action="append", default=[],
                    metavar="KEY=VALUE", help="option passed to the agent (repeatable)")
    group.addoption("--provider", dest="spider2v_provider", default="docker", metavar="NAME",
                    help="environment provider (default: docker)")
    group.addoption("--max-steps", dest="spider2v_max_steps", type=int, default=15, metavar="N",
                    help="agent turns per task (default: 15, as the paper)")
    group.addoption("--task-timeout", dest="spider2v_task_timeout", type=float, default=1800.0, metavar="S",
                    help="seconds an episode may take (default: 1800, as the paper)")
    group.addoption("--sleep-after-action", dest="spider2v_sleep_after_action", type=float, default=0.5,
                    metavar="S", help="pause after each action before observing (default: 0.5)")
    group.addoption("--results-dir", dest="spider2v_results_dir", default="results", metavar="DIR",
                    help="where per-task records are written (default: ./results)")
    group.addoption("--run-name", dest="spider2v_run_name", metavar="NAME",
                    help="name of this run's folder under --results-dir (default: the agent's name)")
    group.addoption("--resume", dest="spider2v_resume", action="store_true",
                    help="reuse finished records of this run instead of running those tasks again")
    group.addoption("--retries", dest="spider2v_retries", type=int, default=0, metavar="N",
                    help="start a task over on a fresh environment, up to N times, when its environment or "
                         "setup fails (never after a score); every attempt stays in the record (default: 0)")
    group.addoption("--live", dest="spider2v_live", action="store_true",
                    help="serve every task's desktop to a browser while it runs (view-only); the URL is printed "
                         "when the task starts and kept in its record")
    group.addoption("--record-video", dest="spider2v_record_video", action="store_true",
                    help="record each episode, from the first observation to the end of the evaluation, as "
                         "episode.mp4 in the task's record (shown in the HTML report)")
    group.addoption("--validate", dest="spider2v_validate", action="store_true",
                    help="check the tasks instead of running an agent: reference solution scores 1, "
                         "do-nothing and wrong solution score 0, two resets look the same")
    group.addoption("--validate-changed", dest="spider2v_validate_changed", action="store_true",
                    help="--validate only the tasks whose inputs changed since the validation state, plus "
                         "--validate-sample tasks per image family")
    group.addoption("--validation-state", dest="spider2v_validation_state", default=STATE_FILE, metavar="PATH",
                    help="fingerprints of the tasks that passed every --validate check; every --validate run "
                         f"updates it (default: ./{STATE_FILE})")
    group.addoption("--validate-sample", dest="spider2v_validate_sample", type=int, default=1, metavar="N",
                    help="with --validate-changed, also validate the first N runnable tasks of each image "
                         "family (default: 1)")
    group.addoption("--settings-dir", dest="spider2v_settings_dir", metavar="DIR",
                    default=os.environ.get("SPIDER2V_SETTINGS_DIR"),
                    help="folder of account settings for cloud tasks (env: SPIDER2V_SETTINGS_DIR)")
    group.addoption("--env-memory", dest="spider2v_env_memory", type=parse_memory, metavar="SIZE",
                    help="memory limit of every environment, e.g. 4g or 512m; 0 for none "
                         "(default: per snapshot, in snapshots.yaml)")
    group.addoption("--env-cpus", dest="spider2v_env_cpus", type=float, metavar="N",
                    help="CPUs each environment may use, e.g. 1.5; 0 for no limit (default: per snapshot)")
    group.addoption("--env-pids", dest="spider2v_env_pids", type=int, metavar="N",
                    help="processes each environment may run; 0 for no limit (default: per snapshot)")
    group.addoption("--isolate-network", dest="spider2v_isolate_network", action="store_true",
                    help="cut environments off from every network; only the harness reaches their guest ports")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(fixtures, "spider2v-fixtures")  # one plugin: its fixtures come with it
    registry.load_extensions()
    for name, text in _fixed_markers():
        config.addinivalue_line("markers", f"{name}: {text}")
    for fmt in registered_formats():
        for name, text in fmt.markers.items():
            _ensure_marker(config, name, text)
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) owns the run
        from .providers import OWNER_ENV, owner_token

        os.environ[OWNER_ENV] = owner_token(os.getpid())
    if config.getoption("spider2v_validate_changed"):
        config.option.spider2v_validate = True
    if config.getoption("spider2v_validate"):
        config.pluginmanager.register(ValidationSelection(config), "spider2v-validation-selection")
        config.pluginmanager.register(ValidationSummary(config), "spider2v-validation-summary")
    default_run = "validate" if config.getoption("spider2v_validate") else config.getoption("spider2v_agent")
    run = config.getoption("spider2v_run_name") or default_run or "run"
    # one folder, whatever the name holds (``openai:qwen``, ``replay:results/gpt-4o``)
    config.stash[RUN_DIR] = config.invocation_params.dir / config.getoption("spider2v_results_dir") / slug(run)


def _fixed_markers() -> list[tuple[str, str]]:
    words = [(c, "task category") for c in CATEGORIES]
    words += [(i, "task interface") for i in INTERFACES]
    words += [(v, "instruction variant") for v in VARIANTS]
    words += [(d, "difficulty: the task's own level, else from action_number (<=5, 6-15, >15)") for d in DIFFICULTIES]
    words.append(("account", "task needs a cloud account"))
    return words


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Files beside a Spider2-V task file are the task's data (DAGs, notebooks, a dagster
    ``test_*.py`` its scripts run), never test modules of this session; so is whatever a task
    format calls data of its checkouts (an InfiAgent checkout's own scripts and tests)."""
    if not collection_path.is_file() or is_task_file(collection_path):
        return None
    if in_spider2v_checkout(collection_path) or is_format_data(collection_path):
        return True
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_task_file(file_path):
        return TaskFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Fail fast, once, on a bad --agent instead of erroring every task."""
    if config.option.collectonly or config.getoption("spider2v_validate"):
        return
    if not any(isinstance(i, TaskItem) for i in items):
        return
    agent = config.getoption("spider2v_agent")
    if not agent:
        raise pytest.UsageError(f"choose an agent with --agent NAME (available: {', '.join(registry.agents)})")
    try:
        agent_factory(agent)
        registry.providers.get(config.getoption("spider2v_provider"))
        read = run_read_by(agent)
    except LookupError as exc:
        raise pytest.UsageError(str(exc)) from None
    if read is not None and read.resolve() == config.stash[RUN_DIR].resolve():
        raise pytest.UsageError(f"--agent {agent} reads the records of {read}, which this run would overwrite: "
                                "give the run another --run-name or --results-dir")


class TaskFile(pytest.Module):
    """A task file; collects one item per runnable variant (per task, for a file of many).

    A Module subclass (with a synthetic module object) so that items are ordinary
    :class:`pytest.Function` items: fixtures, ``-k``, ``-m``, ``--lf``, xdist and reports all
    treat them like any test.
    """

    def _getobj(self) -> Any:
        import types

        return types.ModuleType(self.path.stem)

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        entries = load_task_file(self.path)
        tasks = [entry for entry in entries if isinstance(entry, Task)]
        errors = [entry for entry in entries if isinstance(entry, TaskFormatError)]
        if errors:
            # One bad task must not stop the others: let the session run despite its error.
            self.config.option.continue_on_collection_errors = True
            if not tasks:
                raise self.CollectError("\n".join(str(error) for error in errors))
        collected: list[pytest.Item | pytest.Collector]
        if self.config.getoption("spider2v_validate"):
            # checks are per task, not per variant: a project file's two variants share them
            checked = tasks[:1] if tasks and tasks[0].layout == "project" else tasks
            collected = [TaskItem.from_check(self, task, check) for task in checked for check in task_checks(task)]
        else:
            collected = [TaskItem.from_task(self, task) for task in tasks]
        return collected + [BadTask.from_parent(self, name=_error_name(error, self.path), error=error) for error in errors]


class BadTask(pytest.Collector):
    """One entry of a task file that cannot be used, in a file whose other tasks can: a
    collection error of its own, named after the entry, so the rest still collects and runs."""

    def __init__(self, *, error: TaskFormatError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        raise self.CollectError(str(self.error))


def _error_name(error: TaskFormatError, path: Path) -> str:
    """``line-12`` for a line of the collected file, ``da-dev-labels-line-3`` for one of a file it
    reads beside it, else the task's id."""
    if error.line is None:
        return f"task-{error.task_id or '?'}"
    return f"line-{error.line}" if error.path == path else f"{error.path.stem}-line-{error.line}"


def run_task(spider2v_outcome: Evaluation) -> None:
    """The body of every task item: the score decides the outcome."""
    if spider2v_outcome.score < 1:
        pytest.fail(f"score {spider2v_outcome.score:g}: {spider2v_outcome.detail}", pytrace=False)


class TaskItem(pytest.Function):
    """One task variant as a test. ``item.task`` holds the :class:`Task`; a ``--validate`` item
    also holds its :class:`Check`, whose agent replaces ``--agent``."""

    task: Task
    check: Check | None = None

    @classmethod
    def from_task(cls, parent: TaskFile, task: Task) -> TaskItem:
        name = f"{task.id}[{task.variant}]" if task.layout == "project" else task.id
        return cls._make(parent, name, task, run_task)

    @classmethod
    def from_check(cls, parent: TaskFile, task: Task, check: Check) -> TaskItem:
        if check.solution and check.solution in task.made_solutions:
            task = replace(task, solution=task.made_solutions[check.solution])
        elif check.solution and task.layout == "project":
            path = task.folder / check.solution
            task = replace(task, solution=path if path.exists() else None)
        item = cls._make(parent, f"{task.id}[validate-{check.name}]", task, check_task)
        item.check = check
        return item

    @classmethod
    def _make(cls, parent: TaskFile, name: str, task: Task, body: Any) -> TaskItem:
        item = cls.from_parent(parent, name=name, callobj=body)
        item.task = task
        for marker in task.markers:
            _ensure_marker(item.config, marker, "related app" if marker in task.spec.related_apps else "task marker")
            item.add_marker(marker)
        return item

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.task.key}"


def _ensure_marker(config: pytest.Config, name: str, description: str) -> None:
    if not any(line.split(":")[0].strip() == name for line in config.getini("markers")):
        config.addinivalue_line("markers", f"{name}: {description}")
