# Wrong on purpose: forgets to restrict the export to March 2024, so every employee's hours of all months are summed
# %% based-on: solution.py
# %% replace 2: export March's hours per employee to CSV with the sqlite3 shell
import os
pyautogui.typewrite("sqlite3 timesheets.db\n", interval=0.02)
time.sleep(1)
pyautogui.typewrite(
    ".headers on\n"
    ".mode csv\n"
    ".once march_hours.csv\n"
    "SELECT e.name, e.hourly_rate, sum(t.hours) AS hours FROM employees e "
    "JOIN timesheet t ON t.employee_id = e.id "
    "GROUP BY e.id ORDER BY e.name;\n"
    ".quit\n",
    interval=0.01,
)
for _ in range(50):
    if os.path.exists("/home/user/Desktop/march_hours.csv"):
        break
    time.sleep(0.1)
time.sleep(0.5)
