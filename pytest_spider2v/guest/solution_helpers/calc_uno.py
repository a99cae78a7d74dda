"""Guest helpers for the Calc reference solutions: drive the open workbook through LibreOffice's
UNO API, as an agent with a terminal and Python could.

Pivot tables and charts made through Calc's dialogs are fragile to replay with mouse clicks, so
the solutions ask the running LibreOffice for a UNO connection instead. :func:`listen` runs
``soffice --accept=...``: a second soffice hands that request to the running instance and exits,
so the task's document stays open in its window, with its title, and the evaluator's own Ctrl+S
saves it as before. Each later cell connects again (:func:`document`) and works on the document
the way a person would in the GUI: cell by cell with formulas filled down, pivot tables from a
source range, charts from ranges or from a pivot table. Everything is read from the open
workbook (headers, the extent of the data) and computed there; nothing is carried in.

A solution cell that runs ``from calc_uno import document`` gets this module shipped with it by
the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`); it runs in the guest,
whose Python needs the ``uno`` bridge (Debian's python3-uno).
"""

import atexit
import subprocess
import time
from urllib.parse import unquote

import uno
from com.sun.star.awt import Rectangle
from com.sun.star.beans import PropertyValue

PIPE = "spider2v_calc"


# -- connecting ------------------------------------------------------------------------------------

