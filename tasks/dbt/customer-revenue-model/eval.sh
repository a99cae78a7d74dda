#!/bin/bash
# Prints "succeed" when customer_revenue is a table in the project's DuckDB database, and
# exports its rows with fixed formatting to /tmp/spider2v-eval/customer_revenue.csv, which
# the task compares with the expected rows.
DB=/home/user/projects/shop_analytics/shop_analytics.duckdb
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi
kind=$(duckdb -readonly -noheader -list "$DB" \
  "SELECT table_type FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'customer_revenue'" 2>&1)
if [ "$kind" != "BASE TABLE" ]; then
  echo "failed: customer_revenue is not a table (found: ${kind:-nothing})"
  exit 0
fi
duckdb -readonly -noheader -csv "$DB" \
  "SELECT customer_id, customer_name, CAST(order_count AS BIGINT), printf('%.2f', CAST(total_revenue AS DOUBLE))
   FROM customer_revenue ORDER BY customer_id" 2>&1 | tr -d '\r' > "$OUT/customer_revenue.csv"
echo succeed
