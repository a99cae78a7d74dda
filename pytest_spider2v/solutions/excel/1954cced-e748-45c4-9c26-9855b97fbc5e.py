# A pivot table in a new sheet "Sheet2" counting how often each "Invoice No." appears
# (Invoices.xlsx): Invoice No. as the row field and, again, as a data field counted.
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("Invoices.xlsx - LibreOffice Calc")

# %% new sheet Sheet2; a pivot table over the Invoice No. column: rows Invoice No., data Count
from calc_uno import add_sheet, column_of, document, last_row, pivot_table, sheet
doc = document("Invoices.xlsx")
data = sheet(doc, "Sheet1")
invoice = column_of(data, "Invoice No.")
out = add_sheet(doc, "Sheet2")
pivot_table(data, f"{invoice}1:{invoice}{last_row(data, invoice)}", out, "A1", rows=["Invoice No."],
            data=[("Invoice No.", "COUNT")])

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("Invoices.xlsx"))
