# %% focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% export March's hours per employee to CSV with the sqlite3 shell
import os
pyautogui.typewrite("sqlite3 timesheets.db\n", interval=0.02)
time.sleep(1)
pyautogui.typewrite(
    ".headers on\n"
    ".mode csv\n"
    ".once march_hours.csv\n"
    "SELECT e.name, e.hourly_rate, sum(t.hours) AS hours FROM employees e "
    "JOIN timesheet t ON t.employee_id = e.id "
    "WHERE t.work_date BETWEEN '2024-03-01' AND '2024-03-31' GROUP BY e.id ORDER BY e.name;\n"
    ".quit\n",
    interval=0.01,
)
for _ in range(50):
    if os.path.exists("/home/user/Desktop/march_hours.csv"):
        break
    time.sleep(0.1)
time.sleep(0.5)

# %% open the CSV in Calc and confirm the Text Import dialog
import subprocess
def windows():
    return subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout
pyautogui.typewrite("libreoffice --calc march_hours.csv &\n", interval=0.02)
for _ in range(300):
    if "Text Import" in windows():
        break
    time.sleep(0.2)
time.sleep(1)
pyautogui.press("enter")
for _ in range(150):
    if "march_hours.csv - LibreOffice Calc" in windows():
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", "march_hours.csv - LibreOffice Calc"])
time.sleep(2)

# %% pay column: header in D1, then hourly_rate times hours for rows 2 to 8
pyautogui.hotkey("ctrl", "home")
time.sleep(0.3)
pyautogui.press("right", presses=3, interval=0.1)
pyautogui.typewrite("pay\n", interval=0.05)
for row in range(2, 9):
    pyautogui.typewrite(f"=B{row}*C{row}\n", interval=0.05)
time.sleep(0.5)

# %% total row below the last employee (row 9)
import subprocess
def enter(right, down, text):
    """Type text into the cell `right` columns and `down` rows away from A1, and confirm it."""
    pyautogui.hotkey("ctrl", "home")
    time.sleep(0.3)
    pyautogui.press("right", presses=right, interval=0.1)
    pyautogui.press("down", presses=down, interval=0.1)
    time.sleep(0.3)
    pyautogui.typewrite(text + "\n", interval=0.05)
    time.sleep(0.5)
enter(0, 8, "Total")
enter(2, 8, "=SUM(C2:C8)")
enter(3, 8, "=SUM(D2:D8)")

# %% File > Save As... as march_payroll.xlsx (the xlsx type follows from the extension)
import subprocess
def windows():
    return subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout
pyautogui.hotkey("ctrl", "shift", "s")
for _ in range(100):
    if any(line.endswith(" Save") for line in windows().splitlines()):
        break
    time.sleep(0.2)
time.sleep(1)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("/home/user/Desktop/march_payroll.xlsx\n", interval=0.02)
for _ in range(100):
    if "march_payroll.xlsx - LibreOffice Calc" in windows():
        break
    time.sleep(0.2)
time.sleep(1)

# %%
DONE
