# The revenue of each product as a pivot table in a new sheet and a pie chart of it with the
# products as the legend on the right (EntireSummerSales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("EntireSummerSales.xlsx - LibreOffice Calc")

# %% a new sheet after Sheet1, named as the pivot dialog names it, with the pivot table at A1:
# rows Product, data Sum of Revenue, over all the data
from calc_uno import add_sheet, document, extent, letter, pivot_table, sheet
doc = document("EntireSummerSales.xlsx")
data = sheet(doc, "Sheet1")
columns, rows = extent(data)
out = add_sheet(doc, "Pivot Table_Sheet1_1", 1)
pivot_table(data, f"A1:{letter(columns - 1)}{rows}", out, "A1", rows=["Product"], data=[("Revenue", "SUM")])

# %% Insert > Chart in the pivot table: a pie chart of it, the products as the legend on the right
from calc_uno import document, pivot_chart, sheet
sh = sheet(document("EntireSummerSales.xlsx"), "Pivot Table_Sheet1_1")
pivot_chart(sh, "Product", sh.DataPilotTables.getByIndex(0), kind="pie", legend="right")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("EntireSummerSales.xlsx"))
