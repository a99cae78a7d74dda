"""Reading a Jupyter notebook's code cells: Python, with its shell escapes read as shell.

A notebook is JSON around two languages: ``!cmd``, ``%pip`` and ``%%bash`` cells go to the shell
reader (:mod:`.shell`), the rest to the Python reader (:mod:`.python_code`), with the imports of
earlier cells carried to later ones.
"""

from __future__ import annotations

import json

from pytest_spider2v.tasks.needs.facts import Facts
from pytest_spider2v.tasks.needs.python_code import read_python
from pytest_spider2v.tasks.needs.shell import read_shell

#: Cell magics whose body is still Python.
PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}
SHELL_CELL_MAGICS = {"bash", "sh", "script", "system"}


def read_notebook(text: str, facts: Facts) -> None:
    """Code cells: Python, with ``!cmd`` and ``%pip``/``%%bash`` read as shell."""
    try:
        cells = json.loads(text).get("cells", [])
    except (json.JSONDecodeError, AttributeError):
        return
    aliases: dict[str, str] = {}  # a notebook's imports hold in the cells after theirs
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        where = f"cell {number} line"
        lines = source.split("\n")
        magic = lines[0].strip()[2:].split(" ", 1)[0] if lines[0].lstrip().startswith("%%") else None
        if magic in SHELL_CELL_MAGICS:
            read_shell("\n".join(lines[1:]), 2, facts, where)
            continue
        if magic is not None and magic not in PYTHON_CELL_MAGICS:
            continue
        python: list[str] = []
        for i, line in enumerate(lines, 1):
            stripped = line.lstrip()
            if stripped.startswith("!"):
                read_shell(stripped[1:], i, facts, where)
            elif stripped.startswith(("%pip ", "%conda ")):
                read_shell(stripped[1:], i, facts, where)
            if stripped.startswith(("!", "%")):
                line = ""
            python.append(line)
        read_python("\n".join(python), 1, facts, where, aliases)
