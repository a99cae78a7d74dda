#!/bin/bash
# Prints "succeed" when ~/data/sales.db has a table "returns" with the 30 rows of returns.csv,
# and Superset has a dataset "returns" on the sales database and a saved pie chart "Refunds by
# Reason" on it with SUM(refund) by reason (REST API, login admin/admin); else "failed: <reason>".
python3 - <<'PY'
import json, re, sqlite3, urllib.parse, urllib.request

BASE = "http://localhost:8088"
DB = "/home/user/data/sales.db"

def call(path, data=None, token=None):
    req = urllib.request.Request(BASE + path, data=json.dumps(data).encode() if data is not None else None,
                                 headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)

def is_sum_of(metric, column):
    if not isinstance(metric, dict):
        return False
    if metric.get("expressionType") == "SIMPLE":
        return (metric.get("aggregate") or "").upper() == "SUM" and (metric.get("column") or {}).get("column_name") == column
    return re.sub(r"\s+", "", (metric.get("sqlExpression") or "")).lower() == f"sum({column})"

def main():
    con = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    try:
        n, total, reasons = con.execute(
            "SELECT COUNT(*), ROUND(SUM(CAST(refund AS REAL)), 2), COUNT(DISTINCT reason) FROM returns").fetchone()
    except sqlite3.Error as exc:
        return f"failed: table returns: {exc}"
    if (n, total, reasons) != (30, 2415.66, 4):
        return f"failed: table returns has {n} rows, refund total {total}, {reasons} reasons"
    token = call("/api/v1/security/login", {"username": "admin", "password": "admin", "provider": "db"})["access_token"]
    datasets = call("/api/v1/dataset/?q=" + urllib.parse.quote("(page_size:100)"), token=token)["result"]
    returns = [d for d in datasets if d["table_name"] == "returns" and d["database"]["database_name"] == "sales"]
    if len(returns) != 1:
        return f"failed: {len(returns)} datasets named returns on the sales database"
    charts = call("/api/v1/chart/?q=" + urllib.parse.quote("(page_size:100)"), token=token)["result"]
    found = [c for c in charts if c["slice_name"] == "Refunds by Reason"]
    if len(found) != 1:
        return f"failed: {len(found)} charts named 'Refunds by Reason'"
    chart = call(f"/api/v1/chart/{found[0]['id']}", token=token)["result"]
    params = json.loads(chart.get("params") or "{}")
    if chart["viz_type"] != "pie":
        return f"failed: viz_type is {chart['viz_type']}"
    if params.get("datasource") != f"{returns[0]['id']}__table":
        return f"failed: datasource is {params.get('datasource')}, not the returns dataset"
    metric = params.get("metric")
    if not is_sum_of(metric, "refund"):
        return f"failed: metric is {json.dumps(metric)[:300]}"
    if list(params.get("groupby") or []) != ["reason"]:
        return f"failed: dimensions are {params.get('groupby')}"
    return "succeed"

try:
    print(main())
except Exception as exc:  # the API is down or answered something unexpected
    print(f"failed: {type(exc).__name__}: {exc}")
PY
