"""Reference solutions use only their own task: the static half of the rule.

An abstract variant's instruction has no tutorial; its verbose twin's has. A solution of an
abstract task that cites a tutorial took a fact from the twin, which proves nothing about the
abstract task: where the abstract instruction cannot reach the gold, the task belongs on the
errata list, and its solution follows the instruction (and scores below 1, which --validate
checks). This test finds the citing; that the steps themselves use only the instruction's facts
is held by review (README, "Reference solutions of the original tasks").
"""

from __future__ import annotations

import json
import re

import pytest

from pytest_spider2v.environments.locations import SPIDER2V_SOLUTIONS_DIR
from pytest_spider2v.tasks.errata import INSTRUCTION_CANNOT_PASS, load_errata
from tests.support.shared import require, sample

pytestmark = pytest.mark.sample

SOLUTIONS = sorted(SPIDER2V_SOLUTIONS_DIR.glob("*/*.py"))
#: Words that say a fact came from a tutorial.
CITES_A_TUTORIAL = re.compile(r"\btutorial", re.IGNORECASE)


def variant(app: str, task_id: str) -> str:
    task = json.loads((require(sample(app, task_id)) / f"{task_id}.json").read_text())
    return "verbose" if "verbose" in task["tags"] else "abstract"


def test_no_abstract_solution_takes_a_fact_from_a_tutorial() -> None:
    errata = load_errata()
    borrowing = []
    for path in SOLUTIONS:
        app, task_id = path.parent.name, path.stem
        if variant(app, task_id) != "abstract" or not CITES_A_TUTORIAL.search(path.read_text()):
            continue
        erratum = errata.get(f"{app}/{task_id}")
        if erratum is None or erratum.kind not in INSTRUCTION_CANNOT_PASS:
            borrowing.append(f"{app}/{task_id}")
    assert borrowing == []


def test_errata_whose_instruction_cannot_pass_have_a_solution_that_follows_it() -> None:
    """Such a task keeps a reference solution: the one that follows its instruction, which
    --validate expects to score below 1 (the erratum shown)."""
    for key, erratum in load_errata().items():
        if erratum.kind in INSTRUCTION_CANNOT_PASS:
            app, task_id = key.split("/")
            assert (SPIDER2V_SOLUTIONS_DIR / app / f"{task_id}.py").is_file(), key
