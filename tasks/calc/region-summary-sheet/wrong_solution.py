# Wrong on purpose: the SUMIF ranges stop at row 24 and miss the last sale (North, row 25), so North's total is short
# focus the workbook window once Calc shows it, and let Calc settle
import subprocess
title = "store_sales.xlsx - LibreOffice Calc"
for _ in range(150):
    if title in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", title])
time.sleep(2)

# %% Sheet > Insert Sheet at End... (the tenth item of the Sheet menu), wait for its dialog
import subprocess
pyautogui.hotkey("alt", "s")
time.sleep(1)
pyautogui.press("down", presses=9, interval=0.15)
pyautogui.press("enter")
for _ in range(50):
    if "Append Sheet" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(0.5)

# %% name the new sheet "Summary" and confirm; Calc switches to it
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("Summary\n", interval=0.05)
time.sleep(1.5)

# %% headers, then one SUMIF row per region (Tab moves right, Enter returns to column A)
pyautogui.hotkey("ctrl", "shift", "f5")
time.sleep(0.5)
pyautogui.typewrite("A1\n", interval=0.05)
time.sleep(0.5)
pyautogui.typewrite("Region\tTotal Amount\n", interval=0.03)
regions = ["North", "South", "East", "West"]
for row, region in enumerate(regions, start=2):
    pyautogui.typewrite(f"{region}\t=SUMIF($Sales.$B$2:$B$24;A{row};$Sales.$D$2:$D$24)\n", interval=0.03)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
