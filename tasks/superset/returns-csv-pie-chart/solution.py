# %% in the terminal (open in ~/data): import the CSV into sales.db as table returns
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite("sqlite3 sales.db '.import --csv /home/user/Desktop/returns.csv returns' && sqlite3 sales.db 'SELECT COUNT(*) FROM returns' && echo IMPORTED\n", interval=0.01)
for _ in range(40):
    out = subprocess.run(["sqlite3", "/home/user/data/sales.db", "SELECT COUNT(*) FROM returns"], capture_output=True, text=True).stdout
    if out.strip() not in ("", "0"):
        break
    time.sleep(0.25)
time.sleep(0.5)

# %% focus Chromium; keep small helpers in /tmp/superset_gui.py (each cell is a fresh interpreter)
import subprocess
HELPERS = r'''
import subprocess
import time

import pyautogui
from PIL import ImageGrab

def pixel(x, y):
    return ImageGrab.grab(xdisplay=":1").getpixel((x, y))[:3]

def until(cond, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.25)
    return False

def overlay():  # a modal dialog dims the (white) bottom-left corner of the page
    return sum(pixel(100, 1000)) < 600

def chart_done():  # Explore's query timer badge turns green once the chart's query has run
    r, g, b = pixel(1880, 238)
    return g > 150 and r < 160 and abs(b - 130) < 45

def explore(form_data):  # type an Explore URL with the chart's form data into the address bar
    pyautogui.press("escape")
    pyautogui.hotkey("ctrl", "l")
    time.sleep(1)  # the address bar selects its text first; keys typed before that are lost
    pyautogui.typewrite("http://localhost:8088/superset/explore/?form_data=" + form_data + "\n", interval=0.005)
    until(lambda: not chart_done(), 10)  # the previous page's badge goes away
    until(chart_done)
    time.sleep(2)

def looks(x, y, rgb, tol=14):
    return all(abs(a - b) <= tol for a, b in zip(pixel(x, y), rgb))

def dialog():  # the page is dimmed but the dialog (white) is in the middle
    return overlay() and looks(680, 300, (255, 255, 255), 4) and looks(959, 378, (255, 255, 255), 4)

def save_chart(name, dashboard=None, new_dashboard=False):
    for _ in range(4):  # "Save" at the top right opens the "Save chart" dialog
        if not overlay():
            pyautogui.click(1833, 173)
        if until(dialog, 8):
            break
    time.sleep(0.8)
    pyautogui.click(959, 378)  # "Chart name"
    pyautogui.typewrite(name, interval=0.01)
    save = (1217, 533)
    if dashboard:
        pyautogui.click(959, 454)  # "Add to dashboard"
        for _ in range(4):  # typed before the dashboard list has loaded, it says "No data": retype
            time.sleep(1.5)
            pyautogui.typewrite(dashboard, interval=0.01)
            if until(lambda: looks(1100, 493, (245, 245, 245), 4), 5):  # the matching entry is listed
                break
            pyautogui.hotkey("ctrl", "a")
            pyautogui.press("backspace")
        time.sleep(0.3)
        pyautogui.press("enter")
        if new_dashboard:  # the note "A new dashboard will be created" moves the buttons down
            until(lambda: looks(712, 504, (239, 248, 254), 4), 10)
            save = (1217, 572)
        time.sleep(0.5)
    until(lambda: looks(*save, (32, 167, 201), 30), 10)  # the (blue) Save button of the dialog
    pyautogui.click(*save)
    until(lambda: not overlay(), 15)
    time.sleep(1.5)

def sqllab():  # open SQL Lab (database "sales", schema "main") in the current tab
    pyautogui.hotkey("ctrl", "l")
    time.sleep(0.7)
    pyautogui.typewrite("http://localhost:8088/sqllab/\n", interval=0.01)
    time.sleep(1)
    until(lambda: looks(500, 421, (32, 167, 201), 30), 30)  # the blue "Run" button
    time.sleep(1.5)
'''
with open("/tmp/superset_gui.py", "w") as f:
    f.write(HELPERS)
exec(HELPERS)
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(0.5)

# %% SQL Lab: SELECT * FROM returns, then Save > Save dataset "returns"
import sys
sys.path.insert(0, "/tmp")
from superset_gui import until, overlay, looks, sqllab
sqllab()
pyautogui.click(1134, 264)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("SELECT * FROM returns ", interval=0.01)
time.sleep(0.3)
pyautogui.hotkey("ctrl", "enter")
until(lambda: looks(484, 529, (233, 246, 249)), 30)  # the result table's "Create chart" button
for _ in range(10):  # the menu can take a while to open on a busy machine
    pyautogui.click(1714, 421)  # the arrow next to "Save"
    time.sleep(1.5)
    pyautogui.click(1677, 460)  # "Save dataset" in its menu
    if until(overlay, 8):
        break
else:
    raise SystemExit("the Save dataset dialog never opened")
time.sleep(0.8)
pyautogui.click(1035, 299)
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("returns", interval=0.01)
pyautogui.click(1175, 422)  # "Save & explore": creates the dataset (id 3) and opens it in a new tab
until(lambda: not overlay(), 15)
time.sleep(1)
until(lambda: not looks(300, 600, (247, 247, 247), 2), 30)  # the new tab has finished loading
time.sleep(3)

# %% Explore on the new dataset (id 3) as a pie chart: dimension reason, metric SUM(refund)
import sys
sys.path.insert(0, "/tmp")
from superset_gui import explore
explore('{"datasource":"3__table","viz_type":"pie","groupby":["reason"],"metric":{"expressionType":"SIMPLE",'
        '"column":{"column_name":"refund"},"aggregate":"SUM","label":"SUM(refund)"}}')

# %% Save: name the chart "Refunds by Reason"
import sys
sys.path.insert(0, "/tmp")
from superset_gui import save_chart
save_chart("Refunds by Reason")

# %% 
DONE
