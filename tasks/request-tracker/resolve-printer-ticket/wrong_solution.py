# Wrong on purpose: sends the text as a reply to the requestor instead of an internal comment
# %% based-on: solution.py
# %% replace 2: choose "Reply" instead of "Resolve"
pyautogui.click(1771, 169)

# %% insert-after 3: set the status to resolved with the keyboard
pyautogui.click(1602, 318)
time.sleep(0.5)
pyautogui.typewrite("resolved", interval=0.02)
pyautogui.press("enter")
time.sleep(0.3)
