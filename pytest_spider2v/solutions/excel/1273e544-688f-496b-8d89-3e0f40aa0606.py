# Copy the "Revenue" column with its header to a new sheet (NetIncome.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("NetIncome.xlsx - LibreOffice Calc")

# %% new sheet Sheet2; copy the Revenue column (header and figures) into its column A
from calc_uno import add_sheet, column_of, copy, document, last_row, sheet
doc = document("NetIncome.xlsx")
data = sheet(doc, "Sheet1")
revenue = column_of(data, "Revenue")
out = add_sheet(doc, "Sheet2")
copy(data, f"{revenue}1:{revenue}{last_row(data, revenue)}", out, "A1")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("NetIncome.xlsx"))
