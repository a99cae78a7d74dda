"""Opening the result and expected workbooks once, and the sheet addressing of table rules.

A ``compare_table`` rule names sheets as ``0`` (result index), ``"RI0"`` / ``"RNSheet1"``
(result by index / by name) or ``"EI0"`` / ``"ENSheet1"`` (expected). Every rule needs a
different view of the same file (cached values, styles and objects, pandas frames), so a
:class:`Book` opens each view lazily and keeps it.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl
import pandas as pd
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet


class WorkbookError(Exception):
    """A workbook cannot be read, or a rule addresses a sheet it does not have.

    ``compare_table`` turns it into a score of 0 with the message logged: the agent's file is
    what it is, and a missing or broken sheet is a failed check, not a crash.
    """


@dataclass
class Book:
    """One .xlsx file with its openpyxl and pandas views, opened on first use."""

    path: Path
    _cache: dict[str, object] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def styled(self) -> Workbook:
        """Formulas, styles, charts, pivot tables, validations, conditional formats."""
        return _open(self.path, data_only=False)

    @functools.cached_property
    def values(self) -> Workbook:
        """Cached cell values as the spreadsheet program last computed them."""
        return _open(self.path, data_only=True)

    def ensure_readable(self) -> None:
        """Open the workbook now, so an unreadable file fails before any rule logic runs."""
        _ = self.styled

    @functools.cached_property
    def sheet_names(self) -> list[str]:
        """Worksheet titles in order; chart sheets are not addressable (as in pandas)."""
        return [ws.title for ws in self.styled.worksheets]

    def worksheet(self, name: str, *, values: bool = False) -> Worksheet:
        book = self.values if values else self.styled
        if name not in self.sheet_names:
            raise WorkbookError(f"{self.path.name} has no sheet {name!r} (sheets: {self.sheet_names})")
        return book[name]

    def frame(self, name: str) -> pd.DataFrame:
        """The sheet as pandas reads it (header row = first row), as the original compared it."""
        if name not in self.sheet_names:
            raise WorkbookError(f"{self.path.name} has no sheet {name!r} (sheets: {self.sheet_names})")
        key = f"frame:{name}"
        if key not in self._cache:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    self._cache[key] = pd.read_excel(self.path, sheet_name=name, engine="openpyxl")
            except Exception as exc:  # pandas re-reads the file; any failure means unreadable
                raise WorkbookError(f"pandas cannot read sheet {name!r} of {self.path.name}: {exc}") from exc
        return self._cache[key]  # type: ignore[return-value]


def _open(path: Path, *, data_only: bool) -> Workbook:
    try:
        with warnings.catch_warnings():
            # openpyxl warns about every extension it drops (sparklines, slicers); noise here.
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(path, data_only=data_only)
    except Exception as exc:  # zip, XML and openpyxl errors alike mean "unreadable"
        raise WorkbookError(f"cannot read workbook {path.name}: {type(exc).__name__}: {exc}") from exc


@dataclass
class BookPair:
    """The result workbook and (optionally) the expected one, as a rule addresses them."""

    result: Book
    expected: Book | None

    def locate(self, index: int | str) -> tuple[Book, str]:
        """Resolve a sheet address to (book, sheet name); raises :class:`WorkbookError`."""
        if isinstance(index, bool) or not isinstance(index, (int, str)):
            raise ValueError(f"sheet address must be an int or a string, got {index!r}")
        if isinstance(index, int):
            return self.result, self._by_position(self.result, index, index)
        prefix, rest = index[:2], index[2:]
        if prefix not in ("RI", "RN", "EI", "EN"):
            raise ValueError(f"unrecognised sheet address {index!r} (use 0, RI0, RNname, EI0, ENname)")
        book = self.result if prefix[0] == "R" else self.expected
        if book is None:
            raise WorkbookError(f"sheet address {index!r} needs an expected workbook, and there is none")
        if prefix[1] == "N":
            return book, rest
        try:
            position = int(rest)
        except ValueError:
            raise ValueError(f"unrecognised sheet address {index!r}: {rest!r} is not an index") from None
        return book, self._by_position(book, position, index)

    @staticmethod
    def _by_position(book: Book, position: int, index: int | str) -> str:
        try:
            return book.sheet_names[position]
        except IndexError:
            raise WorkbookError(
                f"sheet {index!r}: {book.path.name} has only {len(book.sheet_names)} sheet(s)"
            ) from None
