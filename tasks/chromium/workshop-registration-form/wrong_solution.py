# Wrong on purpose: picks the Vegan lunch instead of the Vegetarian one
# focus Chromium once it shows the registration page
import subprocess
for _ in range(150):
    if "Workshop registration" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "Workshop registration"])
time.sleep(1)

# %% click the "Full name" field and type the name
pyautogui.click(960, 347)
time.sleep(0.3)
pyautogui.typewrite("Maria Lopez", interval=0.02)

# %% e-mail
pyautogui.press("tab")
pyautogui.typewrite("maria.lopez@example.org", interval=0.02)

# %% workshop: typing in a focused drop-down selects the matching option
pyautogui.press("tab")
pyautogui.typewrite("SQL", interval=0.05)

# %% seats: replace the 1 with 2
pyautogui.press("tab")
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("2", interval=0.02)

# %% lunch
pyautogui.press("tab")
pyautogui.typewrite("Vegan", interval=0.05)

# %% accept the code of conduct
pyautogui.press("tab")
pyautogui.press("space")

# %% press "Save registration" and wait for the download
pyautogui.press("tab")
pyautogui.press("enter")
import os
for _ in range(50):
    if os.path.exists("/home/user/Downloads/registration.json"):
        break
    time.sleep(0.2)

# %%
DONE
