# In the Dagster project ~/orders, the subprocess asset runs external.py through Dagster Pipes:
# external.py must report the asset's materialization with the number of rows of orders_df as
# metadata, and the asset check "no_null_check" (no null in the Item_ID column), which the asset
# must declare. Then materialize the asset in the Dagster UI and open the asset's checks page,
# where no_null_check has succeeded.
# %% external.py: open a Pipes connection around main(), which reports the row count and the check
from pathlib import Path
from dbt_cli import edit
external = Path("/home/user/orders/orders/external.py")
edit(external, "import pandas as pd\n", "import pandas as pd\nfrom dagster_pipes import PipesContext, open_dagster_pipes\n")
edit(external, '''    print(f"processing total {total_orders} orders")
''', '''    print(f"processing total {total_orders} orders")
    context = PipesContext.get()
    context.report_asset_materialization(metadata={"total_orders": total_orders})
    context.report_asset_check(check_name="no_null_check", passed=bool(orders_df["Item_ID"].notnull().all()))
''')
edit(external, '''if __name__ == "__main__":
    main()''', '''if __name__ == "__main__":
    with open_dagster_pipes():
        main()''')
print(external.read_text())

# %% assets.py: subprocess_asset declares the check no_null_check (AssetCheckSpec is imported already)
from pathlib import Path
from dbt_cli import edit
assets = Path("/home/user/orders/orders/assets.py")
edit(assets, "@asset\ndef subprocess_asset(",
     '@asset(check_specs=[AssetCheckSpec(name="no_null_check", asset="subprocess_asset")])\ndef subprocess_asset(')
print(assets.read_text())

# %% in Chromium: the asset lineage, "Reload definitions", wait until the asset has its check, then reload the page, whose "Materialize" launches what the page has loaded
from dagster_ui import asset_checks, click, wait_for
from desktop import focus, until
focus("Chromium")
click("Lineage")
click("Reload definitions")
until(lambda: "no_null_check" in asset_checks().get("subprocess_asset", []), 60, "the reloaded definitions")
pyautogui.press("f5")
time.sleep(2)
wait_for("Materialize")
time.sleep(1)

# %% materialize subprocess_asset and wait until the run has finished
from dagster_assets import materialize
materialize("Materialize")

# %% select the asset in the graph, then, once its side panel has loaded (metadata plots move the Checks section down), its check no_null_check: the asset's checks page
from dagster_ui import click, nodes, wait_for
from desktop import until
click("subprocess_asset", roles=("static",))
wait_for("total_orders", roles=("static",))
until(lambda: not nodes(lambda n: n.getRoleName() == "progress bar"), 30, "the side panel to load")
time.sleep(1)
for attempt in range(3):
    click("no_null_check", roles=("link",))
    try:
        wait_for("Succeeded", roles=("static",), timeout=10)
        break
    except RuntimeError:
        pass
time.sleep(1)

# %%
DONE
