"""What an accessibility tree holds and how it is written (reference §4.2), shared by the two
walks (:mod:`.a11y` and :mod:`.a11y_naive`) so that they cannot drift apart.

Only the standard library and lxml: both walks import it, and unit tests on the host do too.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable

NS = {
    "st": "uri:deskat:state.at-spi.gnome.org",
    "attr": "uri:deskat:attributes.at-spi.gnome.org",
    "cp": "uri:deskat:component.at-spi.gnome.org",
    "doc": "uri:deskat:document.at-spi.gnome.org",
    "docattr": "uri:deskat:attributes.document.at-spi.gnome.org",
    "txt": "uri:deskat:text.at-spi.gnome.org",
    "val": "uri:deskat:value.at-spi.gnome.org",
    "act": "uri:deskat:action.at-spi.gnome.org",
}
MAX_DEPTH = 50
MAX_CHILDREN = 1025
#: Calc tables have millions of cells; only showing ones are emitted, and a scan gives up
#: after this many rows or columns without one.
CALC_GIVE_UP = 500
#: The role of a Calc document, below which a ``table`` is scanned for showing cells.
SPREADSHEET_ROLE = "document spreadsheet"
#: ``(attribute, Value property)``: the numbers of a node with the Value interface.
VALUE_FIELDS = (("value", "CurrentValue"), ("min", "MinimumValue"), ("max", "MaximumValue"),
                ("step", "MinimumIncrement"))

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_XML_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")


def clean(value: object) -> str:
    """``value`` as text that XML can hold."""
    return _NOT_XML.sub("", str(value))


def clean_text(text: str) -> str:
    """A node's text content: embedded-object and replacement characters dropped."""
    return clean(text.replace("\ufffc", "").replace("\ufffd", ""))


def qname(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def is_xml_name(key: str) -> bool:
    return bool(_XML_NAME.match(key))


def tag(role_name: str) -> str:
    """The element name of a node with this role name."""
    return (role_name.strip() or "unknown").replace(" ", "-")


def add_pairs(attrs: dict[str, str], prefix: str, pairs: Iterable[tuple[str, str]]) -> None:
    """Attributes of an AT-SPI attribute set (keys that cannot be XML names are dropped)."""
    for key, value in pairs:
        if is_xml_name(key):
            attrs[qname(prefix, key)] = clean(value)


def add_action(attrs: dict[str, str], name: str, description: str, key_binding: str) -> None:
    key = name.replace(" ", "-")
    if is_xml_name(key):
        attrs[qname("act", f"{key}_desc")] = clean(description)
        attrs[qname("act", f"{key}_kb")] = clean(key_binding)


def showing_cells(n_rows: int, n_cols: int) -> Generator[tuple[int, int], bool, None]:
    """The cells of a Calc sheet to emit, decided row by row from the first showing one.

    A generator both walks drive: it yields the ``(row, column)`` to look at next and is sent
    whether that cell is showing; the cells it was sent ``True`` for are the ones to emit, in
    the order they were asked. A row ends at its first hidden cell after a showing one; the scan
    ends at the first row without one after a row with one, or after :data:`CALC_GIVE_UP` hidden
    cells or rows.
    """
    first_col: int | None = None
    seen = False
    rows_without = 0
    for row in range(n_rows):
        found = False
        misses = 0
        for col in range(first_col or 0, n_cols):
            if (yield row, col):
                found = True
                first_col = col if first_col is None else first_col
            elif found:
                break
            else:
                misses += 1
                if misses >= CALC_GIVE_UP:
                    break
        if found:
            seen = True
        elif seen:
            return
        else:
            rows_without += 1
            if rows_without >= CALC_GIVE_UP:
                return


def cells_asked(n_rows: int, n_cols: int, showing: tuple[int, int, int, int], limit: int) -> list[tuple[int, int]]:
    """The cells :func:`showing_cells` asks about, in order, when exactly the block ``showing``
    (first row, first column, last row, last column) shows: what a walk can ask for in one
    batch before the scan needs it. Empty past ``limit`` cells (a sheet scrolled far away)."""
    first_row, first_col, last_row, last_col = showing
    asked: list[tuple[int, int]] = []
    scan = showing_cells(n_rows, n_cols)
    try:
        row, col = next(scan)
        while len(asked) < limit:
            asked.append((row, col))
            row, col = scan.send(first_row <= row <= last_row and first_col <= col <= last_col)
    except StopIteration:
        return asked
    return []
