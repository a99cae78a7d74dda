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
import subprocess
from airflow_ui import api
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
from airflow_ui import api, click, dag_switch, find
dag_switch("load_customers")
for _ in range(60):
    if not api("dags/load_customers")["is_paused"]:
        break
    time.sleep(0.5)
_, y = find("link", "load_customers")
click("section", "Trigger DAG", near_y=y)
click("push button", "Trigger DAG")

# %% open the grid view and wait until the manual run has finished
from airflow_ui import click, wait_run
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
