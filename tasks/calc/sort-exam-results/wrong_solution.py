# Wrong on purpose: sorts by Total ascending (lowest first) instead of descending
# %% based-on: solution.py
# %% replace 3: Data > Sort Ascending (the second item of the Data menu)
pyautogui.hotkey("alt", "d")
time.sleep(1)
pyautogui.press("down", presses=1, interval=0.2)
pyautogui.press("enter")
time.sleep(1)
