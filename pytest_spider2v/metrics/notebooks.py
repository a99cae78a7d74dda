"""Jupyter notebook metrics (reference section 3.4): outputs, cells, execution counts, whole files.

Notebooks are read with ``nbformat`` (upgraded to format 4, multi-line fields joined into one
string) so that a source or output saved as a list of lines equals the same text saved as one
string; ``compare_ipynb_files`` reads the JSON as saved, because it compares the file's own key
order. A notebook that is missing, not JSON or not a notebook scores 0 with the reason logged.

``nbformat`` (and jsonschema under it) is imported by the readers, not at start-up: every metric
is registered when the plugin loads, and only runs that score notebooks should pay for it.
"""

from __future__ import annotations

import json
import logging
import warnings
from typing import TYPE_CHECKING, Any

from pytest_spider2v.metrics.files import FileArg, read_text
from pytest_spider2v.registry import metrics

if TYPE_CHECKING:
    import nbformat

logger = logging.getLogger(__name__)

_PIP_NOISE = ("Requirement already satisfied:", "Successfully installed")


def _read_notebook(path: FileArg, role: str) -> nbformat.NotebookNode | None:
    """The notebook at ``path`` in format 4, or None (logged) if it cannot be read as one."""
    import nbformat

    text = read_text(path, role)
    if text is None:
        return None
    try:
        with warnings.catch_warnings():
            # Missing cell ids and similar schema nits in agent-saved files are not our concern.
            warnings.simplefilter("ignore")
            notebook = nbformat.reads(text, as_version=4)
    except (ValueError, KeyError, TypeError, AttributeError, nbformat.ValidationError) as exc:
        logger.info("%s file %s is not a readable notebook: %s", role, path, exc)
        return None
    if not isinstance(notebook.get("cells"), list):
        logger.info("%s notebook %s has no cell list", role, path)
        return None
    return notebook


def _aligned_cells(result: FileArg, expected: FileArg,
                   metric: str) -> list[tuple[nbformat.NotebookNode, nbformat.NotebookNode]] | None:
    """The two notebooks' cells paired by position, or None (logged) when either cannot be read or
    their cell counts or types differ: the comparison both cell-by-cell metrics start from."""
    result_nb, expected_nb = _read_notebook(result, "result"), _read_notebook(expected, "expected")
    if result_nb is None or expected_nb is None:
        return None
    if len(result_nb.cells) != len(expected_nb.cells):
        logger.info("%s: result has %d cells, expected %d", metric, len(result_nb.cells), len(expected_nb.cells))
        return None
    for index, (a, b) in enumerate(zip(result_nb.cells, expected_nb.cells)):
        if a.get("cell_type") != b.get("cell_type"):
            logger.info("%s: cell %d is %r, expected %r", metric, index, a.get("cell_type"), b.get("cell_type"))
            return None
    return list(zip(result_nb.cells, expected_nb.cells))


def _compared_outputs(cell: nbformat.NotebookNode, drop_pip_noise: bool) -> list[dict[str, Any]]:
    """The outputs the original compares: stdout streams and outputs with ``text/plain`` data.

    The result side drops pip's install chatter, which depends on what the guest already had.
    Consecutive stdout streams count as one, as Jupyter shows them: how a print is split into
    stream messages depends on the kernel's flush timing (``accuracy = 89%`` and its newline came
    as two outputs in one run, as one in the gold), not on what the code printed.
    """
    kept: list[dict[str, Any]] = []
    for output in cell.get("outputs", []):
        if output.get("name") == "stdout":
            if drop_pip_noise and any(noise in output.get("text", "") for noise in _PIP_NOISE):
                continue
            if kept and kept[-1].get("name") == "stdout":
                kept[-1] = {**kept[-1], "text": kept[-1].get("text", "") + output.get("text", "")}
                continue
            kept.append(dict(output))
        elif "text/plain" in output.get("data", {}):
            kept.append(output)
    return kept


