#!/bin/bash
# Prints "succeed" when the Airflow Variable low_stock_threshold is 30 and low_stock_alert has
# a successful run (both tasks successful); otherwise "failed: <why>". Reads Airflow's REST
# API (basic auth admin/admin) inside the guest.
python3 - <<'PY'
import base64, json, urllib.error, urllib.parse, urllib.request

def api(path):
    req = urllib.request.Request("http://localhost:8080/api/v1/" + path)
    req.add_header("Authorization", "Basic " + base64.b64encode(b"admin:admin").decode())
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)

def main():
    dag_id = "low_stock_alert"
    try:
        variable = api("variables/low_stock_threshold")
    except urllib.error.HTTPError as exc:
        return f"failed: no Variable low_stock_threshold (HTTP {exc.code})"
    except Exception as exc:
        return f"failed: the Airflow API did not answer ({exc})"
    if str(variable.get("value", "")).strip() != "30":
        return f"failed: low_stock_threshold is {variable.get('value')!r}, not 30"
    runs = api(f"dags/{dag_id}/dagRuns?limit=100")["dag_runs"]
    good = [r for r in runs if r["state"] == "success"]
    if not good:
        return "failed: no successful run of %s (states: %s)" % (dag_id, ", ".join(r["state"] for r in runs) or "none")
    run_id = urllib.parse.quote(good[-1]["dag_run_id"], safe="")
    tis = {t["task_id"]: t["state"] for t in api(f"dags/{dag_id}/dagRuns/{run_id}/taskInstances")["task_instances"]}
    if sorted(tis) != ["find_low_stock", "write_report"] or set(tis.values()) != {"success"}:
        return f"failed: task instances of the successful run: {tis}"
    return "succeed"

print(main())
PY
