#!/bin/bash
# Prints "succeed" when the DAG load_customers loads without error, runs @daily without
# catchup, has the tasks create_table >> load_csv >> count_rows and a successful manual run
# (all three tasks successful); otherwise "failed: <why>". Exports the customers table of
# ~/data/warehouse.db to /tmp/spider2v-eval/customers.csv, which the task compares.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
DB=/home/user/data/warehouse.db
[ -f "$DB" ] && sqlite3 -list -separator , "$DB" \
  "SELECT customer_id, full_name, country, signup_date FROM customers ORDER BY customer_id" > "$OUT/customers.csv" 2>/dev/null
python3 - <<'PY'
import base64, json, urllib.error, urllib.parse, urllib.request

def api(path):
    req = urllib.request.Request("http://localhost:8080/api/v1/" + path)
    req.add_header("Authorization", "Basic " + base64.b64encode(b"admin:admin").decode())
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)

def main():
    dag_id = "load_customers"
    try:
        errors = api("importErrors?limit=100")["import_errors"]
    except Exception as exc:
        return f"failed: the Airflow API did not answer ({exc})"
    if errors:
        return "failed: import errors: " + "; ".join(e["filename"] for e in errors)
    try:
        details = api(f"dags/{dag_id}/details")
    except urllib.error.HTTPError as exc:
        return f"failed: Airflow has no DAG {dag_id} (HTTP {exc.code})"
    if not details["fileloc"].endswith("/airflow/dags/load_customers.py"):
        return f"failed: the DAG is defined in {details['fileloc']}"
    schedule = (details.get("schedule_interval") or {}).get("value")
    if schedule not in ("@daily", "0 0 * * *"):
        return f"failed: the schedule is {schedule!r}, not @daily"
    if details.get("catchup") is not False:
        return "failed: catchup is not turned off"
    tasks = {t["task_id"]: (t["operator_name"], sorted(t["downstream_task_ids"])) for t in api(f"dags/{dag_id}/tasks")["tasks"]}
    deps = {k: v[1] for k, v in tasks.items()}
    if deps != {"create_table": ["load_csv"], "load_csv": ["count_rows"], "count_rows": []}:
        return f"failed: the tasks and dependencies are {deps}"
    runs = api(f"dags/{dag_id}/dagRuns?limit=100")["dag_runs"]
    good = [r for r in runs if r["state"] == "success" and r["run_type"] == "manual"]
    if not good:
        return "failed: no successful manual run (runs: %s)" % (", ".join(f"{r['run_type']}:{r['state']}" for r in runs) or "none")
    for run in good:
        run_id = urllib.parse.quote(run["dag_run_id"], safe="")
        tis = {t["task_id"]: t["state"] for t in api(f"dags/{dag_id}/dagRuns/{run_id}/taskInstances")["task_instances"]}
        if set(tis) == set(deps) and set(tis.values()) == {"success"}:
            return "succeed"
    return f"failed: no successful manual run ran all three tasks (last: {tis})"

print(main())
PY
