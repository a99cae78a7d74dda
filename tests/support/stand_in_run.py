"""The parts of a stand-in task run that the pytester conftests of the validation tests share: the
`spider2v_run` fixture's object without an environment, whose outcome() each test writes itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_spider2v.plugin.keys import TASK


class StandInRecord:
    """A record that keeps nothing: the tests read the validation state, not the records."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def finish(self, *args: object) -> None:
        pass


class StandInRun:
    """A task run with no environment: the task from the item, failures and skips as pytest's."""

    def __init__(self, item: pytest.Item) -> None:
        self.task = item.stash[TASK]
        self.record = StandInRecord(item.path.parent / ".records" / item.name)

    def skip_if_unavailable(self) -> None:
        pass

    def fail(self, message: str) -> None:
        pytest.fail(message, pytrace=False)

    def skip(self, reason: str) -> None:
        pytest.skip(reason)
