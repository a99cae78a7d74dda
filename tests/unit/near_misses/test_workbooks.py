"""Near misses of workbooks: built here for each rule type, and the gold workbooks of the
Spider2-V sample's excel tasks (charts, pivot tables, styles as LibreOffice saved them) varied
under their own rules, each variant caught."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.styles import Font

from pytest_spider2v.near_misses.workbooks import parts
from tests.support.near_misses import assert_all_caught, near_misses_of
from tests.support.shared import require, sample, task_files
from tests.support.workbooks import pivot_workbook

EXCEL = sample("excel")


def _book(path: Path) -> str:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Region", "Q1", "Q2"])
    for row in (["North", 10, 12], ["South", 7, 9], ["East", 4, 6]):
        ws.append(row)
    ws["B2"].font = Font(bold=True)
    chart = BarChart()
    chart.title = "Sales"
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=4), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=4))
    ws.add_chart(chart, "E2")
    ws.freeze_panes = "A2"
    wb.create_sheet("Notes")
    wb.save(path)
    return str(path)


RULES = [
    {"type": "sheet_name"},
    {"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"},
    {"type": "chart", "sheet_idx0": 0, "sheet_idx1": "EI0", "chart_props": ["type", "title", "legend", "direction"]},
    {"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["font_bold", "font_color", "bgcolor"]},
    {"type": "freeze", "sheet_idx0": 0, "sheet_idx1": "EI0"},
    {"type": "check_cell", "sheet_idx": 0, "coordinate": "B2",
     "props": {"value": {"method": "eq", "ref": 10}, "font_bold": {"method": "eq", "ref": True}}},
]


@pytest.mark.parametrize("rule", RULES, ids=[r["type"] for r in RULES])
def test_each_rule_type_catches_its_near_misses(tmp_path: Path, rule: dict) -> None:
    result = _book(tmp_path / "book.xlsx")
    expected = _book(tmp_path / "gold.xlsx")
    found = near_misses_of("compare_table", result, expected, {"rules": [rule]}, workdir=tmp_path / "w")
    assert_all_caught(found)


def test_a_rule_without_a_maker_is_reported(tmp_path: Path) -> None:
    result = _book(tmp_path / "book.xlsx")
    rule = {"type": "sparkline", "sheet_idx0": 0, "sheet_idx1": "EI0"}
    found = near_misses_of("compare_table", result, result, {"rules": [rule]}, workdir=tmp_path / "w")
    assert [u.describe() for u in found.uncovered] == ["compare_table sparkline: no near-miss maker for this rule type"]


PIVOT_RULE = {"type": "pivot_table", "sheet_idx0": "RNPivot", "sheet_idx1": "ENPivot",
              "pivot_props": ["col_fields", "filter", "row_fields", "data_fields"]}


@pytest.mark.parametrize("channels_as_columns", [True, False], ids=["columns", "no columns"])
def test_each_pivot_property_is_varied(tmp_path: Path, channels_as_columns: bool) -> None:
    """The sample's pivot rules list these four: a field dropped from each list (an unused one
    added to an empty column list), an item hidden for the filter, the source range shrunk."""
    result = pivot_workbook(tmp_path / "book.xlsx", channels_as_columns=channels_as_columns)
    expected = pivot_workbook(tmp_path / "gold.xlsx", channels_as_columns=channels_as_columns)
    found = near_misses_of("compare_table", result, expected, {"rules": [PIVOT_RULE]}, workdir=tmp_path / "w")
    assert_all_caught(found)
    assert sorted({t.part for t in found.trials}) == ["pivot_table.col_fields", "pivot_table.data_fields",
                                                      "pivot_table.filter", "pivot_table.row_fields",
                                                      "pivot_table.source"]
    added = [t.kind for t in found.trials if t.part == "pivot_table.col_fields"]
    assert added == (["pivot field dropped"] if channels_as_columns else ["pivot field added"])


def test_a_listed_property_no_maker_varies_is_reported_by_name(tmp_path: Path) -> None:
    result = pivot_workbook(tmp_path / "book.xlsx")
    rules = [{**PIVOT_RULE, "pivot_props": ["name", "row_fields", "location"]},
             {"type": "style", "sheet_idx0": "RNData", "sheet_idx1": "ENData", "props": ["font_bold", "hyperlink"]},
             {"type": "col_props", "sheet_idx0": "RNData", "sheet_idx1": "ENData", "props": ["width", "outlineLevel"]}]
    found = near_misses_of("compare_table", result, result, {"rules": rules}, workdir=tmp_path / "w")
    assert sorted((u.part, u.why) for u in found.uncovered) == [
        ("col_props.outlineLevel", "no near-miss maker varies it"), ("pivot_table.location", "no near-miss maker varies it"),
        ("pivot_table.name", "no near-miss maker varies it"), ("style.hyperlink", "no near-miss maker varies it")]
    assert {t.part for t in found.trials} >= {"pivot_table.row_fields", "style.font_bold", "col_props.width"}
    assert len(found.caught) == len(found.trials)


def test_a_sheet_without_the_rules_object_reports_each_listed_property(tmp_path: Path) -> None:
    """A chart rule on a sheet with no chart passes with nothing to compare: each property it
    lists is not covered, saying so; a line chart has no bar direction to turn."""
    result = _book(tmp_path / "book.xlsx")
    rules = [{"type": "chart", "sheet_idx0": "RNNotes", "sheet_idx1": "ENNotes", "chart_props": ["type", "title"]},
             {"type": "pivot_table", "sheet_idx0": "RNNotes", "sheet_idx1": "ENNotes", "pivot_props": ["filter"]}]
    found = near_misses_of("compare_table", result, result, {"rules": rules}, workdir=tmp_path / "w")
    assert found.trials == []
    assert [u.describe() for u in found.uncovered] == [
        "compare_table chart.type: chart rule, sheet 'Notes': no chart on the sheet",
        "compare_table chart.title: chart rule, sheet 'Notes': no chart on the sheet",
        "compare_table pivot_table.filter: pivot_table rule, sheet 'Notes': no pivot table on the sheet"]
    assert found.summary().startswith("not covered: no near miss tried; not covered: compare_table chart.type")


def test_a_line_chart_has_no_direction_to_vary(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    book = openpyxl.load_workbook(_book(path))
    chart = LineChart()
    chart.add_data(Reference(book["Sales"], min_col=2, min_row=1, max_row=4), titles_from_data=True)
    book["Sales"]._charts = [chart]
    book.save(path)
    rule = {"type": "chart", "sheet_idx0": 0, "sheet_idx1": "EI0", "chart_props": ["type", "direction"]}
    found = near_misses_of("compare_table", str(path), str(path), {"rules": [rule]}, workdir=tmp_path / "w")
    assert [(u.part, u.why) for u in found.uncovered] == [
        ("chart.direction", "chart rule, sheet 'Sales': a lineChart has no bar direction")]
    assert {t.part for t in found.trials} == {"chart.series", "chart.type"} and len(found.caught) == 2


def _gold_cases(per_rule_type: int = 3) -> list[tuple[str, Path, dict]]:
    """The smallest gold workbooks having each rule type, ``per_rule_type`` of each (the largest
    take half a minute each: the validation run varies every one)."""
    cases = []
    for path in task_files(sample(), "excel") if EXCEL.is_dir() else []:
        evaluator = json.loads(path.read_text(encoding="utf-8"))["evaluator"]
        expected = evaluator.get("expected") or {}
        if evaluator.get("func") == "compare_table" and expected.get("type") == "local_file":
            cases.append((path.parent.name[:8], path.parent / Path(expected["path"]).name, evaluator["options"]))
    chosen: dict[str, tuple[str, Path, dict]] = {}
    for rule_type in sorted({rule["type"] for _, _, options in cases for rule in options["rules"]}):
        having = [case for case in cases if any(rule["type"] == rule_type for rule in case[2]["rules"])]
        for case in sorted(having, key=lambda case: case[1].stat().st_size)[:per_rule_type]:
            chosen[case[0]] = case
    return sorted(chosen.values(), key=lambda case: case[0])


@pytest.mark.sample
@pytest.mark.parametrize(("task", "gold", "options"), _gold_cases() or [("none", Path("missing"), {})],
                         ids=lambda value: value if isinstance(value, str) else "")
def test_sample_gold_workbooks_catch_their_near_misses(tmp_path: Path, task: str, gold: Path, options: dict) -> None:
    require(EXCEL)
    result = tmp_path / gold.name
    result.write_bytes(gold.read_bytes())
    found = near_misses_of("compare_table", str(result), str(gold), options, workdir=tmp_path / "w")
    assert len(found.caught) == len(found.trials) > 0, [t.describe() for t in found.trials if t.outcome != "caught"]
    listed = {part for rule in options["rules"] for part in parts(rule)}
    assert listed - {t.part for t in found.trials} - {u.part for u in found.uncovered} == set()
