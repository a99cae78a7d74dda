"""The corrections running single tasks found to what their files say (``known_needs.yaml``).

The reading is static, so a few tasks need what no file of theirs shows, or do not need what one
shows. The corrections are data, checked as they are loaded, kept beside the reading they correct.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, get_args

import yaml

from pytest_spider2v.tasks.needs.facts import Need, NeedKind

#: What running single tasks showed that reading them cannot (see :func:`load_known_needs`).
KNOWN_NEEDS = Path(__file__).with_name("known_needs.yaml")


@dataclass(frozen=True)
class KnownNeeds:
    """One task's corrections to what its files say: needs no file shows, and needs the files
    show that the task does not have (a download whose failure its evaluation never sees)."""

    needs: tuple[Need, ...] = ()
    not_needs: frozenset[tuple[str, str]] = frozenset()  #: (kind, name)


def load_known_needs(path: Path = KNOWN_NEEDS) -> dict[str, KnownNeeds]:
    """Task key (``<app>/<id>``) -> its corrections, from a YAML file (none when it is absent).

    The reading is static, so a few tasks need what no file of theirs shows (a DAG reaching a web
    API through a connection the agent creates) or do not need what one shows (a download whose
    failure the evaluation never sees). Each entry says why, and is found by running the task:
    its validation holds it (a task the reading would skip wrongly passes; one it would run
    wrongly cannot score 1 here)."""
    if not path.is_file():
        return {}
    return _load_known_needs(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _load_known_needs(path: Path, mtime_ns: int) -> dict[str, KnownNeeds]:
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: expected a mapping of task keys, got {type(data).__name__}")
    return {str(key): _known_entry(path, str(key), entry) for key, entry in data.items()}


def _known_entry(path: Path, key: str, entry: Any) -> KnownNeeds:
    if not isinstance(entry, Mapping) or not entry or set(entry) - {"needs", "not_needs"}:
        raise ValueError(f"{path}: {key} must map 'needs' and/or 'not_needs' to lists")
    items = {slot: _known_items(path, key, slot, entry.get(slot) or []) for slot in ("needs", "not_needs")}
    return KnownNeeds(tuple(Need(kind, name, text) for kind, name, text in items["needs"]),  # type: ignore[arg-type]
                      frozenset((kind, name) for kind, name, _ in items["not_needs"]))


def _known_items(path: Path, key: str, slot: str, items: Any) -> list[tuple[str, str, str]]:
    """(kind, name, where or why) of each item: ``{kind: host, name: wttr.in, where: ...}``
    under ``needs``, ``{kind: ..., name: ..., why: ...}`` under ``not_needs``."""
    text_key = "where" if slot == "needs" else "why"
    if not isinstance(items, list):
        raise ValueError(f"{path}: {key}.{slot} must be a list")
    found = []
    for item in items:
        if (not isinstance(item, Mapping) or set(item) != {"kind", "name", text_key}
                or item["kind"] not in get_args(NeedKind) or not all(str(item[k]).strip() for k in item)):
            raise ValueError(f"{path}: {key}.{slot}: each item is kind ({', '.join(get_args(NeedKind))}), "
                             f"name and {text_key}, got {item!r}")
        found.append((str(item["kind"]), str(item["name"]), str(item[text_key])))
    return found
