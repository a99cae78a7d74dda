"""Metrics over strings, small values and text files (reference section 3.4).

Text files are compared as UTF-8; a missing or unreadable file scores 0 with the reason
logged. Functions follow the original harness's semantics, with the differences noted in
their docstrings.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
from typing import Any

from pytest_spider2v.metrics.files import FileArg, existing_file, first_line_difference, read_text
from pytest_spider2v.registry import metrics

logger = logging.getLogger(__name__)


@metrics.register()
def check_include_exclude(result: Any, rules: dict[str, list[str]]) -> float:
    """1.0 if every ``include`` item is ``in`` the result and no ``exclude`` one is: substrings
    for a string result, members for a list; other values are compared as their ``str()``."""
    if result is None:
        logger.info("check_include_exclude: no result")
        return 0.0
    text = result if isinstance(result, (str, list, tuple, set, dict)) else str(result)
    missing = [s for s in rules.get("include", []) if s not in text]
    present = [s for s in rules.get("exclude", []) if s in text]
    if missing or present:
        logger.info(
            "check_include_exclude: missing %r, forbidden but present %r, in result %r", missing, present, str(text)[-2000:]
        )
        return 0.0
    return 1.0


@metrics.register()
def exact_match(result: Any, rules: dict[str, Any]) -> float:
    """1.0 if ``result == rules["expected"]``."""
    if result == rules["expected"]:
        return 1.0
    logger.info("exact_match: %r != expected %r", result, rules["expected"])
    return 0.0


@metrics.register()
def literal_match(
    result: Any, expected: Any, *, type: str = "str", ignore_case: bool = False, ignore_order: bool = False
) -> float:
    """Compare literals: ``type="str"`` compares ``str()`` forms; ``type="list"`` compares two
    lists (or tuples) item by item as strings, ``ignore_order`` comparing them sorted."""
    if type == "str":
        a, b = str(result), str(expected)
        if ignore_case:
            a, b = a.lower(), b.lower()
        ok = a == b
    elif type == "list":
        if not isinstance(result, (list, tuple)) or not isinstance(expected, (list, tuple)):
            logger.info("literal_match: list expected, got %r and %r", result, expected)
            return 0.0
        a_items, b_items = [str(s) for s in result], [str(s) for s in expected]
        if ignore_case:
            a_items, b_items = [s.lower() for s in a_items], [s.lower() for s in b_items]
        if ignore_order:
            a_items, b_items = sorted(a_items), sorted(b_items)
        ok = a_items == b_items
    else:
        raise ValueError(f"literal_match: unsupported type {type!r} (use 'str' or 'list')")
    if not ok:
        logger.info("literal_match (%s): %r != %r", type, result, expected)
    return float(ok)


@metrics.register()
def is_not_in_list(result: Any, rules: dict[str, Any]) -> float:
    """1.0 if ``rules["exclude"]`` is not an item of ``result``. A list of excluded items
    means none of them may be present. The original tested the list itself as one item, which
    no result holds, so it always passed: a deliberate difference listed in the README."""
    if result is None:
        logger.info("is_not_in_list: no result")
        return 0.0
    excluded = rules["exclude"]
    items = excluded if isinstance(excluded, list) else [excluded]
    present = [item for item in items if item in result]
    if present:
        logger.info("is_not_in_list: %r present in %r", present, result)
        return 0.0
    return 1.0


@metrics.register()
def is_expected_url_pattern_match(result: Any, rules: dict[str, list[str]]) -> float:
    """1.0 if every regex in ``rules["expected"]`` is found (``re.search``) in the URL; the
    result is the URL or a dict with a ``url`` key (the active-tab getter's shape)."""
    if not result:
        logger.info("is_expected_url_pattern_match: no URL")
        return 0.0
    url = result.get("url") if isinstance(result, dict) else result
    if not isinstance(url, str):
        logger.info("is_expected_url_pattern_match: no URL in %r", result)
        return 0.0
    for pattern in rules["expected"]:
        if re.search(pattern, url) is None:
            logger.info("is_expected_url_pattern_match: %r not found in %r", pattern, url)
            return 0.0
    return 1.0


@metrics.register()
def check_file_existence(result: FileArg) -> float:
    """1.0 if the fetched file exists (the task's expected is null)."""
    return 0.0 if existing_file(result, "result") is None else 1.0


@metrics.register()
def compare_text_file(
    result: FileArg, expected: FileArg, *, ignore_blanks: bool = False, ignore_case: bool = False
) -> float:
    """1.0 if the texts are equal; ``ignore_blanks`` collapses whitespace runs to one space and
    strips the ends, ``ignore_case`` lower-cases."""
    a, b = read_text(result, "result"), read_text(expected, "expected")
    if a is None or b is None:
        return 0.0
    if ignore_blanks:
        a, b = re.sub(r"\s+", " ", a).strip(), re.sub(r"\s+", " ", b).strip()
    if ignore_case:
        a, b = a.lower(), b.lower()
    if a == b:
        return 1.0
    logger.info("compare_text_file: %s", _first_char_difference(a, b))
    return 0.0


def _first_char_difference(a: str, b: str) -> str:
    position = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"first difference at character {position}: result {a[position:position + 60]!r} vs expected {b[position:position + 60]!r}"


@metrics.register()
def compare_sql(result: FileArg, expected: FileArg) -> float:
    """1.0 if the two SQL files have exactly the same text."""
    a, b = read_text(result, "result"), read_text(expected, "expected")
    if a is None or b is None:
        return 0.0
    if a == b:
        return 1.0
    logger.info("compare_sql: %s", _first_char_difference(a, b))
    return 0.0


@metrics.register()
def diff_text_file(result: FileArg, expected: FileArg) -> float:
    """Similarity in [0, 1]: difflib ``SequenceMatcher`` ratio over the two files' lines."""
    a, b = read_text(result, "result"), read_text(expected, "expected")
    if a is None or b is None:
        return 0.0
    a_lines, b_lines = a.splitlines(), b.splitlines()
    ratio = difflib.SequenceMatcher(a=a_lines, b=b_lines).ratio()
    if ratio < 1.0:
        logger.info("diff_text_file: ratio %.3f; %s", ratio, first_line_difference(a_lines, b_lines))
    return ratio


@metrics.register()
def compare_json_file(result: FileArg, expected: FileArg) -> float:
    """1.0 if both files parse as JSON to equal values."""
    a, b = read_text(result, "result"), read_text(expected, "expected")
    if a is None or b is None:
        return 0.0
    try:
        a_value, b_value = json.loads(a), json.loads(b)
    except json.JSONDecodeError as exc:
        logger.info("compare_json_file: invalid JSON: %s", exc)
        return 0.0
    if a_value == b_value:
        return 1.0
    logger.info("compare_json_file: %s", _first_json_difference(a_value, b_value, "$"))
    return 0.0


def _first_json_difference(a: Any, b: Any, path: str) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return f"{path}: keys only in result {sorted(set(a) - set(b))}, only in expected {sorted(set(b) - set(a))}"
        for key in a:
            if a[key] != b[key]:
                return _first_json_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_json_difference(x, y, f"{path}[{i}]")
    return f"{path}: result {a!r} != expected {b!r}"
