"""Stash keys: what the plugin keeps on pytest's objects, typed, so no module reaches into an
item by attribute name. Extensions that read a task item's task or record (reports, ``--validate``)
read it here.

The keys' types are imported for the type checker only: every pytest start-up imports this
module, and only a run that runs tasks needs the record and result modules.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_spider2v.plugin.config import RunConfig
    from pytest_spider2v.run.records import TaskRecord
    from pytest_spider2v.run.results import Repeat
    from pytest_spider2v.tasks.model import Task

#: the task of a task item
TASK: pytest.StashKey[Task] = pytest.StashKey()
#: the agent a task item runs instead of ``--agent`` (a ``--validate`` check names its own)
AGENT: pytest.StashKey[str] = pytest.StashKey()
#: appended to a task item's record folder name, so items of one task keep separate records
#: (``--validate``: one record per check)
RECORD_SUFFIX: pytest.StashKey[str] = pytest.StashKey()
#: which of its task's ``--repeat`` runs a task item is (absent without ``--repeat``)
REPEAT: pytest.StashKey[Repeat] = pytest.StashKey()
#: the record of a task item, once the ``spider2v_record`` fixture has started it
RECORD: pytest.StashKey[TaskRecord] = pytest.StashKey()
#: with ``--cloud emulate``: the folder of account settings pointing at the emulators, on the config
EMULATOR_SETTINGS: pytest.StashKey[Path] = pytest.StashKey()
#: the run's configuration, its command line read once (:mod:`.config`), on the config
RUN_CONFIG: pytest.StashKey[RunConfig] = pytest.StashKey()
#: the run folder ``<results dir>/<run>`` on the config
RUN_DIR: pytest.StashKey[Path] = pytest.StashKey()
#: the controller's owner token on the config (:mod:`.workers`)
OWNER: pytest.StashKey[str] = pytest.StashKey()
#: the registered marker names on the config, with the count of ``markers`` lines they were read from
MARKER_NAMES: pytest.StashKey[tuple[int, set[str]]] = pytest.StashKey()
