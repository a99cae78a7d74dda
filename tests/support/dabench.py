"""Tiny InfiAgent checkouts for tests: the published layout, a few questions written inline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_spider2v.formats.dabench import DATA_FOLDER

#: Two tables: the mean of ``titanic.csv``'s Fare is 15.25.
TABLES = {"titanic.csv": "Fare,Age\n10.0,30\n20.5,40\n", "fares 2024.csv": "Fare\n7.25\n71.28\n"}


def write_jsonl(path: Path, rows: list[Any]) -> None:
    """One JSON document a line; a str row is written as it is (a broken line)."""
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows),
                    encoding="utf-8")


def make_checkout(root: Path, questions: list[Any], labels: list[Any]) -> Path:
    """An InfiAgent checkout with these questions and labels; returns its questions file."""
    data = root / DATA_FOLDER
    (data / "da-dev-tables").mkdir(parents=True)
    for name, text in TABLES.items():
        (data / "da-dev-tables" / name).write_text(text, encoding="utf-8")
    write_jsonl(data / "da-dev-questions.jsonl", questions)
    write_jsonl(data / "da-dev-labels.jsonl", labels)
    return data / "da-dev-questions.jsonl"
