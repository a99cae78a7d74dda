# Wrong on purpose: picks the Vegan lunch instead of the Vegetarian one
# %% based-on: solution.py
# %% replace 6: lunch
pyautogui.press("tab")
pyautogui.typewrite("Vegan", interval=0.05)
