# Wrong on purpose: sums the quantity instead of the revenue per category
# %% based-on: solution.py
# %% replace 2: open SQL Lab; replace the editor's text with the query (one line: no autocompletion pop-up takes a newline), run it
from superset_ui import until, looks, sqllab
sqllab()
pyautogui.click(1134, 264)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite(
    "SELECT p.category AS category, SUM(o.quantity) AS total_revenue FROM orders o "
    "JOIN products p ON p.product_id = o.product_id GROUP BY p.category ",
    interval=0.01,
)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "enter")
until(lambda: looks(484, 529, (233, 246, 249)), 30)  # the result table's "Create chart" button
