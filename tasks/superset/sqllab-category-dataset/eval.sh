#!/bin/bash
# Prints "succeed" when Superset has a virtual dataset "category_revenue" on the sales database
# whose SQL returns one row per product category with its total revenue (columns category and
# total_revenue), read from Superset's REST API (login admin/admin); otherwise "failed: <reason>".
python3 - <<'PY'
import json, sqlite3, urllib.parse, urllib.request

BASE = "http://localhost:8088"
DB = "/home/user/data/sales.db"

def call(path, data=None, token=None):
    req = urllib.request.Request(BASE + path, data=json.dumps(data).encode() if data is not None else None,
                                 headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)

def main():
    token = call("/api/v1/security/login", {"username": "admin", "password": "admin", "provider": "db"})["access_token"]
    datasets = call("/api/v1/dataset/?q=" + urllib.parse.quote("(page_size:100)"), token=token)["result"]
    found = [d for d in datasets if d["table_name"] == "category_revenue"]
    if len(found) != 1:
        return f"failed: {len(found)} datasets named category_revenue"
    ds = call(f"/api/v1/dataset/{found[0]['id']}", token=token)["result"]
    if ds["database"]["database_name"] != "sales":
        return f"failed: dataset is on database {ds['database']['database_name']}"
    sql = (ds.get("sql") or "").strip().rstrip(";")
    if not sql:
        return "failed: category_revenue is not a virtual (SQL) dataset"
    con = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    cur = con.execute(sql)
    names = [c[0].lower() for c in cur.description]
    if sorted(names) != ["category", "total_revenue"]:
        return f"failed: the query returns the columns {names}"
    got = sorted((r[names.index("category")], round(float(r[names.index("total_revenue")]), 2)) for r in cur.fetchall())
    want = sorted((c, round(v, 2)) for c, v in con.execute(
        "SELECT p.category, SUM(o.revenue) FROM orders o JOIN products p ON p.product_id = o.product_id GROUP BY p.category"))
    if got != want:
        return f"failed: rows {got} differ from the expected {want}"
    columns = {c["column_name"].lower() for c in ds.get("columns") or []}
    if not {"category", "total_revenue"} <= columns:
        return f"failed: the dataset's columns are {sorted(columns)}"
    return "succeed"

try:
    print(main())
except Exception as exc:  # the API is down, or the SQL does not run
    print(f"failed: {type(exc).__name__}: {exc}")
PY
