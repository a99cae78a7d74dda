# The total revenue of each promotion type in a new sheet "Sheet2", the promotion names as column
# headers (EntireSummerSales.xlsx): a pivot table over all the data with Promotion as the column
# field and the sum of Revenue as the data field.
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("EntireSummerSales.xlsx - LibreOffice Calc")

# %% new sheet Sheet2; a pivot table of all the data: columns Promotion, data Sum of Revenue
from calc_uno import add_sheet, document, extent, letter, pivot_table, sheet
doc = document("EntireSummerSales.xlsx")
data = sheet(doc, "Sheet1")
columns, rows = extent(data)
out = add_sheet(doc, "Sheet2")
pivot_table(data, f"A1:{letter(columns - 1)}{rows}", out, "A1", columns=["Promotion"], data=[("Revenue", "SUM")])

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("EntireSummerSales.xlsx"))
