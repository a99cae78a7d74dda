# Wrong on purpose: the SUMIF ranges stop at row 24 and miss the last sale (North, row 25), so North's total is short
# %% based-on: solution.py
# %% replace 4: headers, then one SUMIF row per region (Tab moves right, Enter returns to column A)
pyautogui.hotkey("ctrl", "shift", "f5")
time.sleep(0.5)
pyautogui.typewrite("A1\n", interval=0.05)
time.sleep(0.5)
pyautogui.typewrite("Region\tTotal Amount\n", interval=0.03)
regions = ["North", "South", "East", "West"]
for row, region in enumerate(regions, start=2):
    pyautogui.typewrite(f"{region}\t=SUMIF($Sales.$B$2:$B$24;A{row};$Sales.$D$2:$D$24)\n", interval=0.03)
