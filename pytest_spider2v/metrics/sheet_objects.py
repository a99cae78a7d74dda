"""Summaries of a sheet's objects (charts, pivot tables, filters, sparklines, row and column
dimensions) as plain comparable values.

Each summary keeps only the properties a rule asks for, keyed the way the original harness
keyed them (charts by their series references, pivot tables by their source range), so two
workbooks agree exactly when the asked-for properties of corresponding objects agree.
"""

from __future__ import annotations

import itertools
import posixpath
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from openpyxl.utils import coordinate_to_tuple
from openpyxl.worksheet.worksheet import Worksheet

CHART_PROPS = frozenset({"title", "legend", "anchor", "width", "height", "type", "direction", "xtitle", "ytitle", "ztitle"})
PIVOT_PROPS = frozenset(
    {"name", "show_total", "show_empty_row", "show_empty_col", "show_headers", "location",
     "selection", "ordered", "filter", "col_fields", "row_fields", "data_fields", "data_fields_name"}
)
ROW_PROPS = frozenset({"hidden", "collapsed", "height", "outlineLevel", "outline_level"})
COL_PROPS = frozenset({"width", "auto_size", "hidden", "collapsed", "min", "max", "outlineLevel", "outline_level"})


def _rich_title(title: Any) -> str | None:
    """Plain text of a chart or axis title: every text run, paragraphs as lines; None when the
    title is absent, not rich text, or has no text (as in the original).

    The original read only the first run of the first paragraph, but where a program splits a
    title into runs (a change of font, an edit in place) says nothing about its text: a
    deliberate difference, listed in the README.
    """
    try:
        lines = ["".join(run.t or "" for run in (paragraph.r or [])) for paragraph in title.tx.rich.p]
    except AttributeError:
        return None
    return "\n".join(lines) if any(lines) else None


def _reference(data: Any) -> str:
    for kind in ("numRef", "strRef"):
        ref = getattr(data, kind, None)
        if ref is not None and getattr(ref, "f", None):
            return ref.f
    return ""


def charts(ws: Worksheet, props: list[str]) -> dict[str, dict[str, Any]]:
    """{"<values ref>,<categories ref>;...": {prop: value}} for the sheet's charts."""
    unknown = set(props) - CHART_PROPS
    if unknown:
        raise ValueError(f"unsupported chart_props {sorted(unknown)} (known: {sorted(CHART_PROPS)})")
    summary: dict[str, dict[str, Any]] = {}
    for chart in ws._charts:  # type: ignore[attr-defined]  # openpyxl's private list of a sheet's charts, which its stubs leave out
        key = ";".join(f"{_reference(s.val)},{_reference(s.cat)}" for s in chart.series)
        info: dict[str, Any] = {}
        if "title" in props:
            info["title"] = _rich_title(chart.title)
        if "legend" in props:
            info["legend"] = chart.legend.position if chart.legend is not None else None
        if "anchor" in props:
            anchor = chart.anchor
            start, end = getattr(anchor, "_from", None), getattr(anchor, "to", None)
            info["anchor"] = [
                type(anchor).__name__,
                start.col if start else None, start.row if start else None,
                end.col if end else None, end.row if end else None,
            ]
        if "width" in props:
            info["width"] = chart.width
        if "height" in props:
            info["height"] = chart.height
        if "type" in props:
            info["type"] = chart.tagname
        if "direction" in props:
            info["direction"] = getattr(chart, "barDir", None)
        for axis in ("x", "y", "z"):
            if f"{axis}title" in props:
                info[f"{axis}title"] = _rich_title(getattr(getattr(chart, f"{axis}_axis", None), "title", None))
        summary[key] = info
    return summary


