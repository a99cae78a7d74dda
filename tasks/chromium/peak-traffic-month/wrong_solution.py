# Wrong on purpose: writes the chart's abbreviated label "Sep" instead of the full month name "September"
# %% based-on: solution.py
# %% replace 2: type the answer in gedit, as the chart labels it
import subprocess
subprocess.run(["wmctrl", "-a", "peak_month.txt"])
time.sleep(1)
pyautogui.typewrite("Sep", interval=0.02)
