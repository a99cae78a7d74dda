#!/bin/bash
# Prints "succeed" when public.sales_by_category_month is a materialized view in the retail
# database, and exports its rows with fixed formatting to /tmp/spider2v-eval/sales.csv.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
kind=$(psql -X -A -t -d retail -c "SELECT count(*) FROM pg_matviews WHERE schemaname = 'public' AND matviewname = 'sales_by_category_month'" 2>&1)
if [ "$kind" != "1" ]; then
  echo "failed: sales_by_category_month is not a materialized view (${kind})"
  exit 0
fi
psql -X -A -t -F, -v ON_ERROR_STOP=1 -d retail -c "
  SELECT category, region, CAST(year AS integer), CAST(month AS integer), CAST(order_count AS bigint),
         CAST(units AS bigint), to_char(round(CAST(net_revenue AS numeric), 2), 'FM999999990.00')
  FROM sales_by_category_month ORDER BY 1, 2, 3, 4" > "$OUT/sales.csv" 2>&1 || { echo "failed: cannot query the view"; exit 0; }
echo succeed
