# %% in the terminal (open in ~/data): import the CSV into sales.db as table returns
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite("sqlite3 sales.db '.import --csv /home/user/Desktop/returns.csv returns' && sqlite3 sales.db 'SELECT COUNT(*) FROM returns' && echo IMPORTED\n", interval=0.01)
for _ in range(40):
    out = subprocess.run(["sqlite3", "/home/user/data/sales.db", "SELECT COUNT(*) FROM returns"], capture_output=True, text=True).stdout
    if out.strip() not in ("", "0"):
        break
    time.sleep(0.25)
time.sleep(0.5)

# %% focus Chromium
import subprocess
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(0.5)

# %% SQL Lab: SELECT * FROM returns, then Save > Save dataset "returns"
from superset_ui import until, overlay, looks, sqllab
sqllab()
pyautogui.click(1134, 264)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("SELECT * FROM returns ", interval=0.01)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "enter")
until(lambda: looks(484, 529, (233, 246, 249)), 30)  # the result table's "Create chart" button
for _ in range(10):  # the menu can take a while to open on a busy machine
    pyautogui.click(1714, 421)  # the arrow next to "Save"
    time.sleep(1.5)
    pyautogui.click(1677, 460)  # "Save dataset" in its menu
    if until(overlay, 8):
        break
else:
    raise SystemExit("the Save dataset dialog never opened")
time.sleep(0.8)
pyautogui.click(1035, 299)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("returns", interval=0.01)
pyautogui.click(1175, 422)  # "Save & explore": creates the dataset (id 3) and opens it in a new tab
until(lambda: not overlay(), 15)
time.sleep(1)
until(lambda: not looks(300, 600, (247, 247, 247), 2), 30)  # the new tab has finished loading
time.sleep(3)

# %% Explore on the new dataset (id 3) as a pie chart: dimension reason, metric SUM(refund)
from superset_ui import explore
explore('{"datasource":"3__table","viz_type":"pie","groupby":["reason"],"metric":{"expressionType":"SIMPLE",'
        '"column":{"column_name":"refund"},"aggregate":"SUM","label":"SUM(refund)"}}')

# %% Save: name the chart "Refunds by Reason"
from superset_ui import save_chart
save_chart("Refunds by Reason")

# %%
DONE
