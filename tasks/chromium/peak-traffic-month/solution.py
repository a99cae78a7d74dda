# %% look at the report in Chromium (the table shows September with 27,154 visitors)
from desktop import focus
focus("Website traffic 2024")
pyautogui.scroll(-5)
time.sleep(0.5)

# %% type the answer in gedit
from desktop import focus
focus("peak_month.txt")
pyautogui.typewrite("September", interval=0.02)

# %% save
pyautogui.hotkey("ctrl", "s")
time.sleep(1.5)

# %%
DONE
