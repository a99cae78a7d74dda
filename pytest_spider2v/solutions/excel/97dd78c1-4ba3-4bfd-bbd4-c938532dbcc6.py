# A "Total" column (each employee's sales over the months) and a "Total" row (each month's
# sales), then the employee with the largest total filled blue and the one with the lowest red,
# with the colours of those names in Calc's standard palette (SalesRep.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("SalesRep.xlsx - LibreOffice Calc")

# %% "Total" column: =SUM(B2:<last month>2) filled down; "Total" row: =SUM(B2:B<last>) filled right
from calc_uno import document, extent, fill, last_row, letter, put, sheet
sh = sheet(document("SalesRep.xlsx"), "Sheet1")
columns, rows = extent(sh)[0], last_row(sh, "A")
last_month, total = letter(columns - 1), letter(columns)
put(sh, f"{total}1", "Total")
fill(sh, f"{total}2:{total}{rows}", f"=SUM(B2:{last_month}2)")
put(sh, f"A{rows + 1}", "Total")
fill(sh, f"B{rows + 1}:{last_month}{rows + 1}", f"=SUM(B2:B{rows})")

# %% the employees with the largest and the lowest total: background "Blue" and "Red"
from calc_uno import column_of, document, last_row, palette_color, sheet, style, values
doc = document("SalesRep.xlsx")
sh = sheet(doc, "Sheet1")
doc.calculateAll()
total, rows = column_of(sh, "Total"), last_row(sh, "A") - 1  # the last row is the monthly totals
totals = [row[0] for row in values(sh, f"{total}2:{total}{rows}")]
style(sh, f"A{totals.index(max(totals)) + 2}", CellBackColor=palette_color("Blue"))
style(sh, f"A{totals.index(min(totals)) + 2}", CellBackColor=palette_color("Red"))

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SalesRep.xlsx"))
