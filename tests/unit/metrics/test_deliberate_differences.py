"""Where our metrics deliberately score differently from the original Spider2-V metrics.

Each test builds its own small input and pins our behaviour; its docstring says what the
original scored on the same input. The table "Deliberate differences from the original metrics"
(docs/differences.md) names these tests, so a change of behaviour here is a change of that table.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.text import RichText, Text
from openpyxl.chart.title import Title
from openpyxl.drawing.text import Paragraph, RegularTextRun
from openpyxl.formatting.rule import CellIsRule, FormulaRule
from openpyxl.styles import Font
from openpyxl.styles.colors import Color
from openpyxl.worksheet.worksheet import Worksheet

from pytest_spider2v.metrics.cells import color_value
from pytest_spider2v.metrics.databases import check_local_database
from pytest_spider2v.metrics.notebooks import compare_notebook_outputs
from pytest_spider2v.metrics.sheet_objects import charts
from pytest_spider2v.metrics.tables import compare_table
from pytest_spider2v.metrics.text import is_not_in_list
from tests.support.shared import REPO

PAIR = {"sheet_idx0": 0, "sheet_idx1": "EI0"}
GREEN = Font(color="FF00FF00")


def _book(path: Path, fill: Callable[[Worksheet], None]) -> Path:
    """A one-sheet workbook saved by openpyxl after ``fill`` wrote into it."""
    wb = openpyxl.Workbook()
    fill(wb.active)
    wb.save(path)
    return path


def _score(result: Path, expected: Path | None, rule: dict[str, Any]) -> float:
    return compare_table(result, expected, rules=[rule])


# ------------------------------------------------------------------ chart titles

def _title(*paragraphs: list[str]) -> Title:
    """A rich chart title: one list of text runs per paragraph."""
    rich = RichText(p=[Paragraph(r=[RegularTextRun(t=text) for text in runs]) for runs in paragraphs])
    return Title(tx=Text(rich=rich))


def _chart_book(path: Path, title: Title | None) -> Path:
    def fill(ws: Worksheet) -> None:
        for row in (("Week", "Sales"), ("W1", 10), ("W2", 20)):
            ws.append(row)
        chart = BarChart()
        chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=3), titles_from_data=True)
        chart.title = title
        ws.add_chart(chart, "D2")

    return _book(path, fill)


def _loaded_title(path: Path) -> Any:
    return next(iter(charts(openpyxl.load_workbook(path).active, ["title"]).values()))["title"]


def test_chart_title_is_the_text_of_every_run(tmp_path: Path) -> None:
    """The original read the first run only: it failed the split title and passed the one with
    an extra run ("Sales & COGS" + " (draft)")."""
    gold = _chart_book(tmp_path / "gold.xlsx", _title(["Sales & COGS"]))
    rule = {"type": "chart", **PAIR, "chart_props": ["type", "title"]}
    split = _chart_book(tmp_path / "split.xlsx", _title(["Sales ", "& COGS"]))
    longer = _chart_book(tmp_path / "longer.xlsx", _title(["Sales & COGS", " (draft)"]))
    assert _score(split, gold, rule) == 1.0
    assert _score(longer, gold, rule) == 0.0


def test_chart_title_paragraphs_are_lines_and_an_empty_title_is_none(tmp_path: Path) -> None:
    """Matched: a title without text reads as None, like no title at all (the original's
    lookup failed on both and gave None). Our own: each paragraph is a line."""
    assert _loaded_title(_chart_book(tmp_path / "two.xlsx", _title(["Sales &"], ["COGS"]))) == "Sales &\nCOGS"
    assert _loaded_title(_chart_book(tmp_path / "empty.xlsx", _title([]))) is None
    assert _loaded_title(_chart_book(tmp_path / "none.xlsx", None)) is None


# ------------------------------------------------------------------ inline strings

def test_inline_string_cells_are_read(tmp_path: Path) -> None:
    """openpyxl (and pandas through it) saves text as inline strings. The original's cell
    reader knew only shared and formula strings, read None here and failed the check."""

    def fill(ws: Worksheet) -> None:
        ws["A1"] = "Demographic Profile"

    book = _book(tmp_path / "inline.xlsx", fill)
    with zipfile.ZipFile(book) as archive:
        assert 't="inlineStr"' in archive.read("xl/worksheets/sheet1.xml").decode()
    rule = {"type": "check_cell", "sheet_idx": 0, "coordinate": "A1"}
    assert _score(book, None, {**rule, "props": {"value": {"method": "eq", "ref": "Demographic Profile"}}}) == 1.0
    assert _score(book, None, {**rule, "props": {"value": {"method": "eq", "ref": "Demographic"}}}) == 0.0


def test_conditional_format_sees_inline_strings(tmp_path: Path) -> None:
    """The original evaluated conditions on the cells' values as its reader gave them: None for
    every inline string, so no cell was highlighted and the style check failed."""

    def flagged(ws: Worksheet) -> None:
        for status in ("on time", "late", "on time"):
            ws.append([status])
        ws.conditional_formatting.add("A1:A3", FormulaRule(formula=['$A1="late"'], font=GREEN))

    def painted(ws: Worksheet) -> None:
        for status in ("on time", "late", "on time"):
            ws.append([status])
        ws["A2"].font = GREEN

    rule = {"type": "style", **PAIR, "props": ["font_color"]}
    assert _score(_book(tmp_path / "flagged.xlsx", flagged), _book(tmp_path / "painted.xlsx", painted), rule) == 1.0


# ------------------------------------------------------------------ conditional formats

def _rates(ws: Worksheet) -> None:
    ws.append(["Start", "End", "Rate"])
    for row in ((100, 4.0), (100, 9.0), (100, 6.0)):
        ws.append([row[0], row[1], row[1] / row[0]])


def _rates_with(rule: Any) -> Callable[[Worksheet], None]:
    def fill(ws: Worksheet) -> None:
        _rates(ws)
        ws.conditional_formatting.add("C2:C4", rule)

    return fill


def test_cell_is_conditional_format_is_evaluated(tmp_path: Path) -> None:
    """The PeriodRate tasks' gold highlights the largest rate with "formula is $C2=MAX(...)";
    Calc's default condition, "cell value is equal to MAX(...)", saves a cellIs rule, which
    the original could not evaluate (NotImplementedError: no score at all)."""
    gold = _book(tmp_path / "gold.xlsx", _rates_with(FormulaRule(formula=["$C2=MAX($C$2:$C$4)"], font=GREEN)))
    rule = {"type": "style", **PAIR, "props": ["font_color"]}
    largest = CellIsRule(operator="equal", formula=["MAX($C$2:$C$4)"], font=GREEN)
    smallest = CellIsRule(operator="equal", formula=["MIN($C$2:$C$4)"], font=GREEN)
    assert _score(_book(tmp_path / "largest.xlsx", _rates_with(largest)), gold, rule) == 1.0
    assert _score(_book(tmp_path / "smallest.xlsx", _rates_with(smallest)), gold, rule) == 0.0


def test_row_relative_formula_reads_its_own_row(tmp_path: Path) -> None:
    """A format over A2:C4 with "$C2>0.05" highlights whole rows. The original passed each
    formatted cell's own value where the formula names C2 (the Start and End values here), so
    it highlighted A and B cells by their own numbers and failed the correct book."""

    def whole_rows(ws: Worksheet) -> None:
        _rates(ws)
        ws.conditional_formatting.add("A2:C4", FormulaRule(formula=["$C2>0.05"], font=GREEN))

    def painted(*cells: str) -> Callable[[Worksheet], None]:
        def fill(ws: Worksheet) -> None:
            _rates(ws)
            for cell in cells:
                ws[cell].font = GREEN

        return fill

    rule = {"type": "style", **PAIR, "props": ["font_color"]}
    result = _book(tmp_path / "rows.xlsx", whole_rows)
    assert _score(result, _book(tmp_path / "rows_gold.xlsx", painted("A3", "B3", "C3", "A4", "B4", "C4")), rule) == 1.0
    assert _score(result, _book(tmp_path / "rate_only.xlsx", painted("C3", "C4")), rule) == 0.0


# ------------------------------------------------------------------ theme and indexed colours

def _coloured(color: Color) -> Callable[[Worksheet], None]:
    def fill(ws: Worksheet) -> None:
        ws["A1"] = "Total"
        ws["A1"].font = Font(color=color)

    return fill


def test_theme_and_indexed_colours_keep_their_identity(tmp_path: Path) -> None:
    """The original read ``.rgb``, which for a theme or indexed colour is one shared placeholder,
    so any two of them compared equal (theme 1 = theme 4 = indexed 2) and never equal to aRGB."""
    rule = {"type": "style", **PAIR, "props": ["font_color"]}
    theme1 = _book(tmp_path / "theme1.xlsx", _coloured(Color(theme=1)))
    assert _score(_book(tmp_path / "theme1b.xlsx", _coloured(Color(theme=1))), theme1, rule) == 1.0
    assert _score(_book(tmp_path / "theme4.xlsx", _coloured(Color(theme=4))), theme1, rule) == 0.0
    indexed = _book(tmp_path / "indexed.xlsx", _coloured(Color(indexed=2)))
    assert _score(indexed, theme1, rule) == 0.0
    check = {"type": "check_cell", "sheet_idx": 0, "coordinate": "A1", "props": {"font_color": {"method": "eq", "ref": "00FF0000"}}}
    assert _score(indexed, None, check) == 1.0  # index 2 of the legacy palette


def test_colour_values() -> None:
    assert color_value(Color(rgb="FF00FF00")) == "FF00FF00"
    assert color_value(Color(indexed=2)) == "00FF0000"
    assert color_value(Color(indexed=64)) == "indexed:64"  # system foreground: no palette entry
    assert color_value(Color(theme=4, tint=0.4)) == "theme:4:0.4"
    assert color_value(None) is None


# ------------------------------------------------------------------ is_not_in_list

def test_is_not_in_list_with_a_list_excludes_each_item() -> None:
    """The BigQuery "delete the customer_orders dataset" tasks exclude ``["customer_orders"]``.
    The original tested whether that list was itself an item of the dataset list: never, so
    it scored 1 even when nothing had been deleted."""
    rules = {"exclude": ["customer_orders"]}
    assert is_not_in_list(["customer_orders", "sales"], rules) == 0.0
    assert is_not_in_list(["sales"], rules) == 1.0
    assert is_not_in_list(["sales"], {"exclude": "sales"}) == 0.0  # a single item, as the original


# ------------------------------------------------------------------ check_local_database

def test_table_rows_are_compared_in_any_order(tmp_path: Path) -> None:
    """The dbt snapshot tasks' gold tables hold the rows dbt 1.7 updated at the end (DuckDB
    moves an updated row), dbt 1.9 updates only the changed ones: the same rows, in another
    physical order. A view's rows keep their order (an ORDER BY is part of its definition)."""
    import duckdb

    def database(name: str, order: str) -> Path:
        path = tmp_path / name
        with duckdb.connect(str(path)) as conn:
            conn.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) v(id, s) "
                         f"ORDER BY id {order}")
            conn.execute(f"CREATE VIEW v AS SELECT * FROM t ORDER BY id {order}")
        return path

    ascending, descending = database("asc.duckdb", "ASC"), database("desc.duckdb", "DESC")
    assert check_local_database(ascending, descending, check_type=["table-schema-content"]) == 1.0
    assert check_local_database(ascending, descending, check_type=["view-schema-content"]) == 0.0


