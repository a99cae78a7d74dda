"""Near misses of workbooks (``compare_table``): for each rule, the result workbook with one
change to what that rule compares (a cell's value, a row, a style property, a chart's type,
title, legend or data range, a pivot table's source, the frozen panes, a sheet's name, ...).

Every variant is the workbook loaded by openpyxl (cached values in place of formulas) and saved
again; a control variant saved without a change tells whether that rewriting alone changes the
score (a sparkline openpyxl drops, say), in which case no variant of the file counts. The
``<book>-<sheet>.csv`` exports that ``sheet_print`` reads are copied beside each variant.
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pytest_spider2v.near_misses.values import changed, changed_text, middle, numbered
from pytest_spider2v.registry import NearMiss, near_misses

Workbook = Any  #: an openpyxl workbook (openpyxl is imported when a maker runs)
Change = Callable[[Workbook], None]
#: Columns of a sheet given a changed value each, at most.
MAX_COLUMNS = 6


@near_misses.register("compare_table")
def workbook(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    if not isinstance(result, (str, Path)) or not Path(result).is_file():
        return
    path = Path(result)
    book = _load(path)
    if book is None:
        return
    yield _variant(path, workdir, "unchanged", "the workbook saved again", lambda wb: None, control=True)
    for rule in options.get("rules") or []:
        kind = rule.get("type")
        maker = RULE_MAKERS.get(kind)
        if maker is None:
            yield NearMiss(f"rule {kind}", "no near-miss maker for this rule", untried=True)
            continue
        sheet = book.sheetnames[0] if kind == "sheet_name" else _result_sheet(book, rule)
        if sheet is None:
            continue  # the rule compares two sheets of the expected workbook, or names none
        for change_kind, where, change in maker(book, sheet, rule):
            yield _variant(path, workdir, change_kind, f"{rule['type']} rule, sheet {sheet!r}: {where}", change)
    for kind, where, rewrite in _print_variants(path, options.get("rules") or [], book):
        out = numbered(workdir, path.name)
        shutil.copyfile(path, out)
        _copy_exports(path, out)
        rewrite(out)
        yield NearMiss(kind, where, str(out))


def _load(path: Path, data_only: bool = True) -> Workbook | None:
    import openpyxl

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(path, data_only=data_only)
    except Exception:  # not a workbook: the metric scores that; nothing to vary
        return None


def _variant(path: Path, workdir: Path, kind: str, where: str, change: Change, control: bool = False) -> NearMiss:
    out = numbered(workdir, path.name)
    book = _load(path)
    change(book)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book.save(out)
    _copy_exports(path, out)
    return NearMiss(kind, where, str(out), control=control)


def _copy_exports(path: Path, out: Path) -> None:
    for export in path.parent.glob(f"{path.stem}-*.csv"):
        shutil.copyfile(export, out.with_name(export.name))


def _result_sheet(book: Workbook, rule: Mapping[str, Any]) -> str | None:
    """The result workbook's sheet a rule addresses (``0``, ``RI0``, ``RNname``)."""
    for key in ("sheet_idx0", "sheet_idx1", "sheet_idx"):
        index = rule.get(key)
        if isinstance(index, int) and not isinstance(index, bool):
            return book.sheetnames[index] if -len(book.sheetnames) <= index < len(book.sheetnames) else None
        if isinstance(index, str) and index.startswith("RN"):
            return index[2:] if index[2:] in book.sheetnames else None
        if isinstance(index, str) and index.startswith("RI") and index[2:].lstrip("-").isdigit():
            position = int(index[2:])
            return book.sheetnames[position] if -len(book.sheetnames) <= position < len(book.sheetnames) else None
    return None


Variants = Iterator[tuple[str, str, Change]]


