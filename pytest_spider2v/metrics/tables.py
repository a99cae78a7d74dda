"""Metrics over tabular files: ``compare_csv`` (line lists) and ``compare_table`` (workbooks).

The workbook machinery (openpyxl, pandas, formulas: :mod:`.table_rules`, :mod:`.workbooks` and
the modules under them) is imported by ``compare_table`` when it runs, not at start-up, when
every metric is registered.
"""

from __future__ import annotations

import logging
from typing import Any

from pytest_spider2v.metrics.files import FileArg, existing_file, first_line_difference, read_text
from pytest_spider2v.registry import metrics

logger = logging.getLogger(__name__)


@metrics.register()
def compare_csv(
    result: FileArg,
    expected: FileArg,
    *,
    strict: bool = True,
    ignore_case: bool = False,
    ignore_order: bool = False,
) -> float:
    """1.0 if both files have the same lines. ``strict=False`` strips each line first;
    ``ignore_case`` lower-cases lines; ``ignore_order`` sorts them."""
    result_text, expected_text = read_text(result, "result"), read_text(expected, "expected")
    if result_text is None or expected_text is None:
        return 0.0
    result_lines, expected_lines = result_text.splitlines(), expected_text.splitlines()
    if not strict:
        result_lines, expected_lines = [line.strip() for line in result_lines], [line.strip() for line in expected_lines]
    if ignore_case:
        result_lines, expected_lines = [line.lower() for line in result_lines], [line.lower() for line in expected_lines]
    if ignore_order:
        result_lines, expected_lines = sorted(result_lines), sorted(expected_lines)
    if result_lines == expected_lines:
        return 1.0
    logger.info("compare_csv: %s", first_line_difference(result_lines, expected_lines))
    return 0.0


@metrics.register()
def compare_table(result: FileArg, expected: FileArg = None, *, rules: list[dict[str, Any]]) -> float:
    """1.0 if every rule passes on the result workbook (and the expected one, when given).

    Rule types: sheet_name, sheet_data, sheet_print, sheet_fuzzy, sparkline, chart,
    pivot_table, style, freeze, zoom, data_validation, row_props, col_props, filter,
    check_cell (see ``table_rules``). Rules are checked before any file is opened: an unknown
    type or a rule missing its keys raises, because the task itself is broken. A missing or
    unreadable workbook, or a sheet a rule addresses that is not there, scores 0 with a log.
    """
    from pytest_spider2v.metrics.table_rules import RULES, validate_rules
    from pytest_spider2v.metrics.workbooks import Book, BookPair, WorkbookError

    validate_rules(rules)
    result_path = existing_file(result, "result")
    if result_path is None:
        return 0.0
    expected_book = None
    if expected is not None:
        expected_path = existing_file(expected, "expected")
        if expected_path is None:
            return 0.0
        expected_book = Book(expected_path)
    pair = BookPair(Book(result_path), expected_book)
    try:
        pair.result.ensure_readable()
    except WorkbookError as exc:
        logger.info("compare_table: %s", exc)
        return 0.0
    for position, rule in enumerate(rules):
        check = RULES[rule["type"]][0]
        try:
            passed = check(pair, rule)
        except WorkbookError as exc:
            logger.info("compare_table rule #%d (%s): %s", position, rule["type"], exc)
            return 0.0
        if not passed:
            logger.info("compare_table rule #%d (%s) failed", position, rule["type"])
            return 0.0
    return 1.0
