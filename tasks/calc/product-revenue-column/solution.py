# %% focus the workbook window once Calc shows it, and let Calc settle
from desktop import focus
focus("product_sales.xlsx - LibreOffice Calc", settle=2, whole=True)

# %% go to E1 through the Name Box (Ctrl+Shift+F5) and type the header
from desktop import name_box
name_box("E1")
pyautogui.typewrite("Revenue\n", interval=0.03)

# %% one formula per product row, E2:E13 (Enter moves down a row)
rows = range(2, 14)
for row in rows:
    pyautogui.typewrite(f"=C{row}*D{row}\n", interval=0.03)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
