# Wrong on purpose: swaps minute and hour in the cron expression (3 15 * * * runs at 15:03, not 03:15)
# focus gedit once it shows definitions.py
import subprocess
for _ in range(150):
    if "definitions.py" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "definitions.py"])
time.sleep(1)

# %% register the schedule in Definitions(...): Ctrl+End lands on the closing ")" (gedit hides the final newline); add a line after "assets=[...]," two lines up; Shift+Home selects the indentation gedit copies
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=2)
pyautogui.press("end")
pyautogui.press("enter")
pyautogui.hotkey("shift", "home")
pyautogui.typewrite("    schedules=[nightly_refresh],", interval=0.01)

# %% define the schedule on the empty line above "defs = Definitions(" (five lines up from the last line)
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=5)
pyautogui.press("home")
for line in [
    "nightly_refresh = ScheduleDefinition(",
    '    name="nightly_refresh", job=refresh_reports_job, cron_schedule="3 15 * * *",',
    ")",
    "",
]:
    pyautogui.hotkey("shift", "home")
    pyautogui.typewrite(line + "\n", interval=0.01)

# %% import ScheduleDefinition on the line after the dagster import (line 3), then save
pyautogui.hotkey("ctrl", "home")
pyautogui.press("down", presses=2)
pyautogui.typewrite("from dagster import ScheduleDefinition\n", interval=0.01)
pyautogui.hotkey("ctrl", "s")
time.sleep(1)
# %% switch to Chromium; write a small helper that finds Chromium page elements through the accessibility tree (to click them like a user), and wait for the Dagster UI window
HELPER = r'''
import json, subprocess, time, urllib.request
import pyatspi, pyautogui

CLICKABLE = ("push button", "link", "toggle button", "check box", "menu item", "page tab", "list item")

def _chromium():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and "hromium" in (app.name or ""):
            return app
    return None

def nodes(pred):
    app = _chromium()
    found = []
    if app is None:
        return found
    def walk(n):
        try:
            if pred(n) and n.getState().contains(pyatspi.STATE_SHOWING):
                e = n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                if e.width > 0 and e.height > 0:
                    found.append((n, e))
            children = list(n)
        except Exception:
            return
        for c in children:
            walk(c)
    walk(app)
    return found

def named(name, roles=CLICKABLE):
    def pred(n):
        nm = n.name or ""
        return (nm == name or nm.endswith(" " + name)) and n.getRoleName() in roles
    return pred

def wait_for(name, roles=CLICKABLE, timeout=60):
    deadline = time.time() + timeout
    while True:
        hits = nodes(named(name, roles))
        if hits:
            return hits
        if time.time() > deadline:
            raise RuntimeError("not on screen: " + name)
        time.sleep(0.5)

def click(name, roles=CLICKABLE, timeout=60, index=0):
    n, e = wait_for(name, roles, timeout)[index]
    pyautogui.click(e.x + e.width // 2, e.y + e.height // 2)
    time.sleep(0.5)

def goto(url):
    pyautogui.hotkey("ctrl", "l")
    time.sleep(0.3)
    pyautogui.typewrite(url + "\n", interval=0.01)

def graphql(query):
    req = urllib.request.Request("http://localhost:3000/graphql", data=json.dumps({"query": query}).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=20))["data"]

def wait_runs_done(expected_runs=1, timeout=80):
    q = "{ runsOrError { ... on Runs { results { status } } } }"
    deadline = time.time() + timeout
    while time.time() < deadline:
        runs = graphql(q)["runsOrError"]["results"]
        if len(runs) >= expected_runs and all(r["status"] in ("SUCCESS", "FAILURE", "CANCELED") for r in runs):
            return runs
        time.sleep(1)
    raise RuntimeError("runs did not finish")
'''
open("/tmp/dgui.py", "w").write(HELPER)
import subprocess
for _ in range(150):
    if "Chromium" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(0.5)

# %% reload the definitions, then open Automation and wait for the schedule
import sys
sys.path.insert(0, "/tmp")
from dgui import click, goto, graphql, nodes, wait_for, wait_runs_done
click("Reload definitions")
time.sleep(2)
click("Automation")
wait_for("nightly_refresh", roles=("static",))
time.sleep(1)

# %% turn the schedule on: the toggle switch is the right-most check box (or its label) on the schedule's row
import sys
sys.path.insert(0, "/tmp")
from dgui import click, goto, graphql, nodes, wait_for, wait_runs_done
row = wait_for("nightly_refresh", roles=("static",))[0][1]
boxes = nodes(lambda n: n.getRoleName() in ("check box", "label") and not (n.name or ""))
boxes = [e for _, e in boxes if abs((e.y + e.height / 2) - (row.y + row.height / 2)) < 40]
if boxes:
    toggle = max(boxes, key=lambda e: e.x + e.width)
    pyautogui.click(toggle.x + toggle.width // 2, toggle.y + toggle.height // 2)
else:  # the switch is drawn at the right end of the row, a little below the name's line
    page = nodes(lambda n: n.getRoleName() == "document web")[0][1]
    pyautogui.click(page.x + page.width - 40, row.y + row.height // 2 + 11)
q = '{ schedulesOrError(repositorySelector: {repositoryName: "__repository__", repositoryLocationName: "report_jobs"}) { ... on Schedules { results { name scheduleState { status } } } } }'
for _ in range(40):
    res = graphql(q)["schedulesOrError"]["results"]
    if any(s["name"] == "nightly_refresh" and s["scheduleState"]["status"] == "RUNNING" for s in res):
        break
    time.sleep(0.5)
time.sleep(1)

# %%
DONE
