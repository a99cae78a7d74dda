# Add "Net Income" (Revenue - Total Expenses) and format every figure as an accounting number
# (NetIncome.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("NetIncome.xlsx - LibreOffice Calc")

# %% "Net Income" in the first free column, =Revenue-Total Expenses filled down
from calc_uno import column_of, document, extent, fill, last_row, letter, put, sheet
sh = sheet(document("NetIncome.xlsx"), "Sheet1")
revenue, expenses, net = column_of(sh, "Revenue"), column_of(sh, "Total Expenses"), letter(extent(sh)[0])
put(sh, f"{net}1", "Net Income")
fill(sh, f"{net}2:{net}{last_row(sh, 'A')}", f"={revenue}2-{expenses}2")

# %% all figures in the accounting format (Format > Cells > Currency, accounting style)
from calc_uno import document, extent, last_row, letter, number_format, sheet
doc = document("NetIncome.xlsx")
sh = sheet(doc, "Sheet1")
number_format(doc, sh, f"A2:{letter(extent(sh)[0] - 1)}{last_row(sh, 'A')}",
              '_-[$$-409]* #,##0.00_ ;_-[$$-409]* -#,##0.00 ;_-[$$-409]* "-"??_ ;_-@_ ')

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("NetIncome.xlsx"))
