"""Near misses of CSV files (``compare_csv``): one value changed in each column, one row
dropped, two rows swapped where order matters. Only the touched line is rewritten, so quoting
elsewhere stays as the reference run wrote it."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pytest_spider2v.near_misses.values import changed_text, middle, numbered
from pytest_spider2v.registry import NearMiss, near_misses

#: Columns given a changed value each, at most: a wide table needs no more to show a metric reads its cells.
MAX_COLUMNS = 12


@near_misses.register("compare_csv")
def csv_file(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    if not isinstance(result, (str, Path)) or not Path(result).is_file():
        return
    path = Path(result)
    try:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return
    rows = [i for i, line in enumerate(lines) if line.strip()]
    if not rows:
        return
    data = rows[1:] or rows  # a header, then the data rows
    chosen = data[middle(len(data))]
    fields = _fields(lines[chosen])
    header = _fields(lines[rows[0]]) if len(rows) > 1 else fields
    for column, value in enumerate(fields[:MAX_COLUMNS]):
        name = header[column] if column < len(header) else str(column + 1)
        wrong = [*fields[:column], changed_text(value), *fields[column + 1:]]
        yield _write(path, workdir, lines, {chosen: _line(wrong, lines[chosen])}, "value changed",
                     f"line {chosen + 1}, column {name!r}")
    if len(rows) > 1:
        yield _write(path, workdir, lines, {chosen: ""}, "row dropped", f"line {chosen + 1}")
    if len(rows) > 1 and rows[-1] != chosen:
        yield _write(path, workdir, lines, {rows[-1]: ""}, "row dropped", f"line {rows[-1] + 1} (the last)")
    if not options.get("ignore_order", False):
        first = next(((a, b) for a, b in zip(data, data[1:]) if lines[a].strip() != lines[b].strip()), None)
        if first is not None:
            a, b = first
            yield _write(path, workdir, lines, {a: lines[b], b: lines[a]}, "rows swapped", f"lines {a + 1} and {b + 1}")


def _fields(line: str) -> list[str]:
    return next(csv.reader([line.rstrip("\r\n")]), [])


def _line(fields: list[str], original: str) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(fields)
    ending = original[len(original.rstrip("\r\n")):]
    return out.getvalue() + ending


def _write(path: Path, workdir: Path, lines: list[str], replaced: dict[int, str], kind: str, where: str) -> NearMiss:
    out = numbered(workdir, path.name)
    out.write_text("".join(replaced.get(i, line) for i, line in enumerate(lines)), encoding="utf-8")
    return NearMiss(kind, where, str(out))
