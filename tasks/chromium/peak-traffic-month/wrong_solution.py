# Wrong on purpose: writes the chart's abbreviated label "Sep" instead of the full month name "September"
# %% based-on: solution.py
# %% replace 2: type the answer in gedit, as the chart labels it
from desktop import focus
focus("peak_month.txt")
pyautogui.typewrite("Sep", interval=0.02)
