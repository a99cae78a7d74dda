# Fill the two acceleration formulas of row 2 down to every mass, then a "Combined Data" column
# "<header>: <value>, ..." over columns A to D with each value to two decimals (RampUpAndDown.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("RampUpAndDown.xlsx - LibreOffice Calc")

# %% drag B2 and D2 (the given formulas) down to the last row of masses
from calc_uno import document, drag, last_row, sheet
sh = sheet(document("RampUpAndDown.xlsx"), "Sheet1")
rows = last_row(sh, "A")
drag(sh, f"B2:B{rows}")
drag(sh, f"D2:D{rows}")

# %% "Combined Data" in E: header text and FIXED(value; 2) of A to D joined with ", ", filled down
from calc_uno import document, fill, last_row, put, sheet
sh = sheet(document("RampUpAndDown.xlsx"), "Sheet1")
put(sh, "E1", "Combined Data")
formula = '&", "&'.join(f'${c}$1&": "&FIXED({c}2;2)' for c in "ABCD")
fill(sh, f"E2:E{last_row(sh, 'A')}", "=" + formula)

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("RampUpAndDown.xlsx"))
