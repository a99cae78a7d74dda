# Wrong on purpose: the retries edit lands one line too high: line 17 (timezone = UTC) is overwritten and retries stays 1
# focus gedit once it shows the file
import subprocess
for _ in range(150):
    if "etl_job.ini" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "etl_job.ini"])
time.sleep(1)

# %% line 7: the source database
pyautogui.hotkey("ctrl", "home")
pyautogui.press("down", presses=6)
pyautogui.press("end")
pyautogui.hotkey("shift", "home")
pyautogui.typewrite("database = sales_2024", interval=0.02)

# %% line 12: the target compression
pyautogui.hotkey("ctrl", "home")
pyautogui.press("down", presses=11)
pyautogui.press("end")
pyautogui.hotkey("shift", "home")
pyautogui.typewrite("compression = snappy", interval=0.02)

# %% the retries
pyautogui.hotkey("ctrl", "home")
pyautogui.press("down", presses=16)
pyautogui.press("end")
pyautogui.hotkey("shift", "home")
pyautogui.typewrite("retries = 3", interval=0.02)

# %% save
pyautogui.hotkey("ctrl", "s")
time.sleep(1.5)

# %%
DONE
