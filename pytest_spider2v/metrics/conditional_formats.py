"""Which cells a sheet's conditional formats switch on, so ``style`` rules see rendered styles.

A task such as "highlight the largest rate in green" is solved with a conditional format, not
with a static font colour. The original harness evaluated ``expression`` rules with the
``formulas`` package; this module does the same with Excel's relative-reference semantics
(relative parts of a reference move with the cell, ``$`` parts stay), and also evaluates
``cellIs`` rules by turning them into the equivalent expression. Other rule kinds (colour
scales, data bars, icon sets, top-N, ...) raise ``NotImplementedError`` rather than being
ignored, so a style check never passes on formatting it did not look at.

The original gave a formula the formatted cell's own value for every reference that was not
fully absolute, and raised on ``cellIs``: both are deliberate differences listed in docs/differences.md.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import schedula
from openpyxl.formatting.rule import Rule
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.utils import column_index_from_string, get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from pytest_spider2v.metrics.cells import cell_value

_CELL_IS = {
    "equal": "{c}={0}", "notEqual": "{c}<>{0}", "greaterThan": "{c}>{0}", "lessThan": "{c}<{0}",
    "greaterThanOrEqual": "{c}>={0}", "lessThanOrEqual": "{c}<={0}",
    "between": "AND({c}>={0},{c}<={1})", "notBetween": "OR({c}<{0},{c}>{1})",
}
_STRING = re.compile(r'"(?:[^"]|"")*"')
_REFERENCE = re.compile(
    r"(?<![A-Za-z0-9_.])(\$?)([A-Z]{1,3})(\$?)([0-9]+)(?::(\$?)([A-Z]{1,3})(\$?)([0-9]+))?(?![A-Za-z0-9_(!])"
)

Corner = tuple[str, str, str, str]  # column anchor, column, row anchor, row


def active_formats(ws: Worksheet, values: Worksheet) -> Iterator[tuple[str, DifferentialStyle | None]]:
    """(coordinate, differential style) for every cell a conditional format applies to.

    ``values`` is the same sheet opened with cached values. Rules are applied from the lowest
    priority to the highest, so where two formats hit one cell the later (stronger) one is
    yielded last and wins.
    """
    rules = [(rule, cf.sqref) for cf in ws.conditional_formatting for rule in cf.rules]
    rules.sort(key=lambda item: -(item[0].priority or 0))
    for rule, sqref in rules:
        condition = _condition(rule, sqref)
        top = min(r.min_row for r in sqref.ranges)
        left = min(r.min_col for r in sqref.ranges)
        for cell_range in sorted(sqref.ranges, key=lambda r: r.bounds):
            for row, col in cell_range.cells:
                if condition(values, row - top, col - left):
                    yield f"{get_column_letter(col)}{row}", rule.dxf


def _condition(rule: Rule, sqref: Any) -> Callable[[Worksheet, int, int], bool]:
    if rule.type == "expression":
        if not rule.formula:
            raise ValueError("conditional format of type 'expression' without a formula")
        return _compile(rule.formula[0])
    if rule.type == "cellIs":
        if rule.operator not in _CELL_IS:
            raise NotImplementedError(f"conditional format cellIs operator {rule.operator!r} is not supported")
        top = min(r.min_row for r in sqref.ranges)
        left = min(r.min_col for r in sqref.ranges)
        corner = f"{get_column_letter(left)}{top}"
        return _compile(_CELL_IS[rule.operator].format(*rule.formula, c=corner))
    raise NotImplementedError(
        f"conditional format of type {rule.type!r} cannot be evaluated (only 'expression' and 'cellIs')"
    )


@functools.lru_cache(maxsize=64)
def _compile(formula: str) -> Callable[[Worksheet, int, int], bool]:
    """A predicate (sheet, row offset, column offset) -> bool for one conditional formula."""
    import formulas  # heavy import, only paid by workbooks that have conditional formats

    scan = _STRING.sub('""', formula)
    if "!" in scan:
        raise NotImplementedError(f"conditional formula {formula!r} refers to another sheet")
    references: dict[str, tuple[Corner, Corner | None]] = {}
    for match in _REFERENCE.finditer(scan):
        first: Corner = match.group(1, 2, 3, 4)  # type: ignore[assignment]  # the pattern's groups 1-4 always match
        second: Corner | None = match.group(5, 6, 7, 8) if match.group(6) else None  # type: ignore[assignment]  # groups 5-8 match together, when group 6 does
        name = f"{first[1]}{first[3]}" + (f":{second[1]}{second[3]}" if second else "")
        if references.setdefault(name, (first, second)) != (first, second):
            raise NotImplementedError(f"conditional formula {formula!r} anchors {name} in two ways")
    function = formulas.Parser().ast("=" + formula)[1].compile()
    unknown = [name for name in function.inputs if name.upper() not in references]
    if unknown:
        raise NotImplementedError(f"conditional formula {formula!r}: cannot resolve inputs {unknown}")
    order = [references[name.upper()] for name in function.inputs]

    def condition(values: Worksheet, row_offset: int, col_offset: int) -> bool:
        arguments = [_read(values, ref, row_offset, col_offset) for ref in order]
        return _truth(function(*arguments))

    return condition


def _shift(corner: Corner, row_offset: int, col_offset: int) -> tuple[int, int]:
    col_anchor, col, row_anchor, row = corner
    column = column_index_from_string(col) + (0 if col_anchor else col_offset)
    return int(row) + (0 if row_anchor else row_offset), column


def _read(values: Worksheet, ref: tuple[Corner, Corner | None], row_offset: int, col_offset: int) -> Any:
    row1, col1 = _shift(ref[0], row_offset, col_offset)
    if ref[1] is None:
        return _operand(cell_value(values.cell(row=row1, column=col1)))
    row2, col2 = _shift(ref[1], row_offset, col_offset)
    block = np.empty((row2 - row1 + 1, col2 - col1 + 1), dtype=object)
    for i, row in enumerate(range(row1, row2 + 1)):
        for j, col in enumerate(range(col1, col2 + 1)):
            block[i, j] = _operand(cell_value(values.cell(row=row, column=col)))
    return block


def _operand(value: Any) -> Any:
    return schedula.EMPTY if value is None else value


def _truth(result: Any) -> bool:
    """Excel applies a format when the formula gives TRUE or a non-zero number."""
    value = np.asarray(result, dtype=object).ravel()
    if value.size == 0:
        return False
    first = value[0]
    if isinstance(first, (bool, np.bool_)):
        return bool(first)
    if isinstance(first, (int, float, np.number)):
        return first != 0
    return False
