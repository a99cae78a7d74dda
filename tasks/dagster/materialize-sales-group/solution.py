# %% wait for the Dagster UI window in Chromium and focus it
from desktop import focus
focus("Chromium", settle=0.5)

# %% open the page of the "sales" asset group (address bar) and wait for its graph
from dagster_assets import ASSET_ROLES
from dagster_ui import goto, wait_for
goto("http://localhost:3000/locations/retail_ops/asset-groups/sales")
wait_for("revenue_report", roles=ASSET_ROLES)

# %% click "Materialize all" on the page and wait until the run has finished
from dagster_assets import materialize
materialize()

# %%
DONE
