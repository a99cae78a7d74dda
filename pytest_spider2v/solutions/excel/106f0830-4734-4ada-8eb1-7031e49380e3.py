# Revenue by week as a pivot table in a new sheet, shown as a line chart in that sheet
# (SummerSales.xlsx): the pivot table rows Week / Sum of Revenue ($), and a pivot chart of it.
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("SummerSales.xlsx - LibreOffice Calc")

# %% a new sheet after Sheet1, named as the pivot dialog names it, with the pivot table at A1:
# rows Week, data Sum of Revenue ($), over all the data
from calc_uno import add_sheet, document, extent, letter, pivot_table, sheet
doc = document("SummerSales.xlsx")
data = sheet(doc, "Sheet1")
columns, rows = extent(data)
out = add_sheet(doc, "Pivot Table_Sheet1_1", 1)
pivot_table(data, f"A1:{letter(columns - 1)}{rows}", out, "A1", rows=["Week"], data=[("Revenue ($)", "SUM")])

# %% Insert > Chart in the pivot table: a line chart of it
from calc_uno import document, pivot_chart, sheet
sh = sheet(document("SummerSales.xlsx"), "Pivot Table_Sheet1_1")
pivot_chart(sh, "Revenue by week", sh.DataPilotTables.getByIndex(0), kind="line")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SummerSales.xlsx"))
