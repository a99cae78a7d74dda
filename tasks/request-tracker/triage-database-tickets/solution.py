# %% wait until Chromium shows the Service Desk search results, then open "Bulk Update"
import subprocess
for _ in range(300):
    if "Found 9 tickets" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "Found 9 tickets"])
time.sleep(0.5)
pyautogui.click(1710, 142)
for _ in range(300):
    if "Update multiple tickets" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(2)

# %% "Clear All", then tick the new tickets about a database: #2, #4 and #9 (#6 is already open)
pyautogui.click(132, 772)
time.sleep(0.5)
for y in (293, 403, 623):
    pyautogui.click(34, y)
    time.sleep(0.3)

# %% Make queue: Data Platform (first entry after "-")
pyautogui.click(1525, 954)
time.sleep(0.8)
pyautogui.press("down")
time.sleep(0.2)
pyautogui.press("enter")
time.sleep(0.5)

# %% Make Owner: bob (after "-", Nobody, alice)
pyautogui.click(609, 881)
time.sleep(0.8)
for _ in range(3):
    pyautogui.press("down")
    time.sleep(0.2)
pyautogui.press("enter")
time.sleep(0.5)

# %% Make priority: High (after "-", Low, Medium)
pyautogui.click(1525, 918)
time.sleep(0.8)
for _ in range(3):
    pyautogui.press("down")
    time.sleep(0.2)
pyautogui.press("enter")
time.sleep(0.5)

# %% click "Update" and wait until RT has applied the changes
pyautogui.click(1854, 772)
import json, subprocess
for _ in range(150):
    out = subprocess.run(["curl", "-s", "-u", "root:password", "http://localhost:8080/REST/2.0/ticket/9"],
                         capture_output=True, text=True).stdout
    try:
        if json.loads(out)["Owner"]["id"] == "bob":
            break
    except (ValueError, KeyError, TypeError):
        pass
    time.sleep(0.4)
time.sleep(2)

# %%
DONE
