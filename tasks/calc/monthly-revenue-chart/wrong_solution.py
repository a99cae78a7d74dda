# Wrong on purpose: charts the whole table, so the Costs column becomes a second series next to Revenue
# focus the workbook window once Calc shows it, and let Calc settle
import subprocess
title = "revenue_2024.xlsx - LibreOffice Calc"
for _ in range(150):
    if title in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", title])
time.sleep(2)

# %% select the whole table (A1:C13) through the Name Box (Ctrl+Shift+F5)
pyautogui.hotkey("ctrl", "shift", "f5")
time.sleep(0.5)
pyautogui.typewrite("A1:C13\n", interval=0.05)
time.sleep(0.5)

# %% Insert > Chart... and wait for the wizard (its first page is "Chart Type", Column/Normal is preselected)
import subprocess
def wizard():
    """Top-left corner of the Chart Wizard window, or None while it is not shown."""
    for line in subprocess.run(["wmctrl", "-lG"], capture_output=True, text=True).stdout.splitlines():
        if line.endswith("Chart Type") or line.endswith("Chart Elements"):
            x, y = line.split()[2:4]
            return int(x), int(y)
    return None
pyautogui.hotkey("alt", "i")
time.sleep(1)
pyautogui.press("c")
for _ in range(100):
    if wizard():
        break
    time.sleep(0.2)
time.sleep(1)

# %% "Chart Elements" page, then the Title box (positions relative to the wizard window)
import subprocess
def wizard():
    """Top-left corner of the Chart Wizard window, or None while it is not shown."""
    for line in subprocess.run(["wmctrl", "-lG"], capture_output=True, text=True).stdout.splitlines():
        if line.endswith("Chart Type") or line.endswith("Chart Elements"):
            x, y = line.split()[2:4]
            return int(x), int(y)
    return None
x, y = wizard()
pyautogui.click(x + 63, y + 94)
time.sleep(1)
pyautogui.click(x + 538, y + 44)
time.sleep(0.3)
pyautogui.typewrite("Revenue by Month 2024", interval=0.02)
time.sleep(0.3)

# %% Finish, leave the chart's edit mode, and save in the current (xlsx) format
import subprocess
def wizard():
    """Top-left corner of the Chart Wizard window, or None while it is not shown."""
    for line in subprocess.run(["wmctrl", "-lG"], capture_output=True, text=True).stdout.splitlines():
        if line.endswith("Chart Type") or line.endswith("Chart Elements"):
            x, y = line.split()[2:4]
            return int(x), int(y)
    return None
x, y = wizard()
pyautogui.click(x + 887, y + 408)
for _ in range(50):
    if wizard() is None:
        break
    time.sleep(0.2)
time.sleep(0.5)
pyautogui.press("escape")
time.sleep(0.5)
pyautogui.press("escape")
time.sleep(0.5)
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
