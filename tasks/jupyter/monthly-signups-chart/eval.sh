#!/bin/bash
# Checks the outcome of the sign-ups chart task and prints "succeed" or "failed: <reason>":
# * ~/monthly_signups.csv (month, signups) is rewritten canonically to /tmp/spider2v-eval/ for
#   comparison with the expected counts;
# * ~/signups_chart.png is a real PNG image, and the saved notebook shows a chart (an image output);
# * the saved notebook, re-run in a scratch copy of the home folder with Figure.savefig observed,
#   saves signups_chart.png from a bar chart titled "Monthly sign-ups" with x label "Month",
#   y label "Sign-ups"; it prints the bar heights ("bars: ..."), which the task's rule checks
#   against the monthly counts in calendar order.
OUT=/tmp/spider2v-eval
rm -rf "$OUT" && mkdir -p "$OUT"
/opt/jupyter/bin/python - <<'PY'
import json, os, shutil, sys, tempfile
import nbformat, pandas as pd
from PIL import Image

def fail(msg):
    print('failed: ' + msg); sys.exit(0)

home = '/home/user'
try:
    monthly = pd.read_csv(f'{home}/monthly_signups.csv', dtype=str, keep_default_na=False)
except Exception as exc:
    fail(f'cannot read monthly_signups.csv: {exc}')
if list(monthly.columns) != ['month', 'signups']:
    fail(f'monthly_signups.csv has columns {list(monthly.columns)}')
lines = ['month,signups'] + [f'{r.month.strip()},{r.signups.strip()}' for r in monthly.itertuples(index=False)]
open('/tmp/spider2v-eval/monthly_signups.csv', 'w').write('\n'.join(lines) + '\n')
try:
    with Image.open(f'{home}/signups_chart.png') as img:
        if img.format != 'PNG' or img.width < 200 or img.height < 150:
            fail(f'signups_chart.png is a {img.format} image of {img.width}x{img.height}')
except FileNotFoundError:
    fail('signups_chart.png does not exist')
except Exception as exc:
    fail(f'signups_chart.png is not an image: {exc}')
try:
    nb = nbformat.read(f'{home}/signups_chart.ipynb', as_version=4)
except Exception as exc:
    fail(f'cannot read the notebook: {exc}')
if not any('image/png' in o.get('data', {}) for c in nb.cells if c.cell_type == 'code' for o in c.get('outputs', [])):
    fail('the saved notebook shows no chart')

scratch = tempfile.mkdtemp(prefix='spider2v-rerun-')
shutil.copy(f'{home}/signups.csv', scratch)
record = os.path.join(scratch, 'figures.json')
hook = f'''
import json, os, matplotlib.figure
_orig_savefig = matplotlib.figure.Figure.savefig
def _observed_savefig(self, fname, *args, **kwargs):
    axes = []
    for ax in self.axes:
        bars = [p.get_height() for p in ax.patches if type(p).__name__ == 'Rectangle']
        axes.append(dict(title=ax.get_title(), xlabel=ax.get_xlabel(), ylabel=ax.get_ylabel(), bars=bars))
    sup = self._suptitle.get_text() if getattr(self, '_suptitle', None) is not None else ''
    entry = dict(fname=os.path.basename(str(fname)), suptitle=sup, axes=axes)
    with open({record!r}, 'a') as f:
        f.write(json.dumps(entry, default=float) + "\\n")
    return _orig_savefig(self, fname, *args, **kwargs)
matplotlib.figure.Figure.savefig = _observed_savefig
'''
nb.cells.insert(0, nbformat.v4.new_code_cell(hook))
from nbclient import NotebookClient
try:
    NotebookClient(nb, timeout=60, kernel_name='python3', resources={'metadata': {'path': scratch}}).execute()
except Exception as exc:
    fail(f're-running the saved notebook failed: {str(exc)[-300:]}')
entries = [json.loads(l) for l in open(record)] if os.path.exists(record) else []
saved = [e for e in entries if e['fname'] == 'signups_chart.png']
if not saved:
    fail(f're-running the notebook saves no signups_chart.png (saved: {[e["fname"] for e in entries]})')
fig = saved[-1]
axes = [a for a in fig['axes'] if a['bars']]
if len(axes) != 1:
    fail(f'expected one bar chart in the figure, found {len(axes)}')
ax = axes[0]
norm = lambda s: ' '.join(str(s).split()).lower()
title = ax['title'] or fig['suptitle']
if norm(title) != 'monthly sign-ups':
    fail(f'title is {title!r}')
if norm(ax['xlabel']) != 'month' or norm(ax['ylabel']) != 'sign-ups':
    fail(f'axis labels are {ax["xlabel"]!r} and {ax["ylabel"]!r}')
print('bars: ' + ','.join(str(int(round(h))) for h in ax['bars']))
print('succeed')
PY
