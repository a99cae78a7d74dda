# Wrong on purpose: the Revenue formulas stop one row short (E2:E12), so the last product (row 13) gets none
# focus the workbook window once Calc shows it, and let Calc settle
import subprocess
title = "product_sales.xlsx - LibreOffice Calc"
for _ in range(150):
    if title in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", title])
time.sleep(2)

# %% go to E1 through the Name Box (Ctrl+Shift+F5) and type the header
pyautogui.hotkey("ctrl", "shift", "f5")
time.sleep(0.5)
pyautogui.typewrite("E1\n", interval=0.05)
time.sleep(0.5)
pyautogui.typewrite("Revenue\n", interval=0.03)

# %% one formula per product row, E2:E12 (Enter moves down a row)
rows = range(2, 13)
for row in rows:
    pyautogui.typewrite(f"=C{row}*D{row}\n", interval=0.03)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
