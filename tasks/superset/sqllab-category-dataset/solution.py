# %% focus Chromium
import subprocess
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(0.5)

# %% open SQL Lab; replace the editor's text with the query (one line: no autocompletion pop-up takes a newline), run it
from superset_ui import until, looks, sqllab
sqllab()
pyautogui.click(1134, 264)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite(
    "SELECT p.category AS category, SUM(o.revenue) AS total_revenue FROM orders o "
    "JOIN products p ON p.product_id = o.product_id GROUP BY p.category ",
    interval=0.01,
)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "enter")
until(lambda: looks(484, 529, (233, 246, 249)), 30)  # the result table's "Create chart" button

# %% Save > Save dataset, named category_revenue; "Save & explore" creates it and opens a new tab
from superset_ui import until, overlay, looks
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
pyautogui.typewrite("category_revenue", interval=0.01)
pyautogui.click(1175, 422)
until(lambda: not overlay(), 15)
time.sleep(1)
until(lambda: not looks(300, 600, (247, 247, 247), 2), 30)  # the new tab has finished loading

# %%
DONE
