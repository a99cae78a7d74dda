# Split the customers model of ~/projects/jaffle_shop: its CTEs "customers" and "orders" become
# the staged models stg_customers and stg_orders (their files exist, empty), and customers.sql
# selects from them with ref(), so that dbt builds the three models in order.
# %% move each CTE's query into its staged model and ref() it from customers.sql
from dbt_cli import edit, project, write
models = project("jaffle_shop") / "models"
for cte, model in (("customers", "stg_customers"), ("orders", "stg_orders")):
    text = (models / "customers.sql").read_text()
    start = text.index(f"{cte} as (") + len(f"{cte} as (")
    query = text[start:text.index("\n)", start)]
    write(models / f"{model}.sql", query.strip("\n").rstrip() + "\n")
    edit(models / "customers.sql", query, f"\n\n    select * from {{{{ ref('{model}') }}}}\n\n")
print((models / "customers.sql").read_text())

# %% dbt run
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "run")
