"""The test suite's own hooks for tests that read the shared inputs (``../shared``).

Such a test carries the ``sample`` marker: it runs only where the inputs are (skipped with the
reason, failed under CI), and ``-m "not sample"`` leaves it out. The marker cannot be forgotten: a
test whose parameters or module-level paths lie under the shared folder fails at setup without it,
and :func:`tests.support.shared.shared` refuses a test that asks for a path there while it runs.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# Loaded before any test: pytester restores ``sys.modules`` after each in-process run, and a run
# whose summary has scores imports statsmodels, scipy or matplotlib, so numpy (a C extension that
# loads once per process) would be imported a second time by the next such run: every subset of the
# suite, not only the reports' tests, has in-process runs that reach the summary.
import matplotlib.figure  # noqa: F401
import pytest
import scipy.stats  # noqa: F401
import statsmodels.stats.proportion  # noqa: F401

from tests.support import shared


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{shared.MARKER}: reads the shared inputs beside the checkout (../shared, or "
                            "$SPIDER2V_SHARED): the Spider2-V sample, the InfiAgent-DABench dev set; skipped with the "
                            "reason where they are missing, failed under CI")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    shared.running = item
    try:
        return (yield)
    finally:
        shared.running = None


def pytest_runtest_setup(item: pytest.Item) -> None:
    root = shared.shared_root()
    if item.get_closest_marker(shared.MARKER) is not None:
        shared.require(root)
    elif (what := reads_shared(item, root)) is not None:
        pytest.fail(f"{item.nodeid} reads the shared inputs ({what}) without the '{shared.MARKER}' marker",
                    pytrace=False)


def reads_shared(item: pytest.Item, root: Path) -> str | None:
    """What of ``root`` the test is given (a parameter) or reads from its module (a constant its
    function, or a function of its module that it calls, names); None when nothing."""
    callspec = getattr(item, "callspec", None)
    for value in (callspec.params.values() if callspec else ()):
        if (found := _path_under(value, root)) is not None:
            return f"parameter {found}"
    function = getattr(item, "function", None)
    if isinstance(function, types.FunctionType):
        return _module_paths(function, root, set())
    return None


def _module_paths(function: types.FunctionType, root: Path, seen: set[int]) -> str | None:
    if id(function) in seen:
        return None
    seen.add(id(function))
    namespace = function.__globals__
    for code in _codes(function.__code__):
        for name in code.co_names:
            value = namespace.get(name)
            if (found := _path_under(value, root)) is not None:
                return f"{name} = {found}"
            if isinstance(value, types.FunctionType) and value.__module__ == function.__module__:
                if (found_in := _module_paths(value, root, seen)) is not None:
                    return found_in
    return None


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _path_under(value: Any, root: Path, depth: int = 0) -> Path | None:
    if isinstance(value, Path):
        return value if value == root or root in value.parents else None
    if isinstance(value, (list, tuple)) and depth < 2:
        return next((p for v in value if (p := _path_under(v, root, depth + 1)) is not None), None)
    return None
