#!/bin/bash
# Prints "succeed" when regional_sales_report is unpaused and has a successful run whose
# configuration sets region to APAC, with all three tasks successful; otherwise
# "failed: <why>". Reads Airflow's REST API (basic auth admin/admin) inside the guest.
python3 - <<'PY'
import base64, json, sys, urllib.parse, urllib.request

def api(path):
    req = urllib.request.Request("http://localhost:8080/api/v1/" + path)
    req.add_header("Authorization", "Basic " + base64.b64encode(b"admin:admin").decode())
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)

def main():
    dag_id = "regional_sales_report"
    try:
        dag = api(f"dags/{dag_id}")
        runs = api(f"dags/{dag_id}/dagRuns?limit=100")["dag_runs"]
    except Exception as exc:
        return f"failed: the Airflow API did not answer ({exc})"
    if dag.get("is_paused"):
        return "failed: the DAG is still paused"
    apac = [r for r in runs if str((r.get("conf") or {}).get("region", "")).strip().upper() == "APAC"]
    if not apac:
        return f"failed: no run with region APAC among {len(runs)} run(s)"
    good = [r for r in apac if r["state"] == "success"]
    if not good:
        return "failed: no successful APAC run (states: %s)" % ", ".join(r["state"] for r in apac)
    run_id = urllib.parse.quote(good[0]["dag_run_id"], safe="")
    tis = {t["task_id"]: t["state"] for t in api(f"dags/{dag_id}/dagRuns/{run_id}/taskInstances")["task_instances"]}
    if sorted(tis) != ["extract", "summarise", "write_report"] or set(tis.values()) != {"success"}:
        return f"failed: task instances of the APAC run: {tis}"
    return "succeed"

print(main())
PY
