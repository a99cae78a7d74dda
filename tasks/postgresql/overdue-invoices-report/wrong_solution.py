# Wrong on purpose: counts an unpaid invoice due on 2024-06-30 itself as overdue (due_date <= 2024-06-30)
# %% based-on: solution.py
# %% replace 3: export the overdue invoices (written with ">": pyautogui types "<" as ">" here)
pyautogui.typewrite(
    "\\copy (SELECT invoice_id, customer, due_date, amount FROM invoices "
    "WHERE paid_on IS NULL AND DATE '2024-06-30' >= due_date ORDER BY due_date, invoice_id) "
    "TO '/home/user/Desktop/overdue_invoices.csv' WITH (FORMAT csv, HEADER)\n",
    interval=0.01,
)
time.sleep(1)
