#!/bin/bash
# Prints "succeed" when the loaded code location has an asset customer_order_totals that
# depends on the assets customers and orders and has been materialized (asked from the running
# Dagster web server), and its DuckDB table can be read; exports the table's rows with fixed
# formatting to /tmp/spider2v-eval/customer_order_totals.csv for the comparison.
OUT=/tmp/spider2v-eval
DB=/home/user/projects/shop_warehouse/warehouse.duckdb
rm -rf "$OUT" && mkdir -p "$OUT"
status=$(curl -sf -m 30 -H 'Content-Type: application/json' http://localhost:3000/graphql \
  -d '{"query":"{ assetNodes { assetKey { path } dependencyKeys { path } assetMaterializations(limit: 1) { runId } } }"}' \
  | python3 -c '
import json, sys
try:
    nodes = json.load(sys.stdin)["data"]["assetNodes"]
except Exception as exc:
    print("failed: no answer from the Dagster web server:", exc); sys.exit(0)
found = [n for n in nodes if n["assetKey"]["path"] == ["customer_order_totals"]]
if not found:
    print("failed: the loaded code location has no asset customer_order_totals"); sys.exit(0)
node = found[0]
deps = sorted("/".join(k["path"]) for k in node["dependencyKeys"])
if deps != ["customers", "orders"]:
    print("failed: customer_order_totals depends on %s, not on customers and orders" % deps)
elif not node["assetMaterializations"]:
    print("failed: customer_order_totals was never materialized")
else:
    print("ok")
')
if [ "$status" != ok ]; then echo "$status"; exit 0; fi
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi
/opt/dagster/bin/python - "$DB" "$OUT/customer_order_totals.csv" <<'PY'
import csv, sys
import duckdb
db, out = sys.argv[1], sys.argv[2]
try:
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("""
        SELECT CAST(customer_id AS BIGINT), name, CAST(order_count AS BIGINT),
               printf('%.2f', CAST(total_amount AS DOUBLE))
        FROM customer_order_totals ORDER BY 1""").fetchall()
except Exception as exc:
    print(f"failed: cannot read table customer_order_totals: {exc}".splitlines()[0]); sys.exit(0)
with open(out, "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
print("succeed")
PY
