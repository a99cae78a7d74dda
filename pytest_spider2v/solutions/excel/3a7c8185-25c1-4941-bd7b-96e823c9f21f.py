# Sort the sales by "Date Time" (column A) ascending, then a line chart of "Quantity" over the
# date-times (BoomerangSales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("BoomerangSales.xlsx - LibreOffice Calc")

# %% Data > Sort: the rows under the header, by column A, ascending
from calc_uno import document, extent, last_row, letter, sheet, sort
doc = document("BoomerangSales.xlsx")
sh = sheet(doc, "Sheet1")
sort(sh, f"A2:{letter(extent(sh)[0] - 1)}{last_row(sh, 'A')}", 0)

# %% a line chart of the Quantity column (headers as labels) with Date Time as categories
from calc_uno import chart, column_of, document, last_row, sheet
doc = document("BoomerangSales.xlsx")
sh = sheet(doc, "Sheet1")
date, quantity, rows = column_of(sh, "Date Time"), column_of(sh, "Quantity"), last_row(sh, "A")
chart(doc, sh, "Quantity", [f"{date}1:{date}{rows}", f"{quantity}1:{quantity}{rows}"], kind="line", title="Quantity",
      legend=False)

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("BoomerangSales.xlsx"))
