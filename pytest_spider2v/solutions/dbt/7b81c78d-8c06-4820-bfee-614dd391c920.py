# Snapshot the orders of ~/projects/analytics with the timestamp strategy into
# analytics.snapshots.orders_snapshot, then replace the stale seed raw_orders.csv with the one on
# the Desktop and take a second snapshot that records the changed orders. The orders model keys
# on order_id and exposes the order date as updated_at, which is what the strategy compares.
# %% configure the snapshot: schema snapshots, key order_id, timestamp strategy on updated_at
from dbt_cli import edit, project
edit(project("analytics") / "snapshots/orders_snapshot.sql", "    config(\n", """\
    config(
      target_schema='snapshots',
      unique_key='order_id',
      strategy='timestamp',
      updated_at='updated_at'
""")

# %% load the seeds
from dbt_cli import dbt, project
dbt(project("analytics"), "seed")

# %% build the models
from dbt_cli import dbt, project
dbt(project("analytics"), "run")

# %% the first snapshot
from dbt_cli import dbt, project
dbt(project("analytics"), "snapshot")

# %% the up-to-date raw_orders.csv from the Desktop replaces the stale seed
import shutil
from pathlib import Path
shutil.move(Path.home() / "Desktop/raw_orders.csv", Path.home() / "projects/analytics/seeds/raw_orders.csv")

# %% reload the seeds
from dbt_cli import dbt, project
dbt(project("analytics"), "seed")

# %% rebuild the models
from dbt_cli import dbt, project
dbt(project("analytics"), "run")

# %% the second snapshot records the changes
from dbt_cli import dbt, project
dbt(project("analytics"), "snapshot")