def _output_difference(result: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """Why two compared outputs differ, or None: a stream must be identical, data by ``text/plain``."""
    if "name" in result:
        return None if result == expected else f"stream {_short(result.get('text'))} != expected {_short(expected)}"
    expected_text = expected.get("data", {}).get("text/plain")
    if result["data"]["text/plain"] == expected_text:
        return None
    return f"text/plain {result['data']['text/plain']!r} != expected {expected_text!r} ({expected.get('output_type')})"


@metrics.register()
def compare_notebook_outputs(result: FileArg, expected: FileArg) -> float:
    """1.0 if both notebooks have the same cell types and every code cell prints the same stdout
    streams and ``text/plain`` results (stderr, errors and rich-only outputs are ignored)."""
    if (cells := _aligned_cells(result, expected, "compare_notebook_outputs")) is None:
        return 0.0
    for index, (result_cell, expected_cell) in enumerate(cells):
        if result_cell.get("cell_type") != "code":
            continue
        result_outputs = _compared_outputs(result_cell, drop_pip_noise=True)
        expected_outputs = _compared_outputs(expected_cell, drop_pip_noise=False)
        if len(result_outputs) != len(expected_outputs):
            logger.info(
                "compare_notebook_outputs: cell %d has %d compared outputs, expected %d: %s vs %s",
                index, len(result_outputs), len(expected_outputs), _short(result_outputs), _short(expected_outputs),
            )
            return 0.0
        for result_output, expected_output in zip(result_outputs, expected_outputs):
            difference = _output_difference(result_output, expected_output)
            if difference is not None:
                logger.info("compare_notebook_outputs: cell %d: %s", index, difference)
                return 0.0
    return 1.0


@metrics.register()
def compare_notebook_cells(result: FileArg, expected: FileArg) -> float:
    """1.0 if both notebooks have the same cells: same types and the same source text."""
    if (cells := _aligned_cells(result, expected, "compare_notebook_cells")) is None:
        return 0.0
    for index, (a, b) in enumerate(cells):
        if a.get("source") != b.get("source"):
            logger.info("compare_notebook_cells: cell %d source %r != expected %r", index, a.get("source"), b.get("source"))
            return 0.0
    return 1.0


def _execution_counts_match(metric: str, result: FileArg, rules: dict[str, list[int]], cell_type: str,
                            executed: bool) -> float:
    """1.0 if the indices (among all cells) of the ``cell_type`` cells that have (``executed``), or
    lack, an execution count are exactly ``rules["expected"]``."""
    notebook = _read_notebook(result, "result")
    if notebook is None:
        return 0.0
    indices = [index for index, cell in enumerate(notebook.cells)
               if cell.get("cell_type") == cell_type and bool(cell.get("execution_count")) == executed]
    if indices == rules["expected"]:
        return 1.0
    logger.info("%s: %s cells %r, expected %r", metric, "executed" if executed else "unexecuted", indices,
                rules["expected"])
    return 0.0


@metrics.register()
def is_jupyter_cell_executed(result: FileArg, rules: dict[str, list[int]], *, cell_type: str = "code") -> float:
    """1.0 if the code cells *without* an execution count are exactly ``rules["expected"]``
    (an empty list means every code cell was run)."""
    return _execution_counts_match("is_jupyter_cell_executed", result, rules, cell_type, executed=False)


@metrics.register()
def are_jupyter_outputs_cleared(result: FileArg, rules: dict[str, list[int]], *, cell_type: str = "code") -> float:
    """1.0 if the code cells *with* an execution count are exactly ``rules["expected"]``
    (an empty list means every code cell's outputs were cleared)."""
    return _execution_counts_match("are_jupyter_outputs_cleared", result, rules, cell_type, executed=True)


def _read_raw_notebook(path: FileArg, role: str) -> nbformat.NotebookNode | None:
    """The notebook's top-level JSON object as saved (key order kept, nothing upgraded or
    added: nbformat's reader would invent cell ids), with multi-line fields joined."""
    import nbformat
    from nbformat.v4.rwbase import rejoin_lines

    text = read_text(path, role)
    if text is None:
        return None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        logger.info("%s file %s is not JSON: %s", role, path, exc)
        return None
    cells = raw.get("cells") if isinstance(raw, dict) else None
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        logger.info("%s file %s is not a notebook (no top-level object with a list of cells)", role, path)
        return None
    return rejoin_lines(nbformat.from_dict(raw))


@metrics.register()
def compare_ipynb_files(result: FileArg, expected: FileArg) -> float:
    """1.0 if both files have the same top-level keys in the same order and equal values for
    every key but ``metadata`` (kernel and widget state legitimately differ between saves).

    The original zipped the two key lists, so extra trailing keys went unnoticed; here the key
    lists must be equal."""
    result_nb, expected_nb = _read_raw_notebook(result, "result"), _read_raw_notebook(expected, "expected")
    if result_nb is None or expected_nb is None:
        return 0.0
    if list(result_nb) != list(expected_nb):
        logger.info("compare_ipynb_files: top-level keys %r, expected %r", list(result_nb), list(expected_nb))
        return 0.0
    for key in result_nb:
        if key != "metadata" and result_nb[key] != expected_nb[key]:
            logger.info("compare_ipynb_files: %s", _value_difference(key, result_nb[key], expected_nb[key]))
            return 0.0
    return 1.0


def _value_difference(key: str, result: Any, expected: Any) -> str:
    """Where a top-level value differs, down to the first differing cell for ``cells``."""
    if key == "cells" and len(result) == len(expected):
        index = next(i for i, (a, b) in enumerate(zip(result, expected)) if a != b)
        return f"cell {index} differs: {_short(result[index])} vs expected {_short(expected[index])}"
    return f"{key!r} differs: {_short(result)} vs expected {_short(expected)}"


def _short(value: Any, limit: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
