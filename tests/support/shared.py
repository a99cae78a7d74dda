"""Where the tests find the shared inputs (the Spider2-V sample, the InfiAgent-DABench dev set):
beside the checkout, or where ``SPIDER2V_SHARED`` says. Never an absolute path, so every checkout
(a developer's, a CI runner's, a worktree) reads its own.

A test that reads them carries the ``sample`` marker, so ``-m "not sample"`` is the suite that
needs none of them; :func:`shared` refuses a test without it (``tests/conftest.py`` tells it
which test runs). A missing input skips locally, where not everyone has the sample, but fails
under CI: there a skip would let the tests that read real tasks vanish without anyone noticing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: The checkout's root: this file is tests/support/shared.py.
REPO = Path(__file__).resolve().parents[2]
#: Files the unit tests read (a real accessibility tree, records of earlier versions).
UNIT_DATA = REPO / "tests" / "unit" / "data"
ENV = "SPIDER2V_SHARED"


#: The marker of a test that reads the shared inputs.
MARKER = "sample"
#: The test running now, while one runs (set by ``tests/conftest.py``); None at collection.
running: pytest.Item | None = None


def shared_root() -> Path:
    """The shared folder: ``$SPIDER2V_SHARED``, else ``../shared`` beside the checkout."""
    override = os.environ.get(ENV)
    return Path(override).expanduser().resolve() if override else REPO.parent / "shared"


def shared(*parts: str) -> Path:
    """A path under the shared folder; not checked, so it is safe at import time (parametrizing
    over the sample's tasks). A test that asks for one must carry the ``sample`` marker."""
    if running is not None and running.get_closest_marker(MARKER) is None:
        raise RuntimeError(f"{running.nodeid} reads the shared inputs ({ENV}, ../shared) without the "
                           f"'{MARKER}' marker: add @pytest.mark.{MARKER} (or a module's pytestmark)")
    return shared_root().joinpath(*parts)


def sample(*parts: str) -> Path:
    """A path under the Spider2-V sample's task folders, ``evaluation_examples/examples``."""
    return shared("spider2v-sample", "evaluation_examples", "examples", *parts)


def task_files(examples: Path, app: str = "*") -> list[Path]:
    """The task files under a Spider2-V ``examples`` folder, ``<app>/<id>/<id>.json`` (of every
    app, or of one): what the tests count against, so the sample can grow without the counts
    going stale."""
    return sorted(p for p in examples.glob(f"{app}/*/*.json") if p.stem == p.parent.name)


def require(path: Path) -> Path:
    """``path`` if it exists; else skip the calling test, or fail it when ``CI`` is set."""
    if path.exists():
        return path
    message = f"shared input missing: {path} (set {ENV} to the folder holding spider2v-sample)"
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def in_ci() -> bool:
    """Whether the tests run under CI: ``CI`` set to anything but empty, ``0`` or ``false``."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")
