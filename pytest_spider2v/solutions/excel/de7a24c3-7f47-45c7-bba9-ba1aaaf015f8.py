# The instruction alone: the steps of the verbose twin 0f0ee112 (the same workbook, the same checks),
# with the pivot table where this instruction allows it. The instruction puts it "in this new sheet",
# at no cell; this puts it under the title with a blank row between, at A3. The check compares Sheet2
# cell by cell with an expected sheet whose pivot table starts at A2, a cell only the twin's tutorial
# names, so this scores 0 (sheet_data differs; the chart and pivot table rules agree): the task is on
# the errata list (under_specified), and --validate expects exactly that.
# %% based-on: 0f0ee112-c8e2-4827-8324-398aa32432e8.py
# %% replace 3: a pivot table of all of Sheet1's data in Sheet2, under the title at A3: rows Product,
# data Sum of Revenue
from calc_uno import document, extent, letter, pivot_table, sheet
doc = document("EntireSummerSales.xlsx")
data, out = sheet(doc, "Sheet1"), sheet(doc, "Sheet2")
columns, rows = extent(data)
pivot_table(data, f"A1:{letter(columns - 1)}{rows}", out, "A3", rows=["Product"], data=[("Revenue", "SUM")])
