#!/bin/bash
# Checks the outcome of the payments pipeline: stg_payments is a view, daily_revenue a table,
# and the project declares the four requested tests. Prints "succeed" or "failed: <why>", and
# exports both models' rows with fixed formatting to /tmp/spider2v-eval/ for compare_csv.
PROJECT=/home/user/projects/bakery_payments
DB=$PROJECT/bakery_payments.duckdb
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi

relation_type() {
  duckdb -readonly -noheader -list "$DB" \
    "SELECT table_type FROM information_schema.tables WHERE table_schema = 'main' AND table_name = '$1'" 2>&1
}
kind=$(relation_type stg_payments)
if [ "$kind" != "VIEW" ]; then echo "failed: stg_payments is not a view (found: ${kind:-nothing})"; exit 0; fi
kind=$(relation_type daily_revenue)
if [ "$kind" != "BASE TABLE" ]; then echo "failed: daily_revenue is not a table (found: ${kind:-nothing})"; exit 0; fi

tests=$(cd "$PROJECT" && dbt ls --resource-type test --output name 2>&1)
for name in unique_stg_payments_payment_id not_null_stg_payments_payment_id \
            unique_daily_revenue_payment_date not_null_daily_revenue_payment_date; do
  if ! grep -qx "$name" <<<"$tests"; then echo "failed: test $name is not declared"; exit 0; fi
done

duckdb -readonly -noheader -csv "$DB" \
  "SELECT payment_id, order_id, CAST(payment_date AS VARCHAR), method, printf('%.2f', CAST(amount AS DOUBLE))
   FROM stg_payments ORDER BY payment_id" 2>&1 | tr -d '\r' > "$OUT/stg_payments.csv"
duckdb -readonly -noheader -csv "$DB" \
  "SELECT CAST(payment_date AS VARCHAR), CAST(payment_count AS BIGINT), printf('%.2f', CAST(revenue AS DOUBLE))
   FROM daily_revenue ORDER BY payment_date" 2>&1 | tr -d '\r' > "$OUT/daily_revenue.csv"
echo succeed
