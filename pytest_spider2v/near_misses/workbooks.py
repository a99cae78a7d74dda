"""Near misses of workbooks (``compare_table``): for each rule, the result workbook with one
change to what that rule compares (a cell's value, a row, a style property, a chart's type,
title, legend or data range, a pivot table's source, fields or hidden items, the frozen panes, a
sheet's name, ...).

Every part a rule lists (each of its ``chart_props``, ``pivot_props`` or ``props``; the rule
itself for a rule type without such a list) is either varied or reported as not covered, with
why: a property no maker here varies, or one this result gives nothing to vary (a chart rule on a
sheet without a chart). Nothing a rule asks about is skipped without a word.

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
from typing import Any, NamedTuple

from pytest_spider2v.near_misses.values import changed, changed_text, middle, numbered
from pytest_spider2v.registry import NearMiss, near_misses

Workbook = Any  #: an openpyxl workbook (openpyxl is imported when a maker runs)
Change = Callable[[Workbook], None]
#: Columns of a sheet given a changed value each, at most.
MAX_COLUMNS = 6
#: The option in which a rule type lists the properties it compares; other types compare one thing.
PROPERTY_LISTS = {"chart": "chart_props", "pivot_table": "pivot_props", "style": "props", "check_cell": "props",
                  "row_props": "props", "col_props": "props"}


class Variant(NamedTuple):
    """One change a rule's maker proposes: ``part`` is what it is aimed at (``"chart.type"``);
    ``change`` None means the part cannot be varied in this result, ``where`` saying why."""

    part: str
    kind: str
    where: str
    change: Change | None


def parts(rule: Mapping[str, Any]) -> list[str]:
    """What a rule lists as compared: ``<type>.<property>`` for each property of its list, or its
    type alone."""
    kind = str(rule.get("type"))
    listed = PROPERTY_LISTS.get(kind)
    if listed is None:
        return [kind]
    return [f"{kind}.{prop}" for prop in rule.get(listed) or []]


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
        answered = set()  # the parts varied, or said to be not varied here and why
        for variant in _rule_variants(path, book, rule, workdir):
            answered.add(variant.part)
            yield variant
        why = "no near-miss maker varies it" if rule.get("type") in RULE_MAKERS else "no near-miss maker for this rule type"
        yield from (NearMiss("not varied", why, part=part, untried=True) for part in parts(rule) if part not in answered)


def _rule_variants(path: Path, book: Workbook, rule: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """What the maker of the rule's type makes of the result: variants, and the parts it cannot
    vary here with why."""
    kind = rule.get("type")
    maker = RULE_MAKERS.get(kind)  # type: ignore[arg-type]  # a rule without a type finds no maker: None is a key like any
    if maker is None:
        return
    sheet = book.sheetnames[0] if kind == "sheet_name" else _result_sheet(book, rule)
    if sheet is None:  # the rule compares two sheets of the expected workbook, or names none
        yield from (NearMiss("not varied", f"{kind} rule: it reads no sheet of the result", part=part, untried=True)
                    for part in parts(rule))
        return
    if kind == "sheet_print":
        yield from _print_variants(path, sheet, workdir)
        return
    for variant in maker(book, sheet, rule):
        where = f"{kind} rule, sheet {sheet!r}: {variant.where}"
        if variant.change is None:
            yield NearMiss("not varied", where, part=variant.part, untried=True)
        else:
            yield _variant(path, workdir, variant.kind, where, variant.change, part=variant.part)


def _load(path: Path, data_only: bool = True) -> Workbook | None:
    import openpyxl

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(path, data_only=data_only)
    except Exception:  # not a workbook: the metric scores that; nothing to vary
        return None


def _variant(path: Path, workdir: Path, kind: str, where: str, change: Change, control: bool = False,
             part: str = "") -> NearMiss:
    out = numbered(workdir, path.name)
    book = _load(path)
    change(book)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book.save(out)  # type: ignore[union-attr]  # _load gives None only for a file that is no workbook, which the maker never varies
    _copy_exports(path, out)
    return NearMiss(kind, where, str(out), control=control, part=part)


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


Variants = Iterator[Variant]


def _sheet_name(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    last = book.sheetnames[-1]

    def rename(wb: Workbook) -> None:
        wb[last].title = changed_text(last)

    yield Variant("sheet_name", "sheet renamed", f"sheet {last!r}", rename)


def _filled(ws: Any) -> list[list[Any]]:
    return [row for row in ws.iter_rows() if any(cell.value is not None for cell in row)]


def _sheet_data(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    rows = _filled(book[sheet])
    if not rows:
        yield Variant("sheet_data", "not varied", "the sheet is empty", None)
        return
    data = rows[1:] or rows
    row = data[middle(len(data))]
    cells = [cell for cell in row if cell.value is not None][:MAX_COLUMNS]
    for cell in cells:
        yield Variant("sheet_data", "value changed", f"cell {cell.coordinate}",
                      _set_value(sheet, cell.coordinate, changed(cell.value)))
    if len(data) > 1:
        number = row[0].row
        yield Variant("sheet_data", "row dropped", f"row {number}", lambda wb: wb[sheet].delete_rows(number))
        first, second = data[0], next((r for r in data[1:] if [c.value for c in r] != [c.value for c in data[0]]), None)
        if second is not None:
            yield Variant("sheet_data", "rows swapped", f"rows {first[0].row} and {second[0].row}",
                          _swap_rows(sheet, first[0].row, second[0].row))


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
        yield from (Variant(part, "not varied", "the sheet is empty", None) for part in parts(rule))
        return
    cell = next((c for c in data[middle(len(data))] if isinstance(c.value, (int, float)) and not isinstance(c.value, bool)),
                next(c for c in data[middle(len(data))] if c.value is not None))
    for prop in rule.get("props", []):
        apply = _style_change(prop)
        if apply is not None:
            yield Variant(f"style.{prop}", "style changed", f"{prop} of {cell.coordinate}",
                          _restyled(sheet, cell.coordinate, apply))


def _check_cell(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    coordinate = rule["coordinate"]
    for prop in rule.get("props", {}):
        if prop == "value":
            yield Variant("check_cell.value", "value changed", f"cell {coordinate}",
                          _set_value(sheet, coordinate, changed(book[sheet][coordinate].value)))
        elif (apply := _style_change(prop)) is not None:
            yield Variant(f"check_cell.{prop}", "style changed", f"{prop} of {coordinate}",
                          _restyled(sheet, coordinate, apply))


def _chart(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    charts = book[sheet]._charts
    if not charts:
        yield from (Variant(part, "not varied", "no chart on the sheet", None) for part in parts(rule))
        return
    props = set(rule.get("chart_props", []))
    # the rule pairs charts by their series' ranges, whatever properties it lists
    yield Variant("chart.series", "chart data changed", "the first series' values", _chart_change(sheet, _shift_series))
    if "type" in props:
        yield Variant("chart.type", "chart type changed", f"{charts[0].tagname}", _chart_change(sheet, _retyped))
    if "title" in props:
        yield Variant("chart.title", "chart title changed", "the first chart", _chart_change(sheet, _retitled))
    if "legend" in props:
        yield Variant("chart.legend", "chart legend moved", "the first chart", _chart_change(sheet, _legend_moved))
    if "direction" in props:
        if getattr(charts[0], "barDir", None) is None:
            yield Variant("chart.direction", "not varied", f"a {charts[0].tagname} has no bar direction", None)
        else:
            yield Variant("chart.direction", "chart direction changed", "the first chart", _chart_change(sheet, _redirected))


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


#: A pivot table's field lists, as ``pivot_props`` names them and as openpyxl holds them.
PIVOT_FIELD_LISTS = {"row_fields": "rowFields", "col_fields": "colFields", "data_fields": "dataFields"}


def _pivot_table(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    pivots = book[sheet]._pivots
    if not pivots:
        yield from (Variant(part, "not varied", "no pivot table on the sheet", None) for part in parts(rule))
        return
    pivot = pivots[0]
    source = pivot.cache.cacheSource.worksheetSource
    # the rule pairs pivot tables by their source range, whatever properties it lists
    if source is not None and source.ref and ":" in source.ref:
        yield Variant("pivot_table.source", "pivot source changed", f"{source.ref}", _pivot_change(sheet, _shrunk_source))
    for prop in rule.get("pivot_props", []):
        if prop in PIVOT_FIELD_LISTS:
            yield _field_list_variant(sheet, pivot, prop)
        elif prop in ("filter", "selection"):
            shown = _shown_item(pivot)
            if shown is None:
                yield Variant(f"pivot_table.{prop}", "not varied", "no field of the pivot table has items to hide", None)
            else:
                yield Variant(f"pivot_table.{prop}", "pivot item hidden", f"field {shown[0]}, item {shown[1]}",
                              _pivot_change(sheet, _hidden_item(*shown)))


def _field_list_variant(sheet: str, pivot: Any, prop: str) -> Variant:
    """The last field of a row, column or data field list dropped; a source field on no axis
    added to an empty row or column list."""
    attribute, part = PIVOT_FIELD_LISTS[prop], f"pivot_table.{prop}"
    if getattr(pivot, attribute):
        return Variant(part, "pivot field dropped", prop, _pivot_change(sheet, _dropped_field(attribute)))
    spare = _off_axis_field(pivot) if attribute != "dataFields" else None
    if spare is None:
        return Variant(part, "not varied", f"no {prop} to drop" + ("" if attribute == "dataFields" else
                                                                   ", and no source field off the axes to add"), None)
    return Variant(part, "pivot field added", f"{prop}: source field {spare}",
                   _pivot_change(sheet, _added_field(attribute, spare)))


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


def _off_axis_field(pivot: Any) -> int | None:
    """The first source field on no axis (rows, columns, page filters): an unused column, or the
    one a data field sums, which dragged onto an axis as well is a common slip."""
    placed = {field.x for field in [*pivot.rowFields, *pivot.colFields]} | {field.fld for field in pivot.pageFields}
    return next((index for index in range(len(pivot.pivotFields)) if index not in placed), None)


def _added_field(attribute: str, index: int) -> Callable[[Any], None]:
    """A source field added to the row or column fields (one too many labels)."""

    def add(pivot: Any) -> None:
        from openpyxl.pivot.table import RowColField

        setattr(pivot, attribute, [*getattr(pivot, attribute), RowColField(x=index)])

    return add


def _shown_item(pivot: Any) -> tuple[int, int] | None:
    """(field, item) of the last shown item of the first field that has items: what a filter on
    that field would hide."""
    for index, field in enumerate(pivot.pivotFields):
        shown = [position for position, item in enumerate(field.items or []) if item.x is not None and not item.h]
        if shown:
            return index, shown[-1]
    return None


def _hidden_item(field: int, item: int) -> Callable[[Any], None]:
    """One item of a field hidden: the pivot table filtered to leave it out."""

    def hide(pivot: Any) -> None:
        pivot.pivotFields[field].items[item].h = True

    return hide


def _freeze(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    current = book[sheet].freeze_panes

    def refreeze(wb: Workbook) -> None:
        wb[sheet].freeze_panes = "C3" if current != "C3" else "B2"

    yield Variant("freeze", "panes changed", f"frozen at {current}", refreeze)


def _zoom(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    current = book[sheet].sheet_view.zoomScale or 100

    def rezoom(wb: Workbook) -> None:
        wb[sheet].sheet_view.zoomScale = 100 if current != 100 else 200

    yield Variant("zoom", "zoom changed", f"zoom {current}", rezoom)


def _dimensions(kind: str) -> Callable[[Workbook, str, Mapping[str, Any]], Variants]:
    rule_type = f"{'row' if kind == 'row' else 'col'}_props"

    def variants(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
        ws = book[sheet]
        dims = ws.row_dimensions if kind == "row" else ws.column_dimensions
        key = next(iter(sorted(dims, key=str)), 1 if kind == "row" else "A")
        for prop in rule.get("props", []):
            how = "flip" if prop in ("hidden", "collapsed") else "grow" if prop in ("height", "width") else None
            if how is not None:
                yield Variant(f"{rule_type}.{prop}", f"{kind} property changed", f"{prop} of {kind} {key}",
                              _dimension_change(sheet, kind, key, prop, how))
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

    yield Variant("filter", "filter changed", f"autofilter {current}", refilter)


def _data_validation(book: Workbook, sheet: str, rule: Mapping[str, Any]) -> Variants:
    if not book[sheet].data_validations.dataValidation:
        yield Variant("data_validation", "not varied", "no data validation on the sheet", None)
        return

    def drop(wb: Workbook) -> None:
        wb[sheet].data_validations.dataValidation.pop()

    yield Variant("data_validation", "validation dropped", "the last data validation", drop)


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
    "sheet_print": lambda book, sheet, rule: iter(()),  # varied through its CSV export: _print_variants
}


def _print_variants(path: Path, sheet: str, workdir: Path) -> Iterator[NearMiss]:
    """For a ``sheet_print`` rule: the printed export of its result sheet with one line's last
    value changed (the workbook as it was)."""
    where = f"sheet_print rule, sheet {sheet!r}"
    export = path.with_name(f"{path.stem}-{sheet}.csv")
    lines = export.read_text(encoding="utf-8").splitlines(keepends=True) if export.is_file() else []
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if not filled:
        yield NearMiss("not varied", f"{where}: no printed text beside the result", part="sheet_print", untried=True)
        return
    i = filled[middle(len(filled))]
    out = numbered(workdir, path.name)
    shutil.copyfile(path, out)
    _copy_exports(path, out)
    out.with_name(export.name).write_text("".join([*lines[:i], changed_text(lines[i]), *lines[i + 1:]]), encoding="utf-8")
    yield NearMiss("printed value changed", f"{where}: line {i + 1}", str(out), part="sheet_print")
