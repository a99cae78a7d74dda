# Wrong on purpose: forgets to remove the duplicated rows
# focus Chromium, which shows the notebook in JupyterLab
import subprocess
for _ in range(150):
    if "JupyterLab" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "JupyterLab"])
time.sleep(0.5)

# %% click into the code cell that reads readings.csv and run it (Shift+Enter opens a new cell)
pyautogui.click(600, 320)
time.sleep(0.3)
pyautogui.hotkey("shift", "enter")
time.sleep(1.0)

# %% type the cleaning code into the new cell
pyautogui.typewrite(
    "df = df.dropna(subset=['temperature_c'])\n"
    "df['station'] = df['station'].str.strip().str.lower()\n"
    "df = df.sort_values('reading_id')\n"
    "df.to_csv('readings_clean.csv', index=False)",
    interval=0.01,
)

# %% run the cell and wait for the file
import os
pyautogui.hotkey("shift", "enter")
for _ in range(100):
    if os.path.exists("/home/user/readings_clean.csv"):
        break
    time.sleep(0.2)

# %% save the notebook (Ctrl+S) until the saved file has the new cell
import os
for _ in range(20):
    pyautogui.hotkey("ctrl", "s")
    time.sleep(0.5)
    if "readings_clean.csv" in open("/home/user/clean_readings.ipynb").read():
        break

# %%
DONE
