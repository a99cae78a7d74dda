#!/bin/bash
# Checks the access-log loader: ~/etl/load_access_log.py exists, ~/etl/weblogs.db holds the
# requests table with integer status and bytes, and running the script once more gives the same
# rows (it replaces the table instead of appending). Exports the rows with fixed formatting to
# /tmp/spider2v-eval/requests.csv for compare_csv. Prints "succeed" or "failed: <why>".
ETL=/home/user/etl
SCRIPT=$ETL/load_access_log.py
DB=$ETL/weblogs.db
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
if [ ! -f "$SCRIPT" ]; then echo "failed: $SCRIPT does not exist"; exit 0; fi
if [ ! -f "$DB" ]; then echo "failed: $DB does not exist (was the script run?)"; exit 0; fi

export_rows() {  # export_rows FILE: the requests rows, sorted, as CSV; exit status 1 when unreadable
  python3 - "$DB" "$1" <<'PY'
import csv
import sqlite3
import sys

con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
try:
    bad = con.execute(
        "SELECT count(*) FROM requests WHERE typeof(status) != 'integer' OR typeof(bytes) != 'integer'"
    ).fetchone()[0]
    rows = con.execute(
        "SELECT ip, requested_at, method, path, status, bytes FROM requests "
        "ORDER BY requested_at, ip, method, path, status, bytes"
    ).fetchall()
except sqlite3.Error as exc:
    print(f"failed: cannot read the requests table: {exc}")
    sys.exit(1)
if bad:
    print(f"failed: {bad} rows have a status or bytes value that is not an integer")
    sys.exit(1)
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
PY
}
export_rows "$OUT/requests.csv" || exit 0
if ! (cd "$ETL" && timeout 60 python3 "$SCRIPT" >"$OUT/rerun.log" 2>&1); then
  echo "failed: running the script again failed: $(tail -n 3 "$OUT/rerun.log")"; exit 0
fi
export_rows "$OUT/requests_rerun.csv" || exit 0
if ! cmp -s "$OUT/requests.csv" "$OUT/requests_rerun.csv"; then
  echo "failed: running the script again changed the requests table"; exit 0
fi
echo succeed
