# Wrong on purpose: averages the order amounts instead of summing them
# %% based-on: solution.py
# %% replace 3: type the pivot code into the new cell
pyautogui.typewrite(
    "pivot = orders.pivot_table(index='region', columns='quarter', values='amount', aggfunc='mean', fill_value=0)\n"
    "pivot = pivot.reindex(columns=['Q1', 'Q2', 'Q3', 'Q4'], fill_value=0)\n"
    "pivot['Total'] = pivot.sum(axis=1)\n"
    "pivot = pivot.round(2)\n"
    "pivot.to_excel('region_quarter_sales.xlsx', sheet_name='pivot')",
    interval=0.01,
)
