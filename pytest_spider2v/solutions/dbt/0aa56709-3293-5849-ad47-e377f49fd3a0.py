# Describe the jaffle_shop models in models/schema.yml as description.md asks, then generate the
# documentation and serve it on port 8020. schema.yml marks each place for a description with a
# numbered comment (# 1 .. # 7); description.md gives the three model descriptions, "Primary key"
# for each model's key column and the text for customers.first_order_date.
# %% fill in the seven descriptions in models/schema.yml
from dbt_cli import edit, project
schema = project("jaffle_shop") / "models/schema.yml"
for mark, text in [("# 1", "One record per customer"), ("# 2", "Primary key"),
                   ("# 3", "NULL when a customer has not yet placed an order."),
                   ("# 4", "This model cleans up customer data"), ("# 5", "Primary key"),
                   ("# 6", "This model cleans up order data"), ("# 7", "Primary key")]:
    edit(schema, f"description: {mark}", f"description: {text}")
print(schema.read_text())

# %% dbt docs generate
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "docs", "generate")

# %% dbt docs serve --port 8020, left running
from dbt_cli import project, serve_docs
serve_docs(project("jaffle_shop"), 8020)
