#!/bin/bash
# Prints "succeed" when analytics.station_usage is a table in the bikeshare database and the
# project's last dbt invocation ran the unique and not_null tests on station_usage.station_id
# successfully; exports the table's rows to /tmp/spider2v-eval/station_usage.csv.
OUT=/tmp/spider2v-eval
RESULTS=/home/user/projects/bike_share/target/run_results.json
rm -rf "$OUT" && mkdir -p "$OUT"
kind=$(psql -X -A -t -d bikeshare -c "SELECT table_type FROM information_schema.tables WHERE table_schema = 'analytics' AND table_name = 'station_usage'" 2>&1)
if [ "$kind" != "BASE TABLE" ]; then
  echo "failed: analytics.station_usage is not a table (found: ${kind:-nothing})"
  exit 0
fi
tests=$(python3 - "$RESULTS" <<'PY'
import json, sys
try:
    results = json.load(open(sys.argv[1]))["results"]
except Exception as error:
    print(f"no run results ({error})"); sys.exit()
status = {r["unique_id"].split(".")[2]: r["status"] for r in results if r["unique_id"].startswith("test.")}
for name in ("unique_station_usage_station_id", "not_null_station_usage_station_id"):
    print(f"{name}={status.get(name, 'not run')}")
PY
)
if [ "$tests" != $'unique_station_usage_station_id=pass\nnot_null_station_usage_station_id=pass' ]; then
  echo "failed: the station_id tests did not pass in the last dbt run: $tests" | tr '\n' ' '
  exit 0
fi
psql -X -A -t -F'|' -v ON_ERROR_STOP=1 -d bikeshare -c "
  SELECT station_id, station_name, district, CAST(ride_count AS bigint),
         to_char(round(CAST(total_duration_min AS numeric), 2), 'FM999999990.00')
  FROM analytics.station_usage ORDER BY station_id" > "$OUT/station_usage.csv" 2>&1 || { echo "failed: cannot query station_usage"; exit 0; }
echo succeed
