# Add the schedule nightly_refresh to definitions.py in gedit (by keys), reload the definitions in
# the Dagster UI and turn the schedule on with its toggle.
# route: gui: schedule or sensor switched on
# %% focus gedit once it shows definitions.py
from desktop import focus
focus("definitions.py")

# %% register the schedule in Definitions(...): Ctrl+End lands on the closing ")" (gedit hides the final newline); add a line after "assets=[...]," two lines up; Shift+Home selects the indentation gedit copies
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=2)
pyautogui.press("end")
pyautogui.press("enter")
pyautogui.hotkey("shift", "home")
pyautogui.typewrite("    schedules=[nightly_refresh],", interval=0.01)

# %% define the schedule on the empty line above "defs = Definitions(" (five lines up from the last line), over the indentation gedit copies
from gedit import type_lines
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=5)
pyautogui.press("home")
type_lines('''
nightly_refresh = ScheduleDefinition(
    name="nightly_refresh", job=refresh_reports_job, cron_schedule="15 3 * * *",
)

''')

# %% import ScheduleDefinition on the line after the dagster import (line 3), then save
pyautogui.hotkey("ctrl", "home")
pyautogui.press("down", presses=2)
pyautogui.typewrite("from dagster import ScheduleDefinition\n", interval=0.01)
pyautogui.hotkey("ctrl", "s")
time.sleep(1)

# %% switch to Chromium once the Dagster UI window is there
from desktop import focus
focus("Chromium", settle=0.5)

# %% reload the definitions, then open Automation and wait for the schedule
from dagster_ui import click, wait_for
click("Reload definitions")
time.sleep(2)
click("Automation")
wait_for("nightly_refresh", roles=("static",))
time.sleep(1)

# %% turn the schedule on: the toggle switch is the right-most check box (or its label) on the schedule's row; wait until it shows checked
import pyatspi
from dagster_ui import nodes, wait_for
row = wait_for("nightly_refresh", roles=("static",))[0][1]


def on_the_row():
    boxes = nodes(lambda n: n.getRoleName() in ("check box", "label") and not (n.name or ""))
    return [(n, e) for n, e in boxes if abs((e.y + e.height / 2) - (row.y + row.height / 2)) < 40]


boxes = on_the_row()
if boxes:
    toggle = max(boxes, key=lambda pair: pair[1].x + pair[1].width)[1]
    pyautogui.click(toggle.x + toggle.width // 2, toggle.y + toggle.height // 2)
else:  # the switch is drawn at the right end of the row, a little below the name's line
    page = nodes(lambda n: n.getRoleName() == "document web")[0][1]
    pyautogui.click(page.x + page.width - 40, row.y + row.height // 2 + 11)
for _ in range(40):
    if any(n.getState().contains(pyatspi.STATE_CHECKED) for n, _ in on_the_row()):
        break
    time.sleep(0.5)
time.sleep(1)

# %%
DONE
