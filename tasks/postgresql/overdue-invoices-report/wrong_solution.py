# Wrong on purpose: counts an unpaid invoice due on 2024-06-30 itself as overdue (due_date <= 2024-06-30)
# focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% connect to the billing database
pyautogui.typewrite("psql billing\n", interval=0.02)
time.sleep(1)

# %% export the overdue invoices (written with ">": pyautogui types "<" as ">" here)
pyautogui.typewrite(
    "\\copy (SELECT invoice_id, customer, due_date, amount FROM invoices "
    "WHERE paid_on IS NULL AND DATE '2024-06-30' >= due_date ORDER BY due_date, invoice_id) "
    "TO '/home/user/Desktop/overdue_invoices.csv' WITH (FORMAT csv, HEADER)\n",
    interval=0.01,
)
time.sleep(1)

# %% leave psql
pyautogui.typewrite("\\q\n", interval=0.02)
time.sleep(0.5)

# %%
DONE
