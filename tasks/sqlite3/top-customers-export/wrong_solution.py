# Wrong on purpose: ranks customers by their all-time totals: the query has no 2024 filter on order_date
# focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% open the database
pyautogui.typewrite("sqlite3 ~/Desktop/shop.db\n", interval=0.02)
time.sleep(1)

# %% CSV output with a header row, into the file
pyautogui.typewrite(".headers on\n.mode csv\n.output /home/user/Desktop/top_customers.csv\n", interval=0.02)

# %% the query
pyautogui.typewrite(
    "SELECT c.name, ROUND(SUM(o.amount), 2) AS total_amount FROM orders o "
    "JOIN customers c ON c.id = o.customer_id "
    "GROUP BY c.id ORDER BY total_amount DESC LIMIT 5;\n",
    interval=0.02,
)

# %% close the file and leave sqlite3
pyautogui.typewrite(".output stdout\n.quit\n", interval=0.02)
time.sleep(1)

# %%
DONE
