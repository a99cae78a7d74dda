"""JSON as records hold it, and readers that tolerate what an earlier version wrote.

A record written by an earlier version may lack a key this version has, or hold one it no longer
knows; it must still load (``--resume``, a replay of an earlier run). Each reader takes the value
under a key when it has the expected type and a default otherwise, so ``from_json`` of every
record type is a list of readers and never raises on an old or hand-written record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union

#: A value :func:`json.dumps` writes: lists and objects are read-only views here, so a
#: ``list[str]`` or a ``dict[str, float]`` is one too (:func:`json.loads` gives lists and dicts).
JsonValue = Union[None, bool, int, float, str, Sequence["JsonValue"], Mapping[str, "JsonValue"]]
#: A JSON object: what every record entry is on disk.
JsonObject = dict[str, JsonValue]


def text(data: JsonObject, key: str, default: str = "") -> str:
    value = data.get(key)
    return value if isinstance(value, str) else default


def optional_text(data: JsonObject, key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def number(data: JsonObject, key: str) -> float | None:
    """A number as written (an int stays an int), or None; a boolean is no number."""
    value = data.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def integer(data: JsonObject, key: str, default: int = 0) -> int:
    found = optional_integer(data, key)
    return default if found is None else found


def optional_integer(data: JsonObject, key: str) -> int | None:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def flag(data: JsonObject, key: str, default: bool) -> bool:
    value = data.get(key)
    return value if isinstance(value, bool) else default


def texts(data: JsonObject, key: str) -> list[str]:
    value = data.get(key)
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def obj(data: JsonObject, key: str) -> JsonObject:
    """The object under ``key``, or an empty one."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def objects(data: JsonObject, key: str) -> list[JsonObject]:
    """The objects listed under ``key`` (anything else in the list is left out)."""
    value = data.get(key)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def numbers(data: JsonObject) -> dict[str, float]:
    """The entries of ``data`` whose values are numbers."""
    return {key: value for key in data if (value := number(data, key)) is not None}