def listen(window, timeout=60):
    """Once Calc shows ``window`` (the workbook's window title), have the running LibreOffice
    accept UNO connections on :data:`PIPE`, and wait until it does."""
    end = time.time() + timeout
    while window not in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        if time.time() > end:
            raise TimeoutError(f"no window {window!r}")
        time.sleep(0.5)
    subprocess.run(["soffice", f"--accept=pipe,name={PIPE};urp;"], timeout=timeout,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _context(timeout)


def _context(timeout=30):
    """The office's component context over a bridge of our own, disposed when the interpreter
    exits: a bridge left to the interpreter's teardown (UnoUrlResolver's) now and then crashes it
    after the cell's work is done."""
    local = uno.getComponentContext()
    manager = local.ServiceManager
    end = time.time() + timeout
    while True:
        try:
            connection = manager.createInstanceWithContext("com.sun.star.connection.Connector", local).connect(
                f"pipe,name={PIPE}")
            break
        except Exception:  # NoConnectException until the office listens
            if time.time() > end:
                raise
            time.sleep(0.5)
    bridge = manager.createInstanceWithContext("com.sun.star.bridge.BridgeFactory", local).createBridge(
        "", "urp", connection, None)
    atexit.register(bridge.dispose)
    return bridge.getInstance("StarOffice.ComponentContext")


def document(name, timeout=30):
    """The open spreadsheet whose file is called ``name`` (e.g. ``"SalesRep.xlsx"``)."""
    ctx = _context(timeout)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    end = time.time() + timeout
    while True:
        for component in desktop.Components:
            url = getattr(component, "URL", "") or ""
            if unquote(url).rsplit("/", 1)[-1] == name and component.supportsService(
                    "com.sun.star.sheet.SpreadsheetDocument"):
                return component
        if time.time() > end:
            raise LookupError(f"no open spreadsheet called {name}")
        time.sleep(0.5)


def save(doc):
    """Save in the document's own format (the xlsx it was opened from), like Ctrl+S."""
    doc.calculateAll()
    doc.store()


# -- sheets, cells and ranges ----------------------------------------------------------------------

def sheet(doc, key):
    """A sheet by name or by position."""
    return doc.Sheets.getByName(key) if isinstance(key, str) else doc.Sheets.getByIndex(key)


def add_sheet(doc, name, position=None):
    """A new empty sheet, appended after the last one (Calc's "Append sheet") unless ``position``."""
    doc.Sheets.insertNewByName(name, doc.Sheets.Count if position is None else position)
    return doc.Sheets.getByName(name)


def letter(column):
    """Column letter of a 0-based column index: 0 -> A, 26 -> AA."""
    name = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        name = chr(65 + rest) + name
    return name


def extent(sh):
    """(columns, rows) of the sheet's used area, counted from A1: the last used column and row."""
    cursor = sh.createCursor()
    cursor.gotoEndOfUsedArea(False)
    address = cursor.RangeAddress
    return address.EndColumn + 1, address.EndRow + 1


def last_row(sh, column):
    """1-based row of the last non-empty cell in ``column`` (a letter)."""
    data = sh.getCellRangeByName(f"{column}1:{column}{extent(sh)[1]}").DataArray
    filled = [i for i, (value,) in enumerate(data, 1) if value != ""]
    return filled[-1] if filled else 0


def headers(sh, row=1):
    """The texts of a header row, up to the last used column."""
    columns = extent(sh)[0]
    return [str(v) for v in sh.getCellRangeByName(f"A{row}:{letter(columns - 1)}{row}").DataArray[0]]


def column_of(sh, header, row=1):
    """Letter of the column whose header is ``header``."""
    return letter(headers(sh, row).index(header))


def values(sh, cells):
    """Cell values of a range as rows of tuples (numbers as floats, text as str, empty as "")."""
    return sh.getCellRangeByName(cells).DataArray


def put(sh, cell, content):
    """Type ``content`` into one cell: a number, a text, or a formula (a str starting with "=",
    in the API notation: English function names, ``;`` between arguments, ``Sheet1.A1``)."""
    target = sh.getCellRangeByName(cell)
    if isinstance(content, str) and content.startswith("="):
        target.setFormula(content)
    elif isinstance(content, str):
        target.setString(content)
    else:
        target.setValue(content)


def put_row(sh, cell, contents):
    """Type several contents into a row, starting at ``cell``."""
    column, row = _split(cell)
    for offset, content in enumerate(contents):
        put(sh, f"{letter(column + offset)}{row}", content)


def put_column(sh, cell, contents):
    """Type several contents into a column, starting at ``cell``."""
    column, row = _split(cell)
    for offset, content in enumerate(contents):
        put(sh, f"{letter(column)}{row + offset}", content)


def fill(sh, cells, formula):
    """Type ``formula`` into the first cell of ``cells`` and drag it over the rest (Calc's fill
    handle: relative references move along, ``$`` ones stay)."""
    first, last = cells.split(":")
    put(sh, first, formula)
    if first != last:
        drag(sh, cells)


def drag(sh, cells):
    """Drag the first cell of ``cells`` over the rest with the fill handle (its formula follows)."""
    from com.sun.star.sheet.FillDirection import TO_BOTTOM, TO_RIGHT

    first, last = cells.split(":")
    sh.getCellRangeByName(cells).fillAuto(TO_BOTTOM if _split(first)[0] == _split(last)[0] else TO_RIGHT, 1)


def copy(source, cells, target, at):
    """Copy ``source``'s range ``cells`` (contents and formats) to ``target`` at cell ``at``."""
    target.copyRange(target.getCellRangeByName(at).CellAddress, source.getCellRangeByName(cells).RangeAddress)


def _split(cell):
    """("AB12") -> (27, 12): 0-based column, 1-based row."""
    letters = cell.rstrip("0123456789").lstrip("$").replace("$", "")
    column = 0
    for ch in letters.upper():
        column = column * 26 + ord(ch) - 64
    return column - 1, int(cell[len(cell.rstrip("0123456789")):])


def sort(sh, cells, column, ascending=True):
    """Data > Sort of ``cells`` (no header row) by the range's ``column``-th column (0: the first)."""
    field = uno.createUnoStruct("com.sun.star.table.TableSortField")
    field.Field, field.IsAscending = column, ascending
    sh.getCellRangeByName(cells).sort((_prop("SortFields", uno.Any("[]com.sun.star.table.TableSortField", (field,))),
                                       _prop("ContainsHeader", False)))


def number_format(doc, sh, cells, code):
    """Give ``cells`` the number format ``code`` (e.g. ``"0.00%"``), added to the document if new."""
    formats = doc.NumberFormats
    locale = uno.createUnoStruct("com.sun.star.lang.Locale")
    key = formats.queryKey(code, locale, False)
    if key == -1:
        key = formats.addNew(code, locale)
    sh.getCellRangeByName(cells).NumberFormat = key


def format_code(doc, sh, cell):
    """The number format code of one cell (to give new cells the format of existing ones)."""
    return doc.NumberFormats.getByKey(sh.getCellRangeByName(cell).NumberFormat).FormatString


def merge(sh, cells, text=None):
    """Merge ``cells`` (Format > Merge Cells) and optionally type ``text`` into the merged cell."""
    target = sh.getCellRangeByName(cells)
    target.merge(True)
    if text is not None:
        put(sh, cells.split(":")[0], text)


def style(sh, cells, **props):
    """Set cell properties on a range, e.g. ``CellBackColor=0x0000FF, CharColor=0xFFFFFF,
    CharWeight=150.0`` (bold)."""
    target = sh.getCellRangeByName(cells)
    for name, value in props.items():
        target.setPropertyValue(name, value)


def palette_color(name, palette="standard"):
    """The RGB of a named colour of LibreOffice's colour palette (what the toolbar's colour
    picker offers under that name), read from the installed palette file."""
    import glob
    import re

    for path in glob.glob(f"/usr/lib/libreoffice/share/palette/{palette}.soc"):
        with open(path, encoding="utf-8") as handle:
            for entry_name, color in re.findall(r'draw:name="([^"]+)"\s+draw:color="#([0-9a-fA-F]{6})"',
                                                handle.read()):
                if entry_name == name:
                    return int(color, 16)
    raise LookupError(f"no colour {name!r} in the {palette} palette")


def conditional_style(doc, sh, cells, formula, style_name, **props):
    """Format ``cells`` with a new cell style (``props``) where ``formula`` holds (Format >
    Conditional > Condition, "Formula is"); the formula is relative to the range's first cell."""
    from com.sun.star.sheet.ConditionOperator import FORMULA

    styles = doc.StyleFamilies.getByName("CellStyles")
    if not styles.hasByName(style_name):
        new = doc.createInstance("com.sun.star.style.CellStyle")
        styles.insertByName(style_name, new)
        for name, value in props.items():
            new.setPropertyValue(name, value)
    target = sh.getCellRangeByName(cells)
    entries = target.ConditionalFormat
    entries.addNew((_prop("Operator", FORMULA), _prop("Formula1", formula.lstrip("=")),
                    _prop("StyleName", style_name), _prop("SourcePosition", target.getCellByPosition(0, 0).CellAddress)))
    target.ConditionalFormat = entries


def _prop(name, value):
    prop = PropertyValue()
    prop.Name, prop.Value = name, value
    return prop


# -- pivot tables --------------------------------------------------------------------------------------

def pivot_table(source, cells, target, at, rows=(), columns=(), data=(), name=None):
    """A pivot table (Insert > Pivot Table) over ``source``'s range ``cells`` with its first row
    as field names, placed at ``target``'s cell ``at``, with the dialog's defaults.
    ``rows``/``columns`` are field names; ``data`` is a list of (field name, function) with
    functions as the API names them ("SUM", "COUNT", ...), or (field name, function, shown as)
    with a DataPilotFieldReferenceType ("COLUMN_PERCENTAGE": "Show as % of column"). A field may
    be a row or column field and a data field at once, as in the dialog."""
    from com.sun.star.sheet.DataPilotFieldOrientation import COLUMN, DATA, ROW

    tables = target.DataPilotTables
    descriptor = tables.createDataPilotDescriptor()
    descriptor.SourceRange = source.getCellRangeByName(cells).RangeAddress
    descriptor.ShowFilterButton = False  # the dialog's default ("Add filter" unticked); the API's is True
    fields = descriptor.DataPilotFields  # a fresh object per use: one that was given an orientation keeps to it
    for field_name in rows:
        fields.getByName(field_name).Orientation = ROW
    fields.getByName("Data").Orientation = COLUMN  # the dialog's Column Fields box holds "Data" first
    for field_name in columns:
        fields.getByName(field_name).Orientation = COLUMN
    for field_name, *_ in data:
        fields.getByName(field_name).Orientation = DATA
    name = name or f"DataPilot{tables.Count + 1}"
    tables.insertNewByName(name, target.getCellRangeByName(at).CellAddress, descriptor)
    table = tables.getByName(name)
    for index, (_, function, *shown_as) in enumerate(data):  # a field's second instance exists once inserted
        field = table.DataFields.getByIndex(index)
        field.Function = uno.Enum("com.sun.star.sheet.GeneralFunction", function)
        if shown_as:
            reference = uno.createUnoStruct("com.sun.star.sheet.DataPilotFieldReference")
            reference.ReferenceType = uno.getConstantByName(
                f"com.sun.star.sheet.DataPilotFieldReferenceType.{shown_as[0]}")
            field.Reference = reference
    return table


# -- charts ------------------------------------------------------------------------------------------------

DIAGRAMS = {
    "bar": "com.sun.star.chart.BarDiagram",
    "line": "com.sun.star.chart.LineDiagram",
    "pie": "com.sun.star.chart.PieDiagram",
}


def chart(doc, sh, name, ranges, kind="bar", title=None, legend=True, horizontal=False, stacked=False,
          series_in_rows=False, first_row_labels=True, first_column_labels=True, at=(10000, 1000),
          size=(16000, 9000)):
    """A chart of ``ranges`` (e.g. ``["Sheet1.B1:G1", "Sheet1.B12:G12"]`` or ``["B1:G12"]`` on
    ``sh``) drawn on ``sh``, as Insert > Chart would make it with those choices: ``kind`` is
    "bar", "line" or "pie"; ``horizontal`` bars instead of columns; a ``title`` or none; the
    legend shown or not, or where ("bottom", "right", "left", "top")."""
    from com.sun.star.chart.ChartDataRowSource import COLUMNS, ROWS

    addresses = tuple(_address(doc, sh, r) for r in ranges)
    rect = Rectangle(at[0], at[1], size[0], size[1])
    # The API's two flags name the headers of column-wise data; switched to rows they trade places.
    flags = (first_column_labels, first_row_labels) if series_in_rows else (first_row_labels, first_column_labels)
    sh.Charts.addNewByName(name, rect, addresses, *flags)
    chart_doc = sh.Charts.getByName(name).EmbeddedObject
    chart_doc.Diagram = chart_doc.createInstance(DIAGRAMS[kind])
    diagram = chart_doc.Diagram
    diagram.DataRowSource = ROWS if series_in_rows else COLUMNS
    if kind == "bar":
        diagram.Vertical = horizontal
        diagram.Stacked = stacked
    _decorate(chart_doc, title, legend)
    return chart_doc


def pivot_chart(sh, name, table, kind="bar", title=None, legend=True, horizontal=False, stacked=False,
                at=(10000, 1000), size=(16000, 9000)):
    """A pivot chart of ``table`` drawn on ``sh`` (Insert > Chart with the cursor in a pivot
    table): its series follow the pivot table."""
    rect = Rectangle(at[0], at[1], size[0], size[1])
    sh.PivotCharts.addNewByName(name, rect, table.Name)
    chart_doc = sh.PivotCharts.getByName(name).EmbeddedObject
    chart_doc.Diagram = chart_doc.createInstance(DIAGRAMS[kind])
    if kind == "bar":
        chart_doc.Diagram.Vertical = horizontal
        chart_doc.Diagram.Stacked = stacked
    _decorate(chart_doc, title, legend)
    return chart_doc


def _decorate(chart_doc, title, legend):
    chart_doc.HasMainTitle = title is not None
    if title is not None:
        chart_doc.Title.String = title
    chart_doc.HasLegend = bool(legend)
    if isinstance(legend, str):
        chart_doc.Legend.Alignment = uno.Enum("com.sun.star.chart.ChartLegendPosition", legend.upper())


def _address(doc, sh, cells):
    """A CellRangeAddress for "B1:G1" on ``sh`` or "Sheet1.B1:G1" on a named sheet."""
    if "." in cells:
        sheet_name, cells = cells.rsplit(".", 1)
        sh = doc.Sheets.getByName(sheet_name.strip("$'"))
    return sh.getCellRangeByName(cells.replace("$", "")).RangeAddress

