#!/bin/bash
# Exports the column types and the rows of the readings table in ~/data/weather.duckdb with
# fixed formatting to /tmp/spider2v-eval/ for compare_csv. The database is read from a copy, so
# a duckdb shell the agent left open on the file does not lock the check out. Prints "succeed"
# or "failed: <why>".
DB=/home/user/data/weather.duckdb
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT/db"
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist"; exit 0; fi
cp "$DB" "$OUT/db/weather.duckdb"
[ -f "$DB.wal" ] && cp "$DB.wal" "$OUT/db/weather.duckdb.wal"
COPY="$OUT/db/weather.duckdb"
found=$(duckdb -noheader -list "$COPY" \
  "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'readings'" 2>&1)
if [ "$found" != "1" ]; then echo "failed: there is no table readings (${found})"; exit 0; fi
duckdb -noheader -csv "$COPY" \
  "SELECT column_name, data_type FROM information_schema.columns
   WHERE table_schema = 'main' AND table_name = 'readings' ORDER BY ordinal_position" 2>&1 | tr -d '\r' > "$OUT/schema.csv"
duckdb -noheader -csv "$COPY" \
  "SELECT CAST(station_code AS VARCHAR), CAST(read_at AS VARCHAR), printf('%.1f', CAST(temperature_c AS DOUBLE)),
          CAST(humidity_pct AS VARCHAR)
   FROM readings ORDER BY CAST(read_at AS VARCHAR), CAST(station_code AS VARCHAR)" 2>&1 | tr -d '\r' > "$OUT/rows.csv"
echo succeed
