# A clustered column chart of Sales and COGS per week, placed in a new sheet and titled
# "Sales & COGS" (WeeklySales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("WeeklySales.xlsx - LibreOffice Calc")

# %% new sheet Sheet2 holding a column chart of Sheet1's Week, Sales and COGS (series in columns,
# first row and first column as labels), titled "Sales & COGS"
from calc_uno import add_sheet, chart, column_of, document, last_row, sheet
doc = document("WeeklySales.xlsx")
data = sheet(doc, "Sheet1")
week, cogs, rows = column_of(data, "Week"), column_of(data, "COGS"), last_row(data, "A")
out = add_sheet(doc, "Sheet2")
chart(doc, out, "Sales & COGS", [f"Sheet1.{week}1:{cogs}{rows}"], kind="bar", title="Sales & COGS")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("WeeklySales.xlsx"))
