# %% wait until Chromium shows ticket #3, then open the "Actions" menu of the ticket
from desktop import focus
focus("#3: Printer on the third floor", settle=0.5, timeout=60)
pyautogui.click(1757, 142)
time.sleep(0.8)

# %% choose "Resolve": RT opens the update form as a comment with status resolved
pyautogui.click(1771, 289)

# %% once the update form is there, type the comment into the message box
from desktop import wait_window
wait_window("Update ticket #3", timeout=60)
time.sleep(1.5)
pyautogui.click(561, 557)
time.sleep(0.3)
pyautogui.typewrite("Replaced the fuser unit and printed a test page successfully.", interval=0.01)

# %% click "Update Ticket" and wait for the ticket page
from desktop import has_window, until
pyautogui.click(1051, 842)
until(lambda: has_window("#3: Printer on the third floor") and not has_window("Update ticket"), 60, "the ticket page")
time.sleep(1)

# %%
DONE
