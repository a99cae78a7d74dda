"""The near-miss check in pytest runs, with a stand-in for the task run that counts its episodes:
it reuses the reference check's fetched results (one episode per task, also under xdist, whose
scheduler keeps a task's checks on one worker), runs the reference itself when alone, fails on a
lax metric naming the variant, and passes a lax task the errata list already names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_spider2v.testing.factories import task_document, write_task
from tests.support.shared import REPO

CONFTEST = f'''
import json
import sys

import pytest

sys.path.insert(0, {str(REPO)!r})
from pytest_spider2v.run.evaluation import Evaluation, Fetched
from tests.support.stand_in_run import StandInRun


class FakeRun(StandInRun):
    """One "episode" per call of outcome(), counted in the task folder's episodes.txt."""

    def outcome(self):
        with open(self.task.folder / "episodes.txt", "a") as out:
            out.write("episode\\n")
        func, result, rules = json.loads((self.task.folder / "fetched.json").read_text())
        return Evaluation(1.0, "stand-in", fetched=[Fetched(func, result, rules, {{}}, True, 1.0)])


@pytest.fixture
def spider2v_run(request):
    return FakeRun(request.node)
'''
URL = "http://localhost:8080/dags/sales_etl/grid?tab=graph"
#: A task key the shipped errata list names as a lax evaluator (an Airflow URL check).
LISTED_LAX = ("airflow", "33c8ce09-de8b-4432-8308-603b98513fdc")


def url_task(root: Path, app: str, task_id: str, include: list[str]) -> Path:
    path = write_task(root, task_document(id=task_id, snapshot="desktop", instruction="x", related_apps=[app],
                                          action_number=2), solution="DONE\n")
    (path.parent / "fetched.json").write_text(json.dumps(["check_include_exclude", URL, {"include": include}]))
    return path


def episodes(path: Path) -> int:
    return len((path.parent / "episodes.txt").read_text().splitlines())


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_the_reference_run_is_varied_not_repeated(pytester: pytest.Pytester, xdist: list[str]) -> None:
    pytester.makeconftest(CONFTEST)
    tasks = [url_task(pytester.path, "chromium", f"strict-{n}", ["/dags/sales_etl/grid", "tab=graph"]) for n in range(4)]
    result = pytester.runpytest("tasks", "--validate", "-k", "reference or near-miss", "-p", "no:cacheprovider", *xdist)
    result.assert_outcomes(passed=8)
    assert [episodes(task) for task in tasks] == [1, 1, 1, 1]
    # per app: tasks, tried, caught, crashed, lax, not covered
    result.stdout.fnmatch_lines(["*near misses per app*", "chromium*4*24*24*0*0*0"])


def test_a_check_that_tries_nothing_is_not_covered(pytester: pytest.Pytester) -> None:
    """A metric without a maker: the check passes (nothing in the task is wrong), and the table
    says not covered, never all caught."""
    pytester.makeconftest(CONFTEST)
    path = url_task(pytester.path, "chromium", "unmade", [])
    (path.parent / "fetched.json").write_text(json.dumps(["check_file_existence", "/home/user/a.png", None]))
    result = pytester.runpytest("tasks", "--validate", "-k", "near-miss", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["chromium*1*0*0*0*0*1",
                                 "not covered: chromium/unmade: check_file_existence: no near-miss maker for this metric",
                                 "*near misses per metric and part*", "check_file_existence*0*0*0*0*1"])


def test_alone_it_runs_the_reference_itself(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    task = url_task(pytester.path, "chromium", "strict", ["/dags/sales_etl/grid", "tab=graph"])
    pytester.runpytest("tasks", "--validate", "-k", "near-miss", "-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert episodes(task) == 1


def test_a_lax_metric_fails_naming_the_variant(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    url_task(pytester.path, "chromium", "lax", ["grid", "tab=graph"])
    result = pytester.runpytest("tasks", "--validate", "-k", "reference or near-miss", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*near-miss: a lax evaluation, 2 of 6 near misses still scored 1*",
        "*check_include_exclude: URL token changed (path segment 'sales_etl') still scored 1*",
        "lax: chromium/lax: check_include_exclude: URL token changed (path segment 'dags')*"])


def test_a_lax_task_on_the_errata_list_passes(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    url_task(pytester.path, *LISTED_LAX, ["grid", "tab=graph"])
    result = pytester.runpytest("tasks", "--validate", "-k", "reference or near-miss", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines([f"lax: airflow/{LISTED_LAX[1]}: *path segment 'sales_etl'*"])
