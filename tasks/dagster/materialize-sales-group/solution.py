# %% wait for the Dagster UI window in Chromium and focus it
import subprocess
for _ in range(150):
    if "Chromium" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(0.5)

# %% open the page of the "sales" asset group (address bar) and wait for its graph
from dagster_ui import goto, wait_for
goto("http://localhost:3000/locations/retail_ops/asset-groups/sales")
wait_for("revenue_report", roles=("static", "heading", "link", "push button", "section"))

# %% click the group's "Materialize all" and wait until the run has finished
from dagster_ui import click, wait_runs_done
click("Materialize all")
wait_runs_done(1)
time.sleep(1)

# %%
DONE
