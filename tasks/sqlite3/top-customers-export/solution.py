# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% open the database
pyautogui.typewrite("sqlite3 ~/Desktop/shop.db\n", interval=0.02)
time.sleep(1)

# %% CSV output with a header row, into the file
pyautogui.typewrite(".headers on\n.mode csv\n.output /home/user/Desktop/top_customers.csv\n", interval=0.02)

# %% the query
pyautogui.typewrite(
    "SELECT c.name, ROUND(SUM(o.amount), 2) AS total_amount FROM orders o "
    "JOIN customers c ON c.id = o.customer_id "
    "WHERE o.order_date BETWEEN '2024-01-01' AND '2024-12-31' "
    "GROUP BY c.id ORDER BY total_amount DESC LIMIT 5;\n",
    interval=0.02,
)

# %% close the file and leave sqlite3, and wait until it has closed the database
from terminal import run
run(".output stdout\n.quit", process="sqlite3 /home/user/Desktop/shop.db")

# %%
DONE
