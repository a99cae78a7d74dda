#!/bin/bash
# Checks the star schema in ~/warehouse/retail.duckdb: dim_store, dim_product and fact_sales are
# tables and monthly_category_sales is a view; exports their rows with fixed formatting to
# /tmp/spider2v-eval/ for compare_csv. Reads a copy of the database, so a duckdb shell left open
# on the file does not lock the check out. Prints "succeed" or "failed: <why>".
DB=/home/user/warehouse/retail.duckdb
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT/db"
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi
cp "$DB" "$OUT/db/retail.duckdb"
[ -f "$DB.wal" ] && cp "$DB.wal" "$OUT/db/retail.duckdb.wal"
COPY="$OUT/db/retail.duckdb"

relation_type() {
  duckdb -noheader -list "$COPY" \
    "SELECT table_type FROM information_schema.tables WHERE table_schema = 'main' AND table_name = '$1'" 2>&1
}
for name in dim_store dim_product fact_sales; do
  kind=$(relation_type $name)
  if [ "$kind" != "BASE TABLE" ]; then echo "failed: $name is not a table (found: ${kind:-nothing})"; exit 0; fi
done
kind=$(relation_type monthly_category_sales)
if [ "$kind" != "VIEW" ]; then echo "failed: monthly_category_sales is not a view (found: ${kind:-nothing})"; exit 0; fi
month_type=$(duckdb -noheader -list "$COPY" \
  "SELECT data_type FROM information_schema.columns WHERE table_name = 'monthly_category_sales' AND column_name = 'month'" 2>&1)
if [ "$month_type" != "DATE" ]; then echo "failed: monthly_category_sales.month is not a DATE (found: ${month_type:-nothing})"; exit 0; fi

export_rows() {  # export_rows NAME QUERY
  duckdb -noheader -csv "$COPY" "$2" 2>&1 | tr -d '\r' > "$OUT/$1.csv"
}
export_rows dim_store "SELECT CAST(store_id AS BIGINT), store_name, city FROM dim_store ORDER BY store_id"
export_rows dim_product "SELECT CAST(product_id AS BIGINT), product_name, category FROM dim_product ORDER BY product_id"
export_rows fact_sales "SELECT sale_id, CAST(sale_date AS VARCHAR), CAST(store_id AS BIGINT), CAST(product_id AS BIGINT),
  CAST(quantity AS BIGINT), printf('%.2f', CAST(amount AS DOUBLE)) FROM fact_sales ORDER BY sale_id"
export_rows monthly_category_sales "SELECT CAST(month AS VARCHAR), category, CAST(units AS BIGINT),
  printf('%.2f', CAST(revenue AS DOUBLE)) FROM monthly_category_sales ORDER BY CAST(month AS VARCHAR), category"
echo succeed
