"""The pytest side of Mind2Web: its options, its items and the fixture that runs one.

A Mind2Web file's tasks become ordinary task items (:class:`~pytest_spider2v.plugin.collection.TaskItem`:
``-k``, ``-m``, ``-n``, ``--lf``, ``--resume`` and ``--junitxml`` treat them like any task), whose
body asks for ``mind2web_outcome`` instead of an environment's. Under ``--validate`` each task is
checked as the desktop tasks are: the ``oracle`` must score it 1, ``oracle-near-miss`` (right on
every step but its last valid one) 0, and ``noop`` 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_spider2v.formats.mind2web.format import APP, FORMAT
from pytest_spider2v.formats.mind2web.steps import SnapshotSettings
from pytest_spider2v.plugin.collection import BadTask, TaskFile, TaskItem
from pytest_spider2v.plugin.fixtures import agent_settings
from pytest_spider2v.plugin.keys import RUN_CONFIG
from pytest_spider2v.tasks.model import Task, TaskFormatError

if TYPE_CHECKING:  # a run's, imported by the hooks that run (every pytest start-up loads this plugin)
    from pytest_spider2v.run.evaluation import Evaluation
    from pytest_spider2v.run.records import TaskRecord

#: ``--validate``'s checks of a Mind2Web task: agent -> the score it must have. The near miss (the
#: oracle with one step's element wrong) proves the check can fail.
CHECKS = {"oracle": 1.0, "oracle-near-miss": 0.0, "noop": 0.0}
_EXPECTED = pytest.StashKey[float]()
#: task id -> the file whose items hold it, over the session's collection
_SEEN = pytest.StashKey[dict[str, Path]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("spider2v-mind2web", "Multimodal-Mind2Web")
    defaults = SnapshotSettings()
    group.addoption("--mind2web-distractors", dest="mind2web_distractors", type=int, default=defaults.distractors,
                    metavar="K", help="negatives sampled per step when a snapshot is made from the original "
                                      f"Multimodal-Mind2Web layout (default {defaults.distractors}, the card's)")
    group.addoption("--mind2web-seed", dest="mind2web_seed", type=int, default=defaults.seed, metavar="N",
                    help=f"seed of that sampling and of the candidates' order (default {defaults.seed}, the card's)")


def pytest_configure(config: pytest.Config) -> None:
    defaults = SnapshotSettings()
    distractors = config.getoption("mind2web_distractors", defaults.distractors)
    if distractors < 1:
        raise pytest.UsageError(f"--mind2web-distractors must be at least 1, not {distractors}")
    FORMAT.snapshot = SnapshotSettings(distractors, config.getoption("mind2web_seed", defaults.seed))


@pytest.hookimpl(tryfirst=True)
def pytest_spider2v_make_items(collector: TaskFile, tasks: list[Task]) -> list[pytest.Item] | None:
    """A Mind2Web file's items: one per task, or under ``--validate`` one per check of each. A
    task id another file of the session holds too is an item that errors: two records would be
    one folder, and a task cut in two would be scored on half its steps."""
    if not tasks or any(task.layout != APP for task in tasks):
        return None
    seen = collector.config.stash.setdefault(_SEEN, {})
    items: list[pytest.Item] = []
    for task in tasks:
        other = seen.setdefault(task.id, task.path)
        if other != task.path:
            error = TaskFormatError(task.path, task.id, "task_id", f"the task also has rows in {other}: a task's "
                                    "rows must lie in one file, or in the shards of one set (<name>-00000-of-00002.parquet, ...)")
            items.append(BadTask.from_parent(collector, name=f"task-{task.id}", error=error))
        elif not collector.config.getoption("spider2v_validate", False):
            items.append(TaskItem.make(collector, task.id, task, run_web_task))
        else:
            items += _checks(collector, task)
    return items


def _checks(collector: TaskFile, task: Task) -> list[pytest.Item]:
    items: list[pytest.Item] = []
    for agent, expected in CHECKS.items():
        item = TaskItem.make(collector, f"{task.id}[validate-{agent}]", task, check_web_task, agent=agent,
                             record_suffix=agent)
        item.stash[_EXPECTED] = expected
        items.append(item)
    return items


@pytest.fixture
def mind2web_outcome(request: pytest.FixtureRequest, spider2v_task: Task, spider2v_record: TaskRecord) -> Evaluation:
    """The task's steps answered and scored."""
    from pytest_spider2v.formats.mind2web.run import web_outcome

    return web_outcome(spider2v_task, spider2v_record, agent_settings(request.node))


def run_web_task(mind2web_outcome: Evaluation) -> None:
    """The body of a Mind2Web item: task success decides the outcome."""
    if mind2web_outcome.score < 1:
        pytest.fail(f"score {mind2web_outcome.score:g}: {mind2web_outcome.detail}", pytrace=False)


def check_web_task(request: pytest.FixtureRequest, mind2web_outcome: Evaluation) -> None:
    """The body of a ``--validate`` check: the agent's score must be what the check expects."""
    expected = request.node.stash[_EXPECTED]
    if mind2web_outcome.score != expected:
        pytest.fail(f"expected score {expected:g}, got {mind2web_outcome.score:g}: {mind2web_outcome.detail}",
                    pytrace=False)


def pytest_spider2v_manifest(config: pytest.Config) -> dict[str, object]:
    """The candidates' sampling (a Mind2Web score depends on how many distractors, drawn how) and,
    for a model, the card's sampling its answers use (not the desktop agents' defaults)."""
    from pytest_spider2v.formats.mind2web.answerers import card_options, model_vendor

    entries: dict[str, object] = {"mind2web_distractors": FORMAT.snapshot.distractors,
                                  "mind2web_seed": FORMAT.snapshot.seed}
    run = config.stash[RUN_CONFIG]
    vendor = model_vendor(run.agent or "")
    if vendor is not None:
        used = card_options(vendor, dict(run.agent_options))
        entries["mind2web_max_tokens"] = used["max_tokens"]
        entries["mind2web_temperature"] = used.get("temperature", "the vendor's default")
    return entries
