# %% open a terminal in the home folder
import subprocess
subprocess.Popen(["gnome-terminal", "--maximize", "--working-directory=/home/user"])
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% look at the order_items table, then create the view with the DuckDB command line
pyautogui.typewrite('duckdb -readonly shop.duckdb -c "DESCRIBE order_items"\n', interval=0.01)
time.sleep(0.5)
pyautogui.typewrite(
    'duckdb shop.duckdb "CREATE VIEW shipped_revenue AS SELECT i.product_id, SUM(i.quantity * i.unit_price) AS revenue '
    "FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE o.status = 'shipped' GROUP BY i.product_id\"\n",
    interval=0.01,
)

# %% wait until the view exists
import subprocess
check = ["duckdb", "-readonly", "-noheader", "-list", "/home/user/shop.duckdb",
         "SELECT count(*) FROM information_schema.tables WHERE table_name = 'shipped_revenue'"]
for _ in range(100):
    if subprocess.run(check, capture_output=True, text=True).stdout.strip() == "1":
        break
    time.sleep(0.2)

# %% close the terminal, switch to Chromium, click into the notebook's code cell and run it
import subprocess
pyautogui.typewrite("exit\n", interval=0.02)
for _ in range(100):
    if "gnome-terminal-server" not in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "JupyterLab"])
time.sleep(1.0)
pyautogui.click(600, 320)
time.sleep(0.3)
pyautogui.hotkey("shift", "enter")
time.sleep(1.0)

# %% query the view from the notebook and write the CSV
pyautogui.typewrite(
    "con = duckdb.connect('shop.duckdb', read_only=True)\n"
    'top = con.sql("SELECT p.name, p.category, ROUND(r.revenue, 2) AS revenue FROM shipped_revenue r '
    'JOIN products p USING (product_id) ORDER BY r.revenue DESC LIMIT 5").df()\n'
    "con.close()\n"
    "top.to_csv('top_products.csv', index=False)",
    interval=0.01,
)

# %% run the cell and wait for the file
import os
pyautogui.hotkey("shift", "enter")
for _ in range(100):
    if os.path.exists("/home/user/top_products.csv"):
        break
    time.sleep(0.2)

# %% save the notebook
import os
for _ in range(20):
    pyautogui.hotkey("ctrl", "s")
    time.sleep(0.5)
    if "top_products.csv" in open("/home/user/top_products.ipynb").read():
        break

# %%
DONE
