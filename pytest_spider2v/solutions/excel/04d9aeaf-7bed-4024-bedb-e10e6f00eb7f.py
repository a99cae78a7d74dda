# In a new sheet, the year-on-year change of Current, Fixed and Other Assets
# (SmallBalanceSheet.xlsx): for each year after the first, (this year - last year) / last year,
# shown as percentages under "Year", "CA changes", "FA changes", "OA changes".
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("SmallBalanceSheet.xlsx - LibreOffice Calc")

# %% new sheet Sheet2 with the four headers and every year but the first (the first has no change)
from calc_uno import add_sheet, column_of, document, last_row, put_column, put_row, sheet, values
doc = document("SmallBalanceSheet.xlsx")
data = sheet(doc, "Sheet1")
year, rows = column_of(data, "Year"), last_row(data, "A")
out = add_sheet(doc, "Sheet2")
put_row(out, "A1", ["Year", "CA changes", "FA changes", "OA changes"])
put_column(out, "A2", [row[0] for row in values(data, f"{year}3:{year}{rows}")])

# %% each change =(Sheet1 next year - Sheet1 this year)/Sheet1 this year, filled down, as percent
from calc_uno import column_of, document, fill, last_row, number_format, sheet
doc = document("SmallBalanceSheet.xlsx")
data, out = sheet(doc, "Sheet1"), sheet(doc, "Sheet2")
rows = last_row(data, "A")
for target, source in (("B", "Current Assets"), ("C", "Fixed Assets"), ("D", "Other Assets")):
    c = column_of(data, source)
    fill(out, f"{target}2:{target}{rows - 1}", f"=(Sheet1.{c}3-Sheet1.{c}2)/Sheet1.{c}2")
number_format(doc, out, f"B2:D{rows - 1}", "0.00%")

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SmallBalanceSheet.xlsx"))
