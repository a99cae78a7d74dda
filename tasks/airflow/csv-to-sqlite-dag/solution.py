# %% a small helper module: locate Chromium's on-screen controls through AT-SPI and click them
HELPER = r'''
import time
import pyatspi
import pyautogui


def _nodes(node, depth=0):
    """Every accessible under node; parts that vanish while the page changes are skipped."""
    if node is None or depth > 60:
        return
    yield node
    try:
        children = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        return
    for child in children:
        yield from _nodes(child, depth + 1)


def find_all(role, name=None, contains=False):
    """Centres of the visible Chromium accessibles with this role (and name, if given)."""
    hits = []
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        try:
            app = desktop.getChildAtIndex(i)
            if app is None or not (app.name or "").lower().startswith("chrom"):
                continue
        except Exception:
            continue
        for node in _nodes(app):
            try:
                if node.getRoleName() != role:
                    continue
                text = (node.name or "").strip()
                if name is not None and not (name in text if contains else text == name):
                    continue
                e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            except Exception:
                continue
            if e.width > 0 and e.height > 0 and 0 <= e.y < 1080 and 0 <= e.x < 1920:
                hits.append((e.x + e.width // 2, e.y + e.height // 2))
    return hits


def find(role, name=None, timeout=60.0, contains=False, index=0, near_y=None):
    """Centre of the index-th matching accessible, or of the one nearest to near_y (polls)."""
    deadline = time.time() + timeout
    while True:
        hits = find_all(role, name, contains)
        if near_y is not None and hits:
            return min(hits, key=lambda p: abs(p[1] - near_y))
        if len(hits) > index:
            return hits[index]
        if time.time() > deadline:
            raise TimeoutError(f"no {role} named {name!r} on screen")
        time.sleep(0.3)


def click(role, name=None, **kw):
    x, y = find(role, name, **kw)
    pyautogui.click(x, y)
    return x, y


def dag_switch(dag_id, timeout=60.0):
    """Click the pause/unpause switch at the left of dag_id's row in the DAGs list."""
    deadline = time.time() + timeout
    while True:
        _, y = find("link", dag_id, timeout=timeout)
        boxes = [p for p in find_all("check box") if p[0] < 100 and abs(p[1] - y) < 30]
        if boxes:
            pyautogui.click(*boxes[0])
            return boxes[0]
        if time.time() > deadline:
            raise TimeoutError(f"no pause switch in the row of {dag_id}")
        time.sleep(0.3)


def api(path, method="GET", body=None):
    """Airflow's REST API, only to wait for the outcome of what was done in the UI."""
    import base64, json, urllib.request
    req = urllib.request.Request("http://localhost:8080/api/v1/" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Authorization", "Basic " + base64.b64encode(b"admin:admin").decode())
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def wait_run(dag_id, timeout=240.0):
    """Wait until the DAG's newest run has finished; its state."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        runs = api(f"dags/{dag_id}/dagRuns?order_by=-execution_date&limit=1")["dag_runs"]
        if runs and runs[0]["state"] in ("success", "failed"):
            return runs[0]["state"]
        time.sleep(1)
    return "timeout"
'''
with open("/tmp/af_ui.py", "w") as f:
    f.write(HELPER)

# %% write the DAG in the terminal with cat (typed, ended with Ctrl+D) to ~/load_customers.py first:
# Airflow would parse a half-typed file in the dags folder; mv puts the finished file there at once
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite("head -3 ~/data/customers.csv\n", interval=0.01)
pyautogui.typewrite("cat > ~/load_customers.py\n", interval=0.01)
pyautogui.typewrite('import csv\nimport sqlite3\n\nimport pendulum\nfrom airflow import DAG\nfrom airflow.operators.python import PythonOperator\n\nDB = "/home/user/data/warehouse.db"\nCSV_FILE = "/home/user/data/customers.csv"\n\n\ndef create_table():\n    with sqlite3.connect(DB) as con:\n        con.execute("CREATE TABLE IF NOT EXISTS customers (customer_id INTEGER PRIMARY KEY, full_name TEXT, country TEXT, signup_date TEXT)")\n\n\ndef load_csv():\n    with open(CSV_FILE, newline="") as f:\n        rows = [(int(r["customer_id"]), r["full_name"], r["country"], r["signup_date"]) for r in csv.DictReader(f)]\n    with sqlite3.connect(DB) as con:\n        con.execute("DELETE FROM customers")\n        con.executemany("INSERT INTO customers VALUES (?, ?, ?, ?)", rows)\n\n\ndef count_rows():\n    with sqlite3.connect(DB) as con:\n        n = con.execute("SELECT COUNT(*) FROM customers").fetchone()[0]\n    print(f"customers: {n} rows")\n    if n == 0:\n        raise ValueError("the customers table is empty")\n\n\nwith DAG(dag_id="load_customers", schedule="@daily", start_date=pendulum.datetime(2024, 1, 1, tz="UTC"), catchup=False) as dag:\n    create = PythonOperator(task_id="create_table", python_callable=create_table)\n    load = PythonOperator(task_id="load_csv", python_callable=load_csv)\n    count = PythonOperator(task_id="count_rows", python_callable=count_rows)\n    create >> load >> count\n', interval=0.005)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)
pyautogui.typewrite("python3 ~/load_customers.py && mv ~/load_customers.py . && ls\n", interval=0.01)

# %% wait until Airflow lists load_customers, then reload the DAGs page in Chromium
import subprocess, sys; sys.path.insert(0, "/tmp")
from af_ui import api
for _ in range(240):
    try:
        if len(api("dags/load_customers/tasks")["tasks"]) == 3:
            break
    except Exception:
        pass
    time.sleep(0.5)
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(1)
pyautogui.press("f5")

# %% unpause load_customers, then trigger a manual run
import sys; sys.path.insert(0, "/tmp")
from af_ui import api, click, dag_switch, find
dag_switch("load_customers")
for _ in range(60):
    if not api("dags/load_customers")["is_paused"]:
        break
    time.sleep(0.5)
_, y = find("link", "load_customers")
click("section", "Trigger DAG", near_y=y)
click("push button", "Trigger DAG")

# %% open the grid view and wait until the manual run has finished
import sys; sys.path.insert(0, "/tmp")
from af_ui import click, wait_run
click("link", "load_customers")
print(wait_run("load_customers"))

# %% check the table in the terminal
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite('sqlite3 ~/data/warehouse.db "SELECT COUNT(*) FROM customers"\n', interval=0.01)
time.sleep(1)

# %%
DONE
