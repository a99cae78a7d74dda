# Wrong on purpose: uses the global lineage's "Materialize all", which also materializes the inventory group
# %% based-on: solution.py
# %% replace 2-3: go to the Global Asset Lineage page, click its "Materialize all" and wait until the run has finished
from dagster_ui import click, goto, wait_for, wait_runs_done
goto("http://localhost:3000/asset-groups")
wait_for("Reload definitions")
click("Materialize all")
wait_runs_done(1)
time.sleep(1)
