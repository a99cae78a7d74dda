# Integrate the dbt project "jaffle_shop" (~/dbt-dagster-proj/jaffle_shop; its Dagster project,
# jaffle_shop_dagster/, loads the dbt models as assets) into Dagster with a Python asset
# "customers" after the tutorial: downstream of the dbt models stg_customers, stg_orders and
# stg_payments, it reads them from the project's DuckDB database tutorial.duckdb and returns one
# row per customer (customer_id, first_name, last_name, first_order, most_recent_order,
# number_of_orders, customer_lifetime_value: the sum of the customer's payments) as a DataFrame,
# which Dagster's default I/O manager stores in ~/.dagster/storage/customers. Register it in
# definitions.py, then reload the definitions and materialize all assets in the open Dagster UI.
# %% assets.py: import what the new asset uses and name the dbt project's DuckDB database
from pathlib import Path
from dbt_cli import edit
assets = Path("/home/user/dbt-dagster-proj/jaffle_shop/jaffle_shop_dagster/jaffle_shop_dagster/assets.py")
edit(assets, "from dagster import AssetExecutionContext\n",
     "import os\n\nimport duckdb\nimport pandas as pd\nfrom dagster import AssetExecutionContext, asset\n")
edit(assets, "from dagster_dbt import DbtCliResource, dbt_assets\n",
     "from dagster_dbt import DbtCliResource, dbt_assets, get_asset_key_for_model\n")
edit(assets, "from .constants import dbt_manifest_path\n",
     "from .constants import dbt_manifest_path, dbt_project_dir\n\n"
     'duckdb_database_path = dbt_project_dir.joinpath("tutorial.duckdb")\n')

# %% assets.py: the asset customers, at the end of the file
from pathlib import Path
assets = Path("/home/user/dbt-dagster-proj/jaffle_shop/jaffle_shop_dagster/jaffle_shop_dagster/assets.py")
CUSTOMERS = '''

@asset(
    compute_kind="python",
    deps=[get_asset_key_for_model([jaffle_shop_dbt_assets], model)
          for model in ("stg_customers", "stg_orders", "stg_payments")],
)
def customers(context: AssetExecutionContext) -> pd.DataFrame:
    """One row per customer: first and most recent order, number of orders, lifetime value."""
    connection = duckdb.connect(os.fspath(duckdb_database_path))
    table = connection.sql("""
        with customer_orders as (
            select customer_id,
                   min(order_date) as first_order,
                   max(order_date) as most_recent_order,
                   count(order_id) as number_of_orders
            from stg_orders
            group by customer_id
        ),
        customer_payments as (
            select stg_orders.customer_id, sum(stg_payments.amount) as total_amount
            from stg_payments
            left join stg_orders on stg_payments.order_id = stg_orders.order_id
            group by stg_orders.customer_id
        )
        select stg_customers.customer_id,
               stg_customers.first_name,
               stg_customers.last_name,
               customer_orders.first_order,
               customer_orders.most_recent_order,
               customer_orders.number_of_orders,
               customer_payments.total_amount as customer_lifetime_value
        from stg_customers
        left join customer_orders on stg_customers.customer_id = customer_orders.customer_id
        left join customer_payments on stg_customers.customer_id = customer_payments.customer_id
    """).df()
    connection.close()
    context.add_output_metadata({"num_rows": len(table)})
    return table
'''
assets.write_text(assets.read_text().rstrip() + "\n" + CUSTOMERS)
print(assets.read_text())

# %% definitions.py: register customers beside the dbt assets
from pathlib import Path
from dbt_cli import edit
definitions = Path("/home/user/dbt-dagster-proj/jaffle_shop/jaffle_shop_dagster/jaffle_shop_dagster/definitions.py")
edit(definitions, "from .assets import jaffle_shop_dbt_assets\n", "from .assets import customers, jaffle_shop_dbt_assets\n")
edit(definitions, "assets=[jaffle_shop_dbt_assets],", "assets=[jaffle_shop_dbt_assets, customers],")
print(definitions.read_text())

# %% in Chromium: the asset lineage, "Reload definitions", and wait until the page shows the asset customers ("Materialize all" materializes what the page has loaded)
from dagster_assets import reload_until
from dagster_ui import click
from desktop import focus
focus("Chromium")
click("Lineage")
reload_until("customers")
time.sleep(1)

# %% materialize all assets (the dbt models, then customers)
from dagster_ui import click
click("Materialize all")
time.sleep(2)

# %% wait until the run has finished (dbt first builds and tests every model, which can take minutes: this cell and the next two wait up to 80 s each)
from dagster_ui import wait_runs_done
print(wait_runs_done(1, timeout=80, required=False))

# %% wait until the run has finished (continued)
from dagster_ui import wait_runs_done
print(wait_runs_done(1, timeout=80, required=False))

# %% wait until the run has finished (continued: it must be over now)
from dagster_ui import wait_runs_done
print(wait_runs_done(1, timeout=80))

# %%
DONE
