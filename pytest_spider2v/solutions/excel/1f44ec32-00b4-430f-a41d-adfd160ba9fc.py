# Two tables in a new sheet: the total revenue of each product and of each sales channel
# (SummerSales.xlsx), as two pivot tables over all the data, side by side in Sheet2.
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("SummerSales.xlsx - LibreOffice Calc")

# %% new sheet Sheet2; at A1 a pivot table rows Product / Sum of Revenue ($), at D1 rows Sales
# Channel / Sum of Revenue ($)
from calc_uno import add_sheet, document, extent, letter, pivot_table, sheet
doc = document("SummerSales.xlsx")
data = sheet(doc, "Sheet1")
columns, rows = extent(data)
cells = f"A1:{letter(columns - 1)}{rows}"
out = add_sheet(doc, "Sheet2")
pivot_table(data, cells, out, "A1", rows=["Product"], data=[("Revenue ($)", "SUM")])
pivot_table(data, cells, out, "D1", rows=["Sales Channel"], data=[("Revenue ($)", "SUM")])

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SummerSales.xlsx"))
