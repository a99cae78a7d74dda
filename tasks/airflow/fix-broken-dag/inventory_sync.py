"""Inventory sync: net stock per SKU from the stock movements into the inventory database."""
import csv
import sqlite3
from datetime import datetime

from airflow import DAG
from airflow.operators.pyhton import PythonOperator

MOVEMENTS = "/home/user/data/stock_movements.csv"
DATABASE = "/home/user/data/inventory.db"


def read_movements(ti):
    with open(MOVEMENTS, newline="") as f:
        rows = list(csv.DictReader(f))
    ti.xcom_push(key="movements", value=rows)


def compute_levels(ti):
    levels = {}
    for row in ti.xcom_pull(task_ids="read_movements", key="movements"):
        sign = 1 if row["direction"] == "in" else -1
        levels[row["sku"]] = levels.get(row["sku"], 0) + sign * int(row["quantity"])
    ti.xcom_push(key="levels", value=sorted(levels.items()))


def store_levels(ti):
    levels = ti.xcom_pull(task_ids="compute_levels", key="levels")
    with sqlite3.connect(DATABASE) as db:
        db.execute("CREATE TABLE IF NOT EXISTS stock_levels (sku TEXT PRIMARY KEY, quantity INTEGER NOT NULL)")
        db.execute("DELETE FROM stock_levels")
        db.executemany("INSERT INTO stock_levels (sku, quantity) VALUES (?, ?)", levels)


with DAG(
    dag_id="inventory_sync",
    schedule=None,
    start_date=datetime(2024, 1, 1),
    catchup=False,
    tags=["inventory"],
) as dag:
    read = PythonOperator(task_id="read_movements", python_callable=read_movements)
    compute = PythonOperator(task_id="compute_levels", python_callable=compute_levels)
    store = PythonOperator(task_id="store_levels", python_callable=store_levels)

    read >> compute >> stor