def _sheet_name(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    last = book.sheetnames[-1]

    def rename(wb: Workbook) -> None:
        wb[last].title = changed_text(last)

    yield "sheet renamed", f"sheet {last!r}", rename


def _filled(ws: Any) -> list[list[Any]]:
    return [row for row in ws.iter_rows() if any(cell.value is not None for cell in row)]


def _sheet_data(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    rows = _filled(book[sheet])
    if not rows:
        return
    data = rows[1:] or rows
    row = data[middle(len(data))]
    cells = [cell for cell in row if cell.value is not None][:MAX_COLUMNS]
    for cell in cells:
        yield "value changed", f"cell {cell.coordinate}", _set_value(sheet, cell.coordinate, changed(cell.value))
    if len(data) > 1:
        number = row[0].row
        yield "row dropped", f"row {number}", lambda wb: wb[sheet].delete_rows(number)
        first, second = data[0], next((r for r in data[1:] if [c.value for c in r] != [c.value for c in data[0]]), None)
        if second is not None:
            yield "rows swapped", f"rows {first[0].row} and {second[0].row}", _swap_rows(sheet, first[0].row, second[0].row)


def _set_value(sheet: str, coordinate: str, value: Any) -> Change:
    def change(wb: Workbook) -> None:
        wb[sheet][coordinate].value = value

    return change


def _swap_rows(sheet: str, a: int, b: int) -> Change:
    def change(wb: Workbook) -> None:
        ws = wb[sheet]
        for column in range(1, ws.max_column + 1):
            first, second = ws.cell(a, column), ws.cell(b, column)
            first.value, second.value = second.value, first.value

    return change


def _style_change(prop: str) -> Callable[[Any], None] | None:
    """How to make one style property of a cell wrong."""
    from openpyxl.styles import Font, PatternFill

    def font(cell: Any, **changes: Any) -> None:
        names = ("name", "size", "bold", "italic", "underline", "strike", "color", "vertAlign")
        cell.font = Font(**{**{name: getattr(cell.font, name) for name in names}, **changes})

    fill = PatternFill(fill_type="solid", fgColor="FF3F7F1F", bgColor="FF3F7F1F")
    table: dict[str, Callable[[Any], None]] = {
        "font_bold": lambda cell: font(cell, bold=not cell.font.bold),
        "font_italic": lambda cell: font(cell, italic=not cell.font.italic),
        "font_underline": lambda cell: font(cell, underline=None if cell.font.underline else "single"),
        "font_strike": lambda cell: font(cell, strike=not cell.font.strike),
        "font_name": lambda cell: font(cell, name="Courier New" if cell.font.name != "Courier New" else "Arial"),
        "font_size": lambda cell: font(cell, size=(cell.font.size or 11) + 3),
        "font_color": lambda cell: font(cell, color="FF3F7F1F"),
        "bgcolor": lambda cell: setattr(cell, "fill", fill),
        "fgcolor": lambda cell: setattr(cell, "fill", fill),
        "fill_type": lambda cell: setattr(cell, "fill", PatternFill(fill_type=None) if cell.fill.fill_type else fill),
        "number_format": lambda cell: setattr(cell, "number_format", "0.000%" if cell.number_format != "0.000%" else "0.0"),
    }
    return table.get(prop)


def _restyled(sheet: str, coordinate: str, apply: Callable[[Any], None]) -> Change:
    def change(wb: Workbook) -> None:
        apply(wb[sheet][coordinate])

    return change


def _style(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    rows = _filled(book[sheet])
    data = rows[1:] or rows
    if not data:
        return
    cell = next((c for c in data[middle(len(data))] if isinstance(c.value, (int, float)) and not isinstance(c.value, bool)),
                next(c for c in data[middle(len(data))] if c.value is not None))
    for prop in rule.get("props", []):
        apply = _style_change(prop)
        if apply is not None:
            yield "style changed", f"{prop} of {cell.coordinate}", _restyled(sheet, cell.coordinate, apply)


def _check_cell(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    coordinate = rule["coordinate"]
    for prop in rule.get("props", {}):
        if prop == "value":
            yield "value changed", f"cell {coordinate}", _set_value(sheet, coordinate, changed(book[sheet][coordinate].value))
        elif (apply := _style_change(prop)) is not None:
            yield "style changed", f"{prop} of {coordinate}", _restyled(sheet, coordinate, apply)


def _chart(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    charts = book[sheet]._charts
    if not charts:
        return
    props = set(rule.get("chart_props", []))
    yield "chart data changed", "the first series' values", _chart_change(sheet, _shift_series)
    if "type" in props:
        yield "chart type changed", f"{charts[0].tagname}", _chart_change(sheet, _retyped)
    if "title" in props:
        yield "chart title changed", "the first chart", _chart_change(sheet, _retitled)
    if "legend" in props:
        yield "chart legend moved", "the first chart", _chart_change(sheet, _legend_moved)
    if "direction" in props and getattr(charts[0], "barDir", None) is not None:
        yield "chart direction changed", "the first chart", _chart_change(sheet, _redirected)


def _chart_change(sheet: str, change: Callable[[Workbook, Any], None]) -> Change:
    def apply(wb: Workbook) -> None:
        change(wb[sheet], wb[sheet]._charts[0])

    return apply


def _shift_series(ws: Any, chart: Any) -> None:
    """The first series' values one row shorter (a range off by one)."""
    import re

    data = chart.series[0].val
    ref = data.numRef or data.strRef
    ref.f = re.sub(r"(\d+)(?!.*\d)", lambda m: str(max(1, int(m.group(1)) - 1)), ref.f)


def _retyped(ws: Any, chart: Any) -> None:
    from openpyxl.chart import BarChart, LineChart

    other = LineChart() if chart.tagname != "lineChart" else BarChart()
    for series in chart.series:
        other.series.append(series)
    other.anchor = chart.anchor
    ws._charts[0] = other


def _retitled(ws: Any, chart: Any) -> None:
    from openpyxl.chart.text import RichText, Text
    from openpyxl.chart.title import Title
    from openpyxl.drawing.text import Paragraph, RegularTextRun

    current = ""
    try:
        current = "".join(run.t or "" for p in chart.title.tx.rich.p for run in (p.r or []))
    except AttributeError:
        pass
    text = Text(rich=RichText(p=[Paragraph(r=[RegularTextRun(t=changed_text(current))])]))
    chart.title = Title(tx=text)


def _legend_moved(ws: Any, chart: Any) -> None:
    from openpyxl.chart.legend import Legend

    if chart.legend is None:
        chart.legend = Legend(legendPos="r")
    else:
        chart.legend.position = "t" if chart.legend.position != "t" else "b"


def _redirected(ws: Any, chart: Any) -> None:
    chart.barDir = "bar" if chart.barDir != "bar" else "col"


def _pivot_table(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    pivots = book[sheet]._pivots
    if not pivots:
        return
    source = pivots[0].cache.cacheSource.worksheetSource
    if source is not None and source.ref and ":" in source.ref:
        yield "pivot source changed", f"{source.ref}", _pivot_change(sheet, _shrunk_source)
    props = set(rule.get("pivot_props", []))
    for fields in ("row_fields", "col_fields", "data_fields"):
        attribute = {"row_fields": "rowFields", "col_fields": "colFields", "data_fields": "dataFields"}[fields]
        if fields in props and getattr(pivots[0], attribute):
            yield "pivot field dropped", fields, _pivot_change(sheet, _dropped_field(attribute))


def _pivot_change(sheet: str, change: Callable[[Any], None]) -> Change:
    def apply(wb: Workbook) -> None:
        change(wb[sheet]._pivots[0])

    return apply


def _shrunk_source(pivot: Any) -> None:
    import re

    source = pivot.cache.cacheSource.worksheetSource
    source.ref = re.sub(r"(\d+)$", lambda m: str(max(1, int(m.group(1)) - 1)), source.ref)


def _dropped_field(attribute: str) -> Callable[[Any], None]:
    def drop(pivot: Any) -> None:
        setattr(pivot, attribute, list(getattr(pivot, attribute))[:-1])

    return drop


def _freeze(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    current = book[sheet].freeze_panes

    def refreeze(wb: Workbook) -> None:
        wb[sheet].freeze_panes = "C3" if current != "C3" else "B2"

    yield "panes changed", f"frozen at {current}", refreeze


def _zoom(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    current = book[sheet].sheet_view.zoomScale or 100

    def rezoom(wb: Workbook) -> None:
        wb[sheet].sheet_view.zoomScale = 100 if current != 100 else 200

    yield "zoom changed", f"zoom {current}", rezoom


def _dimensions(kind: str) -> Callable[[Workbook, str, Mapping[str, Any]], Variants]:
    def variants(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
        ws = book[sheet]
        dims = ws.row_dimensions if kind == "row" else ws.column_dimensions
        key = next(iter(sorted(dims, key=str)), 1 if kind == "row" else "A")
        for prop in rule.get("props", []):
            if prop in ("hidden", "collapsed"):
                yield f"{kind} property changed", f"{prop} of {kind} {key}", _dimension_change(sheet, kind, key, prop, "flip")
            elif prop in ("height", "width"):
                yield f"{kind} property changed", f"{prop} of {kind} {key}", _dimension_change(sheet, kind, key, prop, "grow")
    return variants


def _dimension_change(sheet: str, kind: str, key: Any, prop: str, how: str) -> Change:
    def apply(wb: Workbook) -> None:
        ws = wb[sheet]
        dim = (ws.row_dimensions if kind == "row" else ws.column_dimensions)[key]
        setattr(dim, prop, (not getattr(dim, prop)) if how == "flip" else (getattr(dim, prop) or 12) + 7)

    return apply


def _filter(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    current = book[sheet].auto_filter.ref

    def refilter(wb: Workbook) -> None:
        ws = wb[sheet]
        ws.auto_filter.ref = None if current else ws.dimensions

    yield "filter changed", f"autofilter {current}", refilter


def _data_validation(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    if not book[sheet].data_validations.dataValidation:
        return

    def drop(wb: Workbook) -> None:
        wb[sheet].data_validations.dataValidation.pop()

    yield "validation dropped", "the last data validation", drop


RULE_MAKERS: dict[str, Callable[[Workbook, str, Mapping[str, Any]], Variants]] = {
    "sheet_name": _sheet_name,
    "sheet_data": _sheet_data,
    "style": _style,
    "check_cell": _check_cell,
    "chart": _chart,
    "pivot_table": _pivot_table,
    "freeze": _freeze,
    "zoom": _zoom,
    "row_props": _dimensions("row"),
    "col_props": _dimensions("column"),
    "filter": _filter,
    "data_validation": _data_validation,
    "sheet_print": lambda book, sheet, rule: iter(()),  # varied through its CSV export, below
}


def _print_variants(path: Path, rules: list[Mapping[str, Any]], book: Workbook) -> Iterator[tuple[str, str, Callable[[Path], None]]]:
    """For a ``sheet_print`` rule: the printed export of its result sheet with one line's last
    value changed."""
    for rule in rules:
        if rule.get("type") != "sheet_print" or (sheet := _result_sheet(book, rule)) is None:
            continue
        export = path.with_name(f"{path.stem}-{sheet}.csv")
        if not export.is_file():
            continue
        lines = export.read_text(encoding="utf-8").splitlines(keepends=True)
        filled = [i for i, line in enumerate(lines) if line.strip()]
        if not filled:
            continue
        i = filled[middle(len(filled))]

        def rewrite(out: Path, lines: list[str] = lines, i: int = i, name: str = export.name) -> None:
            out.with_name(name).write_text("".join([*lines[:i], changed_text(lines[i]), *lines[i + 1:]]), encoding="utf-8")

        yield "printed value changed", f"sheet_print rule, sheet {sheet!r}: line {i + 1}", rewrite
