# %% focus Chromium, which shows the notebook in JupyterLab
from desktop import focus
focus("JupyterLab", settle=0.5)

# %% select the first code cell (click it, then Escape for command mode) and go down to the failing one
pyautogui.click(600, 320)
time.sleep(0.3)
pyautogui.press("escape")
pyautogui.press("down")
time.sleep(0.2)

# %% edit it: the column is called qty, not quantity
pyautogui.press("enter")
time.sleep(0.2)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("inv['stock_value'] = inv['qty'] * inv['unit_cost']", interval=0.01)
pyautogui.press("escape")

# %% go down to the last cell and define total_value before it is used
pyautogui.press(["down", "down", "down"], interval=0.1)
pyautogui.press("enter")
time.sleep(0.2)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite(
    "total_value = inv['stock_value'].sum()\n"
    "share = (by_category / total_value * 100).round(1)\n"
    "print(share.to_string())",
    interval=0.01,
)
pyautogui.press("escape")
time.sleep(0.3)

# %% Kernel > Restart Kernel and Run All Cells, through the command palette, and confirm
pyautogui.hotkey("ctrl", "shift", "c")
time.sleep(0.8)
pyautogui.typewrite("restart kernel and run all", interval=0.02)
time.sleep(0.5)
pyautogui.press("enter")
time.sleep(1.0)
pyautogui.press("enter")
time.sleep(2.0)

# %% save (Ctrl+S) until the saved notebook has the output of the last cell
from jupyter_ui import save_until
save_until("/home/user/inventory_report.ipynb", "Produce", cell=-1)

# %%
DONE
