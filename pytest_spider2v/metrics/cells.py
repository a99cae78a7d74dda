"""Reading one cell's value and style the way table rules compare them.

Values are the cached results the spreadsheet program saved (formulas are not re-evaluated),
with numbers as floats and dates as Excel serial numbers, so a value written by LibreOffice and
one written by Excel compare equal. Colours are aRGB strings such as ``"FF00FF00"``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.styles.colors import COLOR_INDEX, Color
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.utils.datetime import to_excel

#: Style names a ``style`` or ``check_cell`` rule may ask for.
STYLE_NAMES = frozenset(
    {
        "number_format", "font_name", "font_family", "font_color", "font_bold", "font_italic",
        "font_underline", "font_size", "fill_type", "bgcolor", "fgcolor", "hyperlink",
    }
)

_FONT_ATTRIBUTES = {
    "font_name": "name", "font_family": "family", "font_color": "color", "font_bold": "bold",
    "font_italic": "italic", "font_underline": "underline", "font_size": "size",
}


def cell_value(cell: Cell | MergedCell) -> Any:
    """A comparable value: float for numbers and dates, str, bool, or None when empty.

    Text stored inline (as openpyxl and pandas save it) reads like shared text; the original's
    reader returned None for it, a deliberate difference listed in the README.
    """
    value = cell.value
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time, dt.timedelta)):
        return float(to_excel(value))
    return str(value)


def color_value(color: Color | None) -> str | None:
    """aRGB for rgb and indexed colours; ``"theme:N:tint"`` for theme colours (not resolvable
    without the workbook theme, but still comparable between two files).

    The original read ``.rgb``, one placeholder for every theme and indexed colour, so any two
    of them compared equal: a deliberate difference listed in the README.
    """
    if color is None:
        return None
    if color.type == "rgb":
        return color.rgb
    if color.type == "indexed":
        index = color.indexed
        return COLOR_INDEX[index] if index is not None and 0 <= index < len(COLOR_INDEX) else f"indexed:{index}"
    if color.type == "theme":
        return f"theme:{color.theme}:{color.tint}"
    return f"{color.type}:{color.value}"


def read_cell_style(
    name: str,
    cell: Cell | MergedCell,
    dxf: DifferentialStyle | None = None,
    *,
    shown: Cell | MergedCell | None = None,
) -> Any:
    """One style property of ``cell``; with ``dxf`` (an active conditional format) the format's
    own settings win and unset ones fall back to the cell, as the spreadsheet renders it.

    ``shown`` is the same cell from the cached-values workbook: a formula cell is judged by the
    value it shows. Font and number-format properties of an empty cell are None (only shown
    text has a font), and a number format only matters for a numeric value.
    """
    if name not in STYLE_NAMES:
        raise ValueError(f"unsupported style property {name!r} (known: {sorted(STYLE_NAMES)})")
    empty = cell.value is None
    if name == "number_format":
        if empty or not isinstance(cell_value(shown if shown is not None else cell), float):
            return None
        if dxf is not None and dxf.numFmt is not None:
            return dxf.numFmt.formatCode
        return cell.number_format
    if name in _FONT_ATTRIBUTES:
        if empty:
            return None
        attribute = _FONT_ATTRIBUTES[name]
        value = None
        if dxf is not None and dxf.font is not None:
            value = getattr(dxf.font, attribute)
        if value is None:
            value = getattr(cell.font, attribute)
        return color_value(value) if attribute == "color" else value
    if name == "hyperlink":
        if empty:
            return None
        return cell.hyperlink.target if cell.hyperlink is not None else ""
    fill = dxf.fill if dxf is not None and dxf.fill is not None else cell.fill
    if name == "fill_type":
        return fill.tagname
    if fill.tagname != "patternFill":
        return None
    return color_value(fill.bgColor if name == "bgcolor" else fill.fgColor)  # type: ignore[union-attr]  # a patternFill is a PatternFill, which has both colours
