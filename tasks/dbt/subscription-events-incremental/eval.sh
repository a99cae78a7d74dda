#!/bin/bash
# Checks the subscriptions project after the task:
# * `dbt test` passes, and its manifest declares fct_events as an incremental model with
#   unique_key event_id, plans as a seed, and the six requested tests;
# * exports the plans seed and fct_events with fixed formatting to /tmp/spider2v-eval/ for
#   compare_csv;
# * probes the incremental logic: it marks the oldest row of fct_events and deletes the newest,
#   then runs the model again; an incremental run must bring the newest row back and leave the
#   (older) marked row alone.
# Prints "succeed" or "failed: <why>".
PROJECT=/home/user/projects/subscriptions
DB=$PROJECT/subscriptions.duckdb
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi
cd "$PROJECT" || { echo "failed: no project"; exit 0; }

if ! dbt test >"$OUT/test.log" 2>&1; then
  echo "failed: dbt test does not pass: $(grep -E 'ERROR|FAIL|Error' "$OUT/test.log" | head -n 5)"; exit 0
fi

if ! python3 - target/manifest.json target/run_results.json <<'PY'
import json
import sys

manifest = json.load(open(sys.argv[1]))
results = json.load(open(sys.argv[2]))
nodes = manifest["nodes"]
model = nodes.get("model.subscriptions.fct_events")
if model is None:
    sys.exit("failed: there is no model fct_events")
config = model["config"]
if config.get("materialized") != "incremental":
    sys.exit(f"failed: fct_events is materialized as {config.get('materialized')!r}, not incremental")
if config.get("unique_key") not in ("event_id", ["event_id"]):
    sys.exit(f"failed: the unique_key of fct_events is {config.get('unique_key')!r}, not event_id")
if "seed.subscriptions.plans" not in nodes:
    sys.exit("failed: there is no seed plans")

found = {}
for node in nodes.values():
    if node["resource_type"] != "test" or not node.get("test_metadata"):
        continue
    meta = node["test_metadata"]
    key = (meta["name"], node.get("attached_node"), node.get("column_name"))
    found[key] = meta.get("kwargs", {})
wanted = [
    ("unique", "model.subscriptions.fct_events", "event_id"),
    ("not_null", "model.subscriptions.fct_events", "event_id"),
    ("accepted_values", "model.subscriptions.fct_events", "event_type"),
    ("relationships", "model.subscriptions.fct_events", "plan_code"),
    ("unique", "seed.subscriptions.plans", "plan_code"),
    ("not_null", "seed.subscriptions.plans", "plan_code"),
]
for key in wanted:
    if key not in found:
        sys.exit(f"failed: no {key[0]} test on {key[1].split('.')[-1]}.{key[2]}")
values = found[wanted[2]].get("values") or []
if sorted(values) != ["cancel", "downgrade", "signup", "upgrade"]:
    sys.exit(f"failed: the accepted values of fct_events.event_type are {values!r}")
rel = found[wanted[3]]
if "plans" not in str(rel.get("to")) or rel.get("field") != "plan_code":
    sys.exit(f"failed: the relationships test of fct_events.plan_code points to {rel.get('to')!r}.{rel.get('field')!r}")
statuses = {r["unique_id"]: r["status"] for r in results["results"]}
bad = sorted(uid for uid, status in statuses.items() if status != "pass")
if bad:
    sys.exit(f"failed: tests not passing: {bad}")
PY
then
  exit 0
fi

duckdb -noheader -csv "$DB" \
  "SELECT plan_code, plan_name, printf('%.2f', CAST(monthly_price AS DOUBLE)) FROM plans ORDER BY plan_code" \
  2>&1 | tr -d '\r' > "$OUT/plans.csv"
duckdb -noheader -csv "$DB" \
  "SELECT event_id, account_id, event_type, strftime(CAST(event_at AS TIMESTAMP), '%Y-%m-%d %H:%M:%S'), plan_code,
          plan_name, printf('%.2f', CAST(monthly_price AS DOUBLE))
   FROM fct_events ORDER BY event_id" 2>&1 | tr -d '\r' > "$OUT/fct_events.csv"

probe=$(duckdb -noheader -list "$DB" \
  "UPDATE fct_events SET plan_name = '__probe__' WHERE event_id = (SELECT min(event_id) FROM fct_events);
   DELETE FROM fct_events WHERE event_at = (SELECT max(event_at) FROM fct_events);
   SELECT count(*) FROM fct_events;" 2>&1)
if ! dbt run --select fct_events >"$OUT/probe.log" 2>&1; then
  echo "failed: dbt run --select fct_events fails: $(grep -E 'ERROR|Error' "$OUT/probe.log" | head -n 3)"; exit 0
fi
after=$(duckdb -noheader -list "$DB" \
  "SELECT count(*) FILTER (WHERE plan_name = '__probe__') || ' ' || count(*) FROM fct_events" 2>&1)
marked=${after%% *}
total=${after##* }
if [ "$marked" != "1" ]; then echo "failed: an incremental run rebuilt the old rows of fct_events (probe: $probe, after: $after)"; exit 0; fi
if [ "$total" != "$((probe + 1))" ]; then echo "failed: an incremental run did not add the newest event back (probe: $probe, after: $after)"; exit 0; fi
echo succeed
