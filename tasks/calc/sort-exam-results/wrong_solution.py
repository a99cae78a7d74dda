# Wrong on purpose: sorts by Total ascending (lowest first) instead of descending
# focus the workbook window once Calc shows it, and let Calc settle
import subprocess
title = "exam_results.xlsx - LibreOffice Calc"
for _ in range(150):
    if title in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", title])
time.sleep(2)

# %% go to F2, the first Total value, through the Name Box (Ctrl+Shift+F5)
pyautogui.hotkey("ctrl", "shift", "f5")
time.sleep(0.5)
pyautogui.typewrite("F2\n", interval=0.05)
time.sleep(0.5)

# %% Data > Sort Ascending (the second item of the Data menu)
pyautogui.hotkey("alt", "d")
time.sleep(1)
pyautogui.press("down", presses=1, interval=0.2)
pyautogui.press("enter")
time.sleep(1)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
