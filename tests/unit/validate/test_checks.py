"""The reset check's wait for a tree that arrives late: an application that a busy machine takes
longer to start than the settle period is "late", not "different"."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pytest_spider2v.testing.fakes import Call, FakeEnvironment
from pytest_spider2v.validate import checks as validation

EMPTY = '<desktop-frame name="main">\n</desktop-frame>'
WITH_CALC = '<desktop-frame name="main">\n<application name="soffice"/>\n</desktop-frame>'


@dataclass(eq=False)
class ArrivingTree(FakeEnvironment):
    """An environment whose tree gains the application on its ``after``-th read."""

    after: int = 1

    @property
    def reads(self) -> int:
        return len(self.calls_to("accessibility_tree"))

    def accessibility_tree(self, walk: str = "fast") -> str:
        self.calls.append(Call("accessibility_tree", (), {"walk": walk}))
        return WITH_CALC if self.reads >= self.after else EMPTY


@pytest.fixture(autouse=True)
def instant_clock_and_plain_trees(monkeypatch: pytest.MonkeyPatch) -> None:
    now = iter(range(0, 100_000))
    monkeypatch.setattr(validation.time, "sleep", lambda _: None)
    monkeypatch.setattr(validation.time, "monotonic", lambda: float(next(now)))
    monkeypatch.setattr(validation, "mask_clocks", lambda tree: tree)  # what it masks: test_tree_mask


def test_a_late_application_is_waited_for() -> None:
    env = ArrivingTree(after=5)
    assert validation._tree_matching(env, WITH_CALC) == WITH_CALC
    assert env.reads == 5


def test_a_tree_that_never_matches_is_returned_after_the_timeout() -> None:
    env = ArrivingTree(after=10_000)
    assert validation._tree_matching(env, WITH_CALC, timeout=30.0) == EMPTY
    assert 25 <= env.reads <= 35
