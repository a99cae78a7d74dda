# A new sheet with "Month" and "Total": one row per month column of Sheet1 with the sum of that
# month's sales (SalesRep.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("SalesRep.xlsx - LibreOffice Calc")

# %% new sheet Sheet2: the headers, the month names (Sheet1's header row after "Sales Rep"), and
# =SUM(Sheet1.<month column>2:<last row>) for each
from calc_uno import add_sheet, document, headers, last_row, letter, put, put_row, sheet
doc = document("SalesRep.xlsx")
data = sheet(doc, "Sheet1")
months, rows = headers(data)[1:], last_row(data, "A")
out = add_sheet(doc, "Sheet2")
put_row(out, "A1", ["Month", "Total"])
for i, month in enumerate(months):
    c = letter(i + 1)
    put(out, f"A{i + 2}", month)
    put(out, f"B{i + 2}", f"=SUM(Sheet1.{c}2:{c}{rows})")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SalesRep.xlsx"))
