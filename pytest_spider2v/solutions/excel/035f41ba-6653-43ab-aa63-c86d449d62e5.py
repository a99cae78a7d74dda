# Fill the Gross Profit column (IncomeStatement2.xlsx), then list "<Year>_<Gross Profit>" in a new
# sheet under the header "Year_Profit". Gross profit as defined: net sales (sales less returns and
# discounts) less the three cost columns (=B2-C2-D2-F2-G2-H2).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("IncomeStatement2.xlsx - LibreOffice Calc")

# %% Gross Profit: sales minus returns, discounts, materials, labor and overhead, filled down
from calc_uno import column_of, document, fill, last_row, sheet
sh = sheet(document("IncomeStatement2.xlsx"), "Sheet1")
col = {name: column_of(sh, name) for name in ("Sales", "Sales Return", "Discounts and Allowances",
                                               "Materials Charges", "Labor Charges", "Overhead", "Gross Profit")}
minus = "-".join(f"{col[name]}2" for name in ("Sales Return", "Discounts and Allowances", "Materials Charges",
                                              "Labor Charges", "Overhead"))
fill(sh, f"{col['Gross Profit']}2:{col['Gross Profit']}{last_row(sh, 'A')}", f"={col['Sales']}2-{minus}")

# %% new sheet Sheet2: "Year_Profit", then CONCATENATE(year; "_"; gross profit) for every year
from calc_uno import add_sheet, column_of, document, fill, last_row, put, sheet
doc = document("IncomeStatement2.xlsx")
data = sheet(doc, "Sheet1")
year, profit, rows = column_of(data, "Year"), column_of(data, "Gross Profit"), last_row(data, "A")
out = add_sheet(doc, "Sheet2")
put(out, "A1", "Year_Profit")
fill(out, f"A2:A{rows}", f'=CONCATENATE(Sheet1.{year}2;"_";Sheet1.{profit}2)')

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("IncomeStatement2.xlsx"))
