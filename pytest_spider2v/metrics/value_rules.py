"""``{"method": ..., "ref": ...}`` value rules, shared by the spreadsheet checks.

Tasks of the original benchmark state cell, zoom and data-validation expectations as a method
name plus a reference value; this module is the one interpreter of that small language so every
rule type agrees on what ``"approx:0.01"`` or ``"range.te"`` means.
"""

from __future__ import annotations

import functools
import operator
import re
from typing import Any

from openpyxl.worksheet.cell_range import MultiCellRange

_COMPARISONS = {"eq", "ne", "le", "lt", "ge", "gt"}


def match_value_to_rule(value: Any, rule: dict[str, Any]) -> bool:
    """Whether ``value`` satisfies ``rule``.

    Methods: ``re[.FLAG...]`` (regex search), ``eq ne le lt ge gt``, ``approx:THRESHOLD``,
    ``spreadsheet_range`` (ref = [subset, superset] ranges), ``range.XY`` (X, Y in {t, e}: strict
    or inclusive lower and upper bounds), ``str_list_eq`` / ``str_set_eq`` (comma-separated text).
    An unknown method raises ``ValueError``: a rule that cannot be read must not pass.
    """
    method: str = rule["method"]
    ref = rule.get("ref")
    if method.startswith("re"):
        if method != "re" and not method.startswith("re."):
            raise ValueError(f"unknown value-rule method {method!r}")
        flags = functools.reduce(
            operator.or_, (getattr(re, name) for name in method.split(".")[1:]), re.RegexFlag(0)
        )
        return isinstance(value, str) and re.search(ref, value, flags) is not None  # type: ignore[arg-type]  # a rule with this method carries its ref
    if method in _COMPARISONS:
        try:
            return bool(getattr(operator, method)(value, ref))
        except TypeError:  # e.g. None < 3: an absent value does not satisfy an ordering
            return False
    if method.startswith("approx:"):
        threshold = float(method.split(":", 1)[1])
        try:
            return abs(float(value) - float(ref)) <= threshold  # type: ignore[arg-type]  # a rule with this method carries its ref; None fails as a TypeError, caught
        except (TypeError, ValueError):
            return False
    if method == "spreadsheet_range":
        subset, superset = MultiCellRange(ref[0]), MultiCellRange(ref[1])  # type: ignore[index]  # a rule with this method carries its ref
        ranges = value if isinstance(value, MultiCellRange) else MultiCellRange(str(value))
        return all(r in ranges for r in subset) and all(r in superset for r in ranges)
    if method.startswith("range.") and len(method) == 8:
        low = operator.le if method[6] == "e" else operator.lt
        high = operator.le if method[7] == "e" else operator.lt
        try:
            return low(ref[0], value) and high(value, ref[1])  # type: ignore[index]  # a rule with this method carries its ref; None fails as a TypeError, caught
        except TypeError:
            return False
    if method in ("str_list_eq", "str_set_eq"):
        if not isinstance(value, str):
            return False
        container = list if method == "str_list_eq" else set
        return container(value.strip("\"'").split(",")) == container(ref)  # type: ignore[arg-type]  # a rule with this method carries its ref
    raise ValueError(f"unknown value-rule method {method!r}")
