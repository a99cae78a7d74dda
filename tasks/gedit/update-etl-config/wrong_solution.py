# Wrong on purpose: the retries edit lands one line too high: line 17 (timezone = UTC) is overwritten and retries stays 1
# %% based-on: solution.py
# %% replace 4: the retries
pyautogui.hotkey("ctrl", "home")
pyautogui.press("down", presses=16)
pyautogui.press("end")
pyautogui.hotkey("shift", "home")
pyautogui.typewrite("retries = 3", interval=0.02)
