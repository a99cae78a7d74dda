"""Regional sales report: units and revenue per product for one sales region.

The region comes from the run configuration (parameter ``region``: EMEA, AMER or APAC); the
report is written to /home/user/reports/sales_<region>.csv.
"""
import csv
from pathlib import Path

import pendulum
from airflow.decorators import dag, task
from airflow.models.param import Param

SALES = Path("/home/user/data/sales.csv")
REPORTS = Path("/home/user/reports")


@dag(
    dag_id="regional_sales_report",
    schedule=None,
    start_date=pendulum.datetime(2024, 1, 1, tz="UTC"),
    catchup=False,
    tags=["sales"],
    params={"region": Param("EMEA", type="string", description="Sales region: EMEA, AMER or APAC")},
)
def regional_sales_report():
    @task
    def extract(params=None):
        region = params["region"].strip().upper()
        with SALES.open(newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["region"] == region]
        if not rows:
            raise ValueError(f"no sales for region {region!r}")
        return {"region": region, "rows": rows}

    @task
    def summarise(data):
        totals = {}
        for r in data["rows"]:
            units, revenue = totals.get(r["product"], (0, 0.0))
            totals[r["product"]] = (units + int(r["units"]), revenue + int(r["units"]) * float(r["unit_price"]))
        return {"region": data["region"], "totals": [[p, u, round(v, 2)] for p, (u, v) in sorted(totals.items())]}

    @task
    def write_report(summary):
        REPORTS.mkdir(parents=True, exist_ok=True)
        path = REPORTS / f"sales_{summary['region']}.csv"
        with path.open("w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow(["product", "units", "revenue"])
            for product, units, revenue in summary["totals"]:
                out.writerow([product, units, f"{revenue:.2f}"])
        return str(path)

    write_report(summarise(extract()))


regional_sales_report()
