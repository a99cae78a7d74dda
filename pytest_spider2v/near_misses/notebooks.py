"""Near misses of notebooks: one output changed or dropped, one cell's source changed, one cell
left unexecuted or one given an output. Notebooks are rewritten as JSON, key order kept."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pytest_spider2v.near_misses.files import ResultFile, result_file
from pytest_spider2v.near_misses.values import changed_text
from pytest_spider2v.registry import NearMiss, near_misses

Notebook = dict[str, Any]


def _notebook(text: str) -> Notebook | None:
    notebook = json.loads(text)
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return None
    return notebook


def _variant(read: ResultFile[Notebook], kind: str, where: str, change: Callable[[Notebook], None]) -> NearMiss:
    copy = json.loads(json.dumps(read.content))
    change(copy)
    return read.variant(kind, where, json.dumps(copy, indent=1))


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


@near_misses.register("compare_notebook_outputs")
def outputs(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """The last shown output (a stream or a text/plain value) changed, and that cell's outputs dropped."""
    if (read := result_file(result, workdir, _notebook)) is None:
        return
    notebook = read.content
    shown = [(c, o) for c, cell in enumerate(notebook["cells"]) for o, output in enumerate(cell.get("outputs") or [])
             if output.get("name") == "stdout" or "text/plain" in (output.get("data") or {})]
    if not shown:
        return
    c, o = shown[-1]

    def change_output(nb: Notebook) -> None:
        output = nb["cells"][c]["outputs"][o]
        if "text" in output:
            output["text"] = changed_text(_text(output["text"]))
        else:
            output["data"]["text/plain"] = changed_text(_text(output["data"]["text/plain"]))

    yield _variant(read, "output changed", f"cell {c}, output {o}", change_output)
    yield _variant(read, "outputs dropped", f"cell {c}",
                   lambda nb: nb["cells"][c].update(outputs=[]))


@near_misses.register("compare_notebook_cells")
def cells(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """The last non-empty cell's source changed, and that cell dropped."""
    if (read := result_file(result, workdir, _notebook)) is None:
        return
    notebook = read.content
    filled = [c for c, cell in enumerate(notebook["cells"]) if _text(cell.get("source")).strip()]
    if not filled:
        return
    c = filled[-1]
    yield _variant(read, "cell changed", f"cell {c}",
                   lambda nb: nb["cells"][c].update(source=changed_text(_text(nb["cells"][c]["source"]))))
    yield _variant(read, "cell dropped", f"cell {c}", lambda nb: nb["cells"].pop(c))


def _execution_variants(result: Any, workdir: Path, cell_type: str) -> Iterator[NearMiss]:
    if (read := result_file(result, workdir, _notebook)) is None:
        return
    notebook = read.content
    typed = [c for c, cell in enumerate(notebook["cells"]) if cell.get("cell_type") == cell_type]
    ran = [c for c in typed if notebook["cells"][c].get("execution_count")]
    idle = [c for c in typed if not notebook["cells"][c].get("execution_count")]
    if ran:
        yield _variant(read, "cell left unexecuted", f"cell {ran[-1]}",
                       lambda nb: nb["cells"][ran[-1]].update(execution_count=None, outputs=[]))
    if idle:
        yield _variant(read, "cell executed", f"cell {idle[-1]}",
                       lambda nb: nb["cells"][idle[-1]].update(execution_count=1))


@near_misses.register("is_jupyter_cell_executed")
def executed(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    yield from _execution_variants(result, workdir, options.get("cell_type", "code"))


@near_misses.register("are_jupyter_outputs_cleared")
def cleared(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    yield from _execution_variants(result, workdir, options.get("cell_type", "code"))
