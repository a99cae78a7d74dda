# The instruction alone: the steps of the verbose twin 8a09d205 (a Dagster asset "customers" after
# the dbt project jaffle_shop, materialized in the Dagster UI), with the columns this instruction
# gives. It points at jaffle_shop/customers_schema.yml (not at ~/dbt-dagster-project/..., as it
# says), which names the lifetime value total_order_amount; the table the check compares with
# calls it customer_lifetime_value, a name only the twin's tutorial gives. So this scores 0: the
# task is on the errata list (instruction_contradicts_evaluator), and --validate expects exactly that.
# %% based-on: 8a09d205-3f9c-44bc-b6d2-32f7ca518a5b.py
# %% insert-after 2: assets.py: the lifetime value under the schema's name, total_order_amount
from pathlib import Path
from dbt_cli import edit
assets = Path("/home/user/dbt-dagster-proj/jaffle_shop/jaffle_shop_dagster/jaffle_shop_dagster/assets.py")
edit(assets, "customer_payments.total_amount as customer_lifetime_value",
     "customer_payments.total_amount as total_order_amount")
