#!/bin/bash
# Prints "succeed" when the Dagster asset sensor_readings exists and has been materialized, and
# its DuckDB table is there; exports the table's rows with fixed formatting to
# /tmp/spider2v-eval/sensor_readings.csv, which the task compares with the expected rows.
OUT=/tmp/spider2v-eval
DB=/home/user/projects/sensor_ingest/sensors.duckdb
rm -rf "$OUT" && mkdir -p "$OUT"
status=$(curl -sf -m 30 -H 'Content-Type: application/json' http://localhost:3000/graphql \
  -d '{"query":"{ assetNodes { assetKey { path } assetMaterializations(limit: 1) { runId } } }"}' \
  | python3 -c '
import json, sys
try:
    nodes = json.load(sys.stdin)["data"]["assetNodes"]
except Exception as exc:
    print("failed: no answer from the Dagster web server:", exc); sys.exit(0)
found = [n for n in nodes if n["assetKey"]["path"] == ["sensor_readings"]]
if not found:
    print("failed: the code location has no asset sensor_readings")
elif not found[0]["assetMaterializations"]:
    print("failed: sensor_readings was never materialized")
else:
    print("ok")
')
if [ "$status" != ok ]; then echo "$status"; exit 0; fi
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi
/opt/dagster/bin/python - "$DB" "$OUT/sensor_readings.csv" <<'PY'
import csv, sys
import duckdb
db, out = sys.argv[1], sys.argv[2]
try:
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("""
        SELECT sensor_id, strftime(CAST(reading_time AS TIMESTAMP), '%Y-%m-%d %H:%M:%S'),
               printf('%.1f', CAST(temperature_c AS DOUBLE)), CAST(humidity_pct AS BIGINT)
        FROM sensor_readings ORDER BY 2, 1""").fetchall()
except Exception as exc:
    print(f"failed: cannot read table sensor_readings: {exc}".splitlines()[0]); sys.exit(0)
with open(out, "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
print("succeed")
PY
