# Wrong on purpose: counts with value_counts(), which orders the months by frequency, not by date
# focus Chromium, which shows the notebook in JupyterLab
import subprocess
for _ in range(150):
    if "JupyterLab" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "JupyterLab"])
time.sleep(0.5)

# %% click into the code cell that reads signups.csv and run it (Shift+Enter opens a new cell)
pyautogui.click(600, 320)
time.sleep(0.3)
pyautogui.hotkey("shift", "enter")
time.sleep(1.0)

# %% type the counting and plotting code into the new cell
pyautogui.typewrite(
    "signups['month'] = signups['signup_date'].dt.strftime('%Y-%m')\n"
    "monthly = signups['month'].value_counts().rename_axis('month').reset_index(name='signups')\n"
    "monthly.to_csv('monthly_signups.csv', index=False)\n"
    "fig, ax = plt.subplots(figsize=(8, 4))\n"
    "ax.bar(monthly['month'], monthly['signups'])\n"
    "ax.set_title('Monthly sign-ups')\n"
    "ax.set_xlabel('Month')\n"
    "ax.set_ylabel('Sign-ups')\n"
    "fig.savefig('signups_chart.png')",
    interval=0.01,
)

# %% run the cell and wait for the chart file
import os
pyautogui.hotkey("shift", "enter")
for _ in range(100):
    if os.path.exists("/home/user/signups_chart.png"):
        break
    time.sleep(0.2)
time.sleep(1.0)

# %% save the notebook (Ctrl+S) until the saved file has the chart output
import os
for _ in range(20):
    pyautogui.hotkey("ctrl", "s")
    time.sleep(0.5)
    if "image/png" in open("/home/user/signups_chart.ipynb").read():
        break

# %%
DONE
