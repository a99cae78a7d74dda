# Wrong on purpose: fixes only the KeyError and leaves total_value undefined, so the last cell still fails
# %% based-on: solution.py
# %% drop 4: total_value stays undefined

# %% replace 6: save (Ctrl+S) until the saved notebook has the output of the reorder cell
from jupyter_ui import save_until
save_until("/home/user/inventory_report.ipynb", "Reorder", cell=-2)
