#!/bin/bash
# Prints "succeed" when Superset has a dashboard "Regional Sales Overview" holding the saved
# charts "Orders per Region" (bar chart, COUNT(*) by region) and "Quantity Share by Region" (pie
# chart, SUM(quantity) by region), both on the orders dataset, read from Superset's REST API
# (login admin/admin); otherwise "failed: <reason>".
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

def metric_is(metric, aggregate, column):
    """An ad-hoc metric AGG(column); COUNT(*) also as the saved metric "count"."""
    if aggregate == "COUNT" and column == "*" and metric == "count":
        return True
    if not isinstance(metric, dict):
        return False
    sql = re.sub(r"\s+", "", (metric.get("sqlExpression") or "")).lower()
    if metric.get("expressionType") == "SQL":
        return sql == f"{aggregate}({column})".lower() or (column == "*" and sql in ("count(1)", "count(order_id)"))
    agg = (metric.get("aggregate") or "").upper()
    col = (metric.get("column") or {}).get("column_name")
    if column == "*":
        return agg == "COUNT" and col == "order_id"
    return agg == aggregate and col == column

def check_chart(token, chart, viz_types, aggregate, column, orders):
    chart = call(f"/api/v1/chart/{chart['id']}", token=token)["result"]
    params = json.loads(chart.get("params") or "{}")
    name = chart["slice_name"]
    if chart["viz_type"] not in viz_types:
        return f"{name}: viz_type is {chart['viz_type']}"
    if params.get("datasource") not in [f"{i}__table" for i in orders]:
        return f"{name}: datasource is {params.get('datasource')}, not the orders dataset"
    metrics = params.get("metrics") or ([params["metric"]] if params.get("metric") else [])
    if len(metrics) != 1 or not metric_is(metrics[0], aggregate, column):
        return f"{name}: metrics are {json.dumps(metrics)[:300]}"
    dims = [params.get("x_axis")] + list(params.get("groupby") or [])
    if [d for d in dims if d] != ["region"]:
        return f"{name}: dimensions are {dims}"
    return None

def main():
    token = call("/api/v1/security/login", {"username": "admin", "password": "admin", "provider": "db"})["access_token"]
    datasets = call("/api/v1/dataset/?q=" + urllib.parse.quote("(page_size:100)"), token=token)["result"]
    orders = [d["id"] for d in datasets if d["table_name"] == "orders"]
    dashboards = call("/api/v1/dashboard/?q=" + urllib.parse.quote("(page_size:100)"), token=token)["result"]
    found = [d for d in dashboards if d["dashboard_title"] == "Regional Sales Overview"]
    if len(found) != 1:
        return f"failed: {len(found)} dashboards titled 'Regional Sales Overview'"
    charts = call(f"/api/v1/dashboard/{found[0]['id']}/charts", token=token)["result"]
    by_name = {c["slice_name"]: c for c in charts}
    wanted = {
        "Orders per Region": (("echarts_timeseries_bar", "dist_bar"), "COUNT", "*"),
        "Quantity Share by Region": (("pie",), "SUM", "quantity"),
    }
    if sorted(by_name) != sorted(wanted):
        return f"failed: the dashboard holds the charts {sorted(by_name)}"
    for name, (viz, agg, col) in wanted.items():
        problem = check_chart(token, by_name[name], viz, agg, col, orders)
        if problem:
            return "failed: " + problem
    return "succeed"

try:
    print(main())
except Exception as exc:  # the API is down or answered something unexpected
    print(f"failed: {type(exc).__name__}: {exc}")
PY
