"""The errata list: the shipped list loads and names tasks of the sample, mistakes in a list are
named with the file, the task and the field, and a listed task carries the ``errata`` marker
(``-m "not errata"`` runs around exactly the listed tasks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_spider2v.registry import load_extensions
from pytest_spider2v.run.results import TaskResult
from pytest_spider2v.tasks.errata import KINDS, load_errata
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.testing.factories import task_document, write_checkout_task
from tests.support.shared import require, sample, task_files

#: A task on the shipped list (a lax evaluator), and one that is not.
LISTED = ("airflow", "33c8ce09-de8b-4432-8308-603b98513fdc")
UNLISTED = ("airflow", "00000000-0000-0000-0000-000000000000")


@pytest.fixture(scope="module", autouse=True)
def registrations() -> None:
    load_extensions()


def test_the_shipped_list_loads_with_evidence_for_every_entry() -> None:
    errata = load_errata()
    assert len(errata) >= 7
    for key, erratum in errata.items():
        assert erratum.task == key and erratum.kind in KINDS
        assert len(erratum.evidence.splitlines()) >= 2, f"{key}: evidence a reader can check"


@pytest.mark.sample
def test_every_entry_names_a_task_of_the_sample() -> None:
    examples = require(sample())
    keys = {f"{path.parent.parent.name}/{path.stem}" for path in task_files(examples)}
    assert set(load_errata()) - keys == set()


#: An entry's required fields but its kind.
ENTRY = "airflow/x:\n  summary: s\n  evidence: e\n  action: a\n"


@pytest.mark.parametrize(("text", "message"), [
    ("- a list\n", "expected a mapping of task keys"),
    ("airflow/x:\n  kind: lax_evaluator\n  summary: s\n  evidence: e\n", "airflow/x.action: missing or empty"),
    ("airflow/x:\n  kind: too_hard\n  summary: s\n  evidence: e\n  action: a\n", "airflow/x.kind: 'too_hard' is none of"),
    ("airflow/x:\n  kind: wrong_gold\n  summary: s\n  evidence: e\n  action: a\n  fix: b\n", "unknown field 'fix'"),
    ("x:\n  kind: wrong_gold\n  summary: s\n  evidence: e\n  action: a\n", "x: a task key is <app>/<task id>"),
    (f"{ENTRY}  kind: wrong_gold\n", "airflow/x.reference_score: missing (a wrong_gold entry predicts the score"),
    (f"{ENTRY}  kind: lax_evaluator\n  reference_score: 0\n",
     "airflow/x.reference_score: only an entry whose instruction cannot pass predicts a reference score"),
    (f"{ENTRY}  kind: under_specified\n  reference_score: 1\n", "airflow/x.reference_score: 1 is no score from 0"),
    (f"{ENTRY}  kind: under_specified\n  reference_score: low\n", "airflow/x.reference_score: 'low' is no score"),
    (f"{ENTRY}  kind: lax_evaluator\n  near_miss_crashes: compare_table\n",
     "airflow/x.near_miss_crashes: expected a list of '<metric>: <kind of variant>'"),
    (f"{ENTRY}  kind: lax_evaluator\n  near_miss_crashes: ['compare_table: ']\n",
     "airflow/x.near_miss_crashes: expected a list"),
])
def test_mistakes_in_a_list_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "errata.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=f"^{path}: .*") as raised:
        load_errata(path)
    assert message in str(raised.value)


def test_the_optional_fields_load_where_they_belong(tmp_path: Path) -> None:
    path = tmp_path / "errata.yaml"
    path.write_text(f"{ENTRY}  kind: under_specified\n  reference_score: 0.5\n"
                    "airflow/y:\n  kind: lax_evaluator\n  summary: s\n  evidence: e\n  action: a\n"
                    "  near_miss_crashes: ['compare_table: pivot item hidden']\n")
    errata = load_errata(path)
    assert (errata["airflow/x"].reference_score, errata["airflow/x"].near_miss_crashes) == (0.5, ())
    assert (errata["airflow/y"].reference_score, errata["airflow/y"].near_miss_crashes) == (
        None, ("compare_table: pivot item hidden",))


def checkout_task(root: Path, app: str, task_id: str) -> Path:
    return write_checkout_task(root, task_document(id=task_id, snapshot="airflow", related_apps=[app]))


def test_a_listed_task_is_marked_and_flagged_in_its_record(tmp_path: Path) -> None:
    (listed,) = load_tasks(checkout_task(tmp_path, *LISTED))
    (unlisted,) = load_tasks(checkout_task(tmp_path, *UNLISTED))
    assert "errata" in listed.markers and "errata" not in unlisted.markers
    (flag,) = TaskResult.of_task(listed, "n", "noop", {}).flags
    assert (flag.kind, flag.reason.split(":")[0]) == ("errata", "lax_evaluator")
    assert TaskResult.of_task(unlisted, "n", "noop", {}).flags == []
    assert "flags" not in TaskResult.of_task(unlisted, "n", "noop", {}).to_json()  # the layout as it was


def test_not_errata_deselects_exactly_the_listed_tasks(tmp_path: Path) -> None:
    for task in (LISTED, UNLISTED):
        checkout_task(tmp_path, *task)
    examples = tmp_path / "evaluation_examples" / "examples"

    def collected(*args: str) -> set[str]:
        out = subprocess.run([sys.executable, "-m", "pytest", str(examples), "--collect-only", "-q", "-p",
                              "no:cacheprovider", *args], capture_output=True, text=True, cwd=tmp_path).stdout
        return {line.split("::")[-1] for line in out.splitlines() if ".json::" in line}

    assert collected("-m", "errata") == {LISTED[1]}
    assert collected("-m", "not errata") == {UNLISTED[1]}
