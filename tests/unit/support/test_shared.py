"""The ``sample`` marker cannot be forgotten: a test that reads the shared inputs without it fails,
one with it runs only where they are (skipped with the reason, failed under CI)."""

from __future__ import annotations

import pytest

from tests.support.shared import REPO

TESTS = '''
import pytest
from tests.support.shared import sample, shared

GOLD = sample("excel")

def test_asks_while_running():
    shared("spider2v-sample").exists()

@pytest.mark.parametrize("path", [sample("dbt")])
def test_given_a_path(path):
    pass

def test_reads_a_module_path():
    helper()

def helper():
    return GOLD.exists()

@pytest.mark.sample
def test_marked():
    assert shared().is_dir()

def test_reads_nothing_shared():
    pass
'''


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A suite of its own, run in a subprocess (in this one, this test is the one running)."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    pytester.makeconftest('pytest_plugins = ["tests.conftest"]')
    pytester.makepyfile(test_suite=TESTS)
    return pytester


def test_unmarked_tests_that_read_the_shared_inputs_fail(suite: pytest.Pytester, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SPIDER2V_SHARED", str(tmp_path))
    monkeypatch.delenv("CI", raising=False)
    result = suite.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1, errors=2)
    text = result.stdout.str()
    assert "RuntimeError: test_suite.py::test_asks_while_running reads the shared inputs" in text
    assert "test_suite.py::test_given_a_path[path0] reads the shared inputs (parameter " in text
    assert "test_suite.py::test_reads_a_module_path reads the shared inputs (GOLD = " in text


def test_marked_tests_skip_where_the_inputs_are_missing_and_fail_under_ci(suite: pytest.Pytester, tmp_path,
                                                                         monkeypatch) -> None:
    monkeypatch.setenv("SPIDER2V_SHARED", str(tmp_path / "missing"))
    monkeypatch.delenv("CI", raising=False)
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-k", "marked", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*shared input missing: *missing*"])
    monkeypatch.setenv("CI", "1")
    suite.runpytest_subprocess("-p", "no:cacheprovider", "-k", "marked").assert_outcomes(errors=1)
    assert suite.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not sample", "-k", "marked").ret == \
        pytest.ExitCode.NO_TESTS_COLLECTED
