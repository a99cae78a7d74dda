"""Near misses of workbooks: built here for each rule type, and the gold workbooks of the
Spider2-V sample's excel tasks (charts, pivot tables, styles as LibreOffice saved them) varied
under their own rules, each variant caught."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.styles import Font

from tests.support.near_misses import assert_all_caught, near_misses_of
from tests.support.shared import require, sample, task_files

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
    assert found.uncovered == ["compare_table: rule sparkline"]


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
    assert not found.lax, [t.describe() for t in found.lax]
    assert found.trials or found.unusable or found.uncovered
