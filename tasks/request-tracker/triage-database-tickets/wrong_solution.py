# Wrong on purpose: also moves ticket #6, which mentions a database but is already open (not new)
# %% based-on: solution.py
# %% replace 2: "Clear All", then tick every ticket about a database: #2, #4, #6 and #9
pyautogui.click(132, 772)
time.sleep(0.5)
for y in (293, 403, 514, 623):
    pyautogui.click(34, y)
    time.sleep(0.3)
