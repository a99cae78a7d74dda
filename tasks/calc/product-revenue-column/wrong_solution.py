# Wrong on purpose: the Revenue formulas stop one row short (E2:E12), so the last product (row 13) gets none
# %% based-on: solution.py
# %% replace 3: one formula per product row, E2:E12 (Enter moves down a row)
rows = range(2, 13)
for row in rows:
    pyautogui.typewrite(f"=C{row}*D{row}\n", interval=0.03)
