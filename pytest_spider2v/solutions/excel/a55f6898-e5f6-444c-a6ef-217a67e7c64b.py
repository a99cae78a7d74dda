# In a new sheet "Sheet2": A1:B1 merged with "Summer sales ($)", under it a pivot table of the
# monthly revenue per sales channel (months as rows, channels as columns) over Sheet1's data, and
# a stacked column chart of it titled "Revenue of Each Channel ($)" with the legend at the bottom
# (EntireSummerSales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("EntireSummerSales.xlsx - LibreOffice Calc")

# %% new sheet Sheet2 with A1:B1 merged, reading "Summer sales ($)"
from calc_uno import add_sheet, document, merge
out = add_sheet(document("EntireSummerSales.xlsx"), "Sheet2")
merge(out, "A1:B1", "Summer sales ($)")

# %% a pivot table of all of Sheet1's data at Sheet2.A2 (the cell the tutorial's steps 12-15 choose):
# rows Month, columns Sales Channel, data Sum of Revenue
from calc_uno import document, extent, letter, pivot_table, sheet
doc = document("EntireSummerSales.xlsx")
data, out = sheet(doc, "Sheet1"), sheet(doc, "Sheet2")
columns, rows = extent(data)
pivot_table(data, f"A1:{letter(columns - 1)}{rows}", out, "A2", rows=["Month"], columns=["Sales Channel"],
            data=[("Revenue", "SUM")])

# %% Insert > Chart in the pivot table: "Column", stacked, titled, legend at the bottom
from calc_uno import document, pivot_chart, sheet
sh = sheet(document("EntireSummerSales.xlsx"), "Sheet2")
pivot_chart(sh, "Revenue of Each Channel", sh.DataPilotTables.getByIndex(0), kind="bar", stacked=True,
            title="Revenue of Each Channel ($)", legend="bottom")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("EntireSummerSales.xlsx"))
