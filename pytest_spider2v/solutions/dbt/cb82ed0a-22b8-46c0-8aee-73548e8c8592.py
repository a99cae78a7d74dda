# Declare freshness for the source table "orders" of ~/projects/analytics: an error once it is more
# than 5 hours old. models/schema.yml declares the source "analytics" but no tables; the orders
# model stamps every row with CURRENT_TIMESTAMP as run_at, so run_at is when its data was loaded.
# %% the orders table of source analytics, loaded at run_at, an error after 5 hours
from dbt_cli import edit, project
schema = project("analytics") / "models/schema.yml"
edit(schema, "    database: analytics\n", """\
    database: analytics
    tables:
      - name: orders
        loaded_at_field: run_at
        freshness:
          error_after: {count: 5, period: hour}
""")
print(schema.read_text())

# %% rebuild the models, so that orders is loaded now
from dbt_cli import dbt, project
dbt(project("analytics"), "run")

# %% check the declaration: the source is fresh right after the run
from dbt_cli import dbt, project
dbt(project("analytics"), "source", "freshness")
