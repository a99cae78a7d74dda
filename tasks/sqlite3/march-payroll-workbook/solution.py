# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% open timesheets.db in the sqlite3 shell; the next query's result goes to march_hours.csv, with a header row
pyautogui.typewrite("sqlite3 timesheets.db\n", interval=0.02)
time.sleep(1)
pyautogui.typewrite(".headers on\n.mode csv\n.once march_hours.csv\n", interval=0.01)

# %% March's hours per employee, and wait for the CSV file
from terminal import run
run("SELECT e.name, e.hourly_rate, sum(t.hours) AS hours FROM employees e "
    "JOIN timesheet t ON t.employee_id = e.id "
    "WHERE t.work_date BETWEEN '2024-03-01' AND '2024-03-31' GROUP BY e.id ORDER BY e.name;",
    creates="/home/user/Desktop/march_hours.csv")

# %% leave sqlite3, open the CSV in Calc and confirm the Text Import dialog
from desktop import focus, wait_window
from terminal import run
run(".quit", process="sqlite3 timesheets.db")
run("libreoffice --calc march_hours.csv &")
wait_window("Text Import", timeout=60)
time.sleep(1)
pyautogui.press("enter")
focus("march_hours.csv - LibreOffice Calc", settle=2, whole=True)

# %% pay column: header in D1, then hourly_rate times hours for rows 2 to 8
from desktop import name_box
name_box("D1")
pyautogui.typewrite("pay\n", interval=0.05)
for row in range(2, 9):
    pyautogui.typewrite(f"=B{row}*C{row}\n", interval=0.05)
time.sleep(0.5)

# %% total row below the last employee (row 9)
from desktop import name_box
for cell, text in (("A9", "Total"), ("C9", "=SUM(C2:C8)"), ("D9", "=SUM(D2:D8)")):
    name_box(cell)
    pyautogui.typewrite(text + "\n", interval=0.05)
    time.sleep(0.5)

# %% File > Save As... as march_payroll.xlsx (the xlsx type follows from the extension)
from desktop import save_as, wait_window
save_as("/home/user/Desktop/march_payroll.xlsx")
wait_window("march_payroll.xlsx - LibreOffice Calc", timeout=20)
time.sleep(1)

# %%
DONE
