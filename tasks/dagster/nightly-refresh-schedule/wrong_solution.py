# Wrong on purpose: swaps minute and hour in the cron expression (3 15 * * * runs at 15:03, not 03:15)
# %% based-on: solution.py
# %% replace 3: define the schedule on the empty line above "defs = Definitions(" (five lines up from the last line)
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=5)
pyautogui.press("home")
for line in [
    "nightly_refresh = ScheduleDefinition(",
    '    name="nightly_refresh", job=refresh_reports_job, cron_schedule="3 15 * * *",',
    ")",
    "",
]:
    pyautogui.hotkey("shift", "home")
    pyautogui.typewrite(line + "\n", interval=0.01)
