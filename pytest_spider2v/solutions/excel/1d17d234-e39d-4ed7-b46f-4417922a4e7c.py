# A new sheet "Sheet2" with merged headers: "Investment Summary" over A1:C1, "High Interest Rate"
# over A2:B2 and "Low Interest Rate" over C2:D2 (FutureValue.xlsx), all done in Calc's window:
# Sheet > Insert Sheet at End... with the name typed into its dialog, then for each header its
# cells selected in the Name Box, Format > Merge and Unmerge Cells > Merge Cells and the text
# typed, and Ctrl+S.
# route: gui: sheet added and cells merged
# %% raise Calc's window with the workbook
from desktop import focus
focus("FutureValue.xlsx - LibreOffice Calc")

# %% Sheet > Insert Sheet at End...: name it "Sheet2"
from calc_ui import beside, click, closed, dialog, menu, type_into, wait
menu("Sheet", "Insert Sheet at End...")
dialog("Append Sheet")
type_into(beside("Name", "text", "Append Sheet", side="below"), "Sheet2")
click("push button", "OK", window="Append Sheet")
closed("Append Sheet")
wait("table", "Sheet Sheet2")  # Calc shows the new sheet

# %% merge A1:C1 and write "Investment Summary"
import time

import pyautogui
from calc_ui import menu, text
from desktop import name_box
name_box("A1:C1")
menu("Format", "Merge and Unmerge Cells", "Merge Cells")
pyautogui.typewrite("Investment Summary\n", interval=0.03)
time.sleep(0.5)
assert text("A1") == "Investment Summary"

# %% merge A2:B2 and write "High Interest Rate"
import time

import pyautogui
from calc_ui import menu, text
from desktop import name_box
name_box("A2:B2")
menu("Format", "Merge and Unmerge Cells", "Merge Cells")
pyautogui.typewrite("High Interest Rate\n", interval=0.03)
time.sleep(0.5)
assert text("A2") == "High Interest Rate"

# %% merge C2:D2 and write "Low Interest Rate"
import time

import pyautogui
from calc_ui import menu, text
from desktop import name_box
name_box("C2:D2")
menu("Format", "Merge and Unmerge Cells", "Merge Cells")
pyautogui.typewrite("Low Interest Rate\n", interval=0.03)
time.sleep(0.5)
assert text("C2") == "Low Interest Rate"

# %% save with Ctrl+S (the workbook's own format, xlsx)
from calc_ui import save
save("FutureValue.xlsx")

# %%
DONE
