"""Small workbooks made in a test: a sheet of sales with a pivot table over it, written through
openpyxl's pivot classes as a spreadsheet program saves one (a cache of the source range, a field
per source column with its items, the row, column and data fields)."""

from __future__ import annotations

from pathlib import Path

#: The source rows: a header, then month, channel and revenue.
SALES = [["Month", "Channel", "Revenue"], ["Jun", "Web", 10], ["Jun", "Store", 7], ["Jul", "Web", 4], ["Jul", "Store", 6]]


def pivot_workbook(path: Path, *, channels_as_columns: bool = True) -> str:
    """Sheet "Data" holding :data:`SALES`, sheet "Pivot" a pivot table of the revenue's sum by
    month (rows) and, unless ``channels_as_columns`` is false, by channel (columns)."""
    import openpyxl
    from openpyxl.pivot.cache import CacheDefinition, CacheField, CacheSource, SharedItems, WorksheetSource
    from openpyxl.pivot.fields import Text
    from openpyxl.pivot.table import DataField, FieldItem, Location, PivotField, RowColField, TableDefinition

    book = openpyxl.Workbook()
    data = book.active
    data.title = "Data"
    for row in SALES:
        data.append(row)
    months, channels = sorted({r[0] for r in SALES[1:]}), sorted({r[1] for r in SALES[1:]})

    def labels(values: list[str], axis: str) -> PivotField:
        return PivotField(axis=axis, showAll=False, items=[*(FieldItem(x=i) for i in range(len(values))),
                                                            FieldItem(t="default")])

    pivot = TableDefinition(
        name="PivotTable1", cacheId=1, dataCaption="Values", location=Location(ref="A1:D4", firstHeaderRow=1,
                                                                              firstDataRow=2, firstDataCol=1),
        pivotFields=[labels(months, "axisRow"),
                     labels(channels, "axisCol") if channels_as_columns else PivotField(showAll=False),
                     PivotField(dataField=True, showAll=False)],
        rowFields=[RowColField(x=0)], colFields=[RowColField(x=1)] if channels_as_columns else [],
        dataFields=[DataField(name="Sum - Revenue", fld=2, subtotal="sum")])
    pivot.cache = CacheDefinition(
        cacheSource=CacheSource(type="worksheet", worksheetSource=WorksheetSource(ref=f"A1:C{len(SALES)}", sheet="Data")),
        cacheFields=[CacheField(name="Month", sharedItems=SharedItems(_fields=[Text(v=m) for m in months])),
                     CacheField(name="Channel", sharedItems=SharedItems(_fields=[Text(v=c) for c in channels])),
                     CacheField(name="Revenue", sharedItems=SharedItems())])
    book.create_sheet("Pivot")._pivots.append(pivot)
    book.save(path)
    return str(path)
