# Wrong on purpose: fixes only the KeyError and leaves total_value undefined, so the last cell still fails
# focus Chromium, which shows the notebook in JupyterLab
import subprocess
for _ in range(150):
    if "JupyterLab" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "JupyterLab"])
time.sleep(0.5)

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

# %% Kernel > Restart Kernel and Run All Cells, through the command palette, and confirm
pyautogui.hotkey("ctrl", "shift", "c")
time.sleep(0.8)
pyautogui.typewrite("restart kernel and run all", interval=0.02)
time.sleep(0.5)
pyautogui.press("enter")
time.sleep(1.0)
pyautogui.press("enter")
time.sleep(2.0)

# %% save (Ctrl+S) until the saved notebook has the output of the reorder cell
import json
def done():
    cells = json.load(open("/home/user/inventory_report.ipynb"))["cells"]
    return "Reorder" in json.dumps(cells[-2].get("outputs", []))
for _ in range(30):
    pyautogui.hotkey("ctrl", "s")
    time.sleep(0.7)
    if done():
        break

# %%
DONE
