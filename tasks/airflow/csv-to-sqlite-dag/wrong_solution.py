# Wrong on purpose: forgets that load_csv depends on create_table (only load_csv >> count_rows), so the table may not exist when the load starts
# %% based-on: solution.py
# %% replace 1: write the DAG in the terminal with cat (typed, ended with Ctrl+D) to ~/load_customers.py first:
# Airflow would parse a half-typed file in the dags folder; mv puts the finished file there at once
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite("head -3 ~/data/customers.csv\n", interval=0.01)
pyautogui.typewrite("cat > ~/load_customers.py\n", interval=0.01)
pyautogui.typewrite('import csv\nimport sqlite3\n\nimport pendulum\nfrom airflow import DAG\nfrom airflow.operators.python import PythonOperator\n\nDB = "/home/user/data/warehouse.db"\nCSV_FILE = "/home/user/data/customers.csv"\n\n\ndef create_table():\n    with sqlite3.connect(DB) as con:\n        con.execute("CREATE TABLE IF NOT EXISTS customers (customer_id INTEGER PRIMARY KEY, full_name TEXT, country TEXT, signup_date TEXT)")\n\n\ndef load_csv():\n    with open(CSV_FILE, newline="") as f:\n        rows = [(int(r["customer_id"]), r["full_name"], r["country"], r["signup_date"]) for r in csv.DictReader(f)]\n    with sqlite3.connect(DB) as con:\n        con.execute("DELETE FROM customers")\n        con.executemany("INSERT INTO customers VALUES (?, ?, ?, ?)", rows)\n\n\ndef count_rows():\n    with sqlite3.connect(DB) as con:\n        n = con.execute("SELECT COUNT(*) FROM customers").fetchone()[0]\n    print(f"customers: {n} rows")\n    if n == 0:\n        raise ValueError("the customers table is empty")\n\n\nwith DAG(dag_id="load_customers", schedule="@daily", start_date=pendulum.datetime(2024, 1, 1, tz="UTC"), catchup=False) as dag:\n    create = PythonOperator(task_id="create_table", python_callable=create_table)\n    load = PythonOperator(task_id="load_csv", python_callable=load_csv)\n    count = PythonOperator(task_id="count_rows", python_callable=count_rows)\n    load >> count\n', interval=0.005)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)
pyautogui.typewrite("python3 ~/load_customers.py && mv ~/load_customers.py . && ls\n", interval=0.01)
