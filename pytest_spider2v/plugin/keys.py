"""Stash keys: what the plugin keeps on pytest's objects, typed, so no module reaches into an
item by attribute name. Extensions that read a task item's task or record (reports, ``--validate``)
read it here.
"""

from pathlib import Path

import pytest

from pytest_spider2v.plugin.config import RunConfig
from pytest_spider2v.run.records import TaskRecord
from pytest_spider2v.run.results import Repeat
from pytest_spider2v.tasks.model import Task

#: the task of a task item
TASK = pytest.StashKey[Task]()
#: the agent a task item runs instead of ``--agent`` (a ``--validate`` check names its own)
AGENT = pytest.StashKey[str]()
#: appended to a task item's record folder name, so items of one task keep separate records
#: (``--validate``: one record per check)
RECORD_SUFFIX = pytest.StashKey[str]()
#: which of its task's ``--repeat`` runs a task item is (absent without ``--repeat``)
REPEAT = pytest.StashKey[Repeat]()
#: the record of a task item, once the ``spider2v_record`` fixture has started it
RECORD = pytest.StashKey[TaskRecord]()
#: with ``--cloud emulate``: the folder of account settings pointing at the emulators, on the config
EMULATOR_SETTINGS = pytest.StashKey[Path]()
#: the run's configuration, its command line read once (:mod:`.config`), on the config
RUN_CONFIG = pytest.StashKey[RunConfig]()
#: the run folder ``<results dir>/<run>`` on the config
RUN_DIR = pytest.StashKey[Path]()
#: the controller's owner token on the config (:mod:`.workers`)
OWNER = pytest.StashKey[str]()
