# A "Period Rate (%)" column, annual rate / periods per year, formatted as a number, with the
# highest rate shown in green (#00ff00) font by a conditional format (PeriodRate.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("PeriodRate.xlsx - LibreOffice Calc")

# %% "Period Rate (%)" in the first free column, =annual rate/periods filled down, as a number
from calc_uno import column_of, document, extent, fill, last_row, letter, number_format, put, sheet
doc = document("PeriodRate.xlsx")
sh = sheet(doc, "Sheet1")
annual, periods, rate = column_of(sh, "Annual Rate (%)"), column_of(sh, "Period per year"), letter(extent(sh)[0])
rows = last_row(sh, "A")
put(sh, f"{rate}1", "Period Rate (%)")
fill(sh, f"{rate}2:{rate}{rows}", f"={annual}2/{periods}2")
number_format(doc, sh, f"{rate}2:{rate}{rows}", "0.00")

# %% Format > Conditional > Condition: "formula is" =$C2=MAX($C$2:$C$<last>) applies a new style
# with a green (#00FF00) font
from calc_uno import column_of, conditional_style, document, last_row, sheet
doc = document("PeriodRate.xlsx")
sh = sheet(doc, "Sheet1")
rate, rows = column_of(sh, "Period Rate (%)"), last_row(sh, "A")
conditional_style(doc, sh, f"{rate}2:{rate}{rows}", f"=${rate}2=MAX(${rate}$2:${rate}${rows})", "Highest rate",
                  CharColor=0x00FF00)

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("PeriodRate.xlsx"))
