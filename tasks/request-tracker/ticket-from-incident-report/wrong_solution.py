# Wrong on purpose: files the ticket in the General queue instead of Service Desk
# %% based-on: solution.py
# %% replace 2: the form opens for the first queue (Data Platform): switch the Queue to the next one, "General"
pyautogui.click(1614, 248)
time.sleep(0.8)
pyautogui.press("down")
time.sleep(0.2)
pyautogui.press("enter")
import subprocess
for _ in range(300):
    if "Create a new ticket in General" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(2)
