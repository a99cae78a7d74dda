"""A Mind2Web step as the run uses it, whichever layout it was read from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The card's splits (the test splits of Multimodal-Mind2Web).
SPLITS = ("test_task", "test_website", "test_domain")


@dataclass(frozen=True)
class WebStep:
    """One row of a trajectory: the page before a human action, and that action.

    ``candidates`` are the sanitized HTML of the elements offered, ``targets`` the indices of
    those that are positives (one in a snapshot; none in a row without a positive, which is then
    invalid). ``prompt_0``/``prompt_1`` and ``screenshot`` are read only when the task runs.
    """

    file: Path  #: the Parquet file the row is in
    row: int  #: the row in its file (0-based)
    step: int  #: its index in the trajectory (0-based)
    valid: bool
    candidates: tuple[str, ...]
    targets: tuple[int, ...]
    op: str
    value: str
    prompt_0: list[dict[str, Any]] = field(default_factory=list)
    prompt_1: list[dict[str, Any]] = field(default_factory=list)
    screenshot: bytes | None = None


@dataclass(frozen=True)
class WebTask:
    """A task's trajectory, its steps in order."""

    task_id: str
    split: str
    description: str
    website: str
    domain: str
    subdomain: str
    steps: tuple[WebStep, ...]

    @property
    def valid_steps(self) -> int:
        return sum(step.valid for step in self.steps)


@dataclass(frozen=True)
class SnapshotSettings:
    """How a snapshot is made from the original layout (:mod:`.snapshot`): negatives per step,
    and the seed of their sampling and order (the card's 20 and 42)."""

    distractors: int = 20
    seed: int = 42
