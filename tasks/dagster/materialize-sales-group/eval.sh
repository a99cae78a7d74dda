#!/bin/bash
# Prints "succeed" when every asset of the sales group has been materialized and no asset of
# the inventory group has (asked from the running Dagster web server), else "failed: why".
curl -sf -m 30 -H 'Content-Type: application/json' http://localhost:3000/graphql \
  -d '{"query":"{ assetNodes { assetKey { path } assetMaterializations(limit: 1) { runId } } }"}' \
  | python3 -c '
import json, sys
try:
    nodes = json.load(sys.stdin)["data"]["assetNodes"]
except Exception as exc:
    print("failed: no answer from the Dagster web server:", exc)
    sys.exit(0)
done = {"/".join(n["assetKey"]["path"]) for n in nodes if n["assetMaterializations"]}
missing = [a for a in ("raw_orders", "daily_revenue", "revenue_report") if a not in done]
extra = [a for a in ("stock_levels", "reorder_list") if a in done]
if missing:
    print("failed: not materialized: " + ", ".join(missing))
elif extra:
    print("failed: inventory assets were materialized too: " + ", ".join(extra))
else:
    print("succeed")
'
