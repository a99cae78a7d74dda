"""The result file a near-miss maker varies: read once, each variant written beside the others.

Every file maker opens the same way (is the fetched result a readable file, and does it parse as
what the metric compares?) and closes the same way (the variant's text written to a fresh numbered
folder under the file's own name, named as a :class:`NearMiss`); only the variation between is
its own. So the opening and the closing live here once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from pytest_spider2v.near_misses.values import numbered
from pytest_spider2v.registry import NearMiss

T = TypeVar("T")


@dataclass(frozen=True)
class ResultFile(Generic[T]):
    """A fetched result file (``path``), what ``parse`` read of it (``content``) and the folder
    its variants go to (``workdir``)."""

    path: Path
    content: T
    workdir: Path

    def variant(self, kind: str, where: str, text: str) -> NearMiss:
        """``text`` written as a variant of the file, in a numbered folder of its own under the
        file's name (a metric may look for files named after the result beside it)."""
        out = numbered(self.workdir, self.path.name)
        out.write_text(text, encoding="utf-8")
        return NearMiss(kind, where, str(out))


def result_file(result: Any, workdir: Path, parse: Callable[[str], T | None]) -> ResultFile[T] | None:
    """The result as a file whose text ``parse`` reads; None when the result is no file, cannot
    be read as UTF-8 text, or ``parse`` rejects it (returns None or raises ValueError): a maker
    then has nothing to vary."""
    if not isinstance(result, (str, Path)) or not Path(result).is_file():
        return None
    try:
        content = parse(Path(result).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    return None if content is None else ResultFile(Path(result), content, workdir)
