"""Near misses of notebooks, each caught by its metric."""

from __future__ import annotations

from pathlib import Path

import nbformat

from tests.support.near_misses import assert_all_caught, near_misses_of


def _notebook(path: Path) -> str:
    nb = nbformat.v4.new_notebook()
    first = nbformat.v4.new_code_cell("print(41 + 1)", execution_count=1)
    first.outputs = [nbformat.v4.new_output("stream", name="stdout", text="42\n")]
    second = nbformat.v4.new_code_cell("6 * 7", execution_count=2)
    second.outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "42"}, execution_count=2)]
    nb.cells = [nbformat.v4.new_markdown_cell("# Answer"), first, second, nbformat.v4.new_code_cell("")]
    nbformat.write(nb, path)
    return str(path)


def test_outputs_and_cells(tmp_path: Path) -> None:
    result = _notebook(tmp_path / "a.ipynb")
    assert_all_caught(near_misses_of("compare_notebook_outputs", result, result, workdir=tmp_path / "o"), 2)
    assert_all_caught(near_misses_of("compare_notebook_cells", result, result, workdir=tmp_path / "c"), 2)


def test_executed_and_cleared_cells(tmp_path: Path) -> None:
    result = _notebook(tmp_path / "a.ipynb")
    found = near_misses_of("is_jupyter_cell_executed", result, options={"rules": {"expected": [3]}},
                           workdir=tmp_path / "e")
    assert_all_caught(found, 2)
    found = near_misses_of("are_jupyter_outputs_cleared", result, options={"rules": {"expected": [1, 2]}},
                           workdir=tmp_path / "c")
    assert_all_caught(found, 2)
