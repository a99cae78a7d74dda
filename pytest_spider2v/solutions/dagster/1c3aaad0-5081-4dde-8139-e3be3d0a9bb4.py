# In the open Dagster UI, test the sensor "math_sensor" with the cursor value 123 and launch the
# run it requests (of its job math_job). Dagster 1.12 calls the sensor test "Preview tick
# result": it evaluates the sensor with the given cursor and lists the requested runs, which
# "Apply requests & commit tick result" launches.
# route: gui: run triggered
# %% in Chromium: Automation, then the sensor math_sensor
from dagster_ui import click
from desktop import focus
focus("Chromium")
click("Automation")
click("math_sensor", roles=("static",))
click("Preview tick result")

# %% evaluate it with the cursor value 123 and wait for its result
from dagster_ui import click, wait_for
click("Enter a cursor value", roles=("entry",))
pyautogui.typewrite("123", interval=0.05)
click("Continue")
wait_for("Requested runs (", roles=("static",))

# %% launch the requested run and wait until it has finished
from dagster_ui import click, wait_runs_done
click("Apply requests & commit tick result")
wait_runs_done(1)
time.sleep(1)

# %%
DONE
