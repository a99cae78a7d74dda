# A new sheet "Sheet2" with merged headers: "Investment Summary" over A1:C1, "High Interest Rate"
# over A2:B2 and "Low Interest Rate" over C2:D2 (FutureValue.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("FutureValue.xlsx - LibreOffice Calc")

# %% new sheet Sheet2; merge the three ranges and write their texts
from calc_uno import add_sheet, document, merge
out = add_sheet(document("FutureValue.xlsx"), "Sheet2")
merge(out, "A1:C1", "Investment Summary")
merge(out, "A2:B2", "High Interest Rate")
merge(out, "C2:D2", "Low Interest Rate")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("FutureValue.xlsx"))
