#!/bin/bash
# Prints "succeed" when ~/readings_clean.csv exists with exactly the original columns, and writes
# its rows in a canonical form (temperature with one decimal, rows in file order) to
# /tmp/spider2v-eval/readings_clean.csv, which the task compares with the expected rows.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
/opt/jupyter/bin/python - <<'PY'
import sys
import pandas as pd
path = '/home/user/readings_clean.csv'
try:
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
except Exception as exc:
    print(f'failed: cannot read {path}: {exc}'); sys.exit(0)
cols = ['reading_id', 'station', 'recorded_at', 'temperature_c', 'humidity_pct']
if list(df.columns) != cols:
    print(f'failed: columns are {list(df.columns)}, expected {cols}'); sys.exit(0)
lines = [','.join(cols)]
for row in df.itertuples(index=False):
    try:
        temp = f'{float(row.temperature_c):.1f}'
        rid, hum = int(float(row.reading_id)), int(float(row.humidity_pct))
    except ValueError:
        print(f'failed: row {tuple(row)} has a missing or non-numeric value'); sys.exit(0)
    lines.append(f'{rid},{row.station},{row.recorded_at},{temp},{hum}')
open('/tmp/spider2v-eval/readings_clean.csv', 'w').write('\n'.join(lines) + '\n')
print('succeed')
PY
