"""compare_csv and compare_table on real files: workbooks built with openpyxl in tmp_path, and
the expected workbooks of the Spider2-V sample excel tasks read in place."""

from __future__ import annotations

import json
import logging
import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule, FormulaRule
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from pytest_spider2v.metrics.table_rules import indel_ratio
from pytest_spider2v.metrics.tables import compare_csv, compare_table
from tests.support.shared import require, sample, shared

SAMPLE = shared("spider2v-sample")
EXCEL = sample("excel")


# ---------------------------------------------------------------- compare_csv

def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_compare_csv_equal_and_different(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    gold = _write(tmp_path / "gold.csv", "id,name\n1,Ann\n2,Bob\n")
    assert compare_csv(_write(tmp_path / "same.csv", "id,name\n1,Ann\n2,Bob\n"), gold) == 1.0
    with caplog.at_level(logging.INFO):
        assert compare_csv(_write(tmp_path / "other.csv", "id,name\n1,Ann\n2,Rob\n"), gold) == 0.0
    assert "line 3" in caplog.text and "2,Rob" in caplog.text


def test_compare_csv_options(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.csv", "id,name\n1,Ann\n2,Bob\n")
    padded = _write(tmp_path / "padded.csv", "id,name  \n1,Ann\n2,Bob\n")
    shuffled = _write(tmp_path / "shuffled.csv", "2,Bob\nid,name\n1,Ann\n")
    upper = _write(tmp_path / "upper.csv", "ID,NAME\n1,ANN\n2,BOB\n")
    assert compare_csv(padded, gold) == 0.0
    assert compare_csv(padded, gold, strict=False) == 1.0
    assert compare_csv(shuffled, gold) == 0.0
    assert compare_csv(shuffled, gold, ignore_order=True) == 1.0
    assert compare_csv(upper, gold) == 0.0
    assert compare_csv(upper, gold, ignore_case=True) == 1.0


def test_compare_csv_missing_or_binary(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.csv", "a\n")
    assert compare_csv(None, gold) == 0.0
    assert compare_csv(tmp_path / "nope.csv", gold) == 0.0
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    assert compare_csv(binary, gold) == 0.0


# ---------------------------------------------------------------- workbook helpers

def _sales_book(path: Path, *, total: float = 60.0, **changes: Any) -> Path:
    """A small sales workbook with the features the rules look at; ``changes`` tweak one."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    rows = [("Week", "Sales", "COGS"), ("W1", 10, 4.00001), ("W2", 20, 8), ("W3", 30, 12), ("Total", total, 24)]
    for row in rows:
        ws.append(row)
    ws["A1"].font = Font(bold=True, color=changes.get("header_color", "FFFF0000"))
    ws["A1"].fill = PatternFill("solid", fgColor="FF0000FF", bgColor="FF0000FF")
    ws.freeze_panes = changes.get("freeze", "A2")
    ws.sheet_view.zoomScale = changes.get("zoom", 120)
    ws.row_dimensions[3].hidden = changes.get("row_hidden", True)
    ws.column_dimensions["B"].width = changes.get("col_width", 18)
    ws.auto_filter.ref = changes.get("filter_ref", "A1:C4")
    validation = DataValidation(type="list", formula1='"Yes,No"', allow_blank=True)
    validation.add(changes.get("dv_range", "D2:D4"))
    ws.add_data_validation(validation)
    chart = changes.get("chart", BarChart)()
    chart.title = changes.get("chart_title", "Sales")
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=4), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=4))
    ws.add_chart(chart, "E2")
    # highlight the best week, as the PeriodRate tasks do
    ws.conditional_formatting.add(
        "B2:B4", FormulaRule(formula=[changes.get("cf_formula", "$B2=MAX($B$2:$B$4)")], font=Font(color="FF00FF00"))
    )
    second = wb.create_sheet("Notes")
    second["A1"] = changes.get("note", "Quarterly report")
    wb.save(path)
    return path


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    return _sales_book(tmp_path / "gold.xlsx")


def _score(result: Path | None, expected: Path | None, *rules: dict[str, Any]) -> float:
    return compare_table(result, expected, rules=list(rules))


PAIR = {"sheet_idx0": 0, "sheet_idx1": "EI0"}

# rule -> a change of the result workbook that must make it fail
CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"type": "sheet_data", **PAIR}, {"total": 61}),
    ({"type": "sheet_data", "sheet_idx0": "RNNotes", "sheet_idx1": "ENNotes"}, {"note": "Annual report"}),
    ({"type": "sheet_name"}, {}),  # changed separately below (sheet renamed)
    ({"type": "freeze", **PAIR}, {"freeze": "B2"}),
    ({"type": "zoom", "sheet_idx": 0, "method": "eq", "ref": 120}, {"zoom": 90}),
    ({"type": "row_props", **PAIR, "props": ["hidden"]}, {"row_hidden": False}),
    ({"type": "col_props", **PAIR, "props": ["width"]}, {"col_width": 9}),
    ({"type": "filter", **PAIR}, {"filter_ref": "A1:B4"}),
    ({"type": "chart", **PAIR, "chart_props": ["type"]}, {"chart": LineChart}),
    ({"type": "chart", **PAIR, "chart_props": ["type", "title"]}, {"chart_title": "Revenue"}),
    ({"type": "style", **PAIR, "props": ["font_color"]}, {"header_color": "FF000000"}),
    ({"type": "style", **PAIR, "props": ["font_color"]}, {"cf_formula": "$B2=MIN($B$2:$B$4)"}),
    (
        {"type": "data_validation", "sheet_idx": 0,
         "dv_props": [{"type": {"method": "eq", "ref": "list"}, "sqref": {"method": "spreadsheet_range", "ref": ["D2:D4", "D2:D10"]}}]},
        {"dv_range": "F2:F4"},
    ),
]


@pytest.mark.parametrize(("rule", "change"), CASES, ids=lambda v: v.get("type", "") if "type" in v else "")
def test_rule_passes_on_equal_books_and_fails_on_a_change(tmp_path: Path, gold: Path, rule: dict[str, Any], change: dict[str, Any]) -> None:
    same = _sales_book(tmp_path / "same.xlsx")
    assert _score(same, gold, rule) == 1.0
    if rule["type"] == "sheet_name":
        wb = openpyxl.load_workbook(same)
        wb["Notes"].title = "Memo"
        wb.save(tmp_path / "renamed.xlsx")
        assert _score(tmp_path / "renamed.xlsx", gold, rule) == 0.0
        return
    changed = _sales_book(tmp_path / "changed.xlsx", **change)
    assert _score(changed, gold, rule) == 0.0


def test_sheet_data_rounds_to_precision(tmp_path: Path, gold: Path) -> None:
    near = _sales_book(tmp_path / "near.xlsx")
    wb = openpyxl.load_workbook(near)
    wb["Sheet1"]["C2"] = 4.00002  # differs from 4.00001 only in the 5th decimal
    wb.save(near)
    assert _score(near, gold, {"type": "sheet_data", **PAIR}) == 1.0
    assert _score(near, gold, {"type": "sheet_data", **PAIR, "precision": 5}) == 0.0


def test_sheet_data_failure_names_the_first_differing_cell(tmp_path: Path, gold: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        assert _score(_sales_book(tmp_path / "r.xlsx", total=61), gold, {"type": "sheet_data", **PAIR}) == 0.0
    assert "cell B5: 61 != 60" in caplog.text


def test_sheet_addressing_forms_agree(tmp_path: Path, gold: Path) -> None:
    result = _sales_book(tmp_path / "r.xlsx")
    for first, second in [(0, "EI0"), ("RI0", "ENSheet1"), ("RNSheet1", "EI0"), ("RI1", "ENNotes")]:
        assert _score(result, gold, {"type": "sheet_data", "sheet_idx0": first, "sheet_idx1": second}) == 1.0
    # a sheet compared with a different one fails
    assert _score(result, gold, {"type": "sheet_data", "sheet_idx0": "RI1", "sheet_idx1": "EI0"}) == 0.0


def test_missing_sheet_or_expected_scores_zero(tmp_path: Path, gold: Path, caplog: pytest.LogCaptureFixture) -> None:
    result = _sales_book(tmp_path / "r.xlsx")
    with caplog.at_level(logging.INFO):
        assert _score(result, gold, {"type": "chart", "sheet_idx0": "RNSheet2", "sheet_idx1": "ENSheet2", "chart_props": ["type"]}) == 0.0
    assert "no sheet 'Sheet2'" in caplog.text
    assert _score(result, gold, {"type": "sheet_data", "sheet_idx0": "RI5", "sheet_idx1": "EI0"}) == 0.0
    assert _score(result, None, {"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}) == 0.0


def test_check_cell(tmp_path: Path) -> None:
    book = _sales_book(tmp_path / "r.xlsx")
    props = {
        "value": {"method": "eq", "ref": "Week"},
        "font_bold": {"method": "eq", "ref": True},
        "font_color": {"method": "eq", "ref": "FFFF0000"},
        "bgcolor": {"method": "eq", "ref": "FF0000FF"},
    }
    assert _score(book, None, {"type": "check_cell", "sheet_idx": "RNSheet1", "coordinate": "A1", "props": props}) == 1.0
    assert _score(book, None, {"type": "check_cell", "sheet_idx": 0, "coordinate": "B5", "props": {"value": {"method": "approx:0.5", "ref": 60.2}}}) == 1.0
    wrong = {**props, "font_color": {"method": "eq", "ref": "FFFFFFFF"}}
    assert _score(book, None, {"type": "check_cell", "sheet_idx": "RNSheet1", "coordinate": "A1", "props": wrong}) == 0.0


def test_style_sees_conditional_format_result(tmp_path: Path, gold: Path) -> None:
    """Same static styles, but the highlighted cell differs (B4 vs B2): the rule must fail."""
    static = _sales_book(tmp_path / "static.xlsx")
    wb = openpyxl.load_workbook(static)
    wb["Sheet1"].conditional_formatting = type(wb["Sheet1"].conditional_formatting)()
    wb["Sheet1"]["B4"].font = Font(color="FF00FF00")  # what the conditional format shows
    wb.save(static)
    rule = {"type": "style", **PAIR, "props": ["font_color"]}
    assert _score(static, gold, rule) == 1.0  # rendered styles agree
    wb["Sheet1"]["B4"].font = Font(color="FF000000")
    wb.save(static)
    assert _score(static, gold, rule) == 0.0


def test_style_with_cell_is_rule(tmp_path: Path) -> None:
    def book(name: str, operator: str, formula: str) -> Path:
        wb = openpyxl.Workbook()
        ws = wb.active
        for value in (5, 15, 25):
            ws.append([value])
        ws.conditional_formatting.add("A1:A3", CellIsRule(operator=operator, formula=[formula], font=Font(color="FFFF0000")))
        wb.save(tmp_path / name)
        return tmp_path / name

    rule = {"type": "style", **PAIR, "props": ["font_color"]}
    gold = book("gold.xlsx", "greaterThan", "10")
    assert _score(book("same.xlsx", "greaterThanOrEqual", "15"), gold, rule) == 1.0
    assert _score(book("other.xlsx", "greaterThan", "20"), gold, rule) == 0.0


def test_unsupported_conditional_format_raises(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active.append([1])
    wb.active.conditional_formatting.add("A1:A3", ColorScaleRule(start_type="min", start_color="FF0000", end_type="max", end_color="00FF00"))
    wb.save(tmp_path / "scale.xlsx")
    with pytest.raises(NotImplementedError, match="colorScale"):
        _score(tmp_path / "scale.xlsx", tmp_path / "scale.xlsx", {"type": "style", **PAIR, "props": ["font_color"]})


def test_sheet_print_uses_csv_exports(tmp_path: Path, gold: Path) -> None:
    result = _sales_book(tmp_path / "result.xlsx")
    rule = {"type": "sheet_print", **PAIR}
    assert _score(result, gold, rule) == 0.0  # no exports yet
    _write(tmp_path / "gold-Sheet1.csv", "Week,Sales\nW1,10\n\n")
    _write(tmp_path / "result-Sheet1.csv", "Week,Sales\nw1,10\n")
    assert _score(result, gold, rule) == 0.0
    assert _score(result, gold, {**rule, "ignore_case": True}) == 1.0


def test_sheet_fuzzy(tmp_path: Path, gold: Path) -> None:
    result = _sales_book(tmp_path / "r.xlsx", note="Quarterly reprot")
    def rule(kind: str, **extra: Any) -> dict[str, Any]:
        return {"type": "sheet_fuzzy", "sheet_idx0": "RNNotes", "sheet_idx1": "ENNotes", "rules": [{"range": ["A1"], "type": kind, **extra}]}
    assert _score(result, gold, rule("fuzzy_match", threshold=85)) == 1.0
    assert _score(result, gold, rule("exact_match")) == 0.0
    assert _score(result, gold, rule("includes", normalization=[["reprot", "report"]])) == 1.0
    assert indel_ratio("abcd", "abce") == 75.0


def test_sparklines_are_compared(tmp_path: Path) -> None:
    def with_sparkline(name: str, data: str) -> Path:
        path = _sales_book(tmp_path / f"plain-{name}")
        ext = (
            '<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" '
            'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
            '<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
            f'<x14:sparklineGroup><x14:sparklines><x14:sparkline><xm:f>{data}</xm:f><xm:sqref>D2</xm:sqref>'
            "</x14:sparkline></x14:sparklines></x14:sparklineGroup></x14:sparklineGroups></ext></extLst>"
        )
        target = tmp_path / name
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(target, "w") as dst:
            for item in src.infolist():
                content = src.read(item.filename)
                if item.filename == "xl/worksheets/sheet1.xml":
                    content = content.replace(b"</worksheet>", ext.encode() + b"</worksheet>")
                dst.writestr(item, content)
        return target

    rule = {"type": "sparkline", **PAIR}
    gold = with_sparkline("gold.xlsx", "Sheet1!B2:C2")
    assert _score(with_sparkline("same.xlsx", "Sheet1!B2:C2"), gold, rule) == 1.0
    assert _score(with_sparkline("other.xlsx", "Sheet1!B3:C3"), gold, rule) == 0.0
    assert _score(_sales_book(tmp_path / "none.xlsx"), gold, rule) == 0.0


def test_missing_and_unreadable_workbooks_score_zero(tmp_path: Path, gold: Path, caplog: pytest.LogCaptureFixture) -> None:
    rule = {"type": "sheet_data", **PAIR}
    assert _score(None, gold, rule) == 0.0
    assert _score(tmp_path / "absent.xlsx", gold, rule) == 0.0
    broken = _write(tmp_path / "broken.xlsx", "this is not a zip file")
    with caplog.at_level(logging.INFO):
        assert _score(broken, gold, rule) == 0.0
    assert "cannot read workbook broken.xlsx" in caplog.text
    assert _score(gold, tmp_path / "absent-gold.xlsx", rule) == 0.0


def test_malformed_rules_raise_naming_the_rule(gold: Path) -> None:
    with pytest.raises(NotImplementedError, match="'conditional_magic'"):
        _score(gold, gold, {"type": "conditional_magic", **PAIR})
    with pytest.raises(ValueError, match="lacks"):
        _score(gold, gold, {"type": "sheet_data", "sheet_idx0": 0})
    with pytest.raises(ValueError, match="unsupported chart_props"):
        _score(gold, gold, {"type": "chart", **PAIR, "chart_props": ["colour"]})
    with pytest.raises(ValueError, match="non-empty list"):
        compare_table(gold, gold, rules=[])
    # rule problems are task errors even when the agent produced no file
    with pytest.raises(NotImplementedError):
        _score(None, gold, {"type": "conditional_magic"})


# ---------------------------------------------------------------- real Spider2-V sample tasks

def _sample_tasks() -> list[tuple[str, Path, dict[str, Any]]]:
    tasks = []
    for task_file in sorted(require(EXCEL).glob("*/*.json")):
        evaluator = json.loads(task_file.read_text())["evaluator"]
        tasks.append((task_file.parent.name, SAMPLE / evaluator["expected"]["path"], evaluator["options"]))
    return tasks


@pytest.mark.parametrize(
    "task_id", ["0f0ee112", "091e73b3", "26eb0940", "106f0830", "0326d92d", "97dd78c1"]
)
@pytest.mark.sample
def test_sample_expected_file_matches_itself(task_id: str) -> None:
    """Every rule shape of these tasks (sheet_data, chart, pivot_table, style with a conditional
    format, check_cell) passes when the gold workbook is compared with itself."""
    [(_, expected, options)] = [t for t in _sample_tasks() if t[0].startswith(task_id)]
    assert compare_table(expected, expected, **options) == 1.0


@pytest.mark.parametrize(("task_id", "other_id"), [("0f0ee112", "1954cced"), ("091e73b3", "97dd78c1"), ("106f0830", "5f8601f8")])
@pytest.mark.sample
def test_sample_expected_file_of_another_task_fails(task_id: str, other_id: str) -> None:
    tasks = {t[0][:8]: t for t in _sample_tasks()}
    _, expected, options = tasks[task_id]
    assert compare_table(tasks[other_id][1], expected, **options) == 0.0


@pytest.mark.sample
def test_sample_initial_file_fails_against_gold(tmp_path: Path) -> None:
    """The untouched task file (what an idle agent leaves) does not pass."""
    task_dir = next(require(EXCEL).glob("091e73b3*"))
    _, expected, options = next(t for t in _sample_tasks() if t[0].startswith("091e73b3"))
    start = shutil.copy(task_dir / "PeriodRate.xlsx", tmp_path / "PeriodRate.xlsx")
    assert compare_table(start, expected, **options) == 0.0

