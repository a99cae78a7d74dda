# Wrong on purpose: counts with value_counts(), which orders the months by frequency, not by date
# %% based-on: solution.py
# %% insert-after 3: count with value_counts() instead, before running the cell
from jupyter_ui import retype_line
retype_line(2, "monthly = signups['month'].value_counts().rename_axis('month').reset_index(name='signups')")
