# Wrong on purpose: writes the chart's abbreviated label "Sep" instead of the full month name "September"
# look at the report in Chromium (the table shows September with 27,154 visitors)
import subprocess
for _ in range(150):
    if "Website traffic 2024" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "Website traffic 2024"])
time.sleep(1)
pyautogui.scroll(-5)
time.sleep(0.5)

# %% type the answer in gedit, as the chart labels it
import subprocess
subprocess.run(["wmctrl", "-a", "peak_month.txt"])
time.sleep(1)
pyautogui.typewrite("Sep", interval=0.02)

# %% save
pyautogui.hotkey("ctrl", "s")
time.sleep(1.5)

# %%
DONE
