#!/bin/bash
# Re-writes the agent's CSV with minimal quoting into /tmp/spider2v-eval/top_customers.csv, so
# that the comparison is about values, not about how a tool quotes them: the sqlite3 shell
# writes "Mei Lin" where Python's csv module writes Mei Lin. Prints "succeed" or "failed: <why>".
SRC=/home/user/Desktop/top_customers.csv
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
if [ ! -f "$SRC" ]; then echo "failed: $SRC does not exist"; exit 0; fi
if ! python3 - "$SRC" "$OUT/top_customers.csv" <<'PY'
import csv
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
PY
then
  echo "failed: $SRC is not a readable CSV file"
  exit 0
fi
echo succeed
