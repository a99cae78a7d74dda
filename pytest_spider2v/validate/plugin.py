"""``--validate`` as a pytest plugin (an extension of the plugin, loaded through the
``pytest_spider2v`` entry-point group): its options, the check items it makes of each task file
(:func:`pytest_spider2v_make_items`), the selection and summary plugins of a validating run, and
the xdist scheduler that keeps a task's checks together.

Every pytest start-up imports this module (its options must be known before the command line is
parsed), so the checks, the fingerprints, the selection and the summary are imported by the hooks
of a run that validates or fingerprints, not here.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest

from pytest_spider2v.plugin.collection import TaskFile, TaskItem
from pytest_spider2v.tasks.model import Task

if TYPE_CHECKING:
    from pytest_spider2v.validate.checks import Check
    from pytest_spider2v.validate.fingerprint import Fingerprinter
    from pytest_spider2v.validate.scheduling import TaskScheduling

#: The default ``--validation-state`` file, in the folder pytest runs in.
STATE_FILE = "validation-state.json"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("spider2v")
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


@pytest.hookimpl(tryfirst=True)  # before the plugin names the run's folder
def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("spider2v_validate_changed"):
        config.option.spider2v_validate = True
    if not config.getoption("spider2v_validate"):
        return
    from pytest_spider2v.validate.selection import ValidationSelection
    from pytest_spider2v.validate.summary import ValidationSummary

    config.option.spider2v_run_name = config.getoption("spider2v_run_name") or "validate"
    config.pluginmanager.register(ValidationSelection(config), "spider2v-validation-selection")
    config.pluginmanager.register(ValidationSummary(config), "spider2v-validation-summary")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> TaskScheduling | None:
    """Under ``--validate`` and xdist's default ``--dist load``, schedule by task."""
    if config.getoption("spider2v_validate") and config.getoption("dist") == "load":
        from pytest_spider2v.validate.scheduling import TaskScheduling

        return TaskScheduling(config, log)
    return None


@functools.cache
def _fingerprinter() -> Fingerprinter:
    """One per process: its digests of code and recipes are shared by every task it fingerprints."""
    from pytest_spider2v.validate.fingerprint import Fingerprinter

    return Fingerprinter()


def pytest_spider2v_task_fingerprint(task: Task) -> str:
    """The fingerprint ``--validate`` keys its state by, for the task's record and the run's manifest."""
    return _fingerprinter().fingerprint(task)


def pytest_spider2v_make_items(collector: TaskFile, tasks: list[Task]) -> list[pytest.Item] | None:
    """A check item per check of each task, in place of the task items. Checks are per task, not
    per variant: a project file's two variants share them."""
    if not collector.config.getoption("spider2v_validate"):
        return None
    from pytest_spider2v.validate.checks import task_checks

    checked = tasks[:1] if tasks and tasks[0].layout == "project" else tasks
    return [_check_item(collector, task, check) for task in checked for check in task_checks(task)]


def _check_item(parent: TaskFile, task: Task, check: Check) -> TaskItem:
    from pytest_spider2v.validate.checks import CHECK, check_task

    if task.gui_route is not None:  # every check of a task with a GUI route carries its marker
        task = replace(task, extra_markers=(*task.extra_markers, "gui"))
    if check.solution and check.solution in task.made_solutions:
        task = replace(task, solution=task.made_solutions[check.solution])
    elif check.solution and task.layout == "project":
        path = task.folder / check.solution
        task = replace(task, solution=path if path.exists() else None)
    item = TaskItem.make(parent, f"{task.id}[validate-{check.name}]", task, check_task, agent=check.agent,
                         record_suffix=check.name)
    item.stash[CHECK] = check
    return item


@pytest.fixture
def spider2v_check(request: pytest.FixtureRequest) -> Check:
    """The check a ``--validate`` item runs."""
    from pytest_spider2v.validate.checks import CHECK

    return request.node.stash[CHECK]
