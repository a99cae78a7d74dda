"""``check_yaml_file``: rules over a YAML file such as dbt's ``profiles.yml`` or ``schema.yml``.

A rule is ``[match_type, key_path, expected]``. The key path walks the parsed document: a
string picks a mapping key, an int (or an int-like string) a list index, and a ``[k, v]`` pair
picks the first list element whose ``k`` equals ``v`` (e.g. the model named "customers").
"""

from __future__ import annotations

import logging
from typing import Any

import yaml

from pytest_spider2v.metrics.files import FileArg, read_text
from pytest_spider2v.registry import metrics

logger = logging.getLogger(__name__)

MATCH_TYPES = ("match", "in", "contain", "not_null")


_MISSING = object()


class _PathNotFound(LookupError):
    """The key path leads nowhere in this document: the rule fails (score 0)."""


def _walk(document: Any, key_path: list[Any]) -> Any:
    value = document
    for key in key_path:
        if isinstance(value, dict):
            if isinstance(key, list) or key not in value:
                raise _PathNotFound(f"key {key!r} not found")
            value = value[key]
        elif isinstance(value, list):
            if isinstance(key, list):
                if len(key) != 2:
                    raise ValueError(f"list pick {key!r} must be [key, value]")
                k, v = key
                value = next((item for item in value if isinstance(item, dict) and item.get(k) == v), _MISSING)
                if value is _MISSING:
                    raise _PathNotFound(f"no list element with {k}={v!r}")
            else:
                try:
                    value = value[int(key)]
                except (ValueError, IndexError):
                    raise _PathNotFound(f"no list element {key!r}") from None
        else:
            raise _PathNotFound(f"cannot descend into {value!r} with {key!r}")
    return value


def _holds(match_type: str, value: Any, expected: Any) -> bool:
    try:
        if match_type == "match":
            return value == expected
        if match_type == "in":
            return value in expected
        if match_type == "contain":
            return expected in value
        return bool(value)  # not_null: present and non-empty
    except TypeError:  # e.g. "x" in None
        return False


@metrics.register()
def check_yaml_file(result: FileArg, rules: list[list[Any]]) -> float:
    """1.0 if every rule holds. ``match``: equal; ``in``: value is in expected; ``contain``:
    expected is in value; ``not_null``: value is truthy. A missing key path fails the rule."""
    for rule in rules:
        if not isinstance(rule, (list, tuple)) or len(rule) != 3 or rule[0] not in MATCH_TYPES:
            raise ValueError(f"check_yaml_file: malformed rule {rule!r} (want [match_type, key_path, expected], "
                             f"match_type in {MATCH_TYPES})")
    text = read_text(result, "result")
    if text is None:
        return 0.0
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        logger.info("check_yaml_file: invalid YAML: %s", exc)
        return 0.0
    for match_type, key_path, expected in rules:
        try:
            value = _walk(document, key_path)
        except _PathNotFound as exc:
            logger.info("check_yaml_file: %s %s: %s", match_type, key_path, exc)
            return 0.0
        if not _holds(match_type, value, expected):
            logger.info("check_yaml_file: %s failed at %s: value %r, expected %r", match_type, key_path, value, expected)
            return 0.0
    return 1.0
