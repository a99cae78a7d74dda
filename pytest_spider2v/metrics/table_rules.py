"""The rule types of ``compare_table``: one function per type, each ``(pair, rule) -> bool``.

A rule that fails logs at INFO what differed (first differing cell, the two chart summaries,
...) so the report says why a task scored 0. Sheet addresses and rule options follow the
original harness (see ``workbooks`` for addressing).
"""

from __future__ import annotations

import itertools
import logging
import math
import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.cell_range import MultiCellRange

from pytest_spider2v.metrics import sheet_objects
from pytest_spider2v.metrics.cells import STYLE_NAMES, cell_value, read_cell_style
from pytest_spider2v.metrics.conditional_formats import active_formats
from pytest_spider2v.metrics.value_rules import match_value_to_rule
from pytest_spider2v.metrics.workbooks import Book, BookPair, WorkbookError

logger = logging.getLogger(__name__)

RuleCheck = Callable[[BookPair, dict[str, Any]], bool]


def _differs(what: str, first: Any, second: Any) -> bool:
    """Compare two summaries; on a difference log both and return False."""
    if first == second:
        return True
    logger.info("%s differ:\n  result side:   %r\n  expected side: %r", what, first, second)
    return False


def _pair_sheets(pair: BookPair, rule: dict[str, Any]) -> tuple[tuple[Book, str], tuple[Book, str]]:
    return pair.locate(rule["sheet_idx0"]), pair.locate(rule["sheet_idx1"])


