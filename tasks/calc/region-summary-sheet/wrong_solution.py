# Wrong on purpose: the SUMIF ranges stop at row 24 and miss the last sale (North, row 25), so North's total is short
# %% based-on: solution.py
# %% replace 5: one SUMIF row per region, over the Sales sheet's rows 2 to 24
regions = ["North", "South", "East", "West"]
for row, region in enumerate(regions, start=2):
    pyautogui.typewrite(f"{region}\t=SUMIF($Sales.$B$2:$B$24;A{row};$Sales.$D$2:$D$24)\n", interval=0.03)
