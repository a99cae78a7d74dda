"""Low-stock alert: products whose stock on hand is below the Airflow Variable
``low_stock_threshold``, written to /home/user/reports/low_stock.csv (lowest stock first)."""
import csv
from pathlib import Path

import pendulum
from airflow.decorators import dag, task
from airflow.models import Variable

PRODUCTS = Path("/home/user/data/products.csv")
REPORT = Path("/home/user/reports/low_stock.csv")


@dag(
    dag_id="low_stock_alert",
    schedule=None,
    start_date=pendulum.datetime(2024, 1, 1, tz="UTC"),
    catchup=False,
    is_paused_upon_creation=False,
    tags=["inventory"],
)
def low_stock_alert():
    @task
    def find_low_stock():
        threshold = int(Variable.get("low_stock_threshold"))
        with PRODUCTS.open(newline="") as f:
            rows = [r for r in csv.DictReader(f) if int(r["on_hand"]) < threshold]
        rows.sort(key=lambda r: (int(r["on_hand"]), int(r["product_id"])))
        return [[r["product_id"], r["name"], r["on_hand"]] for r in rows]

    @task
    def write_report(rows):
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        with REPORT.open("w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(["product_id", "name", "on_hand"])
            out.writerows(rows)

    write_report(find_low_stock())


low_stock_alert()
