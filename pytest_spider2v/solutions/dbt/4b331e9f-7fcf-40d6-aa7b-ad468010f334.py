# The snapshot orders_snapshot of ~/projects/analytics selects from source('analytics', 'orders'),
# which models/schema.yml does not declare. The orders model builds that table in the profile's
# schema, analytics, so the source is that schema's orders table. Then rebuild the project: seeds
# and models first (dbt does not order the snapshot after the model behind its source, so not in
# one `dbt build`), then the snapshot.
# %% declare the source analytics (schema analytics) with its table orders
from dbt_cli import project
schema = project("analytics") / "models/schema.yml"
text = schema.read_text().rstrip()
schema.write_text(text + """

sources:
  - name: analytics
    schema: analytics
    tables:
      - name: orders
""")
print(schema.read_text())

# %% load the seeds
from dbt_cli import dbt, project
dbt(project("analytics"), "seed")

# %% build the models
from dbt_cli import dbt, project
dbt(project("analytics"), "run")

# %% dbt snapshot now runs
from dbt_cli import dbt, project
dbt(project("analytics"), "snapshot")
