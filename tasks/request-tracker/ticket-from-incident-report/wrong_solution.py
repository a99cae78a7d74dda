# Wrong on purpose: files the ticket in the General queue instead of Service Desk
# read the report in gedit, then switch to Chromium and click "Create new ticket"
import subprocess
def titles():
    return subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout
for _ in range(300):
    if "incident_report.txt" in titles() and "Found 9 tickets" in titles():
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "Found 9 tickets"])
time.sleep(1)
pyautogui.click(1640, 102)
for _ in range(300):
    if "Create a new ticket in" in titles():
        break
    time.sleep(0.2)
time.sleep(1.5)

# %% the form opens for the first queue (Data Platform): switch the Queue to the next one, "General"
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

# %% requestor: remove root, add the reporter's address
pyautogui.click(353, 250)
time.sleep(0.5)
pyautogui.click(700, 250)
time.sleep(0.3)
pyautogui.typewrite("liam.schulz@example.com", interval=0.02)
time.sleep(1.5)
pyautogui.press("enter")
time.sleep(0.8)

# %% subject: the report's summary
pyautogui.click(609, 386)
time.sleep(0.3)
pyautogui.typewrite("VPN login fails with certificate expired for remote staff", interval=0.01)

# %% message: the details of the report
pyautogui.click(565, 554)
time.sleep(0.3)
pyautogui.typewrite("Since this morning nobody in Finance who works from home can connect to the VPN. "
                    "The client shows the message 'certificate expired' right after the password is entered. "
                    "Staff in the office are not affected. (Incident report IR-0412)", interval=0.01)

# %% Affected System: VPN (the last of the custom field's values)
pyautogui.click(1614, 440)
time.sleep(0.8)
for _ in range(7):
    pyautogui.press("down")
    time.sleep(0.15)
pyautogui.press("enter")
time.sleep(0.5)

# %% click "Create" and wait for the new ticket's page
pyautogui.click(1081, 839)
import subprocess
for _ in range(300):
    if "#11: VPN login fails" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(1)

# %%
DONE
