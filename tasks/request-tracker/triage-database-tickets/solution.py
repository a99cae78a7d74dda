# %% wait until Chromium shows the Service Desk search results, then open "Bulk Update"
from desktop import focus, wait_window
focus("Found 9 tickets", settle=0.5, timeout=60)
pyautogui.click(1710, 142)
wait_window("Update multiple tickets", timeout=60)
time.sleep(2)

# %% "Clear All", then tick the new tickets about a database: #2, #4 and #9 (#6 is already open)
pyautogui.click(132, 772)
time.sleep(0.5)
for y in (293, 403, 623):
    pyautogui.click(34, y)
    time.sleep(0.3)

# %% Make queue: Data Platform (first entry after "-")
from desktop import choose
choose(1525, 954, 1)

# %% Make Owner: bob (after "-", Nobody, alice)
from desktop import choose
choose(609, 881, 3)

# %% Make priority: High (after "-", Low, Medium)
from desktop import choose
choose(1525, 918, 3)

# %% click "Update" and wait until RT has applied the changes
import json
import subprocess
from desktop import until
pyautogui.click(1854, 772)
def owner():
    out = subprocess.run(["curl", "-s", "-u", "root:password", "http://localhost:8080/REST/2.0/ticket/9"],
                         capture_output=True, text=True).stdout
    try:
        return json.loads(out)["Owner"]["id"]
    except (ValueError, KeyError, TypeError):
        return None
until(lambda: owner() == "bob", 60, "ticket #9's owner bob", every=0.4)
time.sleep(2)

# %%
DONE
