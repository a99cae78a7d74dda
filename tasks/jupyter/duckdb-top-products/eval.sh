#!/bin/bash
# Shuts the notebook kernels down (a kernel may still hold shop.duckdb open), then prints
# "succeed" when shop.duckdb has a view shipped_revenue, exporting its rows to
# /tmp/spider2v-eval/shipped_revenue.csv, and when ~/top_products.csv has the columns name,
# category, revenue, rewritten canonically to /tmp/spider2v-eval/top_products.csv.
DB=/home/user/shop.duckdb
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
for id in $(curl -sf http://localhost:8888/api/kernels | jq -r '.[].id'); do
  curl -sf -X DELETE "http://localhost:8888/api/kernels/$id" >/dev/null
done
for _ in $(seq 50); do pgrep -f ipykernel_launcher >/dev/null || break; sleep 0.2; done
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi
kind=$(duckdb -readonly -noheader -list "$DB" \
  "SELECT table_type FROM information_schema.tables WHERE table_name = 'shipped_revenue'" 2>&1)
if [ "$kind" != "VIEW" ]; then echo "failed: shipped_revenue is not a view (found: ${kind:-nothing})"; exit 0; fi
duckdb -readonly -noheader -csv "$DB" \
  "SELECT CAST(product_id AS INTEGER), printf('%.2f', CAST(revenue AS DOUBLE)) FROM shipped_revenue ORDER BY 1" 2>&1 \
  | tr -d '\r' > "$OUT/shipped_revenue.csv"
/opt/jupyter/bin/python - <<'PY'
import sys
import pandas as pd
try:
    df = pd.read_csv('/home/user/top_products.csv', dtype=str, keep_default_na=False)
except Exception as exc:
    print(f'failed: cannot read top_products.csv: {exc}'); sys.exit(0)
if list(df.columns) != ['name', 'category', 'revenue']:
    print(f'failed: top_products.csv has columns {list(df.columns)}'); sys.exit(0)
try:
    lines = ['name,category,revenue'] + [f'{r.name},{r.category},{float(r.revenue):.2f}' for r in df.itertuples(index=False)]
except ValueError as exc:
    print(f'failed: {exc}'); sys.exit(0)
open('/tmp/spider2v-eval/top_products.csv', 'w').write('\n'.join(lines) + '\n')
print('succeed')
PY
