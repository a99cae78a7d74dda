# A "Period Rate (%)" column (annual rate / periods per year) formatted as a number, with the
# highest rate shown in green (#00ff00) font by a conditional format (PeriodRate.xlsx), all done
# in Calc's window: the header and a formula typed into cells (Name Box), Ctrl+D to fill it down,
# Format > Number Format > Number, then Format > Conditional > Condition... with "Formula is" and a
# new cell style whose font colour is typed into "Custom Color…"'s Hex field, and Ctrl+S. Where
# the columns and the data end is read off the sheet as Calc shows it (its accessibility tree).
# route: gui: cells formatted
# %% raise Calc's window with the workbook
from desktop import focus
focus("PeriodRate.xlsx - LibreOffice Calc")

# %% "Period Rate (%)" in the first free column; =annual rate/periods typed into row 2 and filled
# down to the last row (Ctrl+D); Format > Number Format > Number
import time

import pyautogui
from calc_ui import column_of, headers, last_row, letter, menu, text
from desktop import name_box
annual, periods = column_of("Annual Rate (%)"), column_of("Period per year")
rate, rows = letter(len(headers())), last_row("A")
name_box(f"{rate}1")
pyautogui.typewrite("Period Rate (%)\n", interval=0.03)
name_box(f"{rate}2")
pyautogui.typewrite(f"={annual}2/{periods}2\n", interval=0.03)
name_box(f"{rate}2:{rate}{rows}")
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)
menu("Format", "Number Format", "Number")
assert text(f"{rate}1") == "Period Rate (%)" and text(f"{rate}{rows}"), "the column was not filled"

# %% select the rates, Format > Conditional > Condition...: "Formula is" =$C2=MAX($C$2:$C$<last>)
from calc_ui import beside, choose, column_of, dialog, last_row, menu, type_into
from desktop import name_box
rate, rows = column_of("Period Rate (%)"), last_row("A")
name_box(f"{rate}2:{rate}{rows}")
menu("Format", "Conditional", "Condition...")
dialog("Conditional Formatting")
choose(beside("Condition 1", "toggle button", "Conditional Formatting", side="below"), "Formula is")
kind = beside("Condition 1", "toggle button", "Conditional Formatting", side="below")  # the row was rebuilt
type_into(beside(kind, "text", "Conditional Formatting"), f"${rate}2=MAX(${rate}$2:${rate}${rows})")

# %% Apply Style: New Style...; on its Font Effects tab, Font color: Custom Color… with Hex 00FF00
from calc_ui import beside, choose, click, custom_color, dialog, find
choose(beside("Apply Style:", "toggle button", "Conditional Formatting"), "New Style...")
dialog("Cell Style")
click("page tab", "Font Effects", window="Cell Style")
custom_color(beside("Font color:", "toggle button", "Cell Style"), "00FF00")
assert find("toggle button", "#00FF00", window="Cell Style"), "the font colour is not #00FF00"

# %% OK on the new style, OK on the conditional format
from calc_ui import click, closed
click("push button", "OK", window="Cell Style")
closed("Cell Style")
click("push button", "OK", window="Conditional Formatting")
closed("Conditional Formatting")

# %% save with Ctrl+S (the workbook's own format, xlsx)
from calc_ui import save
save("PeriodRate.xlsx")

# %%
DONE
