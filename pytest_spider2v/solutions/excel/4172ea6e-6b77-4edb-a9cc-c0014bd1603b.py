# A "Maturity Date" column: each loan's issue date plus its length in days, shown as a date like
# the issue dates (MaturityDate.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("MaturityDate.xlsx - LibreOffice Calc")

# %% "Maturity Date" in the first free column, =issue date + days filled down, in the date format
# of the issue dates
from calc_uno import column_of, document, extent, fill, format_code, last_row, letter, number_format, put, sheet
doc = document("MaturityDate.xlsx")
sh = sheet(doc, "Sheet1")
issued, days, due = column_of(sh, "Loan Issue Date"), column_of(sh, "Length of Loan in Days"), letter(extent(sh)[0])
rows = last_row(sh, "A")
put(sh, f"{due}1", "Maturity Date")
fill(sh, f"{due}2:{due}{rows}", f"={issued}2+{days}2")
number_format(doc, sh, f"{due}2:{due}{rows}", format_code(doc, sh, f"{issued}2"))

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("MaturityDate.xlsx"))
