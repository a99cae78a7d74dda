#!/bin/bash
# Prints "succeed" when Superset has a saved chart "Revenue by Region": a bar chart on the
# orders dataset with the metric SUM(revenue) and region as its x-axis (dimension), read
# from Superset's REST API (login admin/admin); otherwise "failed: <reason>".
python3 - <<'PY'
import json, re, urllib.parse, urllib.request

BASE = "http://localhost:8088"

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
    sql = re.sub(r"\s+", "", (metric.get("sqlExpression") or "")).lower()
    return sql == f"sum({column})"

def main():
    token = call("/api/v1/security/login", {"username": "admin", "password": "admin", "provider": "db"})["access_token"]
    datasets = call("/api/v1/dataset/?q=" + urllib.parse.quote("(page_size:100)"), token=token)["result"]
    orders = [d["id"] for d in datasets if d["table_name"] == "orders"]
    charts = call("/api/v1/chart/?q=" + urllib.parse.quote("(page_size:100)"), token=token)["result"]
    found = [c for c in charts if c["slice_name"] == "Revenue by Region"]
    if len(found) != 1:
        return f"failed: {len(found)} charts named 'Revenue by Region'"
    chart = call(f"/api/v1/chart/{found[0]['id']}", token=token)["result"]
    params = json.loads(chart.get("params") or "{}")
    if chart["viz_type"] not in ("echarts_timeseries_bar", "dist_bar", "bar"):
        return f"failed: viz_type is {chart['viz_type']}"
    if params.get("datasource") not in [f"{i}__table" for i in orders]:
        return f"failed: datasource is {params.get('datasource')}, not the orders dataset"
    metrics = params.get("metrics") or ([params["metric"]] if params.get("metric") else [])
    if len(metrics) != 1 or not is_sum_of(metrics[0], "revenue"):
        return f"failed: metrics are {json.dumps(metrics)[:300]}"
    if chart["viz_type"] == "echarts_timeseries_bar":
        dims = [params.get("x_axis")] + list(params.get("groupby") or [])
    else:
        dims = list(params.get("groupby") or []) + list(params.get("columns") or [])
    if [d for d in dims if d] != ["region"]:
        return f"failed: dimensions are {dims}"
    return "succeed"

try:
    print(main())
except Exception as exc:  # the API is down or answered something unexpected
    print(f"failed: {type(exc).__name__}: {exc}")
PY
