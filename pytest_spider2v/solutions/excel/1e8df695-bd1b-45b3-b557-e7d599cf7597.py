# Add a "Profit" column: Sales minus COGS for every week (WeeklySales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("WeeklySales.xlsx - LibreOffice Calc")

# %% "Profit" in the first free column, =Sales-COGS in row 2 dragged down to the last week
from calc_uno import column_of, document, extent, fill, last_row, letter, put, sheet
sh = sheet(document("WeeklySales.xlsx"), "Sheet1")
sales, cogs, profit = column_of(sh, "Sales"), column_of(sh, "COGS"), letter(extent(sh)[0])
put(sh, f"{profit}1", "Profit")
fill(sh, f"{profit}2:{profit}{last_row(sh, 'A')}", f"={sales}2-{cogs}2")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("WeeklySales.xlsx"))
