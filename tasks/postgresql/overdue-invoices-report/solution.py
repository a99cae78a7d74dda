# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% connect to the billing database
pyautogui.typewrite("psql billing\n", interval=0.02)
time.sleep(1)

# %% export the overdue invoices (written with ">": pyautogui types "<" as ">" here)
pyautogui.typewrite(
    "\\copy (SELECT invoice_id, customer, due_date, amount FROM invoices "
    "WHERE paid_on IS NULL AND DATE '2024-06-30' > due_date ORDER BY due_date, invoice_id) "
    "TO '/home/user/Desktop/overdue_invoices.csv' WITH (FORMAT csv, HEADER)\n",
    interval=0.01,
)
time.sleep(1)

# %% leave psql and wait until it has quit
from terminal import run
run("\\q", process="psql billing")

# %%
DONE
