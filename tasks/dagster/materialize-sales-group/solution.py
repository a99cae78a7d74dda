# %% write a small helper that finds Chromium page elements through the accessibility tree (to click them like a user), and wait for the Dagster UI window
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

# %% open the page of the "sales" asset group (address bar) and wait for its graph
import sys
sys.path.insert(0, "/tmp")
from dgui import click, goto, graphql, nodes, wait_for, wait_runs_done
goto("http://localhost:3000/locations/retail_ops/asset-groups/sales")
wait_for("revenue_report", roles=("static", "heading", "link", "push button", "section"))

# %% click the group's "Materialize all" and wait until the run has finished
import sys
sys.path.insert(0, "/tmp")
from dgui import click, goto, graphql, nodes, wait_for, wait_runs_done
click("Materialize all")
wait_runs_done(1)
time.sleep(1)

# %%
DONE
