# Wrong on purpose: forgets to remove the duplicated rows
# %% based-on: solution.py
# %% insert-after 3: delete the drop_duplicates() line again before running the cell
from jupyter_ui import delete_line
delete_line(1)
