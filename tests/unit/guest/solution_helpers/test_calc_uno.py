"""The Calc UNO helper (``solution_helpers/calc_uno``) and the reference solutions of the
Spider2-V excel tasks written with it (``pytest_spider2v/solutions/excel``).

The helper runs in the guest against LibreOffice's ``uno`` bridge, which the host need not have:
its pure parts run here with stand-ins for the ``uno`` modules, and the solutions are checked
for what would break them in the guest (a name the helper lacks, a cell using another cell's
variable, the wrong workbook) and for carrying nothing from the expected files.
"""

from __future__ import annotations

import ast
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.agents.oracle import solution_cells
from pytest_spider2v.agents.solution_helpers import helper_sources
from pytest_spider2v.environments.base import PYAUTOGUI_PREFIX
from pytest_spider2v.environments.locations import SPIDER2V_SOLUTIONS_DIR
from tests.support.cells import unbound_names
from tests.support.shared import require, sample, task_files

ALL_SOLUTIONS = sorted((SPIDER2V_SOLUTIONS_DIR / "excel").glob("*.py"))
#: The excel solutions that work through UNO (the others are GUI routes: tests/unit/solutions/test_gui_routes.py).
SOLUTIONS = [path for path in ALL_SOLUTIONS if any("calc_uno" in cell.code for cell in solution_cells(path))]


class Recorder:
    """Any attribute, call or assignment works and is remembered (a stand-in UNO object)."""

    def __init__(self, name: str = "obj") -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "calls", [])
        object.__setattr__(self, "children", {})

    def __getattr__(self, name: str) -> Any:
        return self.children.setdefault(name, Recorder(f"{self._name}.{name}"))

    def __setattr__(self, name: str, value: Any) -> None:
        self.children[name] = value

    def __call__(self, *args: Any) -> Any:
        self.calls.append(args)
        return self.children.setdefault("()", Recorder(f"{self._name}()"))


@pytest.fixture
def calc_uno(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """The helper module loaded with stand-ins for ``uno`` and the ``com.sun.star`` types."""
    for name in ("uno", "com", "com.sun", "com.sun.star", "com.sun.star.awt", "com.sun.star.beans"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    sys.modules["com.sun.star.awt"].Rectangle = lambda *a: ("rect", *a)  # type: ignore[attr-defined]
    sys.modules["com.sun.star.beans"].PropertyValue = Recorder  # type: ignore[attr-defined]
    chart_rows = types.ModuleType("com.sun.star.chart.ChartDataRowSource")
    chart_rows.ROWS, chart_rows.COLUMNS = "ROWS", "COLUMNS"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "com.sun.star.chart", types.ModuleType("com.sun.star.chart"))
    monkeypatch.setitem(sys.modules, "com.sun.star.chart.ChartDataRowSource", chart_rows)
    module = types.ModuleType("calc_uno")
    exec(compile(helper_sources()["calc_uno"], "calc_uno.py", "exec"), module.__dict__)
    return module


@pytest.mark.parametrize(("index", "letters"), [(0, "A"), (25, "Z"), (26, "AA"), (51, "AZ"), (701, "ZZ"), (702, "AAA")])
def test_column_letters_both_ways(calc_uno: types.ModuleType, index: int, letters: str) -> None:
    assert calc_uno.letter(index) == letters
    assert calc_uno._split(f"{letters}12") == (index, 12)
    assert calc_uno._split(f"${letters}$7") == (index, 7)


@pytest.mark.parametrize(("in_rows", "first_row", "first_column", "flags"), [
    (False, True, True, (True, True)),
    (False, True, False, (True, False)),
    (True, True, False, (False, True)),  # series in rows: the first row (categories) is the API's "row headers"
    (True, False, True, (True, False)),
])
def test_chart_header_flags_follow_the_series_direction(calc_uno: types.ModuleType, in_rows: bool, first_row: bool,
                                                        first_column: bool, flags: tuple[bool, bool]) -> None:
    """Insert > Chart's "first row/column as label" mean categories or series names depending on
    whether the series are in rows; the API's two flags name column-wise headers only."""
    doc, sh = Recorder("doc"), Recorder("sheet")
    calc_uno.chart(doc, sh, "c", ["B1:G1", "B12:G12"], kind="line", series_in_rows=in_rows,
                   first_row_labels=first_row, first_column_labels=first_column)
    [(name, _, ranges, *given)] = sh.children["Charts"].children["addNewByName"].calls
    assert (name, len(ranges), tuple(given)) == ("c", 2, flags)
    diagram = sh.Charts.getByName().EmbeddedObject.Diagram
    assert diagram.DataRowSource == ("ROWS" if in_rows else "COLUMNS")


@pytest.mark.sample
def test_every_sample_excel_task_has_a_solution() -> None:
    tasks = {path.stem for path in task_files(require(sample()), "excel")}
    assert tasks and tasks <= {path.stem for path in ALL_SOLUTIONS}


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem[:8] for p in SOLUTIONS])
@pytest.mark.sample
class TestExcelSolution:
    def test_cells_use_only_what_the_helper_defines_and_what_they_bind(self, path: Path) -> None:
        helper = ast.parse(helper_sources()["calc_uno"]).body
        defined = {n.name for n in helper if isinstance(n, ast.FunctionDef)} | {
            t.id for n in helper if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        cells = solution_cells(path)
        assert 2 <= len(cells) <= 15, "one action per cell, within the default step limit"
        for cell in cells:
            tree = ast.parse(PYAUTOGUI_PREFIX + cell.code)
            imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "calc_uno"
                        for a in n.names}
            assert imported <= defined, f"cell {cell.title!r}: calc_uno has no {sorted(imported - defined)}"
            unbound = unbound_names(tree)
            assert not unbound, f"cell {cell.title!r} uses names it never binds: {sorted(unbound)}"

    def test_it_works_on_the_workbook_the_task_opens_and_saves_it(self, path: Path) -> None:
        task = json.loads(require(sample("excel", path.stem, f"{path.stem}.json")).read_text(encoding="utf-8"))
        [opened] = [Path(step["parameters"]["path"]).name for step in task["config"] if step["type"] == "open"]
        cells = solution_cells(path)
        assert cells[0].code == f"from calc_uno import listen\nlisten(\"{opened} - LibreOffice Calc\")"
        named = {node.args[0].value for cell in cells for node in ast.walk(ast.parse(cell.code))
                 if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "document"}
        assert named == {opened}
        assert f'save(document("{opened}"))' in cells[-1].code

    def test_it_reads_nothing_from_the_expected_files(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8").lower()
        assert "_gt" not in text and "gold" not in text and "/home/" not in text

