# %% focus Chromium once it shows the registration page
from desktop import focus
focus("Workshop registration")

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

# %% lunch: Vegetarian
pyautogui.press("tab")
pyautogui.typewrite("Vege", interval=0.05)

# %% accept the code of conduct
pyautogui.press("tab")
pyautogui.press("space")

# %% press "Save registration" and wait for the download
from desktop import wait_file
pyautogui.press("tab")
pyautogui.press("enter")
wait_file("/home/user/Downloads/registration.json", timeout=10)

# %%
DONE
