# %% focus the workbook window once Calc shows it
import subprocess
title = "store_sales.xlsx - LibreOffice Calc"
for _ in range(150):
    if title in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", title])
time.sleep(1)

# %% Sheet > Insert Sheet at End...
pyautogui.hotkey("alt", "s")
time.sleep(0.8)
pyautogui.press("e")
time.sleep(1.5)

# %% name the new sheet and confirm
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("Summary\n", interval=0.02)
time.sleep(1.5)

# %% headers and one SUMIF row per region (Tab moves right, Enter returns to column A)
pyautogui.hotkey("ctrl", "home")
pyautogui.typewrite("Region\tTotal Amount\n", interval=0.02)
for row, region in enumerate(["North", "South", "East", "West"], start=2):
    pyautogui.typewrite(f"{region}\t=SUMIF($Sales.$B$2:$B$25;A{row};$Sales.$D$2:$D$25)\n", interval=0.02)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
