# Wrong on purpose: charts the whole table, so the Costs column becomes a second series next to Revenue
# %% based-on: solution.py
# %% replace 2: select the whole table (A1:C13) through the Name Box (Ctrl+Shift+F5)
pyautogui.hotkey("ctrl", "shift", "f5")
time.sleep(0.5)
pyautogui.typewrite("A1:C13\n", interval=0.05)
time.sleep(0.5)
