# In a new sheet, "Total Revenue" and "Total Expenses": the sums of Sheet1's Revenue and
# Total Expenses columns (NetIncome.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("NetIncome.xlsx - LibreOffice Calc")

# %% new sheet Sheet2: the two headers, and =SUM(Sheet1.<column>2:<last row>) under each
from calc_uno import add_sheet, column_of, document, last_row, put_row, sheet
doc = document("NetIncome.xlsx")
data = sheet(doc, "Sheet1")
rows = last_row(data, "A")
revenue, expenses = column_of(data, "Revenue"), column_of(data, "Total Expenses")
out = add_sheet(doc, "Sheet2")
put_row(out, "A1", ["Total Revenue", "Total Expenses"])
put_row(out, "A2", [f"=SUM(Sheet1.{revenue}2:{revenue}{rows})", f"=SUM(Sheet1.{expenses}2:{expenses}{rows})"])

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("NetIncome.xlsx"))
