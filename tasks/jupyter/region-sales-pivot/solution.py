# %% focus Chromium, which shows the notebook in JupyterLab
from desktop import focus
focus("JupyterLab", settle=0.5)

# %% click into the code cell that reads orders.csv and run it (Shift+Enter opens a new cell)
from jupyter_ui import run_first_cell
run_first_cell()

# %% type the pivot code into the new cell
pyautogui.typewrite(
    "pivot = orders.pivot_table(index='region', columns='quarter', values='amount', aggfunc='sum', fill_value=0)\n"
    "pivot = pivot.reindex(columns=['Q1', 'Q2', 'Q3', 'Q4'], fill_value=0)\n"
    "pivot['Total'] = pivot.sum(axis=1)\n"
    "pivot = pivot.round(2)\n"
    "pivot.to_excel('region_quarter_sales.xlsx', sheet_name='pivot')",
    interval=0.01,
)

# %% run the cell and wait for the workbook
from jupyter_ui import run_until
run_until("/home/user/region_quarter_sales.xlsx")

# %% save the notebook (Ctrl+S) until the saved file has the new cell
from jupyter_ui import save_until
save_until("/home/user/sales_pivot.ipynb", "region_quarter_sales.xlsx")

# %%
DONE
