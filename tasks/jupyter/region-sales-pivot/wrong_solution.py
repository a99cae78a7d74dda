# Wrong on purpose: averages the order amounts instead of summing them
# %% based-on: solution.py
# %% insert-after 3: make the first line's aggregation a mean before running the cell
from jupyter_ui import retype_line
retype_line(1, "pivot = orders.pivot_table(index='region', columns='quarter', values='amount', aggfunc='mean', fill_value=0)")
