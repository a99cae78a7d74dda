#!/bin/bash
# Prints "succeed" when inventory_sync.py imports without error, the DAG inventory_sync has the
# tasks read_movements >> compute_levels >> store_levels and a successful run (all three
# tasks successful); otherwise "failed: <why>". Exports the stock_levels table of
# ~/data/inventory.db to /tmp/spider2v-eval/stock_levels.csv, which the task compares.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
DB=/home/user/data/inventory.db
[ -f "$DB" ] && sqlite3 -csv "$DB" "SELECT sku, quantity FROM stock_levels ORDER BY sku" > "$OUT/stock_levels.csv" 2>/dev/null
python3 - <<'PY'
import base64, json, urllib.error, urllib.parse, urllib.request

def api(path):
    req = urllib.request.Request("http://localhost:8080/api/v1/" + path)
    req.add_header("Authorization", "Basic " + base64.b64encode(b"admin:admin").decode())
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)

def main():
    dag_id = "inventory_sync"
    try:
        errors = api("importErrors?limit=100")["import_errors"]
    except Exception as exc:
        return f"failed: the Airflow API did not answer ({exc})"
    broken = [e for e in errors if e["filename"].endswith("inventory_sync.py")]
    if broken:
        return "failed: inventory_sync.py still has an import error: " + broken[0]["stack_trace"].strip().splitlines()[-1]
    try:
        tasks = {t["task_id"]: sorted(t["downstream_task_ids"]) for t in api(f"dags/{dag_id}/tasks")["tasks"]}
    except urllib.error.HTTPError as exc:
        return f"failed: Airflow has no DAG {dag_id} (HTTP {exc.code})"
    want = {"read_movements": ["compute_levels"], "compute_levels": ["store_levels"], "store_levels": []}
    if tasks != want:
        return f"failed: the tasks and dependencies are {tasks}"
    runs = api(f"dags/{dag_id}/dagRuns?limit=100")["dag_runs"]
    good = [r for r in runs if r["state"] == "success"]
    if not good:
        return "failed: no successful run of %s (states: %s)" % (dag_id, ", ".join(r["state"] for r in runs) or "none")
    run_id = urllib.parse.quote(good[-1]["dag_run_id"], safe="")
    tis = {t["task_id"]: t["state"] for t in api(f"dags/{dag_id}/dagRuns/{run_id}/taskInstances")["task_instances"]}
    if set(tis) != set(want) or set(tis.values()) != {"success"}:
        return f"failed: task instances of the successful run: {tis}"
    return "succeed"

print(main())
PY
