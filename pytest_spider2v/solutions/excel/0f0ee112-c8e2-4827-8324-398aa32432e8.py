# In a new sheet "Sheet2": A1:B1 merged with "Summer sales ($)", under it a pivot table of the
# revenue sum of each product over Sheet1's data, and a horizontal bar chart of it titled
# "Revenue of Each Product" without a legend (EntireSummerSales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("EntireSummerSales.xlsx - LibreOffice Calc")

# %% new sheet Sheet2 with A1:B1 merged, reading "Summer sales ($)"
from calc_uno import add_sheet, document, merge
out = add_sheet(document("EntireSummerSales.xlsx"), "Sheet2")
merge(out, "A1:B1", "Summer sales ($)")

# %% a pivot table of all of Sheet1's data at Sheet2.A2 (the cell the tutorial's steps 11-13 choose):
# rows Product, data Sum of Revenue
from calc_uno import document, extent, letter, pivot_table, sheet
doc = document("EntireSummerSales.xlsx")
data, out = sheet(doc, "Sheet1"), sheet(doc, "Sheet2")
columns, rows = extent(data)
pivot_table(data, f"A1:{letter(columns - 1)}{rows}", out, "A2", rows=["Product"], data=[("Revenue", "SUM")])

# %% Insert > Chart in the pivot table: "Bar" (horizontal), titled, legend off
from calc_uno import document, pivot_chart, sheet
sh = sheet(document("EntireSummerSales.xlsx"), "Sheet2")
pivot_chart(sh, "Revenue of Each Product", sh.DataPilotTables.getByIndex(0), kind="bar", horizontal=True,
            title="Revenue of Each Product", legend=False)

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("EntireSummerSales.xlsx"))
