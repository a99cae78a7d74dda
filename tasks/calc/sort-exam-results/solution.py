# %% focus the workbook window once Calc shows it
import subprocess
title = "exam_results.xlsx - LibreOffice Calc"
for _ in range(150):
    if title in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-Fa", title])
time.sleep(1)

# %% cursor to F2, the first Total value
pyautogui.hotkey("ctrl", "home")
pyautogui.press("right", presses=5)
pyautogui.press("down")

# %% Data > Sort Descending
pyautogui.hotkey("alt", "d")
time.sleep(0.8)
pyautogui.press("d")
time.sleep(1)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
