# Copy "Date" and "Revenue ($)" of the rows whose "Sales Channel" is "E-mail Coupon" to a new
# sheet "Sheet2", with their headers (SummerSales.xlsx): what an AutoFilter on the channel and a
# copy of the two visible columns gives.
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("SummerSales.xlsx - LibreOffice Calc")

# %% new sheet Sheet2: the two headers, then date and revenue of each E-mail Coupon row in order
from calc_uno import add_sheet, column_of, copy, document, extent, letter, sheet, values
doc = document("SummerSales.xlsx")
data = sheet(doc, "Sheet1")
date, revenue, channel = (column_of(data, name) for name in ("Date", "Revenue ($)", "Sales Channel"))
columns, rows = extent(data)
table = values(data, f"A1:{letter(columns - 1)}{rows}")
channel_index = table[0].index("Sales Channel")
out = add_sheet(doc, "Sheet2")
copy(data, f"{date}1", out, "A1")
copy(data, f"{revenue}1", out, "B1")
kept = [number for number, row in enumerate(table[1:], 2) if row[channel_index] == "E-mail Coupon"]
for target, number in enumerate(kept, 2):
    copy(data, f"{date}{number}", out, f"A{target}")
    copy(data, f"{revenue}{number}", out, f"B{target}")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SummerSales.xlsx"))
