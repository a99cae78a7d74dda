# Wrong on purpose: uses the global lineage's "Materialize all", which also materializes the inventory group
# %% based-on: solution.py
# %% replace 2: go to the Global Asset Lineage page instead of the group's
from dagster_ui import goto, wait_for
goto("http://localhost:3000/asset-groups")
wait_for("Reload definitions")