# ------------------------------------------------------------------ the documentation's table

def test_a_print_split_into_two_stream_outputs_counts_as_one(tmp_path: Path) -> None:
    """How a print comes out in stream messages depends on the kernel's flush timing."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    def notebook(*texts: str) -> Path:
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.ipynb"
        outputs = [new_output("stream", name="stdout", text=text) for text in texts]
        nbformat.write(new_notebook(cells=[new_code_cell("print(x)", execution_count=1, outputs=outputs)]), str(path))
        return path

    expected = notebook("accuracy = 89%\n")
    assert compare_notebook_outputs(notebook("accuracy = 89%", "\n"), expected) == 1.0
    assert compare_notebook_outputs(notebook("accuracy = 89%", "!\n"), expected) == 0.0


def test_docs_table_names_tests_of_this_module() -> None:
    """The documentation's table of differences cites its tests by name: each must exist here, and
    every test here (but this one) must be cited, so table and tests change together."""
    page = (REPO / "docs" / "differences.md").read_text(encoding="utf-8")
    section = page.split("## Deliberate differences from the original metrics", 1)[1].split("\n## ", 1)[0]
    cited = set(re.findall(r"`(test_\w+)`", section))
    here = {name for name in globals() if name.startswith("test_")} - {"test_docs_table_names_tests_of_this_module"}
    assert cited == here
