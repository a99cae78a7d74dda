# %% focus the workbook window once Calc shows it
import subprocess
title = "product_sales.xlsx - LibreOffice Calc"
for _ in range(150):
    if title in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", title])
time.sleep(1)

# %% header in E1 (Ctrl+Home goes to A1, four steps right)
pyautogui.hotkey("ctrl", "home")
pyautogui.press("right", presses=4)
pyautogui.typewrite("Revenue\n", interval=0.02)

# %% one formula per product row, E2:E13 (Enter moves down a row)
rows = range(2, 14)
for row in rows:
    pyautogui.typewrite(f"=C{row}*D{row}\n", interval=0.02)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
