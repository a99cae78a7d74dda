"""Notebook metrics on real .ipynb files written with nbformat: a pass, a fail and a bad input each."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from pytest_spider2v.metrics.notebooks import (
    are_jupyter_outputs_cleared,
    compare_ipynb_files,
    compare_notebook_cells,
    compare_notebook_outputs,
    is_jupyter_cell_executed,
)


def _stdout(text: str) -> nbformat.NotebookNode:
    return new_output("stream", name="stdout", text=text)


def _result(text: str, count: int) -> nbformat.NotebookNode:
    return new_output("execute_result", data={"text/plain": text}, execution_count=count)


def _notebook(*cells: nbformat.NotebookNode) -> nbformat.NotebookNode:
    notebook = new_notebook(cells=list(cells))
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return notebook


def _write(tmp_path: Path, name: str, notebook: nbformat.NotebookNode) -> Path:
    path = tmp_path / name
    nbformat.write(notebook, str(path))
    return path


def _analysis(total: str = "6", *extra_outputs: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A two-code-cell notebook as a finished task leaves it: printed text and a cell result."""
    return _notebook(
        new_markdown_cell("# Sales"),
        new_code_cell("import pandas as pd\nprint('rows:', 3)", execution_count=1,
                      outputs=[*extra_outputs, _stdout("rows: 3\n")]),
        new_code_cell("1 + 2 + 3", execution_count=2,
                      outputs=[_result(total, 2), new_output("display_data", data={"image/png": "iVBORw0KGgo="})]),
    )


def test_compare_notebook_outputs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    expected = _write(tmp_path, "expected.ipynb", _analysis())
    pip_noise = _stdout("Requirement already satisfied: pandas in /usr/lib/python3/dist-packages\n")
    stderr = new_output("stream", name="stderr", text="DeprecationWarning: something\n")
    same = _write(tmp_path, "same.ipynb", _analysis("6", pip_noise, stderr))
    assert compare_notebook_outputs(same, expected) == 1.0

    wrong = _write(tmp_path, "wrong.ipynb", _analysis("7"))
    with caplog.at_level(logging.INFO, logger="pytest_spider2v.metrics"):
        assert compare_notebook_outputs(wrong, expected) == 0.0
    assert "'7'" in caplog.text

    unrun = _analysis()
    unrun.cells[1].outputs = []
    assert compare_notebook_outputs(_write(tmp_path, "unrun.ipynb", unrun), expected) == 0.0
    fewer = _analysis()
    del fewer.cells[0]
    assert compare_notebook_outputs(_write(tmp_path, "fewer.ipynb", fewer), expected) == 0.0
    assert compare_notebook_outputs(None, expected) == 0.0
    assert compare_notebook_outputs(tmp_path / "absent.ipynb", expected) == 0.0
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [', encoding="utf-8")
    assert compare_notebook_outputs(broken, expected) == 0.0


def test_compare_notebook_outputs_pip_noise_only_ignored_on_the_result_side(tmp_path: Path) -> None:
    noisy = _write(tmp_path, "noisy.ipynb", _analysis("6", _stdout("Successfully installed pandas-2.2.0\n")))
    clean = _write(tmp_path, "clean.ipynb", _analysis())
    assert compare_notebook_outputs(noisy, clean) == 1.0
    assert compare_notebook_outputs(clean, noisy) == 0.0


def test_compare_notebook_cells_joins_list_and_string_sources(tmp_path: Path) -> None:
    expected = _write(tmp_path, "expected.ipynb", _analysis())
    saved = json.loads(expected.read_text(encoding="utf-8"))
    assert isinstance(saved["cells"][1]["source"], list)  # nbformat writes multi-line sources as lines
    for cell in saved["cells"]:
        cell["source"] = "".join(cell["source"])
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    string_sources = tmp_path / "string_sources.ipynb"
    string_sources.write_text(json.dumps(saved), encoding="utf-8")
    assert compare_notebook_cells(string_sources, expected) == 1.0

    edited = _analysis()
    edited.cells[2].source = "1 + 2 + 4"
    assert compare_notebook_cells(_write(tmp_path, "edited.ipynb", edited), expected) == 0.0
    retyped = _analysis()
    retyped.cells[0] = new_code_cell("# Sales")
    assert compare_notebook_cells(_write(tmp_path, "retyped.ipynb", retyped), expected) == 0.0
    not_a_notebook = tmp_path / "list.ipynb"
    not_a_notebook.write_text("[1, 2]", encoding="utf-8")
    assert compare_notebook_cells(not_a_notebook, expected) == 0.0


def test_is_jupyter_cell_executed(tmp_path: Path) -> None:
    notebook = _analysis()
    notebook.cells.append(new_code_cell("df.describe()"))
    path = _write(tmp_path, "partly_run.ipynb", notebook)
    assert is_jupyter_cell_executed(path, {"expected": [3]}) == 1.0
    assert is_jupyter_cell_executed(path, {"expected": []}) == 0.0
    assert is_jupyter_cell_executed(_write(tmp_path, "all_run.ipynb", _analysis()), {"expected": []}) == 1.0
    assert is_jupyter_cell_executed(None, {"expected": []}) == 0.0
    with pytest.raises(KeyError):
        is_jupyter_cell_executed(path, {"expect": [3]})


def test_are_jupyter_outputs_cleared(tmp_path: Path) -> None:
    notebook = _analysis()
    notebook.cells[2].execution_count = None
    notebook.cells[2].outputs = []
    path = _write(tmp_path, "half_cleared.ipynb", notebook)
    assert are_jupyter_outputs_cleared(path, {"expected": [1]}) == 1.0
    assert are_jupyter_outputs_cleared(path, {"expected": []}) == 0.0
    assert are_jupyter_outputs_cleared(tmp_path / "absent.ipynb", {"expected": []}) == 0.0


def test_compare_ipynb_files(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    expected = _write(tmp_path, "expected.ipynb", _analysis())
    other_kernel = _analysis()
    for result_cell, expected_cell in zip(other_kernel.cells, nbformat.read(str(expected), as_version=4).cells):
        result_cell.id = expected_cell.id
    other_kernel.metadata["kernelspec"]["display_name"] = "Python 3 (ipykernel)"
    assert compare_ipynb_files(_write(tmp_path, "other_kernel.ipynb", other_kernel), expected) == 1.0

    changed = nbformat.read(str(expected), as_version=4)
    changed.cells[1].outputs[0].text = "rows: 4\n"
    with caplog.at_level(logging.INFO, logger="pytest_spider2v.metrics"):
        assert compare_ipynb_files(_write(tmp_path, "changed.ipynb", changed), expected) == 0.0
    assert "cell 1 differs" in caplog.text

    reordered = json.loads(expected.read_text(encoding="utf-8"))
    reordered_path = tmp_path / "reordered.ipynb"
    reordered_path.write_text(json.dumps(dict(reversed(list(reordered.items())))), encoding="utf-8")
    assert compare_ipynb_files(reordered_path, expected) == 0.0
    extra_key = tmp_path / "extra_key.ipynb"
    extra_key.write_text(json.dumps({**reordered, "worksheets": []}), encoding="utf-8")
    assert compare_ipynb_files(extra_key, expected) == 0.0
    assert compare_ipynb_files(None, expected) == 0.0
    not_json = tmp_path / "not_json.ipynb"
    not_json.write_text("cells:\n- print(1)\n", encoding="utf-8")
    assert compare_ipynb_files(not_json, expected) == 0.0
