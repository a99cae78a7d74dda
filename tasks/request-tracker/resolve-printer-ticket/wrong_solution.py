# Wrong on purpose: sends the text as a reply to the requestor instead of an internal comment
# %% based-on: solution.py
# %% replace 2: choose "Reply" (instead of Resolve) and wait for the update form
pyautogui.click(1771, 169)
import subprocess
for _ in range(300):
    if "Update ticket #3" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(1.5)

# %% replace 3: set the status to resolved with the keyboard, then type the text as the reply
pyautogui.click(1602, 318)
time.sleep(0.5)
pyautogui.typewrite("resolved", interval=0.02)
pyautogui.press("enter")
time.sleep(0.3)
pyautogui.click(561, 557)
time.sleep(0.3)
pyautogui.typewrite("Replaced the fuser unit and printed a test page successfully.", interval=0.01)
