# %% focus the workbook window once Calc shows it, and let Calc settle
from desktop import focus
focus("revenue_2024.xlsx - LibreOffice Calc", settle=2, whole=True)

# %% select Month and Revenue (A1:B13) through the Name Box (Ctrl+Shift+F5)
from desktop import name_box
name_box("A1:B13")

# %% Insert > Chart... and wait for the wizard (its first page is "Chart Type", Column/Normal is preselected)
from desktop import corner, until
pyautogui.hotkey("alt", "i")
time.sleep(1)
pyautogui.press("c")
until(lambda: corner("Chart Type", "Chart Elements"), 20, "the Chart Wizard")
time.sleep(1)

# %% "Chart Elements" page, then the Title box (positions relative to the wizard window)
from desktop import corner
x, y = corner("Chart Type", "Chart Elements")
pyautogui.click(x + 63, y + 94)
time.sleep(1)
pyautogui.click(x + 538, y + 44)
time.sleep(0.3)
pyautogui.typewrite("Revenue by Month 2024", interval=0.02)
time.sleep(0.3)

# %% Finish, leave the chart's edit mode, and save in the current (xlsx) format
from desktop import corner, until
x, y = corner("Chart Type", "Chart Elements")
pyautogui.click(x + 887, y + 408)
until(lambda: corner("Chart Type", "Chart Elements") is None, 10, "the Chart Wizard to close")
time.sleep(0.5)
pyautogui.press("escape")
time.sleep(0.5)
pyautogui.press("escape")
time.sleep(0.5)
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
