"""Reference solutions use only their own task: the static half of the rule.

An abstract variant's instruction has no tutorial; its verbose twin's has. A solution of an
abstract task that cites a tutorial took a fact from the twin, which proves nothing about the
abstract task: where the abstract instruction cannot reach the gold, the task belongs on the
errata list, and its solution follows the instruction (and scores what the erratum predicts,
which --validate checks). A solution written as ``based-on`` another plays that one's cells, so
it is read with the words of every file it replays: an abstract solution replaying its verbose
twin's, which says a fact came from the tutorial, took that fact too. This test finds the citing;
that the steps themselves use only the instruction's facts is held by review
(docs/tasks/reference-solutions.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pytest_spider2v.environments.locations import SPIDER2V_SOLUTIONS_DIR
from pytest_spider2v.tasks.errata import INSTRUCTION_CANNOT_PASS, load_errata
from pytest_spider2v.tasks.solution_format import replayed_files
from tests.support.shared import require, sample

SOLUTIONS = sorted(SPIDER2V_SOLUTIONS_DIR.glob("*/*.py"))
#: Words that say a fact came from a tutorial.
CITES_A_TUTORIAL = re.compile(r"\btutorial", re.IGNORECASE)


def variant(app: str, task_id: str) -> str:
    task = json.loads((require(sample(app, task_id)) / f"{task_id}.json").read_text())
    return "verbose" if "verbose" in task["tags"] else "abstract"


def citing(path: Path) -> list[str]:
    """The files among those ``path`` plays (itself, then what it is based on) whose words cite a
    tutorial."""
    return [played.name for played in replayed_files(path) if CITES_A_TUTORIAL.search(played.read_text())]


def test_a_solution_is_read_with_every_file_it_replays(tmp_path: Path) -> None:
    (tmp_path / "verbose.py").write_text("# %% a pivot table at Sheet2.A2, the tutorial's step 15\nx = 1\n")
    (tmp_path / "plain.py").write_text("# %% a pivot table at Sheet2.A3, below the title\nx = 1\n")
    (tmp_path / "twin.py").write_text("# the same workbook\n# %% based-on: verbose.py\n")
    (tmp_path / "abstract.py").write_text("# the same checks, so the same solution\n# %% based-on: twin.py\n")
    (tmp_path / "own.py").write_text("# %% based-on: plain.py\n")
    assert citing(tmp_path / "abstract.py") == ["verbose.py"]
    assert citing(tmp_path / "own.py") == []
    assert citing(tmp_path / "verbose.py") == ["verbose.py"]


@pytest.mark.sample
def test_no_abstract_solution_takes_a_fact_from_a_tutorial() -> None:
    errata = load_errata()
    borrowing = []
    for path in SOLUTIONS:
        app, task_id = path.parent.name, path.stem
        if variant(app, task_id) != "abstract" or not (cited := citing(path)):
            continue
        erratum = errata.get(f"{app}/{task_id}")
        if erratum is None or erratum.kind not in INSTRUCTION_CANNOT_PASS:
            borrowing.append(f"{app}/{task_id} (cited in {', '.join(cited)})")
    assert borrowing == []


def test_errata_whose_instruction_cannot_pass_have_a_solution_that_follows_it() -> None:
    """Such a task keeps a reference solution: the one that follows its instruction, which
    --validate expects to score what the erratum predicts."""
    for key, erratum in load_errata().items():
        if erratum.kind in INSTRUCTION_CANNOT_PASS:
            app, task_id = key.split("/")
            assert (SPIDER2V_SOLUTIONS_DIR / app / f"{task_id}.py").is_file(), key
