# Fill Gross Profit (IncomeStatement2.xlsx) as this task's tutorial computes it,
# =SUM(B2:D2)-SUM(F2:H2), then copy the years to column A of a new sheet and the gross profits,
# as numbers, to its column B "Gross Profit". (Its abstract twin, 65551792, states no formula and
# cannot reach these values: it is on the errata list, and its solution is this one with the
# textbook formula.)
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("IncomeStatement2.xlsx - LibreOffice Calc")

# %% Gross Profit: the sum of Sales..Discounts less the sum of the three cost columns, filled down
from calc_uno import column_of, document, fill, last_row, sheet
sh = sheet(document("IncomeStatement2.xlsx"), "Sheet1")
sales, discounts = column_of(sh, "Sales"), column_of(sh, "Discounts and Allowances")
materials, overhead = column_of(sh, "Materials Charges"), column_of(sh, "Overhead")
profit = column_of(sh, "Gross Profit")
fill(sh, f"{profit}2:{profit}{last_row(sh, 'A')}", f"=SUM({sales}2:{discounts}2)-SUM({materials}2:{overhead}2)")

# %% new sheet Sheet2: the Year column copied, "Gross Profit" pasted as numbers beside it
from calc_uno import add_sheet, column_of, copy, document, last_row, put, put_column, sheet, values
doc = document("IncomeStatement2.xlsx")
data = sheet(doc, "Sheet1")
doc.calculateAll()
year, profit, rows = column_of(data, "Year"), column_of(data, "Gross Profit"), last_row(data, "A")
out = add_sheet(doc, "Sheet2")
copy(data, f"{year}1:{year}{rows}", out, "A1")
put(out, "B1", "Gross Profit")
put_column(out, "B2", [row[0] for row in values(data, f"{profit}2:{profit}{rows}")])

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("IncomeStatement2.xlsx"))