def pivot_tables(ws: Worksheet, props: list[str]) -> dict[str, dict[str, Any]]:
    """{"<source type>;<first cell>:<last cell>;<source sheet>": {prop: value}}.

    Field indices are made relative to the first source column that any field uses, so a pivot
    built over A:F and one over B:F that use the same columns compare equal (as in the original).
    """
    unknown = set(props) - PIVOT_PROPS
    if unknown:
        raise ValueError(f"unsupported pivot_props {sorted(unknown)} (known: {sorted(PIVOT_PROPS)})")
    summary: dict[str, dict[str, Any]] = {}
    for pivot in ws._pivots:  # type: ignore[attr-defined]  # openpyxl's private list of a sheet's pivot tables, which its stubs leave out
        raw = [[(item.h, item.x) for item in (field.items or []) if item.x is not None] for field in pivot.pivotFields]
        trimmed_left = list(itertools.dropwhile(lambda items: not items, raw))
        left_bias = len(raw) - len(trimmed_left)
        selection = list(itertools.dropwhile(lambda items: not items, reversed(trimmed_left)))[::-1]
        right_bias = len(trimmed_left) - len(selection)
        source = pivot.cache.cacheSource
        sheet_source = source.worksheetSource
        if sheet_source is not None and sheet_source.ref:
            first, last = sheet_source.ref.split(":")
            r1, c1 = coordinate_to_tuple(first)
            r2, c2 = coordinate_to_tuple(last)
            key = f"{source.type};{(r1, c1 + left_bias)}:{(r2, c2 - right_bias)};{sheet_source.sheet}"
        else:
            key = f"{source.type};{getattr(sheet_source, 'name', None)}"
        info: dict[str, Any] = {}
        if "name" in props:
            info["name"] = pivot.name
        if "show_total" in props:
            info["show_total"] = pivot.visualTotals
        if "show_empty_row" in props:
            info["show_empty_row"] = pivot.showEmptyRow
        if "show_empty_col" in props:
            info["show_empty_col"] = pivot.showEmptyCol
        if "show_headers" in props:
            info["show_headers"] = pivot.showHeaders
        if "location" in props:
            info["location"] = pivot.location.ref if pivot.location is not None else None
        if "filter" in props or "selection" in props:
            info["selection"] = selection if "ordered" in props else [set(items) for items in selection]
        if "filter" in props:
            info["filter_fields"] = {field.fld for field in pivot.pageFields}
        if "col_fields" in props:
            info["col_fields"] = [field.x - left_bias for field in pivot.colFields]
        if "row_fields" in props:
            info["row_fields"] = [field.x - left_bias for field in pivot.rowFields]
        if "data_fields" in props:
            with_name = "data_fields_name" in props
            info["data_fields"] = [
                f"{field.fld - left_bias};{field.name if with_name else ''};{field.subtotal};{field.showDataAs}"
                for field in pivot.dataFields
            ]
        summary[key] = info
    return summary


def filters(ws: Worksheet) -> dict[str, Any]:
    """The sheet's autofilter: range, per-column filters and sort state."""
    auto = ws.auto_filter
    columns = []
    for column in auto.filterColumn:
        entry: dict[str, Any] = {
            "col_id": column.colId, "hidden_button": column.hiddenButton, "show_button": column.showButton,
        }
        if column.filters is not None:
            entry["filters_blank"] = column.filters.blank
            entry["filters"] = set(column.filters.filter)
        if column.customFilters is not None:
            entry["custom_filters_op"] = column.customFilters._and
            entry["custom_filters"] = {(f.operator, f.val) for f in column.customFilters.customFilter}
        columns.append(entry)
    summary: dict[str, Any] = {"ref": auto.ref, "filter_column": sorted(columns, key=lambda e: e["col_id"])}
    sort = auto.sortState
    if sort is not None:
        summary["sort_state"] = {
            "sort": sort.columnSort, "case": sort.caseSensitive, "method": sort.sortMethod, "ref": sort.ref,
            "condition": [
                {"descending": c.descending, "key": c.sortBy, "ref": c.ref, "custom_list": c.customList,
                 "dxf_id": c.dxfId, "icon": c.iconSet, "iconid": c.iconId}
                for c in sort.sortCondition
            ],
        }
    return summary


def dimensions(ws: Worksheet, kind: str, props: list[str]) -> dict[Any, dict[str, Any]]:
    """{row number or column letter: {prop: value}} for rows or columns with explicit settings."""
    known = ROW_PROPS if kind == "row" else COL_PROPS
    unknown = set(props) - known
    if unknown:
        raise ValueError(f"unsupported {kind}_props {sorted(unknown)} (known: {sorted(known)})")
    holder = ws.row_dimensions if kind == "row" else ws.column_dimensions
    return {key: {prop: getattr(dim, prop) for prop in props} for key, dim in holder.items()}


_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_X14 = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
_XM = "http://schemas.microsoft.com/office/excel/2006/main"


def sparklines(path: Path, sheet_name: str) -> dict[str, str]:
    """{"F3": "Sheet1!C3:E3"}: sparkline location -> data range, read from the sheet XML
    (openpyxl drops sparklines on load)."""
    with zipfile.ZipFile(path) as archive:
        workbook = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
        targets = {rel.get("Id"): rel.get("Target") for rel in rels.iter(f"{{{_PKG_REL}}}Relationship")}
        part = None
        for sheet in workbook.iter(f"{{{_MAIN}}}sheet"):
            if sheet.get("name") == sheet_name:
                target = targets.get(sheet.get(f"{{{_REL}}}id"), "")
                part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))  # type: ignore[union-attr, arg-type]  # OOXML requires a relationship's Target
        if part is None:
            return {}
        xml = ElementTree.fromstring(archive.read(part))
    found: dict[str, str] = {}
    for line in xml.iter(f"{{{_X14}}}sparkline"):
        location, formula = line.find(f"{{{_XM}}}sqref"), line.find(f"{{{_XM}}}f")
        if location is not None and formula is not None:
            found[location.text or ""] = formula.text or ""
    return found
