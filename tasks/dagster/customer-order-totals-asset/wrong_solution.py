# Wrong on purpose: an inner join drops the customers without orders
# focus gedit once it shows definitions.py
import subprocess
for _ in range(150):
    if "definitions.py" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "definitions.py"])
time.sleep(1)

# %% register the new asset: Ctrl+End lands on the closing ")" (gedit hides the final newline), "assets=[customers, orders]," is three lines up; type before its "],"
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=3)
pyautogui.press("end")
pyautogui.press("left", presses=2)
pyautogui.typewrite(", customer_order_totals", interval=0.01)

# %% type the asset above "defs = Definitions(" (four lines up from the last line); gedit copies the previous line's indentation, so each line first selects it (Shift+Home) and types over it
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=4)
pyautogui.press("home")
CODE = '''
@asset(deps=[customers, orders], description="Orders and revenue per customer.")
def customer_order_totals(duckdb: DuckDBResource) -> None:
    with duckdb.get_connection() as conn:
        conn.execute(
            "create or replace table customer_order_totals as "
            "select c.customer_id, c.name, count(o.order_id) as order_count, "
            "coalesce(sum(o.amount), 0) as total_amount "
            "from customers c inner join orders o on o.customer_id = c.customer_id "
            "group by c.customer_id, c.name"
        )


'''
for line in CODE[1:].split("\n")[:-1]:
    pyautogui.hotkey("shift", "home")
    pyautogui.typewrite(line + "\n", interval=0.01)

# %% save
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

# %% reload the definitions and wait for the new asset in the graph
import sys
sys.path.insert(0, "/tmp")
from dgui import click, goto, graphql, nodes, wait_for, wait_runs_done
click("Reload definitions")
wait_for("customer_order_totals", roles=("static", "heading", "link", "push button", "section"))
time.sleep(1)

# %% materialize the three assets and wait until the run has finished
import sys
sys.path.insert(0, "/tmp")
from dgui import click, goto, graphql, nodes, wait_for, wait_runs_done
click("Materialize all")
wait_runs_done(1)
time.sleep(1)

# %%
DONE
