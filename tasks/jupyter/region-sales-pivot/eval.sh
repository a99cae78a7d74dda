#!/bin/bash
# Prints "succeed" when ~/region_quarter_sales.xlsx has a sheet named "pivot" whose header row
# names Q1, Q2, Q3, Q4 and Total, and writes the rows whose first cell is a region, in sheet
# order and with two decimals, to /tmp/spider2v-eval/pivot.csv for comparison.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
/opt/jupyter/bin/python - <<'PY'
import sys
import openpyxl
path = '/home/user/region_quarter_sales.xlsx'
try:
    wb = openpyxl.load_workbook(path, data_only=True)
except Exception as exc:
    print(f'failed: cannot open {path}: {exc}'); sys.exit(0)
if 'pivot' not in wb.sheetnames:
    print(f'failed: no sheet "pivot" (sheets: {wb.sheetnames})'); sys.exit(0)
rows = [list(r) for r in wb['pivot'].iter_rows(values_only=True)]
wanted = ['Q1', 'Q2', 'Q3', 'Q4', 'Total']
header = next((r for r in rows if all(w in [str(c).strip() if c is not None else '' for c in r] for w in wanted)), None)
if header is None:
    print('failed: no header row with Q1, Q2, Q3, Q4 and Total'); sys.exit(0)
names = [str(c).strip() if c is not None else '' for c in header]
pos = [names.index(w) for w in wanted]
regions = {'Central', 'East', 'North', 'South', 'West'}
lines = ['region,' + ','.join(wanted)]
for r in rows:
    if r and isinstance(r[0], str) and r[0].strip() in regions:
        values = []
        for p in pos:
            v = r[p] if p < len(r) else None
            if not isinstance(v, (int, float)):
                print(f'failed: region {r[0]} has {v!r} in column {names[p]}'); sys.exit(0)
            values.append(f'{v:.2f}')
        lines.append(r[0].strip() + ',' + ','.join(values))
open('/tmp/spider2v-eval/pivot.csv', 'w').write('\n'.join(lines) + '\n')
print('succeed')
PY
