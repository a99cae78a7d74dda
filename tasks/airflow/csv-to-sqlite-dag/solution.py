# %% write the DAG in the terminal with cat to ~/load_customers.py first (Airflow would parse a half-typed file in the dags folder)
from terminal import cat_into, focus_terminal
focus_terminal(settle=1)
pyautogui.typewrite("head -3 ~/data/customers.csv\n", interval=0.01)
cat_into("~/load_customers.py", 'import csv\nimport sqlite3\n\nimport pendulum\nfrom airflow import DAG\nfrom airflow.operators.python import PythonOperator\n\nDB = "/home/user/data/warehouse.db"\nCSV_FILE = "/home/user/data/customers.csv"\n\n\ndef create_table():\n    with sqlite3.connect(DB) as con:\n        con.execute("CREATE TABLE IF NOT EXISTS customers (customer_id INTEGER PRIMARY KEY, full_name TEXT, country TEXT, signup_date TEXT)")\n\n\ndef load_csv():\n    with open(CSV_FILE, newline="") as f:\n        rows = [(int(r["customer_id"]), r["full_name"], r["country"], r["signup_date"]) for r in csv.DictReader(f)]\n    with sqlite3.connect(DB) as con:\n        con.execute("DELETE FROM customers")\n        con.executemany("INSERT INTO customers VALUES (?, ?, ?, ?)", rows)\n\n\ndef count_rows():\n    with sqlite3.connect(DB) as con:\n        n = con.execute("SELECT COUNT(*) FROM customers").fetchone()[0]\n    print(f"customers: {n} rows")\n    if n == 0:\n        raise ValueError("the customers table is empty")\n\n\nwith DAG(dag_id="load_customers", schedule="@daily", start_date=pendulum.datetime(2024, 1, 1, tz="UTC"), catchup=False) as dag:\n    create = PythonOperator(task_id="create_table", python_callable=create_table)\n    load = PythonOperator(task_id="load_csv", python_callable=load_csv)\n    count = PythonOperator(task_id="count_rows", python_callable=count_rows)\n    create >> load >> count\n')

# %% check that the file runs, then mv puts the finished file into the dags folder at once
from terminal import run
run("python3 ~/load_customers.py && mv ~/load_customers.py . && ls")

# %% wait until Airflow lists load_customers, then reload the DAGs page in Chromium
from airflow_dags import wait_parsed
wait_parsed("load_customers", tasks=3)

# %% unpause load_customers, then trigger a manual run
from airflow_dags import trigger, unpause
unpause("load_customers")
trigger("load_customers")

# %% open the grid view and wait until the manual run has finished
from airflow_ui import click, wait_run
click("link", "load_customers")
print(wait_run("load_customers"))

# %% check the table in the terminal
from terminal import focus_terminal
focus_terminal(settle=1)
pyautogui.typewrite('sqlite3 ~/data/warehouse.db "SELECT COUNT(*) FROM customers"\n', interval=0.01)
time.sleep(1)

# %%
DONE
