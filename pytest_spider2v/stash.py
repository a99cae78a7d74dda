"""Stash keys shared by the plugin, fixtures and reports (one place, so no module imports another's internals)."""

from pathlib import Path

import pytest

from .records import TaskRecord

#: the record of a task item, once the ``spider2v_record`` fixture has started it
RECORD = pytest.StashKey[TaskRecord]()
#: the run folder ``<results dir>/<run>`` on the config
RUN_DIR = pytest.StashKey[Path]()
