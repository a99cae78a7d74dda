# %% read the report in gedit, then switch to Chromium and click "Create new ticket"
from desktop import focus, wait_window
wait_window("incident_report.txt", timeout=60)
focus("Found 9 tickets", timeout=60)
pyautogui.click(1640, 102)
wait_window("Create a new ticket in", timeout=60)
time.sleep(1.5)

# %% the form opens for the first queue (Data Platform): switch the Queue to "Service Desk"
from desktop import choose, wait_window
choose(1614, 248, 2)
wait_window("Create a new ticket in Service", timeout=60)
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
from desktop import choose
choose(1614, 440, 7)

# %% click "Create" and wait for the new ticket's page
from desktop import wait_window
pyautogui.click(1081, 839)
wait_window("#11: VPN login fails", timeout=60)
time.sleep(1)

# %%
DONE
