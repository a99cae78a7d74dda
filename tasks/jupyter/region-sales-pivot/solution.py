# %% focus Chromium, which shows the notebook in JupyterLab
import subprocess
for _ in range(150):
    if "JupyterLab" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "JupyterLab"])
time.sleep(0.5)

# %% click into the code cell that reads orders.csv and run it (Shift+Enter opens a new cell)
pyautogui.click(600, 320)
time.sleep(0.3)
pyautogui.hotkey("shift", "enter")
time.sleep(1.0)

# %% type the pivot code into the new cell
pyautogui.typewrite(
    "pivot = orders.pivot_table(index='region', columns='quarter', values='amount', aggfunc='sum', fill_value=0)\n"
    "pivot = pivot.reindex(columns=['Q1', 'Q2', 'Q3', 'Q4'], fill_value=0)\n"
    "pivot['Total'] = pivot.sum(axis=1)\n"
    "pivot = pivot.round(2)\n"
    "pivot.to_excel('region_quarter_sales.xlsx', sheet_name='pivot')",
    interval=0.01,
)

# %% run the cell and wait for the workbook
import os
pyautogui.hotkey("shift", "enter")
for _ in range(100):
    if os.path.exists("/home/user/region_quarter_sales.xlsx"):
        break
    time.sleep(0.2)

# %% save the notebook (Ctrl+S) until the saved file has the new cell
import os
for _ in range(20):
    pyautogui.hotkey("ctrl", "s")
    time.sleep(0.5)
    if "region_quarter_sales.xlsx" in open("/home/user/sales_pivot.ipynb").read():
        break

# %%
DONE
