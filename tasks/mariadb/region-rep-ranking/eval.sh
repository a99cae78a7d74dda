#!/bin/bash
# Prints "succeed" when sales.rep_ranking is a base table, and exports its rows with fixed
# formatting to /tmp/spider2v-eval/rep_ranking.csv.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
kind=$(mariadb -N -B -e "SELECT table_type FROM information_schema.tables WHERE table_schema = 'sales' AND table_name = 'rep_ranking'" 2>&1)
if [ "$kind" != "BASE TABLE" ]; then
  echo "failed: sales.rep_ranking is not a table (found: ${kind:-nothing})"
  exit 0
fi
mariadb -N -B sales -e "
  SELECT CONCAT_WS(',', region, rep, CAST(won_amount AS DECIMAL(12,2)), CAST(won_deals AS SIGNED), CAST(region_rank AS SIGNED))
  FROM rep_ranking ORDER BY region, CAST(region_rank AS SIGNED), rep" > "$OUT/rep_ranking.csv" 2>&1 || { echo "failed: cannot query rep_ranking"; exit 0; }
echo succeed