def sheet_name(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Both workbooks have the same sheet names in the same order."""
    if pair.expected is None:
        raise WorkbookError("rule sheet_name needs an expected workbook")
    return _differs("sheet names", pair.result.sheet_names, pair.expected.sheet_names)


def sheet_data(pair: BookPair, rule: dict[str, Any]) -> bool:
    """The two sheets read as pandas frames are equal after rounding to ``precision`` (4)."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    precision = int(rule.get("precision", 4))
    frame0, frame1 = _rounded(book0.frame(name0), precision), _rounded(book1.frame(name1), precision)
    if frame0.equals(frame1):
        return True
    logger.info("sheet data %r vs %r: %s", rule["sheet_idx0"], rule["sheet_idx1"], _first_difference(frame0, frame1))
    return False


def _rounded(frame: pd.DataFrame, precision: int) -> pd.DataFrame:
    with warnings.catch_warnings():  # pandas warns that date columns are not rounded; fine
        warnings.simplefilter("ignore", UserWarning)
        return frame.round(precision)


def _first_difference(a: pd.DataFrame, b: pd.DataFrame) -> str:
    if a.shape != b.shape:
        return f"shape {a.shape} != {b.shape} (rows below the header x columns)"
    for j, (ca, cb) in enumerate(zip(a.columns, b.columns)):
        if ca != cb:
            return f"header {get_column_letter(j + 1)}1: {ca!r} != {cb!r}"
    for j, column in enumerate(a.columns):
        for i, (va, vb) in enumerate(zip(a.iloc[:, j], b.iloc[:, j])):
            if not (va == vb or (_is_nan(va) and _is_nan(vb))):
                return f"cell {get_column_letter(j + 1)}{i + 2}: {va!r} != {vb!r}"
        if a.iloc[:, j].dtype != b.iloc[:, j].dtype:
            return f"column {column!r}: equal values but types {a.iloc[:, j].dtype} != {b.iloc[:, j].dtype}"
    return "frames differ in index or types"


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def sheet_print(pair: BookPair, rule: dict[str, Any]) -> bool:
    """The sheets' printed text (CSV exports ``<book>-<sheet>.csv`` beside each workbook) match."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    lines0, lines1 = _printed(book0, name0), _printed(book1, name1)
    if rule.get("ignore_case", False):
        lines0, lines1 = [line.lower() for line in lines0], [line.lower() for line in lines1]
    for number, (l0, l1) in enumerate(itertools.zip_longest(lines0, lines1), start=1):
        if l0 != l1:
            logger.info("printed sheet line %d: %r != %r", number, l0, l1)
            return False
    return True


def _printed(book: Book, name: str) -> list[str]:
    path = book.path.with_name(f"{book.path.stem}-{name}.csv")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise WorkbookError(f"no printed export of sheet {name!r}: {exc}") from exc
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def sheet_fuzzy(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Cell-by-cell text checks over ranges: includes, included_by, fuzzy_match, exact_match."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    ws0, ws1 = book0.worksheet(name0, values=True), book1.worksheet(name1, values=True)
    for check in rule["rules"]:
        kind = check["type"]
        if kind not in ("includes", "included_by", "fuzzy_match", "exact_match"):
            raise ValueError(f"sheet_fuzzy: unknown check type {kind!r}")
        ranges = check["range"] if isinstance(check["range"], list) else [check["range"]]
        for cell_range in MultiCellRange(" ".join(ranges)):
            for row, col in cell_range.cells:
                coordinate = f"{get_column_letter(col)}{row}"
                v0 = _normalise(str(cell_value(ws0[coordinate])), check)
                v1 = _normalise(str(cell_value(ws1[coordinate])), check)
                if kind == "includes":
                    ok = v1 in v0
                elif kind == "included_by":
                    ok = v0 in v1
                elif kind == "fuzzy_match":
                    ok = indel_ratio(v0, v1) >= float(check.get("threshold", 85.0))
                else:
                    ok = v0 == v1
                if not ok:
                    logger.info("sheet_fuzzy %s failed at %s: %r vs %r", kind, coordinate, v0, v1)
                    return False
    return True


def _normalise(text: str, check: dict[str, Any]) -> str:
    for old, new in check.get("normalization", []):
        text = text.replace(old, new)
    if "trim_leadings" in check:
        text = text.lstrip(check["trim_leadings"])
    if "trim_trailings" in check:
        text = text.rstrip(check["trim_trailings"])
    if "ignore_chars" in check:
        ignored = set(check["ignore_chars"])
        text = "".join(ch for ch in text if ch not in ignored)
    if check.get("ignore_case", False):
        text = text.lower()
    return text


def indel_ratio(a: str, b: str) -> float:
    """Similarity 0..100 as ``rapidfuzz.fuzz.ratio``: 100 * 2 * LCS / (len a + len b)."""
    if not a and not b:
        return 100.0
    previous = [0] * (len(b) + 1)
    for ch in a:
        current = [0]
        for j, other in enumerate(b):
            current.append(previous[j] + 1 if ch == other else max(previous[j + 1], current[j]))
        previous = current
    return 100.0 * 2 * previous[-1] / (len(a) + len(b))


def sparkline(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Same sparklines (location -> data range)."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    for book, name in ((book0, name0), (book1, name1)):
        book.worksheet(name)  # a missing sheet fails with its own message, not as "no sparklines"
    return _differs("sparklines", sheet_objects.sparklines(book0.path, name0), sheet_objects.sparklines(book1.path, name1))


def chart(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Charts with the same series have the same ``chart_props``."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    props = list(rule.get("chart_props", []))
    return _differs(
        f"charts of {rule['sheet_idx0']!r} and {rule['sheet_idx1']!r}",
        sheet_objects.charts(book0.worksheet(name0), props),
        sheet_objects.charts(book1.worksheet(name1), props),
    )


def pivot_table(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Pivot tables over the same source have the same ``pivot_props``."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    props = list(rule.get("pivot_props", []))
    return _differs(
        f"pivot tables of {rule['sheet_idx0']!r} and {rule['sheet_idx1']!r}",
        sheet_objects.pivot_tables(book0.worksheet(name0), props),
        sheet_objects.pivot_tables(book1.worksheet(name1), props),
    )


def style(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Every cell has the same ``props`` as rendered, conditional formats included."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    props = list(rule.get("props", []))
    unknown = set(props) - STYLE_NAMES
    if unknown:
        raise ValueError(f"style: unsupported props {sorted(unknown)} (known: {sorted(STYLE_NAMES)})")
    styles0, styles1 = _sheet_styles(book0, name0, props), _sheet_styles(book1, name1, props)
    if styles0 == styles1:
        return True
    for coordinate in sorted(set(styles0) | set(styles1)):
        s0, s1 = styles0.get(coordinate), styles1.get(coordinate)
        if s0 != s1:
            logger.info("style %s at %s: %r != %r", props, coordinate, s0, s1)
            break
    return False


def _sheet_styles(book: Book, name: str, props: list[str]) -> dict[str, list[Any]]:
    ws, shown = book.worksheet(name), book.worksheet(name, values=True)
    styles = {
        cell.coordinate: [read_cell_style(p, cell, shown=shown[cell.coordinate]) for p in props]
        for column in ws.iter_cols()
        for cell in column
    }
    for coordinate, dxf in active_formats(ws, shown):
        styles[coordinate] = [read_cell_style(p, ws[coordinate], dxf, shown=shown[coordinate]) for p in props]
    return styles


def freeze(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Same frozen panes."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    return _differs("frozen panes", book0.worksheet(name0).freeze_panes, book1.worksheet(name1).freeze_panes)


def zoom(pair: BookPair, rule: dict[str, Any]) -> bool:
    """The sheet's zoom (100 when unset) satisfies ``method``/``ref``."""
    book, name = pair.locate(rule["sheet_idx"])
    scale = book.worksheet(name).sheet_view.zoomScale or 100.0
    ok = match_value_to_rule(scale, rule)
    if not ok:
        logger.info("zoom of %r is %s, wanted %s %r", rule["sheet_idx"], scale, rule["method"], rule.get("ref"))
    return ok


def data_validation(pair: BookPair, rule: dict[str, Any]) -> bool:
    """At least as many validations as ``dv_props`` entries, and each validation matches one."""
    book, name = pair.locate(rule["sheet_idx"])
    validations = book.worksheet(name).data_validations.dataValidation
    wanted: list[dict[str, Any]] = rule["dv_props"]
    if len(validations) < len(wanted):
        logger.info("%r has %d data validations, wanted at least %d", rule["sheet_idx"], len(validations), len(wanted))
        return False
    for validation in validations:
        if not any(
            all(match_value_to_rule(getattr(validation, attribute), check) for attribute, check in props.items())
            for props in wanted
        ):
            logger.info("data validation %s on %s matches none of %r", validation.type, validation.sqref, wanted)
            return False
    return True


def row_props(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Same row dimension ``props`` (hidden, height, ...)."""
    return _dimension_rule(pair, rule, "row")


def col_props(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Same column dimension ``props`` (width, hidden, ...)."""
    return _dimension_rule(pair, rule, "column")


def _dimension_rule(pair: BookPair, rule: dict[str, Any], kind: str) -> bool:
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    props = list(rule.get("props", []))
    return _differs(
        f"{kind} properties",
        sheet_objects.dimensions(book0.worksheet(name0), kind, props),
        sheet_objects.dimensions(book1.worksheet(name1), kind, props),
    )


def filter_(pair: BookPair, rule: dict[str, Any]) -> bool:
    """Same autofilter (range, column filters, sort state)."""
    (book0, name0), (book1, name1) = _pair_sheets(pair, rule)
    return _differs(
        "autofilters", sheet_objects.filters(book0.worksheet(name0)), sheet_objects.filters(book1.worksheet(name1))
    )


def check_cell(pair: BookPair, rule: dict[str, Any]) -> bool:
    """One cell's ``value`` and style properties each satisfy a ``method``/``ref`` rule."""
    book, name = pair.locate(rule["sheet_idx"])
    coordinate = rule["coordinate"]
    cell, shown = book.worksheet(name)[coordinate], book.worksheet(name, values=True)[coordinate]
    for prop, check in rule["props"].items():
        value = cell_value(shown) if prop == "value" else read_cell_style(prop, cell, shown=shown)
        if not match_value_to_rule(value, check):
            logger.info("cell %s!%s %s is %r, wanted %s %r", name, coordinate, prop, value, check["method"], check.get("ref"))
            return False
    return True


#: rule type -> (check, keys the rule must have)
RULES: dict[str, tuple[RuleCheck, tuple[str, ...]]] = {
    "sheet_name": (sheet_name, ()),
    "sheet_data": (sheet_data, ("sheet_idx0", "sheet_idx1")),
    "sheet_print": (sheet_print, ("sheet_idx0", "sheet_idx1")),
    "sheet_fuzzy": (sheet_fuzzy, ("sheet_idx0", "sheet_idx1", "rules")),
    "sparkline": (sparkline, ("sheet_idx0", "sheet_idx1")),
    "chart": (chart, ("sheet_idx0", "sheet_idx1")),
    "pivot_table": (pivot_table, ("sheet_idx0", "sheet_idx1")),
    "style": (style, ("sheet_idx0", "sheet_idx1", "props")),
    "freeze": (freeze, ("sheet_idx0", "sheet_idx1")),
    "zoom": (zoom, ("sheet_idx", "method")),
    "data_validation": (data_validation, ("sheet_idx", "dv_props")),
    "row_props": (row_props, ("sheet_idx0", "sheet_idx1")),
    "col_props": (col_props, ("sheet_idx0", "sheet_idx1")),
    "filter": (filter_, ("sheet_idx0", "sheet_idx1")),
    "check_cell": (check_cell, ("sheet_idx", "coordinate", "props")),
}


def validate_rules(rules: Any) -> list[dict[str, Any]]:
    """Reject malformed rule lists before any file is read: a task error, not a score."""
    if not isinstance(rules, list) or not rules:
        raise ValueError(f"compare_table needs a non-empty list of rules, got {rules!r}")
    for position, rule in enumerate(rules):
        if not isinstance(rule, dict) or "type" not in rule:
            raise ValueError(f"compare_table rule #{position} is not a dict with a 'type': {rule!r}")
        if rule["type"] not in RULES:
            raise NotImplementedError(
                f"compare_table rule type {rule['type']!r} is not supported (supported: {sorted(RULES)})"
            )
        missing = [key for key in RULES[rule["type"]][1] if key not in rule]
        if missing:
            raise ValueError(f"compare_table rule #{position} ({rule['type']}) lacks {missing}")
    return rules
