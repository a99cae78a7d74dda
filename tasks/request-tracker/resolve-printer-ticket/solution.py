# %% wait until Chromium shows ticket #3, then open the "Actions" menu of the ticket
import subprocess
def wait_title(text, timeout=60):
    for _ in range(int(timeout / 0.2)):
        if text in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
            return True
        time.sleep(0.2)
    return False
wait_title("#3: Printer on the third floor")
subprocess.run(["wmctrl", "-a", "#3: Printer on the third floor"])
time.sleep(0.5)
pyautogui.click(1757, 142)
time.sleep(0.8)

# %% choose "Resolve": RT opens the update form as a comment with status resolved
pyautogui.click(1771, 289)
import subprocess
for _ in range(300):
    if "Update ticket #3" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(1.5)

# %% type the comment into the message box
pyautogui.click(561, 557)
time.sleep(0.3)
pyautogui.typewrite("Replaced the fuser unit and printed a test page successfully.", interval=0.01)

# %% click "Update Ticket" and wait for the ticket page
pyautogui.click(1051, 842)
import subprocess
for _ in range(300):
    out = subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout
    if "#3: Printer on the third floor" in out and "Update ticket" not in out:
        break
    time.sleep(0.2)
time.sleep(1)

# %%
DONE
